/* Fix fingerprints: building from a patch, the shared line table, (de)serialisation. */
#include <stdlib.h>
#include <string.h>

#include "codefix/fprint.h"
#include "codefix/norm.h"
#include "core/xalloc.h"

void cf_set_init(struct cf_set *s)
{
	memset(s, 0, sizeof *s);
}

void cf_set_release(struct cf_set *s)
{
	for (size_t i = 0; i < s->nlines; i++)
		free(s->lines[i].text);
	for (size_t i = 0; i < s->n; i++) {
		struct cf_fp *f = &s->v[i];
		for (uint32_t j = 0; j < f->n; j++) {
			for (uint32_t k = 0; k < f->f[j].n; k++) {
				free(f->f[j].h[k].func);
				free(f->f[j].h[k].funcs);
				free(f->f[j].h[k].it);
			}
			free(f->f[j].h);
			free(f->f[j].path);
		}
		free(f->f);
		free(f->cve);
		free(f->label);
	}
	free(s->lines);
	free(s->slot);
	free(s->v);
	memset(s, 0, sizeof *s);
}

static void rehash(struct cf_set *s)
{
	size_t n = s->nslot ? s->nslot * 2 : 1024;
	free(s->slot);
	s->slot = xcalloc(n, sizeof *s->slot);
	s->nslot = n;
	for (size_t i = 0; i < s->nlines; i++) {
		size_t k = (size_t)s->lines[i].hs & (n - 1);
		while (s->slot[k])
			k = (k + 1) & (n - 1);
		s->slot[k] = (uint32_t)i + 1;
	}
}

/* Index of the strict form norm[0..n) in the line table, added if new. */
static uint32_t intern(struct cf_set *s, const char *norm, size_t n)
{
	if ((s->nlines + 1) * 2 > s->nslot)
		rehash(s);
	uint64_t h = cf_hash_strict(norm, n);
	size_t k = (size_t)h & (s->nslot - 1);
	for (; s->slot[k]; k = (k + 1) & (s->nslot - 1)) {
		struct cf_line *l = &s->lines[s->slot[k] - 1];
		if (l->hs == h && !strcmp(l->text, norm))
			return s->slot[k] - 1;
	}
	XGROW(s->lines, s->nlines + 1, s->lalloc);
	s->lines[s->nlines] = (struct cf_line){xstrndup(norm, n), h, cf_hash_loose(norm, n),
					       cf_trivial(norm, n)};
	s->slot[k] = (uint32_t)s->nlines + 1;
	return (uint32_t)s->nlines++;
}

/* A line removed and added again in the same block of changes was only reindented: it is
 * context (kept where it is added), not a change.  A line removed in one block and added in
 * another moved, and the move may be the fix: it stays a change. */
static void cancel_reindents(struct cf_hunk *h)
{
	for (uint32_t b = 0; b < h->n;) {
		uint32_t e = b;
		while (e < h->n && h->it[e].type != CF_CTX)
			e++;
		for (uint32_t i = b; i < e; i++) {
			if (h->it[i].type != CF_DEL)
				continue;
			for (uint32_t j = b; j < e; j++) {
				if (h->it[j].type == CF_ADD && h->it[j].line == h->it[i].line) {
					h->it[j].type = CF_CTX;
					h->it[i].type = 0xff; /* dropped below */
					break;
				}
			}
		}
		b = e > b ? e : b + 1;
	}
	uint32_t o = 0;
	for (uint32_t i = 0; i < h->n; i++)
		if (h->it[i].type != 0xff)
			h->it[o++] = h->it[i];
	h->n = o;
}

static bool hunk_changes(const struct cf_hunk *h)
{
	for (uint32_t i = 0; i < h->n; i++)
		if (h->it[i].type != CF_CTX)
			return true;
	return false;
}

static bool build_hunk(struct cf_set *s, const struct cf_phunk *ph, struct cf_hunk *h)
{
	char norm[CF_NORM_MAX + 1];
	h->it = xcalloc(ph->n + 1, sizeof *h->it);
	h->n = 0;
	for (size_t i = 0; i < ph->n && h->n < CF_HUNK_MAX_ITEMS; i++) {
		size_t n = cf_norm(ph->l[i].text, ph->l[i].len, norm);
		if (!n)
			continue;
		uint8_t t = ph->l[i].type == '-' ? CF_DEL : ph->l[i].type == '+' ? CF_ADD : CF_CTX;
		h->it[h->n++] = (struct cf_item){intern(s, norm, n), t, 0};
	}
	cancel_reindents(h);
	h->func = xstrdup(ph->func ? ph->func : "");
	h->funcs = xstrdup("");
	h->src = ph;
	if (hunk_changes(h))
		return true;
	free(h->it);
	free(h->func);
	free(h->funcs);
	return false;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Mark the changed lines of file f that its hunks also change the other way (removed in one
 * place, added in another: code the fix moves): one sort of the file's changed lines, so a
 * patch of 100,000 hunks on one file costs n log n, not n squared. */
static void mark_moved(struct cf_file *f)
{
	size_t n = 0;
	for (uint32_t i = 0; i < f->n; i++)
		for (uint32_t k = 0; k < f->h[i].n; k++)
			n += f->h[i].it[k].type != CF_CTX;
	uint64_t *v = xcalloc(n + 1, sizeof *v);
	n = 0;
	for (uint32_t i = 0; i < f->n; i++)
		for (uint32_t k = 0; k < f->h[i].n; k++)
			if (f->h[i].it[k].type != CF_CTX)
				v[n++] = (uint64_t)f->h[i].it[k].line << 1 |
					 (f->h[i].it[k].type == CF_ADD);
	if (n)
		qsort(v, n, sizeof *v, cmp_u64);
	for (uint32_t i = 0; i < f->n; i++)
		for (uint32_t k = 0; k < f->h[i].n; k++) {
			struct cf_item *x = &f->h[i].it[k];
			uint64_t other = (uint64_t)x->line << 1 | (x->type == CF_DEL);
			x->moved = x->type != CF_CTX && n &&
				   bsearch(&other, v, n, sizeof *v, cmp_u64) != NULL;
		}
	free(v);
}

size_t cf_set_add_patch(struct cf_set *s, const char *cve, const char *label,
			const struct cf_patch *p)
{
	XGROW(s->v, s->n + 1, s->alloc);
	struct cf_fp *fp = &s->v[s->n];
	*fp = (struct cf_fp){xstrdup(cve), xstrdup(label), xcalloc(p->n + 1, sizeof *fp->f), 0};
	size_t kept = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct cf_pfile *pf = &p->f[i];
		struct cf_file *f = &fp->f[fp->n];
		f->h = xcalloc(pf->n + 1, sizeof *f->h);
		for (size_t j = 0; j < pf->n; j++)
			f->n += build_hunk(s, &pf->h[j], &f->h[f->n]);
		if (!f->n) {
			free(f->h);
			continue;
		}
		f->path = xstrdup(pf->path);
		mark_moved(f);
		kept += f->n;
		fp->n++;
	}
	s->n++;
	return kept;
}

static int cmp_fp(const void *a, const void *b)
{
	const struct cf_fp *x = a, *y = b;
	int c = strcmp(x->cve, y->cve);
	return c ? c : strcmp(x->label, y->label);
}

void cf_set_sort(struct cf_set *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof *s->v, cmp_fp);
}

/* ---- serialisation ------------------------------------------------------------------------ */

static void put_uleb(struct strbuf *sb, unsigned long long v)
{
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		sb_addc(sb, (char)(v ? c | 0x80 : c));
	} while (v);
}

static void put_str(struct strbuf *sb, const char *s)
{
	size_t n = strlen(s);
	put_uleb(sb, n);
	sb_add(sb, s, n);
	sb_addc(sb, '\0');
}

void cf_set_encode(const struct cf_set *s, struct strbuf *out)
{
	put_uleb(out, s->nlines);
	for (size_t i = 0; i < s->nlines; i++)
		put_str(out, s->lines[i].text);
	put_uleb(out, s->n);
	for (size_t i = 0; i < s->n; i++) {
		const struct cf_fp *fp = &s->v[i];
		put_str(out, fp->cve);
		put_str(out, fp->label);
		put_uleb(out, fp->n);
		for (uint32_t j = 0; j < fp->n; j++) {
			put_str(out, fp->f[j].path);
			put_uleb(out, fp->f[j].n);
			for (uint32_t k = 0; k < fp->f[j].n; k++) {
				const struct cf_hunk *h = &fp->f[j].h[k];
				put_str(out, h->func);
				put_str(out, h->funcs);
				put_uleb(out, h->n);
				for (uint32_t m = 0; m < h->n; m++)
					put_uleb(out, (unsigned long long)h->it[m].line * 4 + h->it[m].type);
			}
		}
	}
}

struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static unsigned long long get_uleb(struct rd *r)
{
	unsigned long long v = 0;
	for (int shift = 0; shift < 63 && r->p < r->end; shift += 7) {
		unsigned char c = *r->p++;
		v |= (unsigned long long)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

/* A count of elements taking at least `each` bytes: at most what is left. */
static size_t get_count(struct rd *r, size_t each)
{
	unsigned long long n = get_uleb(r);
	if (r->bad || n > (unsigned long long)(r->end - r->p) / each) {
		r->bad = true;
		return 0;
	}
	return (size_t)n;
}

static char *get_str(struct rd *r)
{
	unsigned long long n = get_uleb(r);
	if (r->bad || n >= (unsigned long long)(r->end - r->p) || r->p[n] != '\0' ||
	    memchr(r->p, '\0', n)) {
		r->bad = true;
		return NULL;
	}
	char *s = xstrndup((const char *)r->p, n);
	r->p += n + 1;
	return s;
}

static bool get_hunk(struct rd *r, struct cf_hunk *h, size_t nlines)
{
	h->func = get_str(r);
	h->funcs = get_str(r);
	h->n = (uint32_t)get_count(r, 1);
	if (r->bad || !h->func || !h->funcs || h->n > CF_HUNK_MAX_ITEMS)
		return false;
	h->it = xcalloc(h->n + 1, sizeof *h->it);
	for (uint32_t m = 0; m < h->n && !r->bad; m++) {
		unsigned long long v = get_uleb(r);
		if ((v & 3) == 3 || v / 4 >= nlines)
			r->bad = true;
		h->it[m] = (struct cf_item){(uint32_t)(v / 4), (uint8_t)(v & 3), 0};
	}
	return !r->bad && hunk_changes(h);
}

static bool get_fp(struct rd *r, struct cf_fp *fp, size_t nlines)
{
	fp->cve = get_str(r);
	fp->label = get_str(r);
	size_t nf = get_count(r, 3);
	if (r->bad || !fp->cve || !fp->label)
		return false;
	fp->f = xcalloc(nf + 1, sizeof *fp->f);
	for (size_t j = 0; j < nf; j++) {
		struct cf_file *f = &fp->f[j];
		fp->n = (uint32_t)j + 1;
		f->path = get_str(r);
		size_t nh = get_count(r, 3);
		if (r->bad || !f->path)
			return false;
		f->h = xcalloc(nh + 1, sizeof *f->h);
		for (size_t k = 0; k < nh; k++) {
			f->n = (uint32_t)k + 1;
			if (!get_hunk(r, &f->h[k], nlines))
				return false;
		}
		mark_moved(f);
	}
	return true;
}

int cf_set_decode(struct cf_set *s, const void *data, size_t len, const char *name,
		  struct kcve_err *err)
{
	cf_set_init(s);
	struct rd r = {data, (const unsigned char *)data + len, false};
	size_t nl = get_count(&r, 2);
	s->lines = xcalloc(nl + 1, sizeof *s->lines);
	s->lalloc = nl + 1;
	for (size_t i = 0; i < nl && !r.bad; i++) {
		char *t = get_str(&r);
		if (!t)
			break;
		size_t n = strlen(t);
		s->lines[i] = (struct cf_line){t, cf_hash_strict(t, n), cf_hash_loose(t, n),
					       cf_trivial(t, n)};
		s->nlines = i + 1;
	}
	size_t nfp = r.bad ? 0 : get_count(&r, 5);
	s->v = xcalloc(nfp + 1, sizeof *s->v);
	s->alloc = nfp + 1;
	for (size_t i = 0; i < nfp && !r.bad; i++) {
		s->n = i + 1;
		if (!get_fp(&r, &s->v[i], s->nlines))
			r.bad = true;
	}
	if (r.bad || r.p != r.end)
		return kcve_err_set(err, KCVE_E_PARSE, "%s: fix fingerprints damaged; rebuild the "
				    "database with 'kcve db build'", name);
	return 0;
}
