#include "check/verdict/upgrade.h"

#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/cveid.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "core/text.h"

int ck_previous_release(const char *rel, char *out, size_t outsz, struct kcve_err *err)
{
	struct kver v;
	kver_parse(&v, rel);
	bool old = v.ncomp >= 1 && v.comp[0] == 2;
	int base = old ? 3 : 2; /* components of a mainline release */
	if (v.rc || v.ncomp < base || v.ncomp > base + 1)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "--fixed-by %s: give a release (6.1.50, 6.2, 2.6.32.5), not an -rc", rel);
	if (v.ncomp == base + 1) { /* stable: the previous stable release, or the mainline one */
		unsigned z = v.comp[base];
		if (old && z > 1)
			text_snprintf(out, outsz, "2.%u.%u.%u", v.comp[1], v.comp[2], z - 1);
		else if (old)
			text_snprintf(out, outsz, "2.%u.%u", v.comp[1], v.comp[2]);
		else if (z > 1)
			text_snprintf(out, outsz, "%u.%u.%u", v.comp[0], v.comp[1], z - 1);
		else
			text_snprintf(out, outsz, "%u.%u", v.comp[0], v.comp[1]);
		return 0;
	}
	if (old) {
		if (v.comp[2] <= 12) /* git history starts at 2.6.12 */
			return kcve_err_set(err, KCVE_E_USAGE, "--fixed-by %s: no earlier release in git", rel);
		text_snprintf(out, outsz, "2.6.%u", v.comp[2] - 1);
		return 0;
	}
	if (v.comp[1] > 0) {
		text_snprintf(out, outsz, "%u.%u", v.comp[0], v.comp[1] - 1);
		return 0;
	}
	/* the last release of the previous major: 2.6.39, 3.19, 4.20, 5.19, 6.19 */
	static const char *const last[] = {NULL, NULL, NULL, "2.6.39", "3.19", "4.20", "5.19", "6.19"};
	if (v.comp[0] >= sizeof last / sizeof *last || !last[v.comp[0]])
		return kcve_err_set(err, KCVE_E_USAGE,
				    "--fixed-by %s: the release before it is not known; use --fixed-between", rel);
	text_snprintf(out, outsz, "%s", last[v.comp[0]]);
	return 0;
}

static int sev_rank(const char *s)
{
	static const char *const names[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"};
	for (int i = 0; i < 4; i++)
		if (s && strcasecmp(s, names[i]) == 0)
			return i;
	return 4;
}

static int cmp_row(const void *a, const void *b)
{
	const struct ck_fixed_row *x = a, *y = b;
	if (x->sev != y->sev)
		return x->sev - y->sev;
	return cveid_cmp(x->r->id, y->r->id);
}

int ck_fixed_order(const char *v1, const char *v2, struct kcve_err *err)
{
	if (kver_cmp_str(v1, v2) >= 0)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "--fixed-between %s %s: the first release must be the older one", v1, v2);
	return 0;
}

void ck_fixed_between(struct ck_fixed *fx, const struct ck_set *s, const struct ck_result *a,
		      const struct ck_result *b)
{
	KCVE_ASSERT(a->n == s->n && b->n == s->n);
	memset(fx, 0, sizeof *fx);
	fx->from = a->release;
	fx->to = b->release;
	fx->a = a;
	fx->b = b;
	fx->rows = xcalloc(s->n + 1, sizeof *fx->rows);
	for (size_t i = 0; i < s->n; i++) {
		KCVE_ASSERT(a->e[i].rec == i && b->e[i].rec == i);
		if (!ck_outcome_kept(a->e[i].outcome) || ck_outcome_kept(b->e[i].outcome))
			continue;
		struct ck_fixed_row *row = &fx->rows[fx->n++];
		row->r = &s->v[i];
		row->sev = sev_rank(s->v[i].severity);
		fx->count[row->sev]++;
	}
	qsort(fx->rows, fx->n, sizeof *fx->rows, cmp_row);
}

void ck_fixed_release(struct ck_fixed *fx)
{
	free(fx->rows);
	memset(fx, 0, sizeof *fx);
}
