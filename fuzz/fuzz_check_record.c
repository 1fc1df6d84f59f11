/* libFuzzer target: the check record reader (check/records/record.c: CVE JSON 5 -> products,
 * programFiles, metrics) plus .dyad pairs, and both version readings on the result.
 * Input: JSON text, optionally followed by "\n@@DYAD\n" and .dyad text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/records/record.h"
#include "check/verdict/verdict.h"
#include "core/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	char *dyad = strstr(text, "\n@@DYAD\n");
	size_t jlen = size;
	if (dyad) {
		jlen = (size_t)(dyad - text);
		*dyad = '\0';
		dyad += 8;
	}
	struct ck_record r;
	struct kcve_err e = {0};
	if (ck_record_parse_json(&r, text, jlen, "fuzz", &e) == 0) {
		if (dyad) {
			(void)dyad_parse(dyad, &r.dyad);
			ck_record_link_pairs(&r);
		}
		const char *vers[] = {"0", "2.6.36", "5.4.10", "6.1", "6.1.107", "6.9-rc3", "2.6.32.12"};
		for (size_t i = 0; i < sizeof vers / sizeof *vers; i++) {
			struct kver v;
			kver_parse(&v, vers[i]);
			/* compiled and plain readings must agree (the plain ones know no -rc rule) */
			if (!v.rc && (ck_record_dyad_verdict(&r, &v, NULL) != ck_dyad_verdict(&r.pairs, &v) ||
				      ck_record_semver_verdict(&r, &v) != ck_semver_verdict(&r, &v)))
				abort();
			char fix[32];
			(void)ck_branch_fix(&r, &v, CK_READ_JSON, fix, sizeof fix);
		}
		char sub[96];
		(void)ck_record_subsystem(&r, sub, sizeof sub);
		ck_record_release(&r);
	} else if (e.code != KCVE_E_PARSE) {
		abort();
	}
	free(text);
	return 0;
}
