/* libFuzzer target: the compact check database loader (check/records/db.c). Any byte string must give
 * either a loaded set whose verdict functions run cleanly, or a KCVE_E_PARSE error.
 * First byte even: the whole file image (header, zlib, checksum); odd: bytes 1-2 are the
 * record count and flags and the rest is an inflated payload, so the fuzzer reaches the record
 * decoder without having to forge CRCs. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/records/recset.h"
#include "check/verdict/check.h"
#include "check/verdict/verdict.h"
#include "core/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_set s;
	struct kcve_err e = {0};
	int rc;
	if (size >= 3 && (data[0] & 1)) {
		memset(&s, 0, sizeof s);
		s.origin = xstrdup("fuzz");
		s.blob = xmalloc(size - 3 + 1);
		memcpy(s.blob, data + 3, size - 3);
		s.blob_len = size - 3;
		rc = ck_db_parse_payload(&s, data[1], data[2] & 63, &e);
	} else {
		rc = ck_db_parse(&s, size ? data + 1 : data, size ? size - 1 : 0, "fuzz", &e);
	}
	if (rc == 0) {
		struct ck_result r;
		ck_run_version(&s, "6.1.50", CK_READ_JSON, &r);
		ck_compute_fixed_in(&s, &r);
		char buf[256];
		for (size_t i = 0; i < r.n; i++)
			ck_entry_reason(&s, &r, &r.e[i], buf, sizeof buf);
		ck_result_release(&r);
		if (s.nconds)
			(void)ck_set_condition(&s, s.conds[0].path);
	} else if (e.code != KCVE_E_PARSE) {
		abort();
	}
	ck_set_release(&s);
	return 0;
}
