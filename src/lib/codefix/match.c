/* Finding fix fingerprints in a source tree (see match.h for the rules). */
#include <ctype.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codefix/match.h"
#include "codefix/norm.h"
#include "core/safefs.h"
#include "core/xalloc.h"

#define W_TRIVIAL 0.2f
#define MAX_OCC 16  /* a line found more often than this in a file does not anchor a place */
#define MAX_CAND 24 /* places tried per hunk */
#define FULL 0.9f /* a side this well explained is there: the other side cannot be read */
#define EXPLAINED 0.75f /* share of a side's lines found for the tree to read as that side */

const char *cf_verdict_name(enum cf_verdict v)
{
	static const char *const n[] = {"undecided", "fixed", "vulnerable", "partial"};
	return (unsigned)v < 4 ? n[v] : "undecided";
}

const char *cf_hstate_name(enum cf_hstate s)
{
	static const char *const n[] = {"undecided", "fixed", "vulnerable", "missing"};
	return (unsigned)s < 4 ? n[s] : "undecided";
}

/* ---- source files ------------------------------------------------------------------------- */

static bool func_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

void cf_src_build(struct cf_src *f, const char *text, size_t len)
{
	memset(f, 0, sizeof *f);
	size_t alloc = 0, falloc = 0;
	char norm[CF_NORM_MAX + 1];
	uint32_t lineno = 0;
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		lineno++;
		size_t n = cf_norm(p, (size_t)(e - p), norm);
		if (n) {
			if (f->n + 1 > alloc) {
				alloc = alloc ? alloc * 2 : 1024;
				f->hs = xrealloc(f->hs, alloc * sizeof *f->hs);
				f->hl = xrealloc(f->hl, alloc * sizeof *f->hl);
				f->lineno = xrealloc(f->lineno, alloc * sizeof *f->lineno);
			}
			f->hs[f->n] = cf_hash_strict(norm, n);
			f->hl[f->n] = cf_hash_loose(norm, n);
			f->lineno[f->n] = lineno;
			if (func_start((unsigned char)*p)) {
				if (f->nfunc + 1 > falloc) {
					falloc = falloc ? falloc * 2 : 64;
					f->funcpos = xrealloc(f->funcpos, falloc * sizeof *f->funcpos);
					f->functext = xrealloc(f->functext, falloc * sizeof *f->functext);
				}
				f->funcpos[f->nfunc] = (uint32_t)f->n;
				f->functext[f->nfunc++] = xstrndup(norm, n);
			}
			f->n++;
		}
		p = nl ? nl + 1 : end;
	}
	size_t nb = 16;
	while (nb < 2 * f->n)
		nb *= 2;
	f->mask = nb - 1;
	f->head_s = xcalloc(nb, sizeof *f->head_s);
	f->head_l = xcalloc(nb, sizeof *f->head_l);
	f->next_s = xcalloc(f->n + 1, sizeof *f->next_s);
	f->next_l = xcalloc(f->n + 1, sizeof *f->next_l);
	for (size_t i = f->n; i-- > 0;) { /* chains in line order */
		size_t bs = (size_t)f->hs[i] & f->mask, bl = (size_t)f->hl[i] & f->mask;
		f->next_s[i] = f->head_s[bs];
		f->head_s[bs] = (uint32_t)i + 1;
		f->next_l[i] = f->head_l[bl];
		f->head_l[bl] = (uint32_t)i + 1;
	}
	f->text = text;
	f->len = len;
}

void cf_src_release(struct cf_src *f)
{
	for (size_t i = 0; i < f->nfunc; i++)
		free(f->functext[i]);
	free(f->functext);
	free(f->funcpos);
	free(f->hs);
	free(f->hl);
	free(f->lineno);
	free(f->head_s);
	free(f->head_l);
	free(f->next_s);
	free(f->next_l);
	funcscan_free(&f->fs);
	memset(f, 0, sizeof *f);
}

/* The lines whose strict (loose) hash is h, at most max + 1 of them into pos; their count. */
static size_t lookup(const struct cf_src *f, bool loose, uint64_t h, long *pos, size_t max)
{
	const uint32_t *head = loose ? f->head_l : f->head_s, *next = loose ? f->next_l : f->next_s;
	const uint64_t *hv = loose ? f->hl : f->hs;
	size_t c = 0;
	for (uint32_t i = head[(size_t)h & f->mask]; i && c <= max; i = next[i - 1])
		if (hv[i - 1] == h)
			pos[c++] = (long)i - 1;
	return c;
}

void cf_header_name(const char *func, char *out, size_t n)
{
	out[0] = '\0';
	const char *par = strchr(func, '(');
	if (!par)
		return;
	const char *e = par;
	while (e > func && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	const char *b = e;
	while (b > func && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	if (b < e && (size_t)(e - b) < n) {
		memcpy(out, b, (size_t)(e - b));
		out[e - b] = '\0';
	}
}

/* The line that a hunk header would name for file line pos (`diff -p`, git's default): the
 * nearest line at or above it that starts with a letter, '_' or '$'.  NULL when none. */
static const char *header_line_above(const struct cf_src *f, uint32_t pos)
{
	size_t lo = 0, hi = f->nfunc;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->funcpos[mid] <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? f->functext[lo - 1] : NULL;
}

/* Is file line pos (the first line of a place) in the function the hunk header names?  By the
 * C function scanner (csrc/funcscan.h) when it finds a function there or just above and the
 * header names one; else by the header rule (the header's text cut at ~40 bytes by diff is a
 * prefix of the line it named). */
static bool in_header_function(const struct cf_src *f, uint32_t pos, const char *hfunc_raw,
			       const char *hfunc_norm)
{
	char name[128];
	cf_header_name(hfunc_raw, name, sizeof name);
	unsigned line = f->lineno[pos];
	if (!f->scanned) { /* most hunks have one place and never ask: scan on first use */
		struct cf_src *mf = (struct cf_src *)f;
		funcscan_scan(&mf->fs, f->text, f->len);
		mf->scanned = true;
	}
	const struct funcscan_fn *fn = funcscan_at(&f->fs, line);
	if (!fn && line > 1)
		fn = funcscan_at(&f->fs, line - 1);
	if (fn && name[0])
		return !strcmp(fn->name, name);
	const char *ft = header_line_above(f, pos);
	size_t n = strlen(hfunc_norm);
	return ft && n >= 4 && strlen(ft) >= n && !memcmp(ft, hfunc_norm, n);
}

/* ---- one hunk ---------------------------------------------------------------------------- */

struct item {
	uint64_t hs, hl;
	float w;
	uint8_t type;
	bool trivial;
	bool moved; /* removed in one place of the hunk and added in another */
};

struct cand {
	long start;
	int votes;
	float score;
	uint8_t state;
	bool fmatch;
	uint32_t line;
	uint32_t first, last; /* the change's span (struct cf_hres) */
	bool ins;
};


#define ALL_SIDES 0xff
static bool item_matches(const struct item *it, const struct cf_src *f, size_t j, uint8_t skip)
{
	if (it->type == skip || (skip == ALL_SIDES && it->moved))
		return false; /* a moved line is there either way: it does not place the hunk */
	return it->type == CF_CTX ? it->hl == f->hl[j] : it->hs == f->hs[j];
}

/* Weighted alignment of the items with file lines [a, b): a matched item gains its weight,
 * a file line skipped between two matched ones costs GAP (so lines of the hunk are not picked
 * up one by one from far apart), items and lines before the first and after the last match
 * are free.  Items of type `skip` are left out (one side of the hunk).  pos[k] = matched line or
 * -1. */
#define GAP 0.15f
static float align(const struct item *it, size_t m, const struct cf_src *f, size_t a, size_t b,
		   long *pos, uint8_t skip)
{
	size_t w = b - a, cols = w + 1;
	float *dp = xcalloc((m + 1) * cols, sizeof *dp);
	for (size_t i = 1; i <= m; i++)
		for (size_t j = 1; j <= w; j++) {
			float best = dp[(i - 1) * cols + j];
			float gap = dp[i * cols + j - 1] - GAP;
			if (gap > best)
				best = gap;
			if (item_matches(&it[i - 1], f, a + j - 1, skip)) {
				float d = dp[(i - 1) * cols + j - 1] + it[i - 1].w;
				if (d > best)
					best = d;
			}
			dp[i * cols + j] = best;
		}
	size_t endj = 0;
	for (size_t j = 1; j <= w; j++)
		if (dp[m * cols + j] > dp[m * cols + endj])
			endj = j;
	float total = dp[m * cols + endj];
	for (size_t i = 0; i < m; i++)
		pos[i] = -1;
	for (size_t i = m, j = endj; i > 0 && j > 0;) {
		float here = dp[i * cols + j];
		if (here == dp[(i - 1) * cols + j])
			i--;
		else if (item_matches(&it[i - 1], f, a + j - 1, skip) &&
			 here == dp[(i - 1) * cols + j - 1] + it[i - 1].w) {
			pos[i - 1] = (long)(a + j - 1);
			i--;
			j--;
		} else {
			j--;
		}
	}
	free(dp);
	return total;
}

/* The next change block (a run of removed and added lines) at or after *b: its start in *b,
 * its end returned (== *b when there is none). */
static size_t next_block(const struct item *it, size_t m, size_t *b)
{
	while (*b < m && it[*b].type == CF_CTX)
		++*b;
	size_t e = *b;
	while (e < m && it[e].type != CF_CTX)
		e++;
	return e;
}

/* Is each change block placed: the nearest matched context lines around it are at most
 * `slack` lines further apart than the old (want_old) or new side of the hunk between them
 * has lines?  A block at the hunk's edge needs its one side. */
static bool blocks_tight(const struct item *it, size_t m, const long *pos, bool want_old,
			 long slack)
{
	for (size_t b = 0, e; (e = next_block(it, m, &b)) > b; b = e) {
		long lo = -1, hi = -1;
		size_t li = b, hidx = e;
		while (li > 0 && b - li < 3 && lo < 0)
			if (pos[--li] >= 0 && it[li].type == CF_CTX)
				lo = pos[li];
		for (size_t k = e; k < m && k - e < 3 && hi < 0; k++)
			if (pos[k] >= 0 && it[k].type == CF_CTX) {
				hi = pos[k];
				hidx = k;
			}
		if ((lo < 0 && b > 0) || (hi < 0 && e < m) || (lo < 0 && hi < 0))
			return false;
		if (lo >= 0 && hi >= 0) {
			long expect = 0;
			for (size_t k = li + 1; k < hidx; k++)
				expect += it[k].type == CF_CTX ||
					  it[k].type == (want_old ? CF_DEL : CF_ADD);
			if (hi - lo - 1 > expect + slack)
				return false;
		}
	}
	return true;
}

/* Matched weight of the items of one type in an alignment, and their total; moved lines only
 * with `moved` (they are there before and after the fix: only their place tells). */
static void side(const struct item *it, size_t m, const long *pos, uint8_t type, bool moved,
		 float *tot, float *got)
{
	*tot = *got = 0;
	for (size_t k = 0; k < m; k++)
		if (it[k].type == type && (moved || !it[k].moved)) {
			*tot += it[k].w;
			*got += pos[k] >= 0 ? it[k].w : 0;
		}
}

/* The hunk's reading in file lines [a, b): the old side (context and removed lines) and the
 * new side (context and added lines) are aligned separately; a side is read when it explains
 * most of its lines, its own changed lines are there, the other side's are not, and — for a
 * fix that only adds or only removes — the place of the change is tight on the read side. */
static uint8_t read_state(const struct item *it, size_t m, const struct cf_src *f, size_t a,
			  size_t b, const long *pos, long *po, long *pn)
{
	int sig = 0, msig = 0;
	for (size_t k = 0; k < m; k++) {
		sig += !it[k].trivial;
		msig += !it[k].trivial && pos[k] >= 0;
	}
	if (msig < (sig < 2 ? sig : 2) || msig == 0)
		return CF_H_UNKNOWN;
	align(it, m, f, a, b, po, CF_ADD);
	align(it, m, f, a, b, pn, CF_DEL);
	float c, mco, mcn, r, mr, ad, ma, ro, mro, an, man;
	side(it, m, po, CF_CTX, false, &c, &mco);
	side(it, m, pn, CF_CTX, false, &c, &mcn);
	side(it, m, po, CF_DEL, true, &ro, &mro);
	side(it, m, pn, CF_ADD, true, &an, &man);
	side(it, m, po, CF_DEL, false, &r, &mr);
	side(it, m, pn, CF_ADD, false, &ad, &ma);
	float xo = (mco + mro) / (c + ro), xn = (mcn + man) / (c + an);
	if (ad == 0 && r == 0) { /* only moves: the side whose order the file follows */
		if (xn >= FULL && xo < xn)
			return CF_H_FIXED;
		if (xo >= FULL && xn < xo)
			return CF_H_VULN;
	} else if (ad > 0 && r > 0) {
		if (ma >= 0.7f * ad && mr <= 0.3f * r && xn >= EXPLAINED)
			return CF_H_FIXED;
		if (mr >= 0.7f * r && ma <= 0.3f * ad && xo >= EXPLAINED)
			return CF_H_VULN;
	} else if (ad > 0) {
		if (ma >= 0.7f * ad && xn >= EXPLAINED && blocks_tight(it, m, pn, false, 3))
			return CF_H_FIXED;
		if (c > 0 && xo >= EXPLAINED && xn < FULL && blocks_tight(it, m, po, true, 0))
			return CF_H_VULN;
	} else if (r > 0) {
		if (mr >= 0.7f * r && xo >= EXPLAINED)
			return CF_H_VULN;
		if (c > 0 && xn >= EXPLAINED && xo < FULL && blocks_tight(it, m, pn, false, 0))
			return CF_H_FIXED;
	}
	return CF_H_UNKNOWN;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static int cmp_votes(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	return (y->votes > x->votes) - (y->votes < x->votes);
}

/* Places where the hunk may be: starts implied by its distinctive lines, clustered. */
static size_t find_candidates(const struct item *it, size_t m, const struct cf_src *f,
			      struct cand *out)
{
	size_t ns = 0, alloc = 0;
	long *starts = NULL;
	for (size_t k = 0; k < m; k++) {
		if (it[k].trivial || it[k].moved)
			continue;
		bool ctx = it[k].type == CF_CTX;
		long at[MAX_OCC + 1];
		size_t c = lookup(f, ctx, ctx ? it[k].hl : it[k].hs, at, MAX_OCC);
		if (c > MAX_OCC)
			continue;
		XGROW(starts, ns + c, alloc);
		for (size_t i = 0; i < c; i++)
			starts[ns++] = at[i] - (long)k;
	}
	if (ns)
		qsort(starts, ns, sizeof *starts, cmp_long);
	size_t nc = 0, cap = 4 * MAX_CAND;
	struct cand *all = xcalloc(cap, sizeof *all);
	long gap = (long)m / 2 + 8;
	for (size_t i = 0; i < ns;) {
		size_t j = i;
		while (j + 1 < ns && starts[j + 1] - starts[j] <= gap)
			j++;
		if (nc < cap)
			all[nc++] = (struct cand){.start = starts[(i + j) / 2], .votes = (int)(j - i + 1)};
		i = j + 1;
	}
	qsort(all, nc, sizeof *all, cmp_votes);
	if (nc > MAX_CAND)
		nc = MAX_CAND;
	memcpy(out, all, nc * sizeof *out);
	free(all);
	free(starts);
	return nc;
}

static void span_add(struct cand *c, uint32_t line)
{
	c->first = !c->first || line < c->first ? line : c->first;
	c->last = line > c->last ? line : c->last;
}

/* The span of the change on the side the hunk reads at a place (struct cf_hres): pos is that
 * side's alignment, type its changed lines (CF_ADD for fixed, CF_DEL for vulnerable).  A
 * block with none of its lines there is placed by the context lines around it; a block that
 * cannot be placed at all leaves the hunk without a span (never a span missing a block). */
static void change_span(const struct item *it, size_t m, const struct cf_src *f, const long *pos,
			uint8_t type, struct cand *c)
{
	for (size_t b = 0, e; (e = next_block(it, m, &b)) > b; b = e) {
		bool placed = false, around = false;
		for (size_t k = b; k < e; k++)
			if (it[k].type == type && pos[k] >= 0) {
				span_add(c, f->lineno[pos[k]]);
				placed = true;
			}
		for (size_t k = b; !placed && k-- > 0;)
			if (it[k].type == CF_CTX && pos[k] >= 0) {
				span_add(c, f->lineno[pos[k]]);
				placed = around = true;
				break;
			}
		for (size_t k = e; k < m && (!placed || around); k++)
			if (it[k].type == CF_CTX && pos[k] >= 0) {
				span_add(c, f->lineno[pos[k]]);
				placed = around = true;
				break;
			}
		c->ins |= around;
		if (!placed) {
			c->first = c->last = 0;
			c->ins = false;
			return;
		}
	}
}

static void eval_candidate(const struct item *it, size_t m, const struct cf_src *f,
			   const char *hraw, const char *hfunc, struct cand *c, long *pos)
{
	long slack = m > 16 ? (long)m : 16;
	long a = c->start - slack, b = c->start + (long)m + slack;
	if (a < 0)
		a = 0;
	if (b > (long)f->n)
		b = (long)f->n;
	c->score = align(it, m, f, (size_t)a, (size_t)b, pos, ALL_SIDES);
	c->state = read_state(it, m, f, (size_t)a, (size_t)b, pos, pos + m, pos + 2 * m);
	c->first = c->last = 0;
	c->ins = false;
	if (c->state == CF_H_FIXED || c->state == CF_H_VULN)
		change_span(it, m, f, c->state == CF_H_FIXED ? pos + 2 * m : pos + m,
			    c->state == CF_H_FIXED ? CF_ADD : CF_DEL, c);
	long firstpos = -1;
	for (size_t k = 0; k < m && firstpos < 0; k++)
		firstpos = pos[k];
	c->line = firstpos >= 0 ? f->lineno[firstpos] : 0;
	c->fmatch = firstpos >= 0 && hfunc[0] && hraw &&
		    in_header_function(f, (uint32_t)firstpos, hraw, hfunc);
}

/* The hunk's reading from its candidate places: the best one, among those in the hunk's own
 * function when one of them is nearly as good; two near-best places reading differently
 * leave the hunk unknown. */
static void choose(struct cand *c, size_t nc, struct cf_hres *out)
{
	float top = 0;
	bool any_f = false;
	for (size_t i = 0; i < nc; i++)
		top = c[i].score > top ? c[i].score : top;
	for (size_t i = 0; i < nc; i++)
		any_f |= c[i].fmatch && c[i].score >= 0.5f * top;
	float best = 0;
	size_t bi = nc;
	for (size_t i = 0; i < nc; i++)
		if ((!any_f || c[i].fmatch) && c[i].score > best) {
			best = c[i].score;
			bi = i;
		}
	if (bi == nc)
		return;
	out->state = c[bi].state;
	out->line = c[bi].line;
	out->first = c[bi].first;
	out->last = c[bi].last;
	out->ins = c[bi].ins;
	for (size_t i = 0; i < nc; i++)
		if ((!any_f || c[i].fmatch) && c[i].score >= 0.85f * best &&
		    c[i].state != CF_H_UNKNOWN && c[i].state != c[bi].state)
			out->state = CF_H_UNKNOWN;
	if (out->state == CF_H_UNKNOWN)
		out->first = out->last = 0;
}

/* Is the changed line x also changed the other way in a hunk of the same file (a block of
 * code the fix moves)? */
static bool moved_line(const struct cf_file *file, const struct cf_item *x)
{
	uint8_t other = x->type == CF_ADD ? CF_DEL : CF_ADD;
	for (uint32_t i = 0; i < file->n; i++)
		for (uint32_t k = 0; k < file->h[i].n; k++)
			if (file->h[i].it[k].type == other && file->h[i].it[k].line == x->line)
				return true;
	return false;
}

void cf_match_hunk(const struct cf_set *s, const struct cf_file *file, const struct cf_hunk *h,
		   const struct cf_src *f, struct cf_hres *out)
{
	size_t m = h->n;
	struct item *it = xcalloc(m + 1, sizeof *it);
	*out = (struct cf_hres){.state = CF_H_UNKNOWN};
	for (size_t k = 0; k < m; k++) {
		const struct cf_line *l = &s->lines[h->it[k].line];
		it[k] = (struct item){l->hs, l->hl, l->trivial ? W_TRIVIAL : 1.0f, h->it[k].type,
				      l->trivial != 0, false};
		if (it[k].type != CF_CTX)
			out->weight += it[k].w;
	}
	for (size_t k = 0; k < m; k++)
		it[k].moved = it[k].type != CF_CTX && moved_line(file, &h->it[k]);
	char hfunc[CF_NORM_MAX + 1];
	cf_norm(h->func, strlen(h->func), hfunc);
	struct cand c[MAX_CAND];
	size_t nc = find_candidates(it, m, f, c);
	long *pos = xcalloc(3 * m + 1, sizeof *pos);
	for (size_t i = 0; i < nc; i++)
		eval_candidate(it, m, f, nc > 1 ? h->func : NULL, hfunc, &c[i], pos);
	choose(c, nc, out);
	free(pos);
	free(it);
}
