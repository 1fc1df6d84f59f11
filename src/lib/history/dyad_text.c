#include "history/dyad_text.h"

#include <string.h>

#include "core/xalloc.h"

void dyad_list_init(struct dyad_list *l)
{
	memset(l, 0, sizeof(*l));
}

void dyad_list_release(struct dyad_list *l)
{
	free(l->v);
	dyad_list_init(l);
}

void dyad_list_reserve(struct dyad_list *l, size_t n)
{
	if (l->n + n > l->alloc) {
		l->alloc = l->n + n;
		l->v = xrealloc(l->v, l->alloc * sizeof *l->v);
	}
}

static void copy_field(char *dst, size_t dstsz, const char *s, size_t n)
{
	if (n >= dstsz)
		n = dstsz - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

void dyad_list_push(struct dyad_list *l, const char *vver, const char *vsha, const char *fver,
		    const char *fsha)
{
	XGROW(l->v, l->n + 1, l->alloc);
	struct dyad_pair *p = &l->v[l->n++];
	copy_field(p->vver, sizeof p->vver, vver, strlen(vver));
	copy_field(p->vsha, sizeof p->vsha, vsha, strlen(vsha));
	copy_field(p->fver, sizeof p->fver, fver, strlen(fver));
	copy_field(p->fsha, sizeof p->fsha, fsha, strlen(fsha));
}

size_t dyad_parse(const char *text, struct dyad_list *out)
{
	size_t lineno = 0;
	const char *p = text;
	while (*p) {
		lineno++;
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		const char *next = eol ? eol + 1 : p + len;
		while (len && (p[len - 1] == '\r' || p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		const char *s = p;
		while (len && (*s == ' ' || *s == '\t')) {
			s++;
			len--;
		}
		if (len == 0 || *s == '#') {
			p = next;
			continue;
		}
		const char *f[4];
		size_t fl[4];
		int nf = 0;
		const char *start = s;
		for (size_t i = 0; i <= len; i++) {
			if (i == len || s[i] == ':') {
				if (nf == 4)
					return lineno;
				f[nf] = start;
				fl[nf] = (size_t)(s + i - start);
				nf++;
				start = s + i + 1;
			}
		}
		if (nf != 4 || fl[0] >= DYAD_VER_MAX || fl[2] >= DYAD_VER_MAX || fl[1] > 40 ||
		    fl[3] > 40)
			return lineno;
		XGROW(out->v, out->n + 1, out->alloc);
		struct dyad_pair *d = &out->v[out->n++];
		copy_field(d->vver, sizeof d->vver, f[0], fl[0]);
		copy_field(d->vsha, sizeof d->vsha, f[1], fl[1]);
		copy_field(d->fver, sizeof d->fver, f[2], fl[2]);
		copy_field(d->fsha, sizeof d->fsha, f[3], fl[3]);
		p = next;
	}
	return 0;
}

void dyad_format_pairs(const struct dyad_list *l, struct strbuf *sb)
{
	for (size_t i = 0; i < l->n; i++)
		sb_addf(sb, "%s:%s:%s:%s\n", l->v[i].vver, l->v[i].vsha, l->v[i].fver,
			l->v[i].fsha);
}

bool dyad_pair_unknown_intro(const struct dyad_pair *p)
{
	return strcmp(p->vver, "0") == 0;
}

bool dyad_pair_unfixed(const struct dyad_pair *p)
{
	return strcmp(p->fver, "0") == 0;
}

bool dyad_pair_same_version(const struct dyad_pair *p)
{
	return !dyad_pair_unknown_intro(p) && !dyad_pair_unfixed(p) &&
	       strcmp(p->vver, p->fver) == 0;
}
