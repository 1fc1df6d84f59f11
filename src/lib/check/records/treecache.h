/* A compact-database cache of a record tree, so that `kcve check --tree` costs what `--db` does.
 *
 * The cache is <root>/.kcve/check-cache (the tree's state directory, which carries its own
 * ".gitignore" so git never sees it): a header, the listing of the record directories, then the
 * uncompressed compact-database payload (check/records/recset.h) of exactly what ck_set_load_tree()
 * returned.  It is read whole into huge pages (core/xalloc.h's xbig) and parsed in place: no
 * inflate, and the records point into it.  All integers little-endian:
 *
 *   bytes 0..7   "KCVETC" NUL 0x02      magic + cache format version
 *   16 bytes     key: FNV-1a-64 and CRC-32 of the key text, and the key text's length (u32)
 *   u32          listing length     u32 number of records   u32 payload flags (recset.h)
 *   u32          payload length     u32 CRC-32 of the listing and the payload
 *   listing      for each year directory "/" YEAR NUL, then each record's base name NUL
 *   payload      the compact database payload (ck_db_parse_raw())
 *
 * The key text covers everything the result depends on:
 *   - the tree's content, by metadata: the (inode, size, mtime, ctime) of cve/published and of
 *     each year directory in it, and for every CVE-*.json in them the name and the metadata of
 *     its .json, .dyad and .sha1 (ctime changes on every write, so an edit in place is seen as
 *     well as a git checkout); a record file that is not a regular file disables the cache.
 *     A directory's times change whenever an entry is added, removed or renamed in it, so a
 *     later run takes the names from the cache's listing instead of reading the directories,
 *     unless a directory changed within RACY_SECS (2 s) before the listing was taken (the cache
 *     file's mtime is set to that moment): then it may have changed again in the same
 *     timestamp tick, and the directories are read.  The listing never decides alone: the
 *     names it gives are part of the key text, so a wrong listing is a stale key;
 *   - the compact database's format version and the kcve binary (version, and the size and
 *     mtime of /proc/self/exe), so a kcve that reads records differently never trusts a
 *     cache written by another build.
 * Not in the key, and so never taken from the cache: the tree's supported-branch files
 * (scripts/kcve-branches, scripts/kcve-eol: read again on every hit, they are small) and its
 * age (the caller reads the git HEAD commit time; the cache's own build time is dropped).
 * A cache whose key differs, or which does not parse, is ignored and rewritten.  It is only
 * written under the tree lock (<root>/.kcve/lock, not waited for: when a writer holds it the
 * check runs from the records and leaves the cache alone), atomically (temporary file,
 * fsync, rename), reached with openat() from the tree's directory without following
 * symbolic links. */
#ifndef KCVE_CHECK_TREECACHE_H
#define KCVE_CHECK_TREECACHE_H

#include <stdbool.h>

#include "check/records/recset.h"
#include "core/error.h"

enum ck_cache_state {
	CK_CACHE_OFF,      /* not used (--no-cache) */
	CK_CACHE_HIT,      /* records loaded from a valid cache */
	CK_CACHE_BUILT,    /* no cache: loaded from the records, cache written */
	CK_CACHE_REBUILT,  /* stale or damaged cache: loaded from the records, cache rewritten */
	CK_CACHE_SKIPPED,  /* loaded from the records, cache neither read nor written (see why) */
};

struct ck_cache_info {
	enum ck_cache_state state;
	char why[160]; /* CK_CACHE_SKIPPED / REBUILT: the reason, for -v */
};

/* Load the published records of the tree at root, through the cache when use_cache. */
int ck_set_load_tree_cached(struct ck_set *s, const char *root, bool use_cache,
			    struct ck_cache_info *info, struct kcve_err *err);
const char *ck_cache_state_name(enum ck_cache_state st);

#endif
