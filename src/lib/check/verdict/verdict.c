#include "check/verdict/verdict.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"

/* ---- dyad pairs -------------------------------------------------------------------------- */

/* kver_parse() for the plain shapes found in records ("6.1.107", "2.6.36", "6.9-rc3"), without
 * its copy and searches; anything else goes to kver_parse().  Called ~10^5 times per check. */
void ck_kver_parse(struct kver *v, const char *s)
{
	memset(v, 0, sizeof *v);
	const char *p = s;
	for (;;) {
		if (*p < '0' || *p > '9' || v->ncomp >= KVER_MAXCOMP)
			goto slow;
		unsigned long c = 0;
		while (*p >= '0' && *p <= '9') {
			c = c * 10 + (unsigned)(*p++ - '0');
			if (c > 0xffffffffUL)
				goto slow;
		}
		v->comp[v->ncomp++] = (unsigned)c;
		if (*p == '.') {
			p++;
			continue;
		}
		if (p - s >= 120) /* kver_parse() keeps 127 bytes: let it decide long strings */
			goto slow;
		if (*p == '\0')
			return;
		if (p[0] == '-' && p[1] == 'r' && p[2] == 'c' && p[3] >= '0' && p[3] <= '9') {
			unsigned long r = 0;
			const char *q = p + 3;
			while (*q >= '0' && *q <= '9' && r < 100000)
				r = r * 10 + (unsigned)(*q++ - '0');
			if (*q != '\0' || q - s >= 120)
				goto slow;
			v->rc = true;
			v->rcnum = (long long)r;
			return;
		}
		goto slow;
	}
slow:
	kver_parse(v, s);
}

bool ck_release_in(const char *a, const struct kver *x)
{
	if (strcmp(a, "0") == 0)
		return true;
	struct kver k;
	ck_kver_parse(&k, a);
	if (kver_same_major(&k, x))
		return kver_cmp(&k, x) <= 0;
	return kver_is_mainline(&k) && kver_cmp(&k, x) < 0;
}

enum ck_vstatus ck_dyad_verdict(const struct ck_pairs *pairs, const struct kver *v)
{
	bool usable = false, looked = false;
	for (size_t i = 0; i < pairs->n; i++) {
		const struct ck_pair *p = &pairs->v[i];
		if (ck_pair_same_release(p))
			continue;
		usable = true;
		if (!ck_release_in(p->vver, v))
			continue;
		looked = true;
		if (strcmp(p->fver, "0") != 0 && ck_release_in(p->fver, v))
			return CK_ST_UNAFFECTED; /* a fix on an applicable pair is in v */
	}
	if (!usable)
		return CK_ST_UNKNOWN;
	return looked ? CK_ST_AFFECTED : CK_ST_UNAFFECTED;
}

/* ---- JSON products ----------------------------------------------------------------------- */

/* Compare release x with bound b, which may be "*" or end in ".*" (a whole series). */
static int cmp_bound(const struct kver *x, const char *b)
{
	if (strcmp(b, "*") == 0)
		return -1;
	size_t n = strlen(b);
	if (n >= 2 && strcmp(b + n - 2, ".*") == 0) {
		struct kver p;
		char buf[64];
		text_snprintf(buf, sizeof buf, "%.*s", (int)(n - 2), b);
		ck_kver_parse(&p, buf);
		/* Compare x's leading components with the prefix; equal prefix = inside the series,
		 * which lies below the bound. */
		for (int i = 0; i < p.ncomp; i++) {
			unsigned xc = i < x->ncomp ? x->comp[i] : 0;
			if (xc != p.comp[i])
				return xc < p.comp[i] ? -1 : 1;
		}
		return -1;
	}
	struct kver k;
	ck_kver_parse(&k, b);
	return kver_cmp(x, &k);
}

static bool is_series(const char *b)
{
	size_t n = strlen(b);
	return n >= 2 && strcmp(b + n - 2, ".*") == 0;
}

/* Which branch, if any, bounds a range (see verdict.h): a stable lower bound under a wildcard
 * upper bound ("5.10.231 <= 5.10.*", "2.6.32.5 <= 2.6.*") or a stable upper bound over a "0"
 * lower bound ("0 < 5.10.219").  NULL when the range is read literally. */
static const char *range_branch(const struct ck_range *g)
{
	const char *ub = g->less_than ? g->less_than : g->less_equal;
	if (!ub || strcmp(ub, "*") == 0)
		return NULL;
	bool lo_zero = strcmp(g->version, "0") == 0;
	if (!lo_zero && is_series(ub) && !kver_str_is_mainline(g->version))
		return g->version;
	if (lo_zero && !is_series(ub) && !kver_str_is_mainline(ub))
		return ub;
	return NULL;
}

static bool range_matches(const struct ck_range *g, const struct kver *x)
{
	if (!g->less_than && !g->less_equal) {
		struct kver k;
		ck_kver_parse(&k, g->version);
		return kver_cmp(x, &k) == 0;
	}
	const char *br = range_branch(g);
	if (br) {
		struct kver b;
		ck_kver_parse(&b, br);
		if (!kver_same_major(x, &b))
			return false;
	}
	if (strcmp(g->version, "0") != 0) {
		struct kver lo;
		ck_kver_parse(&lo, g->version);
		if (kver_cmp(x, &lo) < 0)
			return false;
	}
	if (br && g->less_equal && is_series(g->less_equal))
		return true; /* the whole rest of the branch */
	if (g->less_than) {
		/* x < "P.*" means below the whole series P. */
		if (is_series(g->less_than)) {
			size_t n = strlen(g->less_than);
			struct kver p;
			char buf[64];
			text_snprintf(buf, sizeof buf, "%.*s", (int)(n - 2), g->less_than);
			ck_kver_parse(&p, buf);
			for (int i = 0; i < p.ncomp; i++) {
				unsigned xc = i < x->ncomp ? x->comp[i] : 0;
				if (xc != p.comp[i])
					return xc < p.comp[i];
			}
			return false;
		}
		return cmp_bound(x, g->less_than) < 0;
	}
	return cmp_bound(x, g->less_equal) <= 0;
}

enum ck_vstatus ck_semver_verdict(const struct ck_record *r, const struct kver *v)
{
	bool any_unaffected = false;
	for (size_t i = 0; i < r->nprod; i++) {
		const struct ck_product *p = &r->prod[i];
		unsigned char st = p->default_status;
		for (size_t j = 0; j < p->n; j++) {
			const struct ck_range *g = &p->v[j];
			if (g->type == CK_VT_GIT || g->type == CK_VT_OTHER)
				continue;
			if (range_matches(g, v)) {
				st = g->status;
				break;
			}
		}
		if (st == CK_ST_AFFECTED)
			return CK_ST_AFFECTED;
		if (st == CK_ST_UNAFFECTED)
			any_unaffected = true;
	}
	return any_unaffected ? CK_ST_UNAFFECTED : CK_ST_UNKNOWN;
}

/* ---- compiled records -------------------------------------------------------------------- */

#include "core/xalloc.h"

struct ck_cpair {
	struct kver v, f;
	bool skip, vzero, fzero, vmain, fmain;
};

enum { RK_POINT, RK_LT, RK_LE, RK_LT_SERIES, RK_LE_SERIES, RK_INF };

struct ck_crange {
	struct kver lo, hi; /* hi: bound, or the prefix of a series */
	struct kver br;     /* with `branch`: only releases of br's branch can match */
	bool lo_zero, skip, branch;
	unsigned char kind, status;
};

struct ck_cprod {
	struct ck_crange *v;
	size_t n;
	unsigned char def;
};

struct ck_compiled {
	struct ck_cpair *p;
	size_t np;
	struct ck_cprod *prod;
	size_t nprod;
};

static void compile_bound(struct ck_crange *c, const char *b, bool strict)
{
	size_t n = strlen(b);
	if (strcmp(b, "*") == 0) {
		c->kind = RK_INF;
	} else if (n >= 2 && strcmp(b + n - 2, ".*") == 0) {
		char buf[64];
		text_snprintf(buf, sizeof buf, "%.*s", (int)(n - 2), b);
		ck_kver_parse(&c->hi, buf);
		c->kind = strict ? RK_LT_SERIES : RK_LE_SERIES;
	} else {
		ck_kver_parse(&c->hi, b);
		c->kind = strict ? RK_LT : RK_LE;
	}
}

/* One allocation per record: a single-version check compiles every record once, and thousands
 * of small callocs (plus the page faults of touching them) were most of its time. */
static struct ck_compiled *compile(struct ck_record *r)
{
	if (r->cc)
		return r->cc;
	size_t nrange = 0;
	for (size_t i = 0; i < r->nprod; i++)
		nrange += r->prod[i].n;
	size_t sz = sizeof(struct ck_compiled) + r->pairs.n * sizeof(struct ck_cpair) +
		    r->nprod * sizeof(struct ck_cprod) + nrange * sizeof(struct ck_crange);
	struct ck_compiled *cc = xmalloc(sz);
	struct ck_cpair *pairs = (struct ck_cpair *)(cc + 1);
	struct ck_cprod *prods = (struct ck_cprod *)(pairs + r->pairs.n);
	struct ck_crange *ranges = (struct ck_crange *)(prods + r->nprod);
	memset(cc, 0, sz);
	cc->p = pairs;
	cc->np = r->pairs.n;
	for (size_t i = 0; i < r->pairs.n; i++) {
		const struct ck_pair *p = &r->pairs.v[i];
		struct ck_cpair *c = &cc->p[i];
		c->skip = ck_pair_same_release(p);
		c->vzero = strcmp(p->vver, "0") == 0;
		c->fzero = strcmp(p->fver, "0") == 0;
		ck_kver_parse(&c->v, p->vver);
		ck_kver_parse(&c->f, p->fver);
		c->vmain = kver_is_mainline(&c->v);
		c->fmain = kver_is_mainline(&c->f);
	}
	cc->prod = prods;
	cc->nprod = r->nprod;
	for (size_t i = 0; i < r->nprod; i++) {
		const struct ck_product *p = &r->prod[i];
		struct ck_cprod *cp = &cc->prod[i];
		cp->def = p->default_status;
		cp->v = ranges;
		cp->n = p->n;
		ranges += p->n;
		for (size_t j = 0; j < p->n; j++) {
			const struct ck_range *g = &p->v[j];
			struct ck_crange *c = &cp->v[j];
			c->skip = g->type == CK_VT_GIT || g->type == CK_VT_OTHER;
			c->status = g->status;
			c->lo_zero = strcmp(g->version, "0") == 0;
			ck_kver_parse(&c->lo, g->version);
			if (g->less_than)
				compile_bound(c, g->less_than, true);
			else if (g->less_equal)
				compile_bound(c, g->less_equal, false);
			else
				c->kind = RK_POINT;
			const char *br = c->kind == RK_POINT ? NULL : range_branch(g);
			if (br) {
				c->branch = true;
				ck_kver_parse(&c->br, br);
			}
		}
	}
	r->cc = cc;
	return cc;
}

/* Order of release x against a record's bound b.  An -rc kernel X.Y-rcN holds only part of what
 * the records call "X.Y" (a commit's release is the first final tag that contains it).  With
 * `whole` false, x holds none of X.Y (x < X.Y, the usual order); with `whole` true it holds all
 * of it (x compares equal to X.Y).  A version verdict at an -rc is decided only when both ends
 * agree. */
static int xcmp(const struct kver *x, const struct kver *b, bool whole)
{
	if (whole && x->rc && !b->rc && kver_is_mainline(b) && x->ncomp == b->ncomp &&
	    memcmp(x->comp, b->comp, sizeof x->comp[0] * (size_t)x->ncomp) == 0)
		return 0;
	return kver_cmp(x, b);
}

static bool in_c(const struct kver *a, bool zero, bool amain, const struct kver *x, bool whole)
{
	if (zero)
		return true;
	if (kver_same_major(a, x))
		return xcmp(x, a, whole) >= 0;
	return amain && xcmp(x, a, whole) > 0;
}

/* Same-release pairs ("X.Y:..:X.Y:..") are read only when a record has nothing else: the bug
 * never reached a release, so every release holds either neither end or both (not affected);
 * an X.Y-rc is left to same_release_at_rc.  Beside other pairs they would let a fix of another
 * instance hide a real range, so they are ignored there, as the kernel CNA's tools do. */
static bool only_same_release(const struct ck_compiled *cc)
{
	bool any = false;
	for (size_t i = 0; i < cc->np; i++) {
		if (!cc->p[i].skip)
			return false;
		any = any || !cc->p[i].vzero;
	}
	return any;
}

static enum ck_vstatus dyad_read(const struct ck_compiled *cc, const struct kver *v, bool whole,
				 bool *introduced)
{
	bool usable = false, looked = false, same_only = only_same_release(cc);
	enum ck_vstatus res = CK_ST_UNKNOWN;
	for (size_t i = 0; i < cc->np; i++) {
		const struct ck_cpair *p = &cc->p[i];
		if (p->skip && !(same_only && !p->vzero))
			continue;
		usable = true;
		if (!in_c(&p->v, p->vzero, p->vmain, v, whole))
			continue;
		looked = true;
		if (!p->fzero && in_c(&p->f, false, p->fmain, v, whole)) {
			res = CK_ST_UNAFFECTED;
			break;
		}
	}
	if (res == CK_ST_UNKNOWN && usable)
		res = looked ? CK_ST_AFFECTED : CK_ST_UNAFFECTED;
	if (introduced)
		*introduced = looked;
	return res;
}

/* An -rc kernel X.Y-rcN and a same-release pair "X.Y:..:X.Y:.." (introduced and fixed within
 * X.Y's merge window and -rcs): the -rc may hold the bug without its fix, which no version
 * reading can tell.  Pairs written with -rc versions are compared normally. */
static bool same_release_at_rc(const struct ck_compiled *cc, const struct kver *v)
{
	if (!v->rc)
		return false;
	for (size_t i = 0; i < cc->np; i++) {
		const struct ck_cpair *p = &cc->p[i];
		if (p->skip && !p->v.rc && xcmp(v, &p->v, true) == 0)
			return true;
	}
	return false;
}

/* Combine the two ends of an -rc (see xcmp). */
static enum ck_vstatus at_rc(enum ck_vstatus none, enum ck_vstatus all)
{
	if (none == all)
		return none;
	if (none == CK_ST_UNKNOWN || all == CK_ST_UNKNOWN)
		return CK_ST_UNKNOWN;
	return CK_ST_UNDECIDED;
}

enum ck_vstatus ck_record_dyad_verdict(struct ck_record *r, const struct kver *v, bool *introduced)
{
	const struct ck_compiled *cc = compile(r);
	enum ck_vstatus res = dyad_read(cc, v, false, introduced);
	if (!v->rc)
		return res;
	bool intro2 = false;
	res = at_rc(res, dyad_read(cc, v, true, &intro2));
	if (introduced)
		*introduced = *introduced || intro2;
	if (res == CK_ST_UNAFFECTED && same_release_at_rc(cc, v))
		res = CK_ST_UNDECIDED;
	return res;
}

/* x compared with series prefix p: <0 below the series, 0 inside, >0 above. */
static int series_cmp(const struct kver *x, const struct kver *p)
{
	for (int i = 0; i < p->ncomp; i++) {
		unsigned xc = i < x->ncomp ? x->comp[i] : 0;
		if (xc != p->comp[i])
			return xc < p->comp[i] ? -1 : 1;
	}
	return 0;
}

static bool crange_matches(const struct ck_crange *c, const struct kver *x, bool whole)
{
	if (c->kind == RK_POINT)
		return xcmp(x, &c->lo, whole) == 0;
	if (c->branch && !kver_same_major(x, &c->br))
		return false;
	if (!c->lo_zero && xcmp(x, &c->lo, whole) < 0)
		return false;
	switch (c->kind) {
	case RK_INF: return true;
	case RK_LT: return xcmp(x, &c->hi, whole) < 0;
	case RK_LE: return xcmp(x, &c->hi, whole) <= 0;
	case RK_LT_SERIES: return series_cmp(x, &c->hi) < 0;
	case RK_LE_SERIES: return c->branch || series_cmp(x, &c->hi) <= 0;
	}
	return false;
}

static enum ck_vstatus json_read(const struct ck_compiled *cc, const struct kver *v, bool whole,
				 struct ck_json_why *why)
{
	bool any_unaffected = false;
	struct ck_json_why w = {.prod = -1, .entry = -1, .fixed = false};
	for (size_t i = 0; i < cc->nprod; i++) {
		const struct ck_cprod *p = &cc->prod[i];
		unsigned char st = p->def;
		int entry = -1;
		for (size_t j = 0; j < p->n; j++) {
			if (p->v[j].skip)
				continue;
			if (crange_matches(&p->v[j], v, whole)) {
				st = p->v[j].status;
				entry = (int)j;
				break;
			}
		}
		if (st == CK_ST_AFFECTED) {
			if (why)
				*why = (struct ck_json_why){.prod = (int)i, .entry = entry, .fixed = false};
			return CK_ST_AFFECTED;
		}
		if (st == CK_ST_UNAFFECTED) {
			/* a match on an unaffected range that starts at a release is a fix */
			bool fix = entry >= 0 && !p->v[entry].lo_zero && p->v[entry].kind != RK_POINT;
			if (!any_unaffected || (fix && !w.fixed))
				w = (struct ck_json_why){.prod = (int)i, .entry = entry, .fixed = fix};
			any_unaffected = true;
		}
	}
	if (why)
		*why = w;
	return any_unaffected ? CK_ST_UNAFFECTED : CK_ST_UNKNOWN;
}

enum ck_vstatus ck_record_json_verdict(struct ck_record *r, const struct kver *v,
				       struct ck_json_why *why)
{
	const struct ck_compiled *cc = compile(r);
	enum ck_vstatus res = json_read(cc, v, false, why);
	if (!v->rc)
		return res;
	struct ck_json_why w2;
	enum ck_vstatus all = json_read(cc, v, true, &w2);
	if (res == CK_ST_UNAFFECTED && all == CK_ST_AFFECTED && why)
		*why = w2; /* name the entry that makes the -rc undecided */
	res = at_rc(res, all);
	if (res == CK_ST_UNAFFECTED && same_release_at_rc(cc, v))
		res = CK_ST_UNDECIDED;
	return res;
}

enum ck_vstatus ck_record_semver_verdict(struct ck_record *r, const struct kver *v)
{
	return ck_record_json_verdict(r, v, NULL);
}

/* "5.10.231 <= 5.10.*" of product p, entry e (or "defaultStatus affected"). */
void ck_json_why_text(const struct ck_record *r, const struct ck_json_why *w, char *buf, size_t n)
{
	static const char *const st[] = {"none", "affected", "unaffected", "unknown", "undecided"};
	if (w->prod < 0 || (size_t)w->prod >= r->nprod) {
		text_snprintf(buf, n, "no product decides");
		return;
	}
	const struct ck_product *p = &r->prod[w->prod];
	if (w->entry < 0 || (size_t)w->entry >= p->n) {
		text_snprintf(buf, n, "product %d: no entry matches, defaultStatus %s", w->prod + 1,
			 st[p->default_status < 5 ? p->default_status : 0]);
		return;
	}
	const struct ck_range *g = &p->v[w->entry];
	if (g->less_than)
		text_snprintf(buf, n, "product %d: %s < %s %s", w->prod + 1, g->version, g->less_than,
			 st[g->status < 5 ? g->status : 0]);
	else if (g->less_equal)
		text_snprintf(buf, n, "product %d: %s <= %s %s", w->prod + 1, g->version, g->less_equal,
			 st[g->status < 5 ? g->status : 0]);
	else
		text_snprintf(buf, n, "product %d: %s %s", w->prod + 1, g->version,
			 st[g->status < 5 ? g->status : 0]);
}

static const char *const reading_names[] = {"json", "dyad", "either"};

const char *ck_reading_name(enum ck_reading rd)
{
	return reading_names[(unsigned)rd < 3 ? rd : 0];
}

bool ck_reading_parse(const char *s, enum ck_reading *out)
{
	for (int i = 0; i < 3; i++)
		if (strcmp(s, reading_names[i]) == 0) {
			*out = (enum ck_reading)i;
			return true;
		}
	return false;
}

static bool decided(enum ck_vstatus s)
{
	return s == CK_ST_AFFECTED || s == CK_ST_UNAFFECTED || s == CK_ST_UNDECIDED;
}

void ck_record_readings(struct ck_record *r, const struct kver *v, enum ck_reading rd,
			struct ck_readings *out)
{
	memset(out, 0, sizeof *out);
	out->dyad = ck_record_dyad_verdict(r, v, &out->introduced);
	out->json = ck_record_json_verdict(r, v, &out->why);
	enum ck_vstatus first = rd == CK_READ_DYAD ? out->dyad : out->json;
	enum ck_vstatus second = rd == CK_READ_DYAD ? out->json : out->dyad;
	out->verdict = decided(first) ? first : second;
	if (rd == CK_READ_EITHER && out->verdict != CK_ST_AFFECTED) {
		if (out->dyad == CK_ST_AFFECTED || out->dyad == CK_ST_UNDECIDED)
			out->verdict = out->dyad;
	}
	out->fixed = out->verdict == CK_ST_UNAFFECTED &&
		     (out->verdict == out->json ? out->why.fixed || out->introduced : out->introduced);
}

/* Does `cand` (a release string) lie on x's branch after x?  Parsed into k. */
static bool later_on_branch(const char *cand, const struct kver *x, struct kver *k)
{
	if (strcmp(cand, "0") == 0)
		return false;
	ck_kver_parse(k, cand);
	return kver_same_major(k, x) && kver_cmp(k, x) > 0;
}

bool ck_branch_fix(struct ck_record *r, const struct kver *x, enum ck_reading rd, char *out,
		   size_t outsz)
{
	const char *best = NULL;
	struct kver bk, k;
	/* candidates: fixed versions of the pairs, lower bounds of the JSON's unaffected ranges */
	size_t ncand = r->pairs.n;
	for (size_t i = 0; i < r->nprod; i++)
		ncand += r->prod[i].n;
	for (size_t c = 0; c < ncand; c++) {
		const char *f;
		if (c < r->pairs.n) {
			f = r->pairs.v[c].fver;
		} else {
			size_t j = c - r->pairs.n, i = 0;
			while (j >= r->prod[i].n)
				j -= r->prod[i++].n;
			const struct ck_range *g = &r->prod[i].v[j];
			if (g->status != CK_ST_UNAFFECTED || g->type == CK_VT_GIT)
				continue;
			f = g->version;
		}
		if (!later_on_branch(f, x, &k) || (best && kver_cmp(&k, &bk) >= 0))
			continue;
		struct ck_readings rs;
		ck_record_readings(r, &k, rd, &rs);
		if (rs.verdict != CK_ST_UNAFFECTED)
			continue;
		best = f;
		bk = k;
	}
	if (!best)
		return false;
	text_snprintf(out, outsz, "%s", best);
	return true;
}
