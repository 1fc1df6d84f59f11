/* libFuzzer target: the fingerprint loader (codefix/fprint.h, the database's fingerprint
 * section).  Any bytes give a loaded set or KCVE_E_PARSE; a loaded set re-serialises to a form
 * that loads again, and each of its hunks can be matched against the input read as a source
 * file and combined into a verdict. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codefix/fprint.h"
#include "codefix/match.h"
#include "core/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cf_set s;
	struct kcve_err e = {0};
	if (cf_set_decode(&s, data, size, "fuzz", &e) != 0) {
		if (e.code != KCVE_E_PARSE)
			abort();
		cf_set_release(&s);
		return 0;
	}
	struct strbuf a = STRBUF_INIT;
	cf_set_encode(&s, &a);
	struct cf_set d;
	if (cf_set_decode(&d, a.buf, a.len, "fuzz", &e) != 0 || d.n != s.n || d.nlines != s.nlines)
		abort();
	cf_set_release(&d);
	sb_release(&a);
	struct cf_src src;
	cf_src_build(&src, (const char *)data, size);
	for (size_t i = 0; i < s.n; i++) {
		const struct cf_fp *fp = &s.v[i];
		size_t n = 0;
		for (uint32_t j = 0; j < fp->n; j++)
			n += fp->f[j].n;
		struct cf_hres *hr = xcalloc(n + 1, sizeof *hr);
		size_t at = 0;
		for (uint32_t j = 0; j < fp->n; j++)
			for (uint32_t k = 0; k < fp->f[j].n; k++)
				cf_match_hunk(&s, &fp->f[j].h[k], &src, &hr[at++]);
		struct cf_result r = {0};
		cf_result_decide(&r, hr, n);
		if (r.verdict > CF_PARTIAL || r.found > r.hunks)
			abort();
		free(hr);
	}
	cf_src_release(&src);
	cf_set_release(&s);
	return 0;
}
