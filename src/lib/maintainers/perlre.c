#define PCRE2_CODE_UNIT_WIDTH 8
#include "maintainers/perlre.h"

#include <pcre2.h>
#include <stdio.h>

#include "core/xalloc.h"
#include "core/text.h"

struct perlre {
	pcre2_code *code;
	pcre2_match_data *md;     /* one per regex: the matcher is single-threaded */
	pcre2_match_context *mc;  /* carries the backtracking limits */
};

struct perlre *perlre_compile(const char *pattern, unsigned flags, char *errbuf, size_t errlen)
{
	uint32_t opts = 0;
	if (flags & PERLRE_EXTENDED)
		opts |= PCRE2_EXTENDED;
	if (flags & PERLRE_DOTALL)
		opts |= PCRE2_DOTALL;
	if (flags & PERLRE_CASELESS)
		opts |= PCRE2_CASELESS;
	if (flags & PERLRE_ANCHORED)
		opts |= PCRE2_ANCHORED;
	int ec;
	PCRE2_SIZE eo;
	pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, opts, &ec, &eo,
	                                 NULL);
	if (!code) {
		if (errbuf && errlen) {
			PCRE2_UCHAR msg[160];
			pcre2_get_error_message(ec, msg, sizeof(msg));
			text_snprintf(errbuf, errlen, "%s at offset %zu", (const char *)msg, (size_t)eo);
		}
		return NULL;
	}
	/* JIT is an optimisation only; interpretive matching gives the same answers. */
	(void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);
	struct perlre *re = xcalloc(1, sizeof(*re));
	re->code = code;
	re->md = pcre2_match_data_create_from_pattern(code, NULL);
	re->mc = pcre2_match_context_create(NULL);
	if (!re->md || !re->mc) {
		perlre_free(re);
		return NULL;
	}
	pcre2_set_match_limit(re->mc, 1000000);
	pcre2_set_depth_limit(re->mc, 10000);
	return re;
}

void perlre_free(struct perlre *re)
{
	if (!re)
		return;
	pcre2_match_data_free(re->md);
	pcre2_match_context_free(re->mc);
	pcre2_code_free(re->code);
	free(re);
}

bool perlre_search(const struct perlre *re, const char *s, size_t len, size_t start, size_t *ovec,
                   size_t novec)
{
	if (start > len)
		return false;
	int rc = pcre2_match(re->code, (PCRE2_SPTR)s, len, start, 0, re->md, re->mc);
	if (rc < 0)
		return false;
	if (ovec && novec) {
		PCRE2_SIZE *v = pcre2_get_ovector_pointer(re->md);
		size_t have = 2 * (size_t)pcre2_get_ovector_count(re->md);
		for (size_t i = 0; i < novec; i++)
			ovec[i] = i < have && i < 2 * (size_t)rc ? (size_t)v[i] : SIZE_MAX;
	}
	return true;
}
