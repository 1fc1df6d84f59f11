/* A string-keyed hash map (keys copied, values owned by the caller) used by the kbuild code. */
#ifndef KCVE_KBUILD_STRMAP_H
#define KCVE_KBUILD_STRMAP_H

#include <stddef.h>

struct strmap_ent {
	char *key;
	void *val;
	struct strmap_ent *next;
};

struct strmap {
	struct strmap_ent **buckets;
	size_t nbuckets, count;
	struct strmap_ent **order; /* insertion order, for deterministic iteration */
	size_t order_alloc;
};

void strmap_init(struct strmap *m);
/* Frees keys and entries; calls free_val on each value when non-NULL. */
void strmap_free(struct strmap *m, void (*free_val)(void *));
void *strmap_get(const struct strmap *m, const char *key);
void *strmap_getn(const struct strmap *m, const char *key, size_t n);
/* Insert or replace; returns the previous value (or NULL). */
void *strmap_put(struct strmap *m, const char *key, void *val);
/* Entry i in insertion order, i < m->count. */
static inline struct strmap_ent *strmap_at(const struct strmap *m, size_t i) { return m->order[i]; }

#endif
