/* What changed for one kernel between two record sets (see delta.h). */
#include "check/verdict/delta.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/assert.h"
#include "core/cveid.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "core/kjson.h"
#include "core/text.h"

static const char *const kind_names[3] = {"added", "removed", "changed"};

const char *ck_delta_kind_name(enum ck_delta_kind k)
{
	return (unsigned)k < 3 ? kind_names[k] : "?";
}

/* The records of a set ordered by id, for lookups by id (the set is ordered by year and
 * number, which is not string order). */
struct by_id {
	const struct ck_set *s;
	size_t *ix;
};

static const struct ck_set *sort_set;

static int cmp_ix(const void *a, const void *b)
{
	return cveid_cmp(sort_set->v[*(const size_t *)a].id, sort_set->v[*(const size_t *)b].id);
}

static void by_id_build(struct by_id *b, const struct ck_set *s)
{
	b->s = s;
	b->ix = xcalloc(s->n + 1, sizeof *b->ix);
	for (size_t i = 0; i < s->n; i++)
		b->ix[i] = i;
	sort_set = s;
	qsort(b->ix, s->n, sizeof *b->ix, cmp_ix);
	sort_set = NULL;
}

/* Index of the record with this id, or (size_t)-1. */
static size_t by_id_find(const struct by_id *b, const char *id)
{
	size_t lo = 0, hi = b->s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cveid_cmp(b->s->v[b->ix[mid]].id, id);
		if (c == 0)
			return b->ix[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (size_t)-1;
}

static void push(struct ck_delta *d, enum ck_delta_kind k, const char *id, bool rejected,
		 const char *why)
{
	XGROW(d->v, d->n + 1, d->alloc);
	struct ck_delta_entry *e = &d->v[d->n++];
	memset(e, 0, sizeof *e);
	text_snprintf(e->id, sizeof e->id, "%s", id);
	e->kind = (unsigned char)k;
	e->rejected = rejected;
	text_snprintf(e->why, sizeof e->why, "%s", why);
	d->count[k]++;
}

static bool same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* What changed in a record that applies with both sets ("" when nothing that matters). */
static void what_changed(const struct ck_record *o, const struct ck_entry *oe,
			 const struct ck_record *n, const struct ck_entry *ne, struct strbuf *sb)
{
	if (o->score10 != n->score10 || !same_str(o->cvss31, n->cvss31) ||
	    !same_str(o->severity, n->severity)) {
		char a[16] = "none", b[16] = "none";
		if (o->score10)
			text_snprintf(a, sizeof a, "%u.%u", o->score10 / 10, o->score10 % 10);
		if (n->score10)
			text_snprintf(b, sizeof b, "%u.%u", n->score10 / 10, n->score10 % 10);
		sb_addf(sb, "%sscore %s -> %s%s", sb->len ? "; " : "", a, b,
			o->score10 == n->score10 ? " (vector or severity changed)" : "");
	}
	bool fixes = o->nfixes != n->nfixes;
	for (size_t i = 0; !fixes && i < n->nfixes; i++)
		fixes = strcmp(o->fixes[i], n->fixes[i]) != 0;
	if (fixes)
		sb_addf(sb, "%sfix commits %zu -> %zu", sb->len ? "; " : "", o->nfixes, n->nfixes);
	if (strcmp(oe->fixed_in, ne->fixed_in))
		sb_addf(sb, "%sfixed on the branch in %s -> %s", sb->len ? "; " : "",
			oe->fixed_in[0] ? oe->fixed_in : "none", ne->fixed_in[0] ? ne->fixed_in : "none");
	if (!same_str(o->title, n->title))
		sb_addf(sb, "%stitle changed", sb->len ? "; " : "");
}

static bool rejected_in(const char *root, const char *id)
{
	if (!root || strlen(id) < 9)
		return false;
	char p[4096];
	struct stat st;
	text_snprintf(p, sizeof p, "%s/cve/rejected/%.4s/%s.json", root, id + 4, id);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct ck_delta_entry *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return cveid_cmp(x->id, y->id);
}

/* A record of the current set against the same CVE with OLD (oe NULL when OLD lacks it). */
static void compare_one(const struct ck_set *old_s, const struct ck_result *old_r,
			const struct ck_entry *oe, const struct ck_set *new_s,
			const struct ck_result *new_r, const struct ck_entry *ne, struct ck_delta *d)
{
	const struct ck_record *n = &new_s->v[ne->rec];
	bool nk = ck_outcome_kept(ne->outcome), ok = oe && ck_outcome_kept(oe->outcome);
	char rb[256], why[200];
	struct strbuf sb = STRBUF_INIT;
	if (nk && !oe) {
		push(d, CK_DELTA_ADDED, n->id, false, "new record");
	} else if (nk && !ok) {
		text_snprintf(why, sizeof why, "the record's range or fix changed: was %s (%s)",
			 ck_outcome_name(oe->outcome), ck_entry_reason(old_s, old_r, oe, rb, sizeof rb));
		push(d, CK_DELTA_ADDED, n->id, false, why);
	} else if (!nk && ok) {
		const char *w = ne->outcome == CK_OUT_FIXED ? "fixed in this release (the record's "
							      "range changed)"
				: ne->outcome == CK_OUT_NOT_INTRODUCED ? "not introduced in this release "
									 "(the record's range changed)"
				: "no longer compiled";
		text_snprintf(why, sizeof why, "%s: %s", w, ck_entry_reason(new_s, new_r, ne, rb, sizeof rb));
		push(d, CK_DELTA_REMOVED, n->id, false, why);
	} else if (nk && ok) {
		what_changed(&old_s->v[oe->rec], oe, n, ne, &sb);
		if (sb.len)
			push(d, CK_DELTA_CHANGED, n->id, false, sb_str(&sb));
	}
	sb_release(&sb);
}

void ck_delta_compute(const struct ck_set *old_s, const struct ck_result *old_r,
		      const struct ck_set *new_s, const struct ck_result *new_r,
		      const char *rejected_root, struct ck_delta *out)
{
	memset(out, 0, sizeof *out);
	struct by_id ob, nb;
	by_id_build(&ob, old_s);
	by_id_build(&nb, new_s);
	for (size_t i = 0; i < new_r->n; i++) {
		const struct ck_entry *ne = &new_r->e[i];
		size_t j = by_id_find(&ob, new_s->v[ne->rec].id);
		const struct ck_entry *oe = j < old_r->n ? &old_r->e[j] : NULL;
		KCVE_ASSERT(!oe || oe->rec == j); /* one entry per record, in the set's order */
		compare_one(old_s, old_r, oe, new_s, new_r, ne, out);
	}
	for (size_t j = 0; j < old_r->n; j++) {
		const struct ck_entry *oe = &old_r->e[j];
		const char *id = old_s->v[oe->rec].id;
		if (!ck_outcome_kept(oe->outcome) || by_id_find(&nb, id) != (size_t)-1)
			continue;
		push(out, CK_DELTA_REMOVED, id, true,
		     rejected_in(rejected_root, id) ? "rejected: the CNA withdrew this CVE"
						     : "no longer published: the record is gone");
	}
	free(ob.ix);
	free(nb.ix);
	if (out->n)
		qsort(out->v, out->n, sizeof *out->v, cmp_entry);
}

int ck_delta_load_old(const char *old, struct ck_set *out, struct kcve_err *err)
{
	struct stat st;
	memset(out, 0, sizeof *out);
	if (stat(old, &st) != 0)
		return kcve_err_set(err, KCVE_E_IO, "--since %s: no such record tree or database; "
				    "give the older record tree or 'kcve db build' file", old);
	if (!S_ISDIR(st.st_mode))
		return ck_set_load_db(out, old, err);
	struct kcve_err e2 = {0};
	char *root = ck_tree_find(old, &e2);
	if (!root)
		return kcve_err_set(err, KCVE_E_USAGE, "--since %s: not a record tree (no "
				    "cve/published); give the older record tree or database", old);
	int rc = ck_set_load_tree(out, root, err);
	free(root);
	return rc;
}

void ck_delta_release(struct ck_delta *d)
{
	free(d->v);
	memset(d, 0, sizeof *d);
}

json_t *ck_delta_json(const struct ck_delta *d, const char *since)
{
	json_t *o = json_object(), *lists[3];
	json_object_set_new(o, "since", kj_str(since ? since : ""));
	for (int k = 0; k < 3; k++) {
		lists[k] = json_array();
		json_object_set_new(o, kind_names[k], lists[k]);
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct ck_delta_entry *e = &d->v[i];
		json_t *x = kj_pack("{s:s, s:s}", "id", e->id, "why", e->why);
		if (e->rejected)
			json_object_set_new(x, "withdrawn", json_true());
		json_array_append_new(lists[e->kind], x);
	}
	return o;
}

void ck_delta_print(FILE *f, const struct ck_delta *d, const char *label, const char *since)
{
	fprint_display(f, "%s: since %s: %zu added, %zu removed, %zu changed\n", label, since,
		       d->count[CK_DELTA_ADDED], d->count[CK_DELTA_REMOVED], d->count[CK_DELTA_CHANGED]);
	static const char mark[3] = {'+', '-', '~'};
	for (size_t i = 0; i < d->n; i++) /* reasons quote records, makefiles, tree paths */
		fprint_display(f, "  %c %-16s %s\n", mark[d->v[i].kind], d->v[i].id, d->v[i].why);
	fputc('\n', f);
}
