/* The function-level stage's lookup (check/stages/funclevel.h: ck_fix_funcs_fn) over the fix
 * fingerprints of a record set (s->fprints, codefix/fprint.h): the functions of the version of
 * the fix for the kernel's own branch, or of a patch given for it (read in the --source tree
 * when the fingerprint has no function lists: check/stages/functree.h). */
#include <stdio.h>
#include <string.h>

#include "check/records/recset.h"
#include "check/stages/funclevel.h"
#include "check/stages/functree.h"
#include "codefix/fprint.h"
#include "core/text.h"

/* The fingerprint of cve labelled label, or NULL (s->v sorted by CVE then label). */
static const struct cf_fp *find_fp(const struct cf_set *cs, const char *cve, const char *label)
{
	size_t lo = 0, hi = cs->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(cs->v[mid].cve, cve);
		if (c == 0)
			c = strcmp(cs->v[mid].label, label);
		if (c == 0)
			return &cs->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Does any hunk of fp carry a function list? */
static bool has_funcs(const struct cf_fp *fp)
{
	for (uint32_t i = 0; i < fp->n; i++)
		for (uint32_t j = 0; j < fp->f[i].n; j++)
			if (fp->f[i].h[j].funcs && *fp->f[i].h[j].funcs)
				return true;
	return false;
}

bool ck_fix_funcs_fprints(void *ctx, const struct ck_set *s, const struct ck_record *r,
			  const struct ck_code *code, struct fl_fix *out)
{
	const struct ck_fix_ctx *c = ctx;
	const struct cf_set *cs = s->fprints;
	if (!cs || !c)
		return false;
	/* never the mainline version for a stable kernel: a function renamed since would read
	 * as absent */
	const struct cf_fp *fp = c->branch ? find_fp(cs, r->id, c->branch) : NULL;
	if (!fp)
		fp = find_fp(cs, r->id, "patch");
	if (!fp)
		return false;
	if (!has_funcs(fp)) /* made without the files (--patches): read them in the tree */
		return c->source && ck_fix_funcs_tree(c->source, cs, fp, code, out);
	bool blank = false;
	for (uint32_t i = 0; i < fp->n; i++)
		for (uint32_t j = 0; j < fp->f[i].n; j++) {
			const char *funcs = fp->f[i].h[j].funcs;
			if (funcs && *funcs)
				fl_fix_add_text(out, fp->f[i].path, funcs);
			else
				blank = true;
		}
	/* a hunk without functions: only comments changed, or its files were not available;
	 * either way it may not count towards "all absent" */
	if (blank)
		out->outside = true;
	return true;
}

void ck_fix_branch(const char *release, char *out, size_t n)
{
	const char *dot = release ? strchr(release, '.') : NULL;
	const char *second = dot ? strchr(dot + 1, '.') : NULL;
	if (!second || strstr(release, "-rc"))
		text_snprintf(out, n, "mainline");
	else
		text_snprintf(out, n, "%.*s", (int)(second - release), release);
}
