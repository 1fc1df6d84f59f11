/* The dyad algorithm (docs/spec/dyad.md): where was the fix applied, where did the
 * vulnerability come from, and which vulnerable point pairs with which fix on each branch.
 *
 * The tie-breaks are the anchor's and are load-bearing (the published .dyad files encode
 * them): lists are sorted with a stable sort under the kernel ordering (version, then git
 * ancestry for equal version strings), "first match in sorted order" wins, P2 pairs a
 * mainline fix with every mainline vulnerable point, only the first mainline fix per
 * vulnerable commit survives the filter, and unfixed lines stay last in generation order. */
#include "history/dyad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/history_internal.h"
#include "core/text.h"

/* A release + commit ("Kernel" in the anchor). The empty kernel is "0"/"0". */
struct kern {
	char ver[DYAD_VER_MAX];
	char sha[41];
};

struct kvec {
	struct kern *v;
	size_t n, alloc;
};

struct kpair {
	struct kern vuln, fix;
};

struct pvec {
	struct kpair *v;
	size_t n, alloc;
};

static const struct kern EMPTY_KERNEL = {"0", "0"};

static struct kern mk(const char *ver, const char *sha)
{
	struct kern k;
	text_snprintf(k.ver, sizeof(k.ver), "%s", ver);
	text_snprintf(k.sha, sizeof(k.sha), "%s", sha);
	return k;
}

static void kpush(struct kvec *l, struct kern k)
{
	XGROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = k;
}

static void ppush(struct pvec *l, struct kern v, struct kern f)
{
	XGROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].vuln = v;
	l->v[l->n].fix = f;
	l->n++;
}

static bool kvec_has_sha(const struct kvec *l, const char *sha)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].sha, sha) == 0)
			return true;
	return false;
}

static bool is_mainline(const struct kern *k)
{
	return strcmp(k->sha, "0") != 0 && kver_str_is_mainline(k->ver);
}

/* Kernel ordering: version order; equal version strings fall back to git ancestry (the
 * descendant is greater; unrelated commits report the receiver as greater, like the anchor). */
static int kcmp(struct history *h, const struct kern *a, const struct kern *b)
{
	if (strcmp(a->ver, b->ver) == 0) {
		if (strcmp(a->sha, b->sha) == 0)
			return 0;
		if (strcmp(a->sha, "0") != 0 && strcmp(b->sha, "0") != 0 &&
		    history_descendant_of(h, b->sha, a->sha))
			return -1;
		return 1;
	}
	return kver_cmp_str(a->ver, b->ver);
}

/* Is l in kcmp order? (for the assertion after each sort) */
KCVE_ASSERT_HELPER static bool ksorted(struct history *h, const struct kvec *l)
{
	for (size_t i = 1; i < l->n; i++)
		if (kcmp(h, &l->v[i - 1], &l->v[i]) > 0)
			return false;
	return true;
}

/* Stable insertion sort (the lists are short; stability is what matters). */
static void ksort(struct history *h, struct kvec *l)
{
	for (size_t i = 1; i < l->n; i++) {
		struct kern t = l->v[i];
		size_t j = i;
		while (j > 0 && kcmp(h, &t, &l->v[j - 1]) < 0) {
			l->v[j] = l->v[j - 1];
			j--;
		}
		l->v[j] = t;
	}
	KCVE_ASSERT(ksorted(h, l));
}

/* ---- state --------------------------------------------------------------------------- */

struct found {
	struct kvec kernels;  /* live occurrences, sorted */
	struct pvec reverted; /* (reverted backport, its revert) */
};

struct dstate {
	struct history *h;
	struct kvec fixes;      /* resolved fix commits */
	struct kvec explicit_v; /* --vulnerable commits, CLI order */
	struct kvec fixed_set;
	struct kvec vuln_set;
	struct pvec revert_pairs;
	/* ids added through the de-duplicating adders (the anchor keeps these apart from the
	 * plain pushes, so a plain push never blocks a later de-duplicated add) */
	struct history_shas vuln_ids, revert_vuln_ids;
	struct history_shas scratch;
};

static void found_release(struct found *f)
{
	free(f->kernels.v);
	free(f->reverted.v);
	memset(f, 0, sizeof(*f));
}

static bool add_fixed(struct dstate *s, struct kern k)
{
	if (kvec_has_sha(&s->fixed_set, k.sha))
		return false;
	kpush(&s->fixed_set, k);
	return true;
}

static void add_vuln_dedup(struct dstate *s, struct kern k)
{
	if (history_shas_contains(&s->vuln_ids, k.sha))
		return;
	history_shas_push(&s->vuln_ids, k.sha);
	kpush(&s->vuln_set, k);
}

static void add_revert_pair(struct dstate *s, struct kern b, struct kern rv)
{
	if (history_shas_contains(&s->revert_vuln_ids, b.sha))
		return;
	history_shas_push(&s->revert_vuln_ids, b.sha);
	ppush(&s->revert_pairs, b, rv);
}

/* docs/spec/dyad.md "Where a commit lives": the live occurrences of commit x (its stable backports and x itself), and the
 * backports that were later reverted. Backports already in the fixed set are skipped, as
 * are backports that revert a stable-only commit. */
static void found_in(struct dstate *s, const char *x, const struct kvec *fixed_set,
		     struct found *out)
{
	struct history *h = s->h;
	memset(out, 0, sizeof(*out));
	struct history_shas bp = {0};
	history_backports(h, x, &bp);
	for (size_t i = 0; i < bp.n; i++) {
		const char *id = bp.v[i];
		if (fixed_set && kvec_has_sha(fixed_set, id))
			continue;
		const struct history_commit *c = history_commit(h, id);
		if (!c)
			continue;
		if (c->reverts[0]) {
			const struct history_commit *t = history_commit(h, c->reverts);
			if (t && !t->mainline)
				continue;
		}
		s->scratch.n = 0;
		history_reverted_by(h, id, &s->scratch);
		if (s->scratch.n) {
			for (size_t r = 0; r < s->scratch.n; r++) {
				const char *rel = history_release(h, s->scratch.v[r]);
				ppush(&out->reverted, mk(c->release, id), mk(rel ? rel : "0", s->scratch.v[r]));
			}
		} else {
			kpush(&out->kernels, mk(c->release, id));
		}
	}
	history_shas_release(&bp);
	const struct history_commit *self = history_commit(h, x);
	if (self)
		kpush(&out->kernels, mk(self->release, x));
	ksort(h, &out->kernels);
}

/* Verhaal's Fixes lookup: the commit's Fixes ids that are themselves indexed commits
 * (unresolved, short or foreign ids silently disappear), de-duplicated, sorted. */
static void get_fixes(struct dstate *s, const char *sha, struct kvec *out)
{
	const struct history_commit *c = history_commit(s->h, sha);
	memset(out, 0, sizeof(*out));
	if (!c || !c->fixes[0])
		return;
	const char *p = c->fixes;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, " ");
		if (n == 40) {
			char id[41];
			memcpy(id, p, 40);
			id[40] = '\0';
			const struct history_commit *t = history_commit(s->h, id);
			if (t && !kvec_has_sha(out, id))
				kpush(out, mk(t->release, id));
		}
		p += n;
	}
	ksort(s->h, out);
}

static void process_reverted_pairs(struct dstate *s, const struct pvec *rp)
{
	for (size_t i = 0; i < rp->n; i++) {
		const struct kpair *p = &rp->v[i];
		if (history_in_not_fixes(s->h, p->vuln.sha) || history_in_not_reverts(s->h, p->vuln.sha))
			continue;
		add_vuln_dedup(s, p->vuln);
		add_fixed(s, p->fix);
		add_revert_pair(s, p->vuln, p->fix);
	}
}

/* Occurrences of k: k itself where it is mainline, the backport ids on stable branches. */
static void push_occurrences(struct dstate *s, const struct kern *k, const struct found *r)
{
	for (size_t j = 0; j < r->kernels.n; j++)
		kpush(&s->vuln_set, is_mainline(&r->kernels.v[j]) ? *k : r->kernels.v[j]);
}

/* ---- Step A: the fixed set -------------------------------------------------------------- */

static void step_a(struct dstate *s)
{
	for (size_t i = 0; i < s->fixes.n; i++) {
		struct found r;
		found_in(s, s->fixes.v[i].sha, &s->fixed_set, &r);
		char white[16][24];
		size_t nwhite = 0;
		for (size_t j = 0; j < r.reverted.n; j++) {
			const struct kern *b = &r.reverted.v[j].vuln;
			if (history_in_not_fixes(s->h, b->sha))
				continue;
			if (history_in_not_reverts(s->h, b->sha)) {
				add_fixed(s, *b);
				if (nwhite < 16)
					kver_str_major(b->ver, white[nwhite++], sizeof(white[0]));
			}
		}
		for (size_t j = 0; j < r.kernels.n; j++) {
			const struct kern *k = &r.kernels.v[j];
			if (history_in_not_fixes(s->h, k->sha))
				continue;
			char maj[24];
			kver_str_major(k->ver, maj, sizeof(maj));
			bool skip = false;
			for (size_t w = 0; w < nwhite && !skip; w++)
				skip = maj[0] && strcmp(maj, white[w]) == 0;
			if (!skip)
				add_fixed(s, *k);
		}
		found_release(&r);
	}
}

/* ---- Steps C/D: the vulnerable points ------------------------------------------------------ */

static void step_c(struct dstate *s, struct kvec *derived)
{
	if (s->explicit_v.n) {
		for (size_t i = 0; i < s->explicit_v.n; i++)
			kpush(&s->vuln_set, s->explicit_v.v[i]);
		return;
	}
	for (size_t i = 0; i < s->fixes.n; i++) {
		const struct kern *f = &s->fixes.v[i];
		struct kvec intro;
		get_fixes(s, f->sha, &intro);
		if (intro.n == 0 && !history_commit(s->h, f->sha)) {
			/* unreleased fix: its Fixes come from its first stable backport */
			struct found r;
			found_in(s, f->sha, NULL, &r);
			for (size_t j = 0; j < r.kernels.n; j++) {
				if (!is_mainline(&r.kernels.v[j])) {
					free(intro.v);
					get_fixes(s, r.kernels.v[j].sha, &intro);
					break;
				}
			}
			found_release(&r);
		}
		if (intro.n) {
			for (size_t j = 0; j < intro.n; j++) {
				struct found r;
				found_in(s, intro.v[j].sha, &s->fixed_set, &r);
				push_occurrences(s, &intro.v[j], &r);
				process_reverted_pairs(s, &r.reverted);
				found_release(&r);
			}
		} else {
			const struct history_commit *c = history_commit(s->h, f->sha);
			const struct history_commit *t = c && c->reverts[0] ? history_commit(s->h, c->reverts) : NULL;
			if (t) {
				struct kern tk = mk(t->release, t->id);
				kpush(derived, tk);
				struct found r;
				found_in(s, t->id, &s->fixed_set, &r);
				push_occurrences(s, &tk, &r);
				found_release(&r);
			}
		}
		free(intro.v);
	}
}

static void step_d(struct dstate *s, const struct kvec *vk)
{
	struct kvec sorted = {0};
	for (size_t i = 0; i < vk->n; i++)
		kpush(&sorted, vk->v[i]);
	ksort(s->h, &sorted);
	for (size_t i = 0; i < sorted.n; i++) {
		struct found r;
		found_in(s, sorted.v[i].sha, &s->fixed_set, &r);
		push_occurrences(s, &sorted.v[i], &r);
		process_reverted_pairs(s, &r.reverted);
		found_release(&r);
	}
	free(sorted.v);
}

/* ---- Step E: winnowing --------------------------------------------------------------------- */

static void step_e(struct dstate *s, const struct kvec *vk)
{
	struct kvec ml = {0}, st = {0}, out = {0};
	for (size_t i = 0; i < s->vuln_set.n; i++)
		kpush(is_mainline(&s->vuln_set.v[i]) ? &ml : &st, s->vuln_set.v[i]);
	if (ml.n == 0) {
		out = st;
		st.v = NULL;
		for (size_t i = 0; i < vk->n; i++) {
			bool have = false;
			for (size_t j = 0; j < out.n && !have; j++)
				have = strcmp(out.v[j].ver, vk->v[i].ver) == 0 && strcmp(out.v[j].sha, vk->v[i].sha) == 0;
			if (!have)
				kpush(&out, vk->v[i]);
		}
	} else {
		ksort(s->h, &ml);
		struct kern oldest = ml.v[0];
		if (vk->n == 0) {
			kpush(&out, oldest);
		} else {
			bool have = false;
			for (size_t i = 0; i < vk->n; i++) {
				kpush(&out, vk->v[i]);
				if (strcmp(vk->v[i].ver, oldest.ver) == 0 && strcmp(vk->v[i].sha, oldest.sha) == 0)
					have = true;
			}
			if (!have)
				kpush(&out, oldest);
		}
		for (size_t i = 0; i < st.n; i++)
			if (kcmp(s->h, &oldest, &st.v[i]) > 0)
				kpush(&out, st.v[i]);
	}
	free(ml.v);
	free(st.v);
	free(s->vuln_set.v);
	s->vuln_set = out;
}

/* ---- Step F: pairing ------------------------------------------------------------------------- */

/* The anchor's version distance: '.'-separated parts that parse as integers (so "9-rc3" is
 * dropped), 100 x major difference + |minor difference|; only when v's major <= k's major. */
static int version_parts(const char *s, long out[2])
{
	int n = 0;
	while (*s && n < 2) {
		const char *e = strchr(s, '.');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		size_t i = 0;
		if (len && (s[0] == '+' || s[0] == '-'))
			i = 1;
		bool ok = len > i && len - i <= 9;
		for (size_t j = i; j < len && ok; j++)
			ok = s[j] >= '0' && s[j] <= '9';
		if (ok)
			out[n++] = strtol(s, NULL, 10);
		if (!e)
			break;
		s = e + 1;
	}
	return n;
}

static bool version_distance(const struct kern *v, const struct kern *k, long *dist)
{
	long vp[2], kp[2];
	int vn = version_parts(v->ver, vp), kn = version_parts(k->ver, kp);
	if (vn == 0 || kn == 0 || vp[0] > kp[0])
		return false;
	*dist = (kp[0] - vp[0]) * 100;
	if (vn > 1 && kn > 1)
		*dist += labs(kp[1] - vp[1]);
	return true;
}

static const struct kern *closest(const struct kern *x, struct kern *const *cand, size_t n)
{
	const struct kern *best = NULL;
	long best_d = 0;
	for (size_t i = 0; i < n; i++) {
		long d;
		if (version_distance(cand[i], x, &d) && (!best || d < best_d)) {
			best = cand[i];
			best_d = d;
		}
	}
	return best;
}

static void unfixed(struct dstate *s, const struct kern *v, struct pvec *pairs)
{
	for (size_t i = 0; i < pairs->n; i++) {
		const struct kpair *p = &pairs->v[i];
		if (strcmp(v->ver, p->vuln.ver) == 0 && strcmp(v->sha, p->vuln.sha) == 0)
			return;
		if (strcmp(v->ver, p->fix.ver) == 0)
			return;
	}
	const struct kern *best = NULL;
	if (is_mainline(v))
		for (size_t i = 0; i < s->fixed_set.n; i++) {
			const struct kern *f = &s->fixed_set.v[i];
			if (is_mainline(f) && kcmp(s->h, f, v) > 0 && (!best || kcmp(s->h, f, best) < 0))
				best = f;
		}
	ppush(pairs, *v, best ? *best : EMPTY_KERNEL);
}

static void step_f(struct dstate *s, struct pvec *pairs)
{
	struct history_shas used_fix = {0}, revert_fixed = {0};
	for (size_t i = 0; i < s->revert_pairs.n; i++) {
		ppush(pairs, s->revert_pairs.v[i].vuln, s->revert_pairs.v[i].fix);
		history_shas_push(&used_fix, s->revert_pairs.v[i].fix.sha);
		history_shas_push(&revert_fixed, s->revert_pairs.v[i].vuln.sha);
	}
	struct kvec sorted = {0};
	for (size_t i = 0; i < s->vuln_set.n; i++)
		if (!history_shas_contains(&revert_fixed, s->vuln_set.v[i].sha))
			kpush(&sorted, s->vuln_set.v[i]);
	ksort(s->h, &sorted);
	struct kern **ml = xcalloc(sorted.n + 1, sizeof(*ml));
	struct kern **all = xcalloc(sorted.n + 1, sizeof(*all));
	size_t nml = 0;
	for (size_t i = 0; i < sorted.n; i++) {
		all[i] = &sorted.v[i];
		if (is_mainline(&sorted.v[i]))
			ml[nml++] = &sorted.v[i];
	}
	for (size_t i = 0; i < s->fixed_set.n; i++) {
		const struct kern *x = &s->fixed_set.v[i];
		if (history_shas_contains(&used_fix, x->sha))
			continue;
		if (s->vuln_set.n == 0) {
			ppush(pairs, EMPTY_KERNEL, *x);
			continue;
		}
		bool done = false;
		for (size_t j = 0; j < sorted.n && !done; j++) /* P1: same release */
			if (strcmp(sorted.v[j].ver, x->ver) == 0) {
				ppush(pairs, sorted.v[j], *x);
				done = true;
			}
		if (!done) {
			if (is_mainline(x)) /* P2: every older mainline point */
				for (size_t j = 0; j < nml; j++)
					if (kcmp(s->h, x, ml[j]) >= 0) {
						ppush(pairs, *ml[j], *x);
						done = true;
					}
			for (size_t j = 0; j < sorted.n && !done; j++) /* P3: same branch */
				if (kver_str_same_major(sorted.v[j].ver, x->ver)) {
					ppush(pairs, sorted.v[j], *x);
					done = true;
				}
		}
		if (!done && nml) { /* P4: closest mainline point, else the oldest */
			const struct kern *b = closest(x, ml, nml);
			ppush(pairs, b ? *b : *ml[0], *x);
			done = true;
		}
		if (!done) { /* P5: closest point overall */
			const struct kern *b = closest(x, all, sorted.n);
			if (b) {
				ppush(pairs, *b, *x);
				done = true;
			}
		}
		if (!done) { /* default: the oldest mainline point, if any */
			const struct kern *m = NULL;
			for (size_t j = 0; j < s->vuln_set.n; j++)
				if (is_mainline(&s->vuln_set.v[j]) && (!m || kcmp(s->h, &s->vuln_set.v[j], m) < 0))
					m = &s->vuln_set.v[j];
			if (m)
				ppush(pairs, *m, *x);
		}
	}
	for (size_t i = 0; i < s->vuln_set.n; i++) {
		if (history_shas_contains(&revert_fixed, s->vuln_set.v[i].sha))
			continue;
		struct kern v = s->vuln_set.v[i];
		unfixed(s, &v, pairs);
	}
	free(ml);
	free(all);
	free(sorted.v);
	history_shas_release(&used_fix);
	history_shas_release(&revert_fixed);
}

/* ---- Step G: filter and order ------------------------------------------------------------- */

static int pair_group_cmp(struct history *h, const struct kpair *a, const struct kpair *b)
{
	bool am = is_mainline(&a->fix), bm = is_mainline(&b->fix);
	if (am != bm)
		return am ? -1 : 1;
	return kcmp(h, &a->fix, &b->fix);
}

static int pair_final_cmp(struct history *h, const struct kpair *a, const struct kpair *b)
{
	if (strcmp(a->fix.ver, "0") == 0)
		return 1;
	if (strcmp(b->fix.ver, "0") == 0)
		return -1;
	if (strcmp(a->fix.ver, b->fix.ver) != 0)
		return kcmp(h, &a->fix, &b->fix);
	return kcmp(h, &a->vuln, &b->vuln);
}

static void psort(struct history *h, struct kpair *v, size_t n,
		  int (*cmp)(struct history *, const struct kpair *, const struct kpair *))
{
	for (size_t i = 1; i < n; i++) {
		struct kpair t = v[i];
		size_t j = i;
		while (j > 0 && cmp(h, &t, &v[j - 1]) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = t;
	}
}

static void step_g(struct history *h, const struct pvec *in, struct pvec *out)
{
	struct pvec fixed = {0};
	for (size_t i = 0; i < in->n; i++) {
		if (strcmp(in->v[i].fix.ver, "0") == 0)
			ppush(out, in->v[i].vuln, in->v[i].fix);
		else
			ppush(&fixed, in->v[i].vuln, in->v[i].fix);
	}
	/* groups by vulnerable sha, in order of first appearance */
	bool *done = xcalloc(fixed.n + 1, sizeof(*done));
	struct pvec grp = {0};
	for (size_t i = 0; i < fixed.n; i++) {
		if (done[i])
			continue;
		grp.n = 0;
		for (size_t j = i; j < fixed.n; j++)
			if (!done[j] && strcmp(fixed.v[j].vuln.sha, fixed.v[i].vuln.sha) == 0) {
				ppush(&grp, fixed.v[j].vuln, fixed.v[j].fix);
				done[j] = true;
			}
		psort(h, grp.v, grp.n, pair_group_cmp);
		for (size_t j = 0; j < grp.n; j++)
			if (is_mainline(&grp.v[j].fix)) {
				ppush(out, grp.v[j].vuln, grp.v[j].fix);
				break;
			}
		for (size_t j = 0; j < grp.n; j++) {
			if (is_mainline(&grp.v[j].fix))
				continue;
			if (kcmp(h, &grp.v[j].vuln, &grp.v[j].fix) > 0)
				continue; /* backwards range: fix backported below the introduction */
			ppush(out, grp.v[j].vuln, grp.v[j].fix);
		}
	}
	free(done);
	free(grp.v);
	free(fixed.v);
	psort(h, out->v, out->n, pair_final_cmp);
}

/* ---- entry point ---------------------------------------------------------------------------- */

static void dstate_release(struct dstate *s)
{
	free(s->fixes.v);
	free(s->explicit_v.v);
	free(s->fixed_set.v);
	free(s->vuln_set.v);
	free(s->revert_pairs.v);
	history_shas_release(&s->vuln_ids);
	history_shas_release(&s->revert_vuln_ids);
	history_shas_release(&s->scratch);
}

static bool plausible_id(const char *s)
{
	return s && strlen(s) >= 4 && !strchr(s, '@');
}

int dyad_compute(struct history *h, const struct dyad_request *req, struct dyad_list *out,
		 struct strbuf *header, struct kcve_err *err)
{
	struct dstate s = {0};
	struct pvec pairs = {0}, final = {0};
	char full[41];
	int rc = 0;
	s.h = h;
	if (req->nfixes == 0)
		return kcve_err_set(err, KCVE_E_USAGE, "at least one fix commit is required");
	for (size_t i = 0; i < req->nfixes; i++) {
		struct kcve_err e2 = {0};
		if (!plausible_id(req->fixes[i]) || history_resolve(h, req->fixes[i], full, &e2)) {
			rc = kcve_err_set(err, KCVE_E_NOTFOUND,
					  "the fix git id '%s' could not be found in the repository, check the id or update the repository",
					  req->fixes[i]);
			goto out;
		}
		const char *rel = history_release(h, full);
		kpush(&s.fixes, mk(rel ? rel : "0", full));
	}
	for (size_t i = 0; i < req->nvulnerable; i++) {
		struct kcve_err e2 = {0};
		const char *rel = NULL;
		if (plausible_id(req->vulnerable[i]) && !history_resolve(h, req->vulnerable[i], full, &e2))
			rel = history_release(h, full);
		if (!rel) {
			rc = kcve_err_set(err, KCVE_E_NOTFOUND,
					  "the vulnerable git id '%s' could not be found in any release of the repository, check the id or update the repository and index",
					  req->vulnerable[i]);
			goto out;
		}
		kpush(&s.explicit_v, mk(rel, full));
	}
	if (header) {
		sb_addf(header, "# dyad version: %s\n", DYAD_TOOL_VERSION);
		for (size_t i = 0; i < s.fixes.n; i++)
			sb_addf(header, "# \tgetting vulnerable:fixed pairs for git id %s\n", s.fixes.v[i].sha);
	}
	step_a(&s);
	if (h->failure.code == 0 && s.fixed_set.n == 0) {
		rc = kcve_err_set(err, KCVE_E_NOTFOUND,
				  "no vulnerable and then fixed pairs of kernels were found for fix %s, the fix is in no release or stable branch yet",
				  s.fixes.v[0].sha);
		goto out;
	}
	if (header)
		for (size_t i = 0; i < s.explicit_v.n; i++)
			sb_addf(header,
				"# \tSetting original vulnerable kernel to be kernel %s and git id %s\n",
				s.explicit_v.v[i].ver, s.explicit_v.v[i].sha);
	struct kvec derived = {0};
	step_c(&s, &derived);
	const struct kvec *vk = s.explicit_v.n ? &s.explicit_v : &derived;
	step_d(&s, vk);
	step_e(&s, vk);
	free(derived.v);
	step_f(&s, &pairs);
	step_g(h, &pairs, &final);
	for (size_t i = 0; i < final.n; i++)
		dyad_list_push(out, final.v[i].vuln.ver, final.v[i].vuln.sha, final.v[i].fix.ver,
			       final.v[i].fix.sha);
out:
	if (!rc && h->failure.code) {
		*err = h->failure;
		rc = err->code;
	}
	free(pairs.v);
	free(final.v);
	dstate_release(&s);
	return rc;
}
