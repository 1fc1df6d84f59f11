/* libFuzzer target: the previous OpenVEX document of a revision (check --since-vex FILE,
 * check/emit/vex.c ck_openvex_parse) and the revision made from it (ck_openvex_document: statements
 * matched by key, timestamps kept or renewed, withdrawn statements carried). Input: the previous
 * document's text. Invariants: a refused document is KCVE_E_PARSE; an accepted one gives a
 * revision with its @id, its version + 1 and a timestamp on every statement. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/emit/vex.h"
#include "check/verdict/check.h"
#include "core/xalloc.h"

static const char *const REC[2] = {
	"{\"cveMetadata\":{\"cveId\":\"CVE-2024-0001\"},\"containers\":{\"cna\":{\"title\":\"a\","
	"\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux\",\"defaultStatus\":\"affected\","
	"\"versions\":[{\"version\":\"0\",\"lessThan\":\"5.10\",\"status\":\"unaffected\","
	"\"versionType\":\"semver\"}]}]}}}",
	"{\"cveMetadata\":{\"cveId\":\"CVE-2024-0002\"},\"containers\":{\"cna\":{\"title\":\"b\","
	"\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux\",\"defaultStatus\":\"affected\","
	"\"versions\":[{\"version\":\"6.1.3\",\"lessThanOrEqual\":\"6.1.*\",\"status\":"
	"\"unaffected\",\"versionType\":\"semver\"}]}]}}}",
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *prev;
	struct kcve_err e = {0};
	int rc = ck_openvex_parse((const char *)data, size, "fuzz", &prev, &e);
	if (rc) {
		if (rc != KCVE_E_PARSE)
			abort();
		return 0;
	}
	struct ck_set s;
	memset(&s, 0, sizeof s);
	s.v = xcalloc(3, sizeof *s.v);
	static const char *const ids[2] = {"CVE-2024-0001", "CVE-2024-0002"};
	for (size_t i = 0; i < 2; i++)
		if (ck_record_parse_json(&s.v[s.n], REC[i], strlen(REC[i]), ids[i], &e) == 0)
			s.n++;
	struct ck_result r;
	memset(&r, 0, sizeof r);
	ck_run_version(&s, "6.1.5", CK_READ_JSON, &r);
	struct ck_vex_since since = {.prev = prev, .label = "old"};
	struct ck_vex_opts o = {.author = "Fuzz <f@example.org>", .since = &since};
	json_t *doc = ck_openvex_document(&s, &r, 1, &o, 1700000000);
	if (json_integer_value(json_object_get(doc, "version")) !=
	    json_integer_value(json_object_get(prev, "version")) + 1 ||
	    !json_equal(json_object_get(doc, "@id"), json_object_get(prev, "@id")))
		abort();
	size_t i;
	json_t *st;
	json_array_foreach(json_object_get(doc, "statements"), i, st)
		if (!json_is_string(json_object_get(st, "timestamp")))
			abort();
	json_decref(doc);
	json_decref(prev);
	ck_result_release(&r);
	ck_set_release(&s);
	return 0;
}
