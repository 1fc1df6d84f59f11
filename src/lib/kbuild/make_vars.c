/* Make variable tables: one per makefile being evaluated, one for the global environment. */
#include <stdarg.h>
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/kbuild_int.h"

static unsigned hash_name(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void mk_vars_init(struct mk_vars *v, size_t nbuckets)
{
	size_t n = 16;
	while (n < nbuckets)
		n *= 2;
	v->nbuckets = n;
	v->count = 0;
	v->buckets = xcalloc(n, sizeof(*v->buckets));
}

void mk_vars_free(struct mk_vars *v)
{
	for (size_t i = 0; i < v->nbuckets; i++) {
		struct mk_var *x = v->buckets[i], *nx;
		for (; x; x = nx) {
			nx = x->next;
			mk_var_set_alts(x, NULL, 0, false);
			free(x->name);
			free(x->value);
			free(x);
		}
	}
	free(v->buckets);
	v->buckets = NULL;
	v->nbuckets = v->count = 0;
}

struct mk_var *mk_vars_get(const struct mk_vars *v, const char *name, size_t n)
{
	if (!v || !v->nbuckets)
		return NULL;
	for (struct mk_var *x = v->buckets[hash_name(name, n) & (v->nbuckets - 1)]; x; x = x->next)
		if (strncmp(x->name, name, n) == 0 && x->name[n] == '\0')
			return x;
	return NULL;
}

static void grow(struct mk_vars *v)
{
	size_t nn = v->nbuckets * 2;
	struct mk_var **nb = xcalloc(nn, sizeof(*nb));
	for (size_t i = 0; i < v->nbuckets; i++) {
		struct mk_var *x = v->buckets[i], *nx;
		for (; x; x = nx) {
			nx = x->next;
			unsigned h = hash_name(x->name, strlen(x->name)) & (nn - 1);
			x->next = nb[h];
			nb[h] = x;
		}
	}
	free(v->buckets);
	v->buckets = nb;
	v->nbuckets = nn;
}

struct mk_var *mk_vars_set(struct mk_vars *v, const char *name, size_t n, const char *value,
			   bool recursive)
{
	struct mk_var *x = mk_vars_get(v, name, n);
	if (!x) {
		if (v->count + 1 > v->nbuckets)
			grow(v);
		x = xcalloc(1, sizeof(*x));
		x->name = xstrndup(name, n);
		unsigned h = hash_name(name, n) & (v->nbuckets - 1);
		x->next = v->buckets[h];
		v->buckets[h] = x;
		v->count++;
	} else {
		free(x->value);
	}
	x->value = xstrdup(value);
	x->recursive = recursive;
	x->uncertain = false;
	return x;
}

void mk_var_set_alts(struct mk_var *v, const struct mk_alt *alts, size_t n, bool unknown)
{
	for (size_t i = 0; i < v->nalts; i++) {
		free(v->alts[i].value);
		free(v->alts[i].cond);
	}
	free(v->alts);
	v->alts = NULL;
	v->nalts = 0;
	v->alts_unknown = unknown;
	if (!n)
		return;
	v->alts = xcalloc(n, sizeof(*v->alts));
	for (size_t i = 0; i < n; i++) {
		v->alts[i].value = xstrdup(alts[i].value);
		v->alts[i].cond = xstrdup(alts[i].cond);
	}
	v->nalts = n;
}

char *mk_strf(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	return sb_detach(&sb);
}
