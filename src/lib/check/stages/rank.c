/* The ranking rule (see rank.h). */
#include "check/stages/rank.h"

#include <stdlib.h>

#include "check/inputs/kev.h"
#include "core/cveid.h"

/* 0 reachable now, 1 modules not loaded, 2 modules blacklisted */
static int exposure(const struct ck_entry *e)
{
	if (e->mitigation == CK_MIT_BLACKLIST)
		return 2;
	return e->module == CK_MOD_NOT_LOADED ? 1 : 0;
}

int ck_rank_cmp(const struct ck_set *s, const struct ck_entry *a, const struct ck_entry *b)
{
	if (a->kev != b->kev)
		return a->kev ? -1 : 1;
	int xa = exposure(a), xb = exposure(b);
	if (xa != xb)
		return xa - xb;
	bool aa = a->outcome == CK_OUT_AFFECTED, ab = b->outcome == CK_OUT_AFFECTED;
	if (aa != ab)
		return aa ? -1 : 1;
	if (a->has_epss != b->has_epss)
		return a->has_epss ? -1 : 1;
	if (a->has_epss && a->epss != b->epss)
		return a->epss > b->epss ? -1 : 1;
	unsigned sa = s->v[a->rec].score10, sb = s->v[b->rec].score10;
	if (sa != sb)
		return sa > sb ? -1 : 1;
	int c = cveid_cmp(s->v[a->rec].id, s->v[b->rec].id);
	if (c)
		return c;
	return a->rec < b->rec ? -1 : a->rec > b->rec; /* two records with one id: set order */
}

struct rank_ctx {
	const struct ck_set *s;
	const struct ck_result *R;
};

static int order_cmp(const void *x, const void *y, void *arg)
{
	const struct rank_ctx *c = arg;
	return ck_rank_cmp(c->s, &c->R->e[*(const size_t *)x], &c->R->e[*(const size_t *)y]);
}

size_t ck_rank_order(const struct ck_set *s, const struct ck_result *R, size_t *order)
{
	size_t n = 0;
	for (size_t i = 0; i < R->n; i++)
		if (ck_outcome_kept(R->e[i].outcome))
			order[n++] = i;
	struct rank_ctx ctx = {s, R};
	if (n)
		qsort_r(order, n, sizeof *order, order_cmp, &ctx);
	return n;
}
