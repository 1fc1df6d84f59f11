/* String-keyed hash map and set with insertion-order iteration (invariants in strmap.h). */
#include <string.h>

#include "core/assert.h"
#include "core/strmap.h"
#include "core/xalloc.h"

unsigned long long fnv1a64(unsigned long long h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

size_t str_hash(const char *s, size_t n)
{
	unsigned long long h = fnv1a64(FNV1A64_INIT, s, n);
	return (size_t)(h ^ (h >> 32));
}

int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
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

struct strmap_ent *strmap_find(const struct strmap *m, const char *key, size_t n)
{
	if (!m->nbuckets)
		return NULL;
	KCVE_ASSERT((m->nbuckets & (m->nbuckets - 1)) == 0);
	for (struct strmap_ent *e = m->buckets[str_hash(key, n) & (m->nbuckets - 1)]; e; e = e->next)
		if (strncmp(e->key, key, n) == 0 && e->key[n] == '\0')
			return e;
	return NULL;
}

void *strmap_getn(const struct strmap *m, const char *key, size_t n)
{
	struct strmap_ent *e = strmap_find(m, key, n);
	return e ? e->val : NULL;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	return strmap_getn(m, key, strlen(key));
}

bool strmap_contains(const struct strmap *m, const char *key)
{
	return strmap_find(m, key, strlen(key)) != NULL;
}

struct strmap_ent *strmap_at(const struct strmap *m, size_t i)
{
	KCVE_ASSERT(i < m->count);
	return m->order[i];
}

/* Rehash every entry into nn buckets (a power of two). */
static void rehash(struct strmap *m, size_t nn)
{
	KCVE_ASSERT(nn >= m->count && (nn & (nn - 1)) == 0);
	struct strmap_ent **nb = xcalloc(nn, sizeof(*nb));
	for (size_t i = 0; i < m->count; i++) {
		struct strmap_ent *e = m->order[i];
		size_t h = str_hash(e->key, strlen(e->key)) & (nn - 1);
		e->next = nb[h];
		nb[h] = e;
	}
	free(m->buckets);
	m->buckets = nb;
	m->nbuckets = nn;
}

void *strmap_put(struct strmap *m, const char *key, void *val)
{
	size_t n = strlen(key);
	struct strmap_ent *e = strmap_find(m, key, n);
	if (e) {
		void *old = e->val;
		e->val = val;
		return old;
	}
	if (m->count + 1 > m->nbuckets)
		rehash(m, m->nbuckets ? m->nbuckets * 2 : 16);
	size_t h = str_hash(key, n) & (m->nbuckets - 1);
	e = xmalloc(sizeof(*e));
	e->key = xstrdup(key);
	e->val = val;
	e->next = m->buckets[h];
	m->buckets[h] = e;
	XGROW(m->order, m->count + 1, m->order_alloc);
	m->order[m->count++] = e;
	KCVE_ASSERT(m->count <= m->nbuckets);
	return NULL;
}

bool strset_add(struct strset *set, const char *s)
{
	if (strmap_contains(&set->map, s))
		return false;
	strmap_put(&set->map, s, NULL);
	return true;
}

bool strset_contains(const struct strset *set, const char *s)
{
	return strmap_contains(&set->map, s);
}

const char *strset_at(const struct strset *set, size_t i)
{
	return strmap_at(&set->map, i)->key;
}

void strset_clear(struct strset *set)
{
	strmap_free(&set->map, NULL);
}
