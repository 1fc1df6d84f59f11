/* String-keyed containers: strmap (key -> caller's value) and strset (a set of strings), both
 * iterating in insertion order so that every output built from them is deterministic; plus the
 * one string hash and the one qsort/bsearch comparator for arrays of C strings.
 *
 * Invariants (checked by KCVE_ASSERT in strmap.c):
 * - A zero-filled struct (STRMAP_INIT / STRSET_INIT / `= {0}`) is a valid empty container; the
 *   table is allocated on the first insert. strmap_init() exists for code that prefers a call.
 * - Keys are copied on insert and owned by the container; keys are unique (byte-wise strcmp).
 *   Values are the caller's: strmap_free() frees them only through the free_val it is given.
 * - order[0..count) holds every entry once, in insertion order; a replaced value keeps its
 *   entry's place. Entries never move in memory, so a struct strmap_ent * stays valid until
 *   the map is freed.
 * - nbuckets is 0 (nothing allocated yet) or a power of two >= count (load factor <= 1).
 * - Lookups are O(1) on average: use these instead of scanning an array with strcmp in a loop
 *   (a list of 120,000 file names scanned per insert is 46 s; hashed it is a blink). */
#ifndef KCVE_CORE_STRMAP_H
#define KCVE_CORE_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

/* The one string hash: 64-bit FNV-1a. fnv1a64() continues hash h over p[0..n), starting from
 * FNV1A64_INIT (the standard offset basis). Its values are stable, so they may be written to
 * disk. FNV1A64_INIT_OLD is the basis kcve's first hashes used by mistake (the standard one
 * without its last digit); the values already on disk with it (index tag fingerprints, check
 * cache keys, request Message-Ids) keep it. str_hash() is the hash-table form over s[0..n),
 * folded to size_t. */
#define FNV1A64_INIT 14695981039346656037ull
#define FNV1A64_INIT_OLD 1469598103934665603ull
unsigned long long fnv1a64(unsigned long long h, const void *p, size_t n);
size_t str_hash(const char *s, size_t n);

/* qsort/bsearch comparator for an array of char * (strcmp order). */
int cmp_str(const void *a, const void *b);

struct strmap_ent {
	char *key;
	void *val;
	struct strmap_ent *next; /* bucket chain */
};

struct strmap {
	struct strmap_ent **buckets;
	size_t nbuckets, count;
	struct strmap_ent **order; /* insertion order, for deterministic iteration */
	size_t order_alloc;
};

#define STRMAP_INIT { NULL, 0, 0, NULL, 0 }

void strmap_init(struct strmap *m);
/* Frees keys and entries; calls free_val on each non-NULL value when free_val is non-NULL.
 * The map is empty (and reusable) afterwards. */
void strmap_free(struct strmap *m, void (*free_val)(void *));
/* The entry for key[0..n) (key need not be NUL-terminated), or NULL. */
struct strmap_ent *strmap_find(const struct strmap *m, const char *key, size_t n);
void *strmap_get(const struct strmap *m, const char *key);
void *strmap_getn(const struct strmap *m, const char *key, size_t n);
bool strmap_contains(const struct strmap *m, const char *key);
/* Insert or replace; returns the previous value (or NULL). */
void *strmap_put(struct strmap *m, const char *key, void *val);
/* Entry i in insertion order, i < m->count. */
struct strmap_ent *strmap_at(const struct strmap *m, size_t i);

/* A set of strings, in insertion order (a strmap whose values are unused). */
struct strset {
	struct strmap map;
};

#define STRSET_INIT { STRMAP_INIT }

/* Insert a copy of s; true if it was not there yet. */
bool strset_add(struct strset *set, const char *s);
bool strset_contains(const struct strset *set, const char *s);
static inline size_t strset_count(const struct strset *set) { return set->map.count; }
/* Member i in insertion order, i < strset_count(set). */
const char *strset_at(const struct strset *set, size_t i);
/* Frees every member; the set is empty (and reusable) afterwards. */
void strset_clear(struct strset *set);

#endif
