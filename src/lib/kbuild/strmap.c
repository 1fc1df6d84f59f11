/* String-keyed hash map with insertion-order iteration. */
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/strmap.h"

static unsigned hash_key(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
	m->nbuckets = 1024;
	m->buckets = xcalloc(m->nbuckets, sizeof(*m->buckets));
}

void strmap_free(struct strmap *m, void (*free_val)(void *))
{
	for (size_t i = 0; i < m->count; i++) {
		if (free_val && m->order[i]->val)
			free_val(m->order[i]->val);
		free(m->order[i]->key);
		free(m->order[i]);
	}
	free(m->order);
	free(m->buckets);
	memset(m, 0, sizeof(*m));
}

void *strmap_getn(const struct strmap *m, const char *key, size_t n)
{
	if (!m->nbuckets)
		return NULL;
	for (struct strmap_ent *e = m->buckets[hash_key(key, n) & (m->nbuckets - 1)]; e; e = e->next)
		if (strncmp(e->key, key, n) == 0 && e->key[n] == '\0')
			return e->val;
	return NULL;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	return strmap_getn(m, key, strlen(key));
}

void *strmap_put(struct strmap *m, const char *key, void *val)
{
	size_t n = strlen(key);
	unsigned h = hash_key(key, n);
	for (struct strmap_ent *e = m->buckets[h & (m->nbuckets - 1)]; e; e = e->next)
		if (strcmp(e->key, key) == 0) {
			void *old = e->val;
			e->val = val;
			return old;
		}
	if (m->count + 1 > m->nbuckets) {
		size_t nn = m->nbuckets * 2;
		struct strmap_ent **nb = xcalloc(nn, sizeof(*nb));
		for (size_t i = 0; i < m->count; i++) {
			struct strmap_ent *e = m->order[i];
			unsigned hh = hash_key(e->key, strlen(e->key)) & (nn - 1);
			e->next = nb[hh];
			nb[hh] = e;
		}
		free(m->buckets);
		m->buckets = nb;
		m->nbuckets = nn;
	}
	struct strmap_ent *e = xmalloc(sizeof(*e));
	e->key = xstrdup(key);
	e->val = val;
	e->next = m->buckets[h & (m->nbuckets - 1)];
	m->buckets[h & (m->nbuckets - 1)] = e;
	XGROW(m->order, m->count + 1, m->order_alloc);
	m->order[m->count++] = e;
	return NULL;
}
