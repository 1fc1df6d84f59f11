/* libFuzzer target: the unified diff reader (codefix/patch.h) and fingerprints built from what
 * it accepts.  Any bytes give a parsed patch or KCVE_E_PARSE; an accepted patch's fingerprint
 * survives its serialised form unchanged, and every hunk can be matched against the input
 * itself read as a source file. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codefix/fprint.h"
#include "codefix/match.h"
#include "codefix/patch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cf_patch p;
	struct kcve_err e = {0};
	int rc = cf_patch_parse(&p, (const char *)data, size, "fuzz", &e);
	if (rc) {
		if (e.code != KCVE_E_PARSE)
			abort();
		cf_patch_release(&p);
		return 0;
	}
	struct cf_set s;
	cf_set_init(&s);
	cf_set_add_patch(&s, "CVE-2099-0001", "patch", &p);
	cf_patch_release(&p);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	cf_set_encode(&s, &a);
	struct cf_set d;
	if (cf_set_decode(&d, a.buf, a.len, "fuzz", &e) != 0)
		abort();
	cf_set_encode(&d, &b);
	if (a.len != b.len || memcmp(a.buf, b.buf, a.len))
		abort();
	struct cf_src src;
	cf_src_build(&src, (const char *)data, size);
	const struct cf_fp *fp = &d.v[0];
	for (uint32_t j = 0; j < fp->n; j++)
		for (uint32_t k = 0; k < fp->f[j].n; k++) {
			struct cf_hres r;
			cf_match_hunk(&d, &fp->f[j].h[k], &src, &r);
			if (r.state > CF_H_MISSING)
				abort();
		}
	cf_src_release(&src);
	sb_release(&a);
	sb_release(&b);
	cf_set_release(&d);
	cf_set_release(&s);
	return 0;
}
