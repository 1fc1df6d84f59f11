/* Issuance policy, affected products, CPE matches and references (see affected.h).
 * The order of operations mirrors the anchor's generator, because the output order of the
 * version arrays (and which of two equivalent entries survives deduplication) depends on it. */
#include "record/affected.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/strmap.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "core/text.h"

static bool is0(const char *s)
{
	return strcmp(s, "0") == 0;
}

static bool mainline(const char *v)
{
	return kver_str_is_mainline(v);
}

bool affected_same_version(const struct dyad_pair *p)
{
	return strcmp(p->vver, p->fver) == 0;
}

bool affected_should_issue(const struct dyad_list *pairs)
{
	for (size_t i = 0; i < pairs->n; i++)
		if (!affected_same_version(&pairs->v[i]))
			return true;
	return false;
}

const char *affected_default_status(const struct dyad_list *pairs)
{
	for (size_t i = 0; i < pairs->n; i++)
		if (is0(pairs->v[i].vver))
			return "affected";
	for (size_t i = 0; i < pairs->n; i++)
		if (mainline(pairs->v[i].vver) && !affected_same_version(&pairs->v[i]))
			return "affected";
	return "unaffected";
}

static char *keyf(const char *a, const char *b, const char *c, const char *d, const char *e)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + strlen(d) + strlen(e) + 5;
	char *k = xmalloc(n);
	text_snprintf(k, n, "%s:%s:%s:%s:%s", a, b, c, d, e);
	return k;
}

/* ---- ranges --------------------------------------------------------------------------- */

static void push_range(struct vrange_list *l, const char *version, const char *lt,
		       const char *lte, const char *status, const char *type)
{
	XGROW(l->v, l->n + 1, l->alloc);
	struct vrange *r = &l->v[l->n++];
	r->version = xstrdup(version);
	r->less_than = lt ? xstrdup(lt) : NULL;
	r->less_than_or_equal = lte ? xstrdup(lte) : NULL;
	r->status = status;
	r->version_type = type;
}

static void release_ranges(struct vrange_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].version);
		free(l->v[i].less_than);
		free(l->v[i].less_than_or_equal);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int range_cmp(const struct vrange *a, const struct vrange *b)
{
	int s = strcmp(a->status, b->status);
	if (s)
		return s;
	if (a->version_type && b->version_type) {
		bool ao = strcmp(a->version_type, "original_commit_for_fix") == 0;
		bool bo = strcmp(b->version_type, "original_commit_for_fix") == 0;
		if (ao && !bo)
			return 1;
		if (!ao && bo)
			return -1;
	}
	return kver_cmp_str(a->version, b->version);
}

void affected_sort_ranges(struct vrange *v, size_t n)
{
	/* Insertion sort, element by element from the left: the algorithm the anchor's stable
	 * sort uses for short slices, which matters because this comparison is not a strict
	 * total order when untyped points and original_commit_for_fix entries mix. */
	for (size_t i = 1; i < n; i++) {
		struct vrange tmp = v[i];
		size_t j = i;
		while (j > 0 && range_cmp(&tmp, &v[j - 1]) < 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = tmp;
	}
}

/* First two dot components as numbers (Rust's parse::<u32>() on each); false if either is
 * not a plain decimal number. */
static bool major_minor(const char *v, unsigned long *maj, unsigned long *min)
{
	const char *dot = strchr(v, '.');
	char a[24], b[24];
	size_t al = dot ? (size_t)(dot - v) : strlen(v);
	if (al == 0 || al >= sizeof(a))
		return false;
	memcpy(a, v, al);
	a[al] = '\0';
	if (dot) {
		const char *bs = dot + 1, *be = strchr(bs, '.');
		size_t bl = be ? (size_t)(be - bs) : strlen(bs);
		if (bl == 0 || bl >= sizeof(b))
			return false;
		memcpy(b, bs, bl);
		b[bl] = '\0';
	} else {
		strcpy(b, "0");
	}
	for (const char *p = a; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	for (const char *p = b; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	*maj = strtoul(a, NULL, 10);
	*min = strtoul(b, NULL, 10);
	return true;
}

struct point {
	const char *version;
	bool affected;
};

static int point_cmp(const void *a, const void *b)
{
	return kver_cmp_str(((const struct point *)a)->version, ((const struct point *)b)->version);
}

static void stable_sort_points(struct point *p, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct point tmp = p[i];
		size_t j = i;
		while (j > 0 && point_cmp(&tmp, &p[j - 1]) < 0) {
			p[j] = p[j - 1];
			j--;
		}
		p[j] = tmp;
	}
}

/* The explicit mainline points and the gaps between them (docs/spec/record.md "Product 2", steps 1 and 2). */
static void explicit_points(const struct strset *A, const struct strset *Fm, const char *def,
			    struct strset *seen, struct vrange_list *out)
{
	size_t n = 0;
	struct point *pts = xcalloc(strset_count(A) + strset_count(Fm) + 1, sizeof(*pts));
	for (size_t i = 0; i < strset_count(A); i++)
		pts[n++] = (struct point){strset_at(A, i), true};
	for (size_t i = 0; i < strset_count(Fm); i++)
		if (!strset_contains(A, strset_at(Fm, i)))
			pts[n++] = (struct point){strset_at(Fm, i), false};
	stable_sort_points(pts, n);
	for (size_t i = 0; i < n; i++) {
		if (!pts[i].affected) /* unaffected mainline points come later, as ranges */
			continue;
		char *k = keyf("kernel", "affected", pts[i].version, "", "");
		if (strset_add(seen, k))
			push_range(out, pts[i].version, NULL, NULL, "affected", NULL);
		free(k);
	}
	for (size_t i = 0; i + 1 < n; i++) {
		unsigned long cmaj, cmin, nmaj, nmin;
		if (!major_minor(pts[i].version, &cmaj, &cmin) ||
		    !major_minor(pts[i + 1].version, &nmaj, &nmin))
			continue;
		if (cmaj != nmaj || nmin <= cmin + 1)
			continue;
		for (unsigned long m = cmin + 1; m < nmin; m++) {
			const char *status;
			if (pts[i + 1].affected)
				status = "affected";
			else if (pts[i].affected)
				status = strcmp(def, "affected") == 0 ? def : "affected";
			else
				status = "unaffected";
			if (strcmp(status, def) == 0)
				continue;
			char ver[48];
			text_snprintf(ver, sizeof(ver), "%lu.%lu", cmaj, m);
			char *k = keyf("kernel", status, ver, "", "");
			if (strset_add(seen, k))
				push_range(out, ver, NULL, NULL, status, NULL);
			free(k);
		}
	}
	free(pts);
}

/* "5.15" -> "5.16", "2.6.27" -> "2.6.28": the release after a branch (next minor). */
static bool next_branch(const char *major, char *out, size_t outsz)
{
	const char *dot = strrchr(major, '.');
	if (!dot || !dot[1])
		return false;
	for (const char *p = dot + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	unsigned long minor = strtoul(dot + 1, NULL, 10);
	text_snprintf(out, outsz, "%.*s.%lu", (int)(dot - major), major, minor + 1);
	return true;
}

/* Default affected, a pair with fix F (once per F): the unaffected range from F (up to the next
 * affected mainline version, or "<= *" as original_commit_for_fix, or "<= X.Y.*" for a stable
 * F) and, for a stable introduction, product 1's stable introduction range
 * (docs/spec/record.md "Product 2", step 3). */
static void fixed_point(const struct dyad_pair *p, const struct strset *A, struct strset *seen,
			struct vrange_list *semver, struct vrange_list *stable)
{
	/* "X.Y.*" from the first two components (2.6.32.5 -> 2.6.*) */
	char wild[DYAD_VER_MAX + 4];
	const char *d1 = strchr(p->fver, '.');
	const char *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
	if (d1)
		text_snprintf(wild, sizeof(wild), "%.*s.*",
			 (int)(d2 ? (size_t)(d2 - p->fver) : strlen(p->fver)),
			 p->fver);
	else
		text_snprintf(wild, sizeof(wild), "%s.*", p->fver);
	char *k = keyf("kernel", "unaffected", p->fver, "", wild);
	if (strset_add(seen, k)) {
		if (mainline(p->fver)) {
			const char *next = NULL;
			for (size_t a = 0; a < strset_count(A); a++)
				if (kver_cmp_str(p->fver, strset_at(A, a)) < 0 &&
				    (!next || kver_cmp_str(next, strset_at(A, a)) > 0))
					next = strset_at(A, a);
			struct kver fv;
			kver_parse(&fv, p->fver);
			if (next && !fv.rc)
				push_range(semver, p->fver, next, NULL,
					   "unaffected", "semver");
			else
				push_range(semver, p->fver, NULL, "*",
					   "unaffected", "original_commit_for_fix");
		} else {
			push_range(semver, p->fver, NULL, wild, "unaffected",
				   "semver");
			if (!mainline(p->vver)) {
				char *sk = keyf("stable", "affected", p->vver,
						p->fver, "");
				if (strset_add(seen, sk))
					push_range(stable, p->vver, p->fver, NULL,
						   "affected", "semver");
				free(sk);
			}
		}
	}
	free(k);
}

/* cpeApplicability: a match per included pair, except unfixed stable pairs on a branch that
 * has a fix (docs/spec/record.md "cpeApplicability"). */
static void cpe_matches(const struct dyad_list *pairs, const struct strset *fixed_branches,
			struct affected *out)
{
	out->cpe = xcalloc(pairs->n + 1, sizeof(*out->cpe));
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		char maj[24];
		if (affected_same_version(p))
			continue;
		if (is0(p->fver) && !is0(p->vver) && !mainline(p->vver) &&
		    strset_contains(fixed_branches, kver_str_major(p->vver, maj, sizeof(maj))))
			continue;
		out->cpe[out->ncpe].start = is0(p->vver) ? NULL : p->vver;
		out->cpe[out->ncpe].end = is0(p->fver) ? NULL : p->fver;
		out->ncpe++;
	}
}

void affected_compute(const struct dyad_list *pairs, struct affected *out)
{
	memset(out, 0, sizeof(*out));
	const char *def = affected_default_status(pairs);
	bool def_aff = strcmp(def, "affected") == 0;
	out->default_status = def;

	/* product 1: one git range per pair, same-version ones included */
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		push_range(&out->git, is0(p->vver) ? AFFECTED_UNKNOWN_INTRO : p->vsha,
			   is0(p->fsha) ? NULL : p->fsha, NULL, "affected", "git");
	}

	struct strset A = STRSET_INIT, Fm = STRSET_INIT, seen = STRSET_INIT, fixed_branches = STRSET_INIT;
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		if (affected_same_version(p))
			continue;
		if (mainline(p->vver))
			strset_add(&A, p->vver);
		if (mainline(p->fver))
			strset_add(&Fm, p->fver);
	}
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		char maj[24];
		if (!is0(p->fver) && !mainline(p->fver))
			strset_add(&fixed_branches, kver_str_major(p->fver, maj, sizeof(maj)));
	}

	if (strset_count(&A) + strset_count(&Fm) > 0)
		explicit_points(&A, &Fm, def, &seen, &out->semver);

	struct vrange_list stable = {0};
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		if (affected_same_version(p))
			continue;
		if (def_aff) {
			if (mainline(p->vver)) {
				char *k = keyf("kernel", "unaffected", "0", p->vver, "");
				bool older = false;
				for (size_t a = 0; a < strset_count(&A) && !older; a++)
					older = kver_cmp_str(strset_at(&A, a), p->vver) < 0;
				if (!strset_contains(&seen, k) && !older) {
					strset_add(&seen, k);
					push_range(&out->semver, "0", p->vver, NULL, "unaffected", "semver");
				}
				free(k);
			}
			if (!is0(p->fver))
				fixed_point(p, &A, &seen, &out->semver, &stable);
		} else if (!is0(p->vver) && !is0(p->fver)) {
			char *k = keyf("kernel", "affected", p->vver, p->fver, "");
			if (strset_add(&seen, k))
				push_range(&out->semver, p->vver, p->fver, NULL, "affected", "semver");
			free(k);
		}
		/* an unfixed stable branch with no fix anywhere on it: affected up to the next
		 * branch, in product 1 (product 2's "0 < intro" entry would shadow it) */
		char maj[24], ceil[40];
		if (!is0(p->vver) && is0(p->fver) && !mainline(p->vver) &&
		    !strset_contains(&fixed_branches, kver_str_major(p->vver, maj, sizeof(maj))) &&
		    next_branch(maj, ceil, sizeof(ceil))) {
			char *k = keyf("stable", "affected", p->vver, ceil, "");
			if (strset_add(&seen, k))
				push_range(&stable, p->vver, ceil, NULL, "affected", "semver");
			free(k);
		}
	}
	affected_sort_ranges(out->semver.v, out->semver.n);
	for (size_t i = 0; i < stable.n; i++) {
		XGROW(out->git.v, out->git.n + 1, out->git.alloc);
		out->git.v[out->git.n++] = stable.v[i];
	}
	free(stable.v);

	cpe_matches(pairs, &fixed_branches, out);
	strset_clear(&A);
	strset_clear(&Fm);
	strset_clear(&seen);
	strset_clear(&fixed_branches);
}

void affected_release(struct affected *a)
{
	release_ranges(&a->git);
	release_ranges(&a->semver);
	free(a->cpe);
	memset(a, 0, sizeof(*a));
}

/* ---- references ----------------------------------------------------------------------- */

void url_list_add(struct url_list *l, const char *url)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], url) == 0)
			return;
	XGROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrdup(url);
}

void url_list_release(struct url_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

#define STABLE_URL "https://git.kernel.org/stable/c/"

void affected_json_refs(const struct dyad_list *pairs, const char *const *extra, size_t nextra,
			const char *main_sha, struct url_list *out)
{
	char url[sizeof(STABLE_URL) + 48];
	for (size_t i = 0; i < pairs->n; i++) {
		if (is0(pairs->v[i].fsha))
			continue;
		text_snprintf(url, sizeof(url), STABLE_URL "%s", pairs->v[i].fsha);
		url_list_add(out, url);
	}
	for (size_t i = 0; i < nextra; i++)
		url_list_add(out, extra[i]);
	if (out->n == 0) {
		text_snprintf(url, sizeof(url), STABLE_URL "%s", main_sha);
		url_list_add(out, url);
	}
}

struct verurl {
	const char *ver;
	char *url;
};

void affected_mbox_refs(const struct dyad_list *pairs, const char *const *extra, size_t nextra,
			const char *main_sha, struct url_list *out)
{
	struct verurl *vu = xcalloc(pairs->n + 1, sizeof(*vu));
	size_t n = 0;
	char url[sizeof(STABLE_URL) + 48];
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		if (is0(p->fsha) || strcmp(p->fsha, main_sha) == 0)
			continue;
		text_snprintf(url, sizeof(url), STABLE_URL "%s", p->fsha);
		bool dup = false;
		for (size_t k = 0; k < n && !dup; k++)
			dup = strcmp(vu[k].url, url) == 0;
		if (!dup)
			vu[n++] = (struct verurl){p->fver, xstrdup(url)};
	}
	for (size_t i = 1; i < n; i++) { /* stable: equal versions keep pair order */
		struct verurl tmp = vu[i];
		size_t j = i;
		while (j > 0 && kver_cmp_str(tmp.ver, vu[j - 1].ver) < 0) {
			vu[j] = vu[j - 1];
			j--;
		}
		vu[j] = tmp;
	}
	for (size_t i = 1; i < n; i++)
		KCVE_ASSERT(kver_cmp_str(vu[i - 1].ver, vu[i].ver) <= 0);
	for (size_t i = 0; i < n; i++) {
		/* the anchor pushes these without a duplicate check against each other only */
		XGROW(out->v, out->n + 1, out->alloc);
		out->v[out->n++] = vu[i].url;
	}
	free(vu);
	text_snprintf(url, sizeof(url), STABLE_URL "%s", main_sha);
	XGROW(out->v, out->n + 1, out->alloc);
	out->v[out->n++] = xstrdup(url);
	for (size_t i = 0; i < nextra; i++)
		url_list_add(out, extra[i]);
}
