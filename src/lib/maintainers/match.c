/* Which MAINTAINERS sections cover a path (get_maintainer.pl's get_maintainers() loop and
 * file_match_pattern()), and which K: keywords match a file's text. */
#include "maintainers/maintainers.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "maintainers/perlre.h"
#include "core/text.h"

static size_t count_slashes(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '/';
	return n;
}

/* file_match_pattern(): prefix regex; without a trailing '/', same number of '/' as well. */
static bool file_match(const struct mnt_line *l, const char *file, size_t flen, size_t file_sl)
{
	if (l->litlen && strncmp(file, l->value, l->litlen) != 0)
		return false;
	if (!l->re || !perlre_search(l->re, file, flen, 0, NULL, 0))
		return false;
	size_t vl = strlen(l->value);
	if (vl && l->value[vl - 1] == '/')
		return true;
	return file_sl == count_slashes(l->value);
}

char *mnt_canonpath(const char *path)
{
	/* File::Spec::Unix::canonpath: collapse '//' and '/./', drop leading './' and a trailing
	 * '/' (keeps a lone '/'); '..' is left alone. */
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;
	bool abs = *p == '/';
	if (abs)
		sb_addc(&sb, '/');
	while (*p) {
		while (*p == '/')
			p++;
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 0)
			break;
		if (!(n == 1 && p[0] == '.')) {
			if (sb.len && sb.buf[sb.len - 1] != '/')
				sb_addc(&sb, '/');
			sb_add(&sb, p, n);
		}
		p += n;
	}
	if (sb.len == 0)
		sb_adds(&sb, abs ? "/" : ".");
	return sb_detach(&sb);
}

struct hit_sort {
	struct mnt_hit h;
	size_t order;
};

static int cmp_hits(const void *a, const void *b)
{
	const struct hit_sort *x = a, *y = b;
	if (x->h.depth != y->h.depth)
		return x->h.depth > y->h.depth ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

size_t maintainers_match(const struct maintainers *m, const char *file, struct mnt_hit **out)
{
	size_t flen = strlen(file), file_sl = count_slashes(file);
	struct hit_sort *hv = NULL;
	size_t n = 0, alloc = 0;
	for (size_t si = 0; si < m->nsec; si++) {
		const struct mnt_section *s = &m->sec[si];
		bool excluded = false;
		for (size_t i = s->start; i < s->end && !excluded; i++)
			if (m->tv[i].tag == 'X' && file_match(&m->tv[i], file, flen, file_sl))
				excluded = true;
		if (excluded)
			continue;
		bool hit = false;
		int depth = 0;
		for (size_t i = s->start; i < s->end; i++) {
			const struct mnt_line *l = &m->tv[i];
			if (l->tag == 'F') {
				if (file_match(l, file, flen, file_sl)) {
					size_t vl = strlen(l->value);
					int pd = (int)count_slashes(l->value);
					if (!(vl && l->value[vl - 1] == '/'))
						pd++;
					if (strncmp(l->value, ".*", 2) == 0)
						pd = -1;
					depth = pd;   /* $hash{$tvi} = $value_pd: the last match wins */
					hit = true;
				}
			} else if (l->tag == 'N') {
				if (l->re && perlre_search(l->re, file, flen, 0, NULL, 0)) {
					depth = 0;
					hit = true;
				}
			}
		}
		if (hit) {
			XGROW(hv, n + 1, alloc);
			hv[n].h.section = si;
			hv[n].h.depth = depth;
			hv[n].order = si;
			n++;
		}
	}
	/* Perl sorts the keys of a hash by depth, so equal depths come in hash order (random per
	 * run); MAINTAINERS order is the deterministic choice. */
	if (n > 1)
		qsort(hv, n, sizeof(*hv), cmp_hits);
	struct mnt_hit *res = xmalloc((n ? n : 1) * sizeof(*res));
	for (size_t i = 0; i < n; i++)
		res[i] = hv[i].h;
	free(hv);
	*out = res;
	return n;
}

int mnt_cmp_index_str(const void *a, const void *b)
{
	char x[32], y[32];
	text_snprintf(x, sizeof(x), "%zu", *(const size_t *)a);
	text_snprintf(y, sizeof(y), "%zu", *(const size_t *)b);
	return strcmp(x, y);
}

size_t maintainers_keywords(const struct maintainers *m, const char *text, size_t len,
                            size_t **out)
{
	size_t *v = NULL, n = 0, alloc = 0;
	for (size_t i = 0; i < m->ntv; i++) {
		if (m->tv[i].tag != 'K' || !m->tv[i].re)
			continue;
		if (perlre_search(m->tv[i].re, text, len, 0, NULL, 0)) {
			XGROW(v, n + 1, alloc);
			v[n++] = i;
		}
	}
	/* sort_and_uniq(@keyword_tvi) sorts the indices as strings. */
	if (n > 1)
		qsort(v, n, sizeof(*v), mnt_cmp_index_str);
	if (!v)
		v = xmalloc(sizeof(*v));
	*out = v;
	return n;
}
