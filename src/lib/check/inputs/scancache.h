/* A persistent cache of what `kcve check --git` reads from each commit: its parents, the
 * upstream ids its message references ("commit X upstream.", "(cherry picked from commit X)",
 * "Git-commit: X", ... see gitscan.h) and the ids it reverts ("This reverts commit X").
 *
 * Why: a vendor or stable tree is checked again and again (after every merge or rebase), and
 * the first walk over 900,000 commits spends ~13 s inflating commit objects. Commit objects
 * never change, so what was read once stays true; the cache is keyed by commit id only and
 * serves every ref of the repository. A later walk reads only commits it has not seen.
 *
 * File format (native byte order, the cache is machine-local):
 *   "KCVESCN1" | u32 rule version | u32 0 | u64 entry count
 *   entries:   id[20] | u16 nparents | u16 nrefs | u16 nreverts | parents[nparents][20] |
 *              refs[nrefs][20] | reverts[nreverts][20]
 *   trailer:   u32 crc32 (zlib) of everything before it
 * A file with another magic, rule version, count or checksum is ignored (and replaced on the
 * next save): the cache can always be rebuilt from the repository. */
#ifndef KCVE_CHECK_SCANCACHE_H
#define KCVE_CHECK_SCANCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

/* Bump when what counts as a reference changes: old caches are then ignored. */
#define SCAN_CACHE_RULES 2 /* 2: whole-line reference forms, short cherry-pick ids, reverts */

struct scan_cache;

/* Largest cache file read (a cache of the whole linux-stable history is ~70 MiB). */
#define SCAN_CACHE_MAX ((size_t)1 << 30)
/* Load path (missing or invalid: an empty cache; *why, if not NULL, says which, or is NULL
 * when the file loaded). Never fails. */
struct scan_cache *scan_cache_load(const char *path, const char **why);
/* Load from memory (tests, fuzzing): same validation as the file. */
struct scan_cache *scan_cache_from_bytes(const void *data, size_t len, const char **why);
size_t scan_cache_count(const struct scan_cache *c);
/* Entries added since loading. */
size_t scan_cache_added(const struct scan_cache *c);

/* What one commit holds: lists of 20-byte ids. */
struct scan_entry {
	const unsigned char *parents, *refs, *reverts;
	size_t nparents, nrefs, nreverts;
};
/* The cached entry of a commit: pointers into the cache (valid until the next add or free). */
bool scan_cache_get(const struct scan_cache *c, const unsigned char id[20], struct scan_entry *out);
/* Record a commit (ignored if already present or if a list exceeds 65535 ids). */
void scan_cache_add(struct scan_cache *c, const unsigned char id[20], const struct scan_entry *e);

/* Serialise (old entries first, then the added ones). */
void scan_cache_bytes(const struct scan_cache *c, struct strbuf *out);
/* Write the cache to path if entries were added: atomic replace without fsync (a cache lost
 * in a crash is rebuilt). KCVE_E_IO on failure (nothing left behind). */
int scan_cache_save(struct scan_cache *c, const char *path, struct kcve_err *err);
void scan_cache_free(struct scan_cache *c);

#endif
