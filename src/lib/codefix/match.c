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
/* Alignment cells one hunk may use (about 0.1 s): a hunk of 600 lines is aligned at its 7 best
 * supported places, a hunk of 12 lines at all 24.  A hunk whose other places were left unread
 * is unknown (one of them might read otherwise). */
#define HUNK_CELLS_MAX ((size_t)48 << 20)

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
				f->off = xrealloc(f->off, alloc * sizeof *f->off);
			}
			f->off[f->n] = (uint32_t)(p - text);
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
	free(f->off);
	free(f->head_s);
	free(f->head_l);
	free(f->next_s);
	free(f->next_l);
	funcscan_free(&f->fs);
	free(f->byname);
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

static int cmp_fn_name(const void *a, const void *b)
{
	const struct funcscan_fn *x = *(const struct funcscan_fn *const *)a,
				 *y = *(const struct funcscan_fn *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x > y) - (x < y);
}

/* The file's C functions (csrc/funcscan.h), scanned on first use (most hunks have one place
 * and never ask), with an index by name. */
static void scan_functions(const struct cf_src *f)
{
	if (f->scanned)
		return;
	struct cf_src *mf = (struct cf_src *)f;
	funcscan_scan(&mf->fs, f->text, f->len);
	mf->byname = xcalloc(f->fs.n + 1, sizeof *mf->byname);
	for (size_t i = 0; i < f->fs.n; i++)
		mf->byname[i] = &f->fs.fn[i];
	if (f->fs.n > 1)
		qsort(mf->byname, f->fs.n, sizeof *mf->byname, cmp_fn_name);
	mf->scanned = true;
}

/* The function at file line `line` (1-based) or on the line above (a place starting on the
 * blank line or comment before a definition), NULL when none. */
static const struct funcscan_fn *func_at(const struct cf_src *f, unsigned line)
{
	scan_functions(f);
	const struct funcscan_fn *fn = funcscan_at(&f->fs, line);
	if (!fn && line > 1)
		fn = funcscan_at(&f->fs, line - 1);
	return fn;
}

/* The definitions of function `name` in the file (several under #if branches): *n of them
 * from the returned pointer on, NULL when the file defines none. */
static const struct funcscan_fn *const *funcs_named(const struct cf_src *f, const char *name,
						    size_t *n)
{
	scan_functions(f);
	size_t lo = 0, hi = f->fs.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(f->byname[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t e = lo;
	while (e < f->fs.n && !strcmp(f->byname[e]->name, name))
		e++;
	*n = e - lo;
	return e > lo ? (const struct funcscan_fn *const *)f->byname + lo : NULL;
}

/* The first non-blank line at or after file line `line` (1-based): its index, f->n when none. */
static size_t line_index(const struct cf_src *f, unsigned line)
{
	size_t lo = 0, hi = f->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->lineno[mid] < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

#define CALL_SCAN_MAX ((size_t)64 << 10) /* bytes of a function read for a call */
#define DEFS_MAX 4 /* definitions of one name looked at (#if branches; more: hostile input) */

/* Does the body of fn call `name` (the identifier followed by '(')?  Only its first
 * CALL_SCAN_MAX bytes are read: a call further down is not seen. */
static bool calls(const struct cf_src *f, const struct funcscan_fn *fn, const char *name)
{
	size_t nl = strlen(name), a = line_index(f, fn->body_line);
	size_t b = line_index(f, fn->end_line + 1);
	if (!nl || a >= f->n)
		return false;
	size_t from = f->off[a], to = b < f->n ? f->off[b] : f->len;
	if (to - from > CALL_SCAN_MAX)
		to = from + CALL_SCAN_MAX;
	for (const char *p = f->text + from, *e = f->text + to; (size_t)(e - p) > nl; p++) {
		p = memchr(p, name[0], (size_t)(e - p) - nl);
		if (!p)
			break;
		if (memcmp(p, name, nl) || (p > f->text && ident_char(p[-1])))
			continue;
		const char *q = p + nl;
		while (q < e && (*q == ' ' || *q == '\t'))
			q++;
		if (q < e && *q == '(')
			return true;
	}
	return false;
}

/* Is the line a hunk header would name for file line pos (header_line_above) the one the
 * header names (normalised: hfunc_norm; diff cuts it at ~40 bytes, so a prefix of it)? */
static bool header_named(const struct cf_src *f, uint32_t pos, const char *hfunc_norm)
{
	const char *ft = header_line_above(f, pos);
	size_t n = strlen(hfunc_norm);
	return ft && n >= 4 && strlen(ft) >= n && !memcmp(ft, hfunc_norm, n);
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
	const struct funcscan_fn *fn = func_at(f, line);
	if (fn && name[0])
		return !strcmp(fn->name, name);
	return header_named(f, pos, hfunc_norm);
}

/* ---- one hunk ---------------------------------------------------------------------------- */

struct item {
	uint64_t hs, hl;
	float w;
	uint8_t type;
	bool trivial;
	bool moved; /* removed in one place of the hunk and added in another */
	bool twin;  /* an added line the same as one of the hunk's context lines */
	bool infile; /* the line is in the file (strictly for a changed line, loosely for context) */
	bool off;    /* left out of an alignment: an added line found out of its place */
};

struct cand {
	long start;
	int votes;
	float score;
	uint8_t state;
	bool fmatch;
	bool by_ctx; /* some vote for the place came from a context line */
	bool hdr;    /* the line a hunk header would name for the place is the header's */
	uint32_t line;
	uint32_t top; /* file line where the hunk's first line would be */
	uint32_t first, last; /* the change's span (struct cf_hres) */
	bool ins;
};


#define ALL_SIDES 0xff
static bool item_matches(const struct item *it, const struct cf_src *f, size_t j, uint8_t skip)
{
	if (it->type == skip || (skip == ALL_SIDES && it->moved) || it->off)
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
		   long *pos, uint8_t skip, float *dp)
{
	size_t w = b - a, cols = w + 1;
	memset(dp, 0, cols * sizeof *dp); /* row 0; column 0 is set per row */
	for (size_t i = 1; i <= m; i++) {
		const struct item *x = &it[i - 1];
		bool on = x->type != skip && !(skip == ALL_SIDES && x->moved) && !x->off;
		const uint64_t *hv = (x->type == CF_CTX ? f->hl : f->hs) + a;
		uint64_t key = x->type == CF_CTX ? x->hl : x->hs;
		const float *prev = dp + (i - 1) * cols;
		float *cur = dp + i * cols;
		cur[0] = 0;
		for (size_t j = 1; j <= w; j++) {
			float best = prev[j];
			float gap = cur[j - 1] - GAP;
			if (gap > best)
				best = gap;
			if (on && hv[j - 1] == key) {
				float d = prev[j - 1] + x->w;
				if (d > best)
					best = d;
			}
			cur[j] = best;
		}
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

enum anchor { ANCHORED, SHORT, ASTRAY };

/* One side of a block's new side in alignment pos, walking from item k by step (+1 or -1)
 * from the file line want: every context or added line matched on the next line (removed
 * lines are not on the new side), until a distinctive (non-trivial) context line (ANCHORED);
 * the hunk's edge, a context line the file lacks (changed since) or another block's added
 * lines not there end the walk SHORT (nothing distinctive holds the block on this side); a
 * line found on another line, or a context line the file has but not here, is ASTRAY (the
 * block stands where its context is not).  `free` lines may be skipped first
 * (added lines of the block not found, which a backport may lack or have changed), and
 * *slack more on the way (lines a later release put between). */
static enum anchor anchor_side(const struct item *it, size_t m, const long *pos, long k,
			       int step, long want, long free, long *slack)
{
	for (; k >= 0 && k < (long)m; k += step) {
		if (it[k].type == CF_DEL)
			continue;
		if (pos[k] < 0) /* elsewhere in the file: not here; nowhere: changed since */
			return it[k].infile && it[k].type == CF_CTX ? ASTRAY : SHORT;
		long d = (pos[k] - want) * step;
		if (d < 0 || d > free + *slack)
			return it[k].type == CF_ADD ? SHORT : ASTRAY;
		*slack -= d > free ? d - free : 0;
		free = 0;
		if (it[k].type == CF_CTX && !it[k].trivial)
			return ANCHORED;
		want = pos[k] + step;
	}
	return SHORT;
}

/* Is the new side of change block [b, e) in its place in alignment pos: its added lines
 * (moved ones too) on consecutive file lines — one not found may take its one line, as a
 * line a backport changed, or none — and the hunk's lines next to them following on without
 * a gap, outwards on both sides (anchor_side), but for `slack` lines more between them all
 * (see unanchor)?  ANCHORED needs one side to reach a
 * distinctive line and neither astray: added lines next to nothing but "}" or "return 0;"
 * are SHORT, not placed; added lines that stand elsewhere (the same statements further down
 * the function, a copy in the other branch of an #if) are ASTRAY, not the fix.  A block
 * without added lines found is ANCHORED (nothing of it is out of place). */
static enum anchor block_anchored(const struct item *it, size_t m, const long *pos, size_t b,
				  size_t e, long slack)
{
	long first = -1, next = -1, lead = 0, miss = 0;
	for (size_t k = b; k < e; k++) {
		if (it[k].type != CF_ADD)
			continue;
		if (pos[k] < 0) {
			miss++;
			continue;
		}
		if (first < 0) {
			first = pos[k];
			lead = miss;
		} else {
			long d = pos[k] - next;
			if (d < 0 || d > miss + slack)
				return ASTRAY;
			slack -= d > miss ? d - miss : 0;
		}
		next = pos[k] + 1;
		miss = 0;
	}
	if (first < 0)
		return ANCHORED;
	enum anchor before = anchor_side(it, m, pos, (long)b - 1, -1, first - 1, lead, &slack);
	enum anchor after = anchor_side(it, m, pos, (long)e, 1, next, miss, &slack);
	if (before == ASTRAY || after == ASTRAY)
		return ASTRAY;
	return before == ANCHORED || after == ANCHORED ? ANCHORED : SHORT;
}

/* Forget the added lines of every block astray in pos (block_anchored), and mark them `off`:
 * they are somewhere, not in their place.  In a hunk that also removes lines (whose absence is evidence too) a
 * block may have grown by 3 lines and half its added ones since (a later release's lines
 * between); in a hunk that only adds, not by one.  Returns their matched weight; *short_ is set when a block is SHORT.
 * Blocks with moved lines count only with `moved` (an alignment that leaves moved lines out
 * cannot place them). */
static float unanchor(struct item *it, size_t m, long *pos, bool moved, bool *short_)
{
	float lost = 0;
	bool removes = false;
	for (size_t k = 0; k < m; k++)
		removes |= it[k].type == CF_DEL && !it[k].moved;
	for (size_t b = 0, e; (e = next_block(it, m, &b)) > b; b = e) {
		bool has_moved = false;
		long nadd = 0;
		for (size_t k = b; k < e; k++) {
			has_moved |= it[k].moved;
			nadd += it[k].type == CF_ADD;
		}
		if (has_moved && !moved)
			continue;
		enum anchor a = block_anchored(it, m, pos, b, e, removes ? 3 + nadd / 2 : 0);
		if (a == SHORT && short_)
			*short_ = true;
		if (a != ASTRAY)
			continue;
		for (size_t k = b; k < e; k++)
			if (it[k].type == CF_ADD && pos[k] >= 0) {
				lost += it[k].w;
				pos[k] = -1;
				it[k].off = true;
			}
	}
	return lost;
}

/* align(), then — when some added lines were found out of their place (unanchor) — again
 * without them, so that lines not in their place neither choose the hunk's place nor hide
 * its context: the alignment's total; *lost = the weight of the added lines left out,
 * *short_ set as by unanchor; the first alignment into `first` when not NULL.  dp: scratch of
 * (m + 1) * (b - a + 1) floats. */
static float align_placed(struct item *it, size_t m, const struct cf_src *f, size_t a, size_t b,
			  long *pos, uint8_t skip, float *lost, bool *short_, float *dp, long *first)
{
	float total = align(it, m, f, a, b, pos, skip, dp);
	if (first)
		memcpy(first, pos, m * sizeof *pos);
	*lost = unanchor(it, m, pos, skip != ALL_SIDES, short_);
	if (*lost > 0) {
		if (short_)
			*short_ = false;
		total = align(it, m, f, a, b, pos, skip, dp);
		unanchor(it, m, pos, skip != ALL_SIDES, short_);
	}
	for (size_t k = 0; k < m; k++)
		it[k].off = false;
	return total;
}

/* Does alignment po take for a context line a file line that alignment pn takes for an added
 * line (the fix's own line read as its context)?  Both increase along the items: one merge
 * walk. */
static bool shares_added(const struct item *it, size_t m, const long *po, const long *pn)
{
	size_t i = 0, j = 0;
	while (i < m && j < m) {
		if (po[i] < 0 || it[i].type != CF_CTX) {
			i++;
		} else if (pn[j] < 0 || it[j].type != CF_ADD) {
			j++;
		} else if (po[i] == pn[j]) {
			return true;
		} else if (po[i] < pn[j]) {
			i++;
		} else {
			j++;
		}
	}
	return false;
}

/* Keep in pos only the added lines of blocks that were found: most of their weight, and some
 * distinctive line among them (not trivial, not the same as a context line of the hunk) —
 * a block "found" by its "if (err)" and "goto out;" alone, or by the tail of a similar check
 * next to it, is context read twice, not the fix. */
static void keep_distinctive(const struct item *it, size_t m, long *pos)
{
	for (size_t b = 0, e; (e = next_block(it, m, &b)) > b; b = e) {
		bool distinct = false;
		float tot = 0, got = 0;
		for (size_t k = b; k < e; k++) {
			if (it[k].type != CF_ADD)
				continue;
			tot += it[k].w;
			got += pos[k] >= 0 ? it[k].w : 0;
			distinct |= pos[k] >= 0 && !it[k].trivial && !it[k].twin;
		}
		for (size_t k = b; k < e && !(distinct && got >= 0.7f * tot); k++)
			if (it[k].type == CF_ADD)
				pos[k] = -1;
	}
}

/* Weight of the context lines an alignment matched in their strict form (not only with other
 * names for the locals). */
static float strict_ctx(const struct item *it, size_t m, const struct cf_src *f, const long *pos)
{
	float w = 0;
	for (size_t k = 0; k < m; k++)
		if (it[k].type == CF_CTX && pos[k] >= 0 && it[k].hs == f->hs[pos[k]])
			w += it[k].w;
	return w;
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
static uint8_t read_state(struct item *it, size_t m, const struct cf_src *f, size_t a,
			  size_t b, const long *pos, long *po, long *pn, long *praw, float *dp)
{
	int sig = 0, msig = 0;
	for (size_t k = 0; k < m; k++) {
		sig += !it[k].trivial;
		msig += !it[k].trivial && pos[k] >= 0;
	}
	if (msig < (sig < 2 ? sig : 2) || msig == 0)
		return CF_H_UNKNOWN;
	align(it, m, f, a, b, po, CF_ADD, dp);
	/* added lines count only in their place: a fix's statements that already stand elsewhere
	 * in the function are not the fix (praw keeps where they were found, pn forgets them) */
	bool short_ = false;
	float astray;
	align_placed(it, m, f, a, b, pn, CF_DEL, &astray, &short_, dp, praw);
	bool anchored = astray == 0 && !short_;
	float c, mco, mcn, r, mr, ad, ma, ro, mro, an, man;
	side(it, m, po, CF_CTX, false, &c, &mco);
	side(it, m, pn, CF_CTX, false, &c, &mcn);
	side(it, m, po, CF_DEL, true, &ro, &mro);
	side(it, m, pn, CF_ADD, true, &an, &man);
	side(it, m, po, CF_DEL, false, &r, &mr);
	side(it, m, pn, CF_ADD, false, &ad, &ma);
	float xo = (mco + mro) / (c + ro), xn = (mcn + man) / (c + an), maraw;
	side(it, m, praw, CF_ADD, false, &ad, &maraw); /* before keep_distinctive */
	/* the old side read on the fix's own lines (a declaration matching another loosely, or
	 * the fix a few lines off its place in a later release) is not the old side */
	keep_distinctive(it, m, praw);
	bool own = shares_added(it, m, po, praw);
	if (ad == 0 && r == 0) { /* only moves: the side whose order the file follows */
		if (xn >= FULL && xo < xn)
			return CF_H_FIXED;
		if (xo >= FULL && xn < xo && !own)
			return CF_H_VULN;
	} else if (ad > 0 && r > 0) {
		if (ma >= 0.7f * ad && mr <= 0.3f * r && xn >= EXPLAINED)
			return CF_H_FIXED;
		if (mr >= 0.7f * r && maraw <= 0.3f * ad && xo >= EXPLAINED)
			return CF_H_VULN;
	} else if (ad > 0) {
		/* a fix that only adds lines: every block of them in its place, and the old side's
		 * shape (the context closed up where the lines go) not also there, on other lines
		 * than the added ones and as exactly as the new side's (not only with other names
		 * for the locals) — a copy of the context elsewhere, in an #if branch say, leaves
		 * the hunk unknown */
		if (anchored && ma >= 0.7f * ad && xn >= EXPLAINED &&
		    blocks_tight(it, m, pn, false, 3) &&
		    !(c > 0 && xo >= EXPLAINED && blocks_tight(it, m, po, true, 0) &&
		      !shares_added(it, m, po, pn) &&
		      strict_ctx(it, m, f, po) >= strict_ctx(it, m, f, pn)))
			return CF_H_FIXED;
		if (c > 0 && xo >= EXPLAINED && xn < FULL && blocks_tight(it, m, po, true, 0) &&
		    !own)
			return CF_H_VULN;
	} else if (r > 0) {
		if (mr >= 0.7f * r && xo >= EXPLAINED)
			return CF_H_VULN;
		if (c > 0 && xn >= EXPLAINED && xo < FULL && blocks_tight(it, m, pn, false, 0))
			return CF_H_FIXED;
	}
	return CF_H_UNKNOWN;
}

/* One start implied by one line of the hunk: where the hunk would begin if that line is
 * where the file has it; ctx: the line is a context line. */
struct vote {
	long start;
	bool ctx;
};

static int cmp_vote(const void *a, const void *b)
{
	long x = ((const struct vote *)a)->start, y = ((const struct vote *)b)->start;
	return (x > y) - (x < y);
}

static int cmp_votes(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	return (y->votes > x->votes) - (y->votes < x->votes);
}

/* Places where the hunk may be: starts implied by its distinctive lines, clustered.  A cluster
 * spans at most `gap` lines: starts are not chained one to the next (in a file of many short
 * look-alike functions a chain runs through all of them, and the one window around its middle
 * leaves out the hunk's own place while a look-alike that has the fix's lines decides). */
static size_t find_candidates(const struct item *it, size_t m, const struct cf_src *f,
			      struct cand *out)
{
	size_t ns = 0, alloc = 0;
	struct vote *starts = NULL;
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
			starts[ns++] = (struct vote){at[i] - (long)k, ctx};
	}
	if (ns)
		qsort(starts, ns, sizeof *starts, cmp_vote);
	size_t nc = 0; /* every cluster is kept until sorted by votes (at most one per start) */
	struct cand *all = xcalloc(ns + 1, sizeof *all);
	long gap = (long)m / 2 + 8;
	for (size_t i = 0; i < ns;) {
		size_t j = i;
		bool by_ctx = starts[i].ctx;
		while (j + 1 < ns && starts[j + 1].start - starts[i].start <= gap)
			by_ctx |= starts[++j].ctx;
		all[nc++] = (struct cand){.start = starts[(i + j) / 2].start,
					  .votes = (int)(j - i + 1), .by_ctx = by_ctx};
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

static void eval_candidate(struct item *it, size_t m, const struct cf_src *f,
			   const char *hraw, const char *hfunc, struct cand *c, long *pos, float *dp)
{
	long slack = m > 16 ? (long)m : 16;
	long a = c->start - slack, b = c->start + (long)m + slack;
	if (a < 0)
		a = 0;
	if (b > (long)f->n)
		b = (long)f->n;
	/* added lines found out of their place do not make this place the hunk's */
	float lost;
	c->score = align_placed(it, m, f, (size_t)a, (size_t)b, pos, ALL_SIDES, &lost, NULL, dp,
				NULL);
	c->state = read_state(it, m, f, (size_t)a, (size_t)b, pos, pos + m, pos + 2 * m,
			      pos + 3 * m, dp);
	c->first = c->last = 0;
	c->ins = false;
	if (c->state == CF_H_FIXED || c->state == CF_H_VULN)
		change_span(it, m, f, c->state == CF_H_FIXED ? pos + 2 * m : pos + m,
			    c->state == CF_H_FIXED ? CF_ADD : CF_DEL, c);
	long firstpos = -1, kfirst = 0;
	for (size_t k = 0; k < m && firstpos < 0; k++)
		if ((firstpos = pos[k]) >= 0)
			kfirst = (long)k;
	c->line = firstpos >= 0 ? f->lineno[firstpos] : 0;
	/* where the hunk's first line would be (the lines before its first one found, not
	 * found: trivial ones left out, or lines it moves) */
	long top = firstpos - kfirst > 0 ? firstpos - kfirst : 0;
	c->top = firstpos >= 0 ? f->lineno[top] : 0;
	c->hdr = firstpos >= 0 && hfunc[0] &&
		 ((firstpos > 0 && header_named(f, (uint32_t)firstpos - 1, hfunc)) ||
		  (top > 0 && header_named(f, (uint32_t)top - 1, hfunc)));
	c->fmatch = firstpos >= 0 && hfunc[0] && hraw &&
		    in_header_function(f, (uint32_t)firstpos, hraw, hfunc);
}

/* The hunk's reading from its candidate places: the best one, among those in the hunk's own
 * function when one of them is nearly as good; two near-best places reading differently
 * leave the hunk unknown, and so does "fixed" outside the named function (named: the header
 * names one) while a place in it reads otherwise.  Returns the chosen place (nc: none). */
static size_t choose(struct cand *c, size_t nc, bool named, struct cf_hres *out)
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
		return nc;
	out->state = c[bi].state;
	out->line = c[bi].line;
	out->first = c[bi].first;
	out->last = c[bi].last;
	out->ins = c[bi].ins;
	for (size_t i = 0; i < nc; i++)
		if ((!any_f || c[i].fmatch) && c[i].score >= 0.85f * best &&
		    c[i].state != CF_H_UNKNOWN && c[i].state != c[bi].state)
			out->state = CF_H_UNKNOWN;
	/* "fixed" read outside the function the hunk header names (a function: a label such as
	 * "retry:" places nothing) while a place inside it, however poorly it matches (its context
	 * rewritten since), reads otherwise: that function may lack the fix that a look-alike
	 * elsewhere has */
	for (size_t i = 0; i < nc && named && out->state == CF_H_FIXED && !c[bi].fmatch; i++)
		if (c[i].fmatch && c[i].state != CF_H_FIXED)
			out->state = CF_H_UNKNOWN;
	if (out->state == CF_H_UNKNOWN)
		out->first = out->last = 0;
	return bi;
}

/* Is the place c (read fixed) in a function other than the one the hunk header names (hname),
 * with nothing to say the header meant it?  The header meant the place when the place's first
 * line or the hunk's top (where its first line would be) is in a definition of the named
 * function, or the change overlaps one; when the line a hunk header would name for the place
 * is the header's (diff's own rule); when the hunk begins at the head of the place's function
 * (its top or its change at or above the definition's first line: diff named a line above
 * that function, and the fix may have put another function between since); when one of the
 * two functions calls the other (the code moved into a helper, or out of a wrapper).  A
 * header that names no function (an upper-case macro, EXPORT_SYMBOL(x);) or a place outside
 * every function says nothing either way.  Of a name defined more than DEFS_MAX times (#if
 * branches) the first DEFS_MAX definitions count.  Else the place is a look-alike: the named
 * function, its context rewritten since (or itself renamed), has no line of the hunk to read,
 * and another function has the context and the fix. */
static bool lookalike_place(const struct cf_src *f, const char *hname, const struct cand *c)
{
	bool lower = false;
	for (const char *p = hname; *p; p++)
		lower |= *p >= 'a' && *p <= 'z';
	if (!lower || c->hdr)
		return false;
	uint32_t at_line = c->first ? c->first : c->line;
	const struct funcscan_fn *at = at_line ? func_at(f, at_line) : NULL;
	if (!at || !strcmp(at->name, hname))
		return false;
	uint32_t head = c->top && c->top < at_line ? c->top : at_line;
	if (head <= at->decl_line)
		return false;
	size_t nn;
	const struct funcscan_fn *const *named = funcs_named(f, hname, &nn);
	for (size_t k = 0; k < nn && k < DEFS_MAX; k++) {
		const struct funcscan_fn *n = named[k];
		if ((c->line >= n->decl_line && c->line <= n->end_line) ||
		    (c->top >= n->decl_line && c->top <= n->end_line) ||
		    (c->first && c->first <= n->end_line && c->last >= n->decl_line) ||
		    calls(f, n, at->name) || calls(f, at, hname))
			return false;
	}
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Mark the added lines that are the same (strictly) as some context line of the hunk. */
static void mark_twins(struct item *it, size_t m)
{
	uint64_t *ctx = xcalloc(m + 1, sizeof *ctx);
	size_t n = 0;
	for (size_t k = 0; k < m; k++)
		if (it[k].type == CF_CTX)
			ctx[n++] = it[k].hs;
	if (n)
		qsort(ctx, n, sizeof *ctx, cmp_u64);
	for (size_t k = 0; k < m; k++)
		it[k].twin = it[k].type == CF_ADD && n &&
			     bsearch(&it[k].hs, ctx, n, sizeof *ctx, cmp_u64) != NULL;
	free(ctx);
}

void cf_match_hunk(const struct cf_set *s, const struct cf_hunk *h, const struct cf_src *f,
		   struct cf_hres *out)
{
	size_t m = h->n;
	struct item *it = xcalloc(m + 1, sizeof *it);
	*out = (struct cf_hres){.state = CF_H_UNKNOWN};
	for (size_t k = 0; k < m; k++) {
		const struct cf_line *l = &s->lines[h->it[k].line];
		it[k] = (struct item){.hs = l->hs, .hl = l->hl, .w = l->trivial ? W_TRIVIAL : 1.0f,
				      .type = h->it[k].type, .trivial = l->trivial != 0};
		if (it[k].type != CF_CTX)
			out->weight += it[k].w;
	}
	for (size_t k = 0; k < m; k++)
		it[k].moved = h->it[k].moved != 0; /* marked once per file (codefix/fprint.c) */
	mark_twins(it, m);
	for (size_t k = 0; k < m; k++) {
		long at;
		it[k].infile = lookup(f, it[k].type == CF_CTX,
				      it[k].type == CF_CTX ? it[k].hl : it[k].hs, &at, 0) > 0;
	}
	char hfunc[CF_NORM_MAX + 1];
	cf_norm(h->func, strlen(h->func), hfunc);
	struct cand c[MAX_CAND];
	size_t nc = find_candidates(it, m, f, c);
	long *pos = xcalloc(4 * m + 1, sizeof *pos);
	/* the alignments' scratch, for the widest window (eval_candidate) */
	size_t cols = m + 2 * (m > 16 ? m : 16) + 1, per = 6 * m * cols, used = 0, i;
	float *dp = xmalloc((m + 1) * cols * sizeof *dp);
	for (i = 0; i < nc && (i == 0 || used + per <= HUNK_CELLS_MAX); i++, used += per)
		eval_candidate(it, m, f, nc > 1 ? h->func : NULL, hfunc, &c[i], pos, dp);
	char hname[128];
	cf_header_name(h->func, hname, sizeof hname);
	size_t bi = choose(c, i, hname[0] != '\0', out);
	/* a fix that only adds, read fixed at a place that none of its context lines points to
	 * (they are trivial or too common to place it): the place was found by the added lines
	 * alone, where the file has them -- a look-alike function with the same closing lines has
	 * them as well as the fixed one, and the one that lacks them is never looked at */
	bool removes = false;
	for (size_t k = 0; k < m; k++)
		removes |= it[k].type == CF_DEL && !it[k].moved;
	if (out->state == CF_H_FIXED && bi < i && !c[bi].by_ctx && !removes) {
		out->state = CF_H_UNKNOWN;
		out->first = out->last = 0;
		out->ins = false;
	}
	/* "fixed" read in a look-alike of the named function (lookalike_place): the named one,
	 * which the hunk is about, may lack the fix -- unless a place nearly as good that reads
	 * fixed too is not a look-alike (a helper the named function calls, with the same code) */
	if (out->state == CF_H_FIXED && bi < i && hname[0] && !c[bi].fmatch &&
	    lookalike_place(f, hname, &c[bi])) {
		size_t alt = i;
		for (size_t k = 0; k < i && alt == i; k++)
			if (k != bi && c[k].state == CF_H_FIXED && c[k].score >= 0.85f * c[bi].score &&
			    c[k].first && !lookalike_place(f, hname, &c[k]))
				alt = k;
		if (alt < i) {
			out->line = c[alt].line;
			out->first = c[alt].first;
			out->last = c[alt].last;
			out->ins = c[alt].ins;
		} else {
			out->state = CF_H_UNKNOWN;
			out->first = out->last = 0;
			out->ins = false;
		}
	}
	if (i < nc) /* places left unread might read otherwise: no verdict from the others */
		*out = (struct cf_hres){.state = CF_H_UNKNOWN, .line = out->line,
					.weight = out->weight};
	free(dp);
	free(pos);
	free(it);
}
