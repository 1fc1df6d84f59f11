#include "check/verdict.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

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
		if (*p == '\0')
			return;
		if (p[0] == '-' && p[1] == 'r' && p[2] == 'c' && p[3] >= '0' && p[3] <= '9') {
			unsigned long r = 0;
			const char *q = p + 3;
			while (*q >= '0' && *q <= '9' && r < 100000)
				r = r * 10 + (unsigned)(*q++ - '0');
			if (*q != '\0')
				goto slow;
			v->rc = true;
			v->rcnum = (int)r;
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

enum ck_vstatus ck_dyad_verdict(const struct dyad_list *pairs, const struct kver *v)
{
	bool usable = false, looked = false;
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		if (dyad_pair_same_version(p))
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

bool ck_branch_fix(const struct ck_record *r, const struct kver *x, char *out, size_t outsz)
{
	const char *best = NULL;
	struct kver bk;
	for (size_t i = 0; i < r->pairs.n; i++) {
		const char *f = r->pairs.v[i].fver;
		if (strcmp(f, "0") == 0)
			continue;
		struct kver k;
		ck_kver_parse(&k, f);
		if (!kver_same_major(&k, x) || kver_cmp(&k, x) <= 0)
			continue;
		if (best && kver_cmp(&k, &bk) >= 0)
			continue;
		if (ck_dyad_verdict(&r->pairs, &k) != CK_ST_UNAFFECTED)
			continue;
		best = f;
		bk = k;
	}
	if (!best)
		return false;
	snprintf(out, outsz, "%s", best);
	return true;
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
		snprintf(buf, sizeof buf, "%.*s", (int)(n - 2), b);
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

static bool range_matches(const struct ck_range *g, const struct kver *x)
{
	if (!g->less_than && !g->less_equal) {
		struct kver k;
		ck_kver_parse(&k, g->version);
		return kver_cmp(x, &k) == 0;
	}
	if (strcmp(g->version, "0") != 0) {
		struct kver lo;
		ck_kver_parse(&lo, g->version);
		if (kver_cmp(x, &lo) < 0)
			return false;
	}
	if (g->less_than) {
		/* x < "P.*" means below the whole series P. */
		size_t n = strlen(g->less_than);
		if (n >= 2 && strcmp(g->less_than + n - 2, ".*") == 0) {
			struct kver p;
			char buf[64];
			snprintf(buf, sizeof buf, "%.*s", (int)(n - 2), g->less_than);
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

/* ---- version strings --------------------------------------------------------------------- */

int ck_version_normalize(const char *in, char *out, size_t outsz, struct kcve_err *err)
{
	const char *s = in;
	if (strncmp(s, "linux-", 6) == 0)
		s += 6;
	if (*s == 'v' || *s == 'V')
		s++;
	unsigned comp[3];
	int n = 0;
	const char *p = s;
	while (n < 3 && isdigit((unsigned char)*p)) {
		unsigned long c = 0;
		while (isdigit((unsigned char)*p)) {
			c = c * 10 + (unsigned)(*p - '0');
			if (c > 100000)
				break;
			p++;
		}
		if (c > 100000)
			break;
		comp[n++] = (unsigned)c;
		if (*p == '.' && isdigit((unsigned char)p[1]))
			p++;
		else
			break;
	}
	if (n < 2 || isdigit((unsigned char)*p))
		return kcve_err_set(err, KCVE_E_USAGE,
				    "'%s' is not a kernel version; give one like 6.1.107, v6.6.30 or 6.8-rc3",
				    in);
	int rc = -1;
	if (strncmp(p, "-rc", 3) == 0 && isdigit((unsigned char)p[3])) {
		rc = 0;
		for (const char *q = p + 3; isdigit((unsigned char)*q) && rc < 1000; q++)
			rc = rc * 10 + (*q - '0');
	} else if (n == 3 && comp[2] == 0 && *p == '-' && isdigit((unsigned char)p[1])) {
		return kcve_err_set(err, KCVE_E_USAGE,
				    "'%s' is a distribution ABI version (X.Y.0-N): it does not say which stable "
				    "release %u.%u.N it carries; pass the upstream version (Debian: the "
				    "'Debian %u.%u.N-M' text in /proc/version or the package version) or use --running",
				    in, comp[0], comp[1], comp[0], comp[1]);
	}
	if (rc >= 0)
		snprintf(out, outsz, "%u.%u-rc%d", comp[0], comp[1], rc);
	else if (n == 3 && comp[2] != 0)
		snprintf(out, outsz, "%u.%u.%u", comp[0], comp[1], comp[2]);
	else
		snprintf(out, outsz, "%u.%u", comp[0], comp[1]);
	return 0;
}

static bool take_version_at(const char *p, char *out, size_t outsz)
{
	struct kcve_err e;
	char tok[64];
	size_t n = 0;
	while (p[n] && !isspace((unsigned char)p[n]) && p[n] != ')' && n < sizeof tok - 1)
		n++;
	memcpy(tok, p, n);
	tok[n] = '\0';
	return ck_version_normalize(tok, out, outsz, &e) == 0;
}

bool ck_version_from_proc(const char *pv, char *out, size_t outsz)
{
	/* Debian: "... #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)" */
	const char *d = strstr(pv, " Debian ");
	while (d) {
		if (isdigit((unsigned char)d[8]) && take_version_at(d + 8, out, outsz))
			return true;
		d = strstr(d + 1, " Debian ");
	}
	/* Ubuntu: "(Ubuntu 5.15.0-91.101-generic 5.15.131)" — the last word is upstream. */
	const char *u = strstr(pv, "(Ubuntu ");
	if (u) {
		const char *close = strchr(u, ')');
		if (close) {
			const char *sp = close;
			while (sp > u && sp[-1] != ' ')
				sp--;
			char tok[64];
			snprintf(tok, sizeof tok, "%.*s", (int)(close - sp), sp);
			struct kcve_err e;
			if (isdigit((unsigned char)tok[0]) && ck_version_normalize(tok, out, outsz, &e) == 0)
				return true;
		}
	}
	return false;
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
	bool lo_zero, skip;
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
		snprintf(buf, sizeof buf, "%.*s", (int)(n - 2), b);
		ck_kver_parse(&c->hi, buf);
		c->kind = strict ? RK_LT_SERIES : RK_LE_SERIES;
	} else {
		ck_kver_parse(&c->hi, b);
		c->kind = strict ? RK_LT : RK_LE;
	}
}

static struct ck_compiled *compile(struct ck_record *r)
{
	if (r->cc)
		return r->cc;
	struct ck_compiled *cc = xcalloc(1, sizeof *cc);
	cc->p = xcalloc(r->pairs.n + 1, sizeof *cc->p);
	cc->np = r->pairs.n;
	for (size_t i = 0; i < r->pairs.n; i++) {
		const struct dyad_pair *p = &r->pairs.v[i];
		struct ck_cpair *c = &cc->p[i];
		c->skip = dyad_pair_same_version(p);
		c->vzero = strcmp(p->vver, "0") == 0;
		c->fzero = strcmp(p->fver, "0") == 0;
		ck_kver_parse(&c->v, p->vver);
		ck_kver_parse(&c->f, p->fver);
		c->vmain = kver_is_mainline(&c->v);
		c->fmain = kver_is_mainline(&c->f);
	}
	cc->prod = xcalloc(r->nprod + 1, sizeof *cc->prod);
	cc->nprod = r->nprod;
	for (size_t i = 0; i < r->nprod; i++) {
		const struct ck_product *p = &r->prod[i];
		struct ck_cprod *cp = &cc->prod[i];
		cp->def = p->default_status;
		cp->v = xcalloc(p->n + 1, sizeof *cp->v);
		cp->n = p->n;
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
		}
	}
	r->cc = cc;
	return cc;
}

void ck_compiled_free(struct ck_compiled *cc)
{
	if (!cc)
		return;
	for (size_t i = 0; i < cc->nprod; i++)
		free(cc->prod[i].v);
	free(cc->prod);
	free(cc->p);
	free(cc);
}

static bool in_c(const struct kver *a, bool zero, bool amain, const struct kver *x)
{
	if (zero)
		return true;
	if (kver_same_major(a, x))
		return kver_cmp(a, x) <= 0;
	return amain && kver_cmp(a, x) < 0;
}

enum ck_vstatus ck_record_dyad_verdict(struct ck_record *r, const struct kver *v, bool *introduced)
{
	const struct ck_compiled *cc = compile(r);
	bool usable = false, looked = false;
	enum ck_vstatus res = CK_ST_UNKNOWN;
	for (size_t i = 0; i < cc->np; i++) {
		const struct ck_cpair *p = &cc->p[i];
		if (p->skip)
			continue;
		usable = true;
		if (!in_c(&p->v, p->vzero, p->vmain, v))
			continue;
		looked = true;
		if (!p->fzero && in_c(&p->f, false, p->fmain, v)) {
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

static bool crange_matches(const struct ck_crange *c, const struct kver *x)
{
	if (c->kind == RK_POINT)
		return kver_cmp(x, &c->lo) == 0;
	if (!c->lo_zero && kver_cmp(x, &c->lo) < 0)
		return false;
	switch (c->kind) {
	case RK_INF: return true;
	case RK_LT: return kver_cmp(x, &c->hi) < 0;
	case RK_LE: return kver_cmp(x, &c->hi) <= 0;
	case RK_LT_SERIES: return series_cmp(x, &c->hi) < 0;
	case RK_LE_SERIES: return series_cmp(x, &c->hi) <= 0;
	}
	return false;
}

enum ck_vstatus ck_record_semver_verdict(struct ck_record *r, const struct kver *v)
{
	const struct ck_compiled *cc = compile(r);
	bool any_unaffected = false;
	for (size_t i = 0; i < cc->nprod; i++) {
		const struct ck_cprod *p = &cc->prod[i];
		unsigned char st = p->def;
		for (size_t j = 0; j < p->n; j++) {
			if (p->v[j].skip)
				continue;
			if (crange_matches(&p->v[j], v)) {
				st = p->v[j].status;
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
