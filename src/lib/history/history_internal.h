/* Internals shared by the history module's files (not for other areas). */
#ifndef KCVE_HISTORY_INTERNAL_H
#define KCVE_HISTORY_INTERNAL_H

#include <sqlite3.h>
#include <stdint.h>
#include <zlib.h>

#include "core/strbuf.h"
#include "core/strmap.h"
#include "history/history.h"

struct packset;

/* Bump when the index layout changes; older indexes are refused with KCVE_E_SCHEMA. */
#define HISTORY_SCHEMA_VERSION 1

/* A release-tag range A..B: commits reachable from B but not from A get release B. */
struct tag_range {
	char from[32]; /* "" = everything reachable from `to` (the oldest release) */
	char to[32];
	bool mainline;
	git_oid from_oid, to_oid;
};

struct range_list {
	struct tag_range *v;
	size_t n, alloc;
};

/* Memo cache: full sha -> index row (or a negative entry). */
struct memo_entry {
	bool present;
	struct history_commit c;
};

struct history {
	git_repository *repo;
	sqlite3 *db;
	char *index_path;
	sqlite3_stmt *st_row, *st_backports, *st_reverted;
	sqlite3_stmt *st_gen; /* generation lookup; NULL for indexes without the table */
	/* memo: full sha -> struct memo_entry * (owned) */
	struct strmap memo;
	/* memo of ancestry answers: key "a:b" -> ANC_YES / ANC_NO (graph walks are the costliest
	 * lookups dyad makes; sorting asks about the same pairs repeatedly) */
	struct strmap anc;
	/* exclusion lists (sorted full/short shas) */
	char **not_fixes, **not_reverts;
	size_t n_not_fixes, n_not_reverts;
	/* sticky failure of a lookup (corrupt index); reported by dyad_compute */
	struct kcve_err failure;
	const struct kcve_diag *diag; /* warnings and notes (NULL: the default sink) */
};

/* index_ranges.c: the tag ranges the repository defines, in processing order (mainline
 * first, then stable, each in version order). KCVE_E_NOTAGS when none. */
int ranges_discover(git_repository *repo, struct range_list *out, struct kcve_err *err);
void range_list_release(struct range_list *l);
/* A cheap fingerprint of the release tags (names and targets, no peeling): when it matches
 * the one stored in the index, the index is current and tag discovery is skipped. */
void tags_fingerprint(git_repository *repo, char out[17]);

/* index_db.c */
int index_db_open(const char *path, bool create, sqlite3 **out, struct kcve_err *err);
int index_db_create_schema(sqlite3 *db, struct kcve_err *err);
int index_db_exec(sqlite3 *db, const char *sql, struct kcve_err *err);
/* Small key/value facts about the index (e.g. the tag fingerprint it was built from). */
int index_meta_get(sqlite3 *db, const char *key, char *out, size_t outsz);
int index_meta_set(sqlite3 *db, const char *key, const char *value, struct kcve_err *err);

/* commit_raw.c: a raw commit object's header fields and message (pointers into the data). */
struct raw_commit {
	const char *parents; /* the first "parent " header line, NULL if none */
	const char *author; size_t author_len; /* "Name <email>" */
	long long author_time, commit_time; /* -1 when missing */
	long long walk_time; /* committer time as libgit2's revwalk reads it (its date order) */
	const char *msg; size_t msg_len;
};
void commit_raw_parse(const char *data, size_t len, struct raw_commit *rc);
/* The parent ids (consecutive "parent" lines): returns how many there are, stores the first
 * max of them. */
size_t commit_raw_parents(const struct raw_commit *rc, git_oid *out, size_t max);
/* git's summary: the first paragraph, lines joined with spaces, outer whitespace trimmed. */
void commit_summary(const char *msg, size_t len, struct strbuf *out);
/* Append one Fixes: id to the space-separated list: 40 hex lower-cased, a shorter prefix
 * expanded when exactly one object of the repository has it, anything else raw. ps (or
 * NULL) answers from the packs without libgit2's locks when it can. */
void fixes_append(git_odb *odb, const struct packset *ps, const char *p, size_t n,
		  struct strbuf *out);

/* Objects read straight from the pack files (packread.c), without libgit2's locks: for the
 * full build's reader threads. One cursor per thread. */
struct packset;
struct pack_cursor {
	z_stream z;
	bool zinit;
	size_t last; /* the pack the last object was found in, asked first */
	unsigned char *in; /* pack bytes read */
	size_t ain;
};
/* Limits on what a repository may ask (git's own limits where it has them): alternates
 * nested at most 5 deep, 64 objects directories in all, an alternates file of 64 KiB; delta
 * chains of at most 4096 objects (git pack-objects' largest --depth is 4095). */
#define PACKSET_MAX_ALT_DEPTH 5
#define PACKSET_MAX_ALTERNATES 64
#define PACKSET_ALTERNATES_MAX ((size_t)64 << 10)
#define PACKSET_MAX_CHAIN 4096
/* The packs of objects_dir/pack and of its alternates (each directory once); NULL when there
 * are none usable. */
struct packset *packset_open(const char *objects_dir);
/* The same, also when no pack is usable (never NULL): for the object guard (gitguard.c). */
struct packset *packset_scan(const char *objects_dir);
/* The first problem met with the alternates (a loop, too deep, too many, a file that is not
 * a regular file), or NULL. */
const char *packset_problem(const struct packset *ps);
/* The objects directories found: the repository's first, then its alternates, each once. */
size_t packset_dirs(const struct packset *ps, const char *const **dirs);
/* Check object id's delta chain without inflating it: 0 (its type and the size it declares
 * for itself in *type and *size), 1 when it is in no pack (or its base is not), -1 when the
 * chain is damaged (*why: a cycle, a chain too deep, an offset outside the pack). */
int packset_check(const struct packset *ps, const git_oid *id, git_object_t *type, size_t *size,
		  const char **why);
struct packset *packset_open_repo(git_repository *repo); /* its common dir's objects/ */
void packset_free(struct packset *ps);
/* The object id into out, with its type: 0, or -1 when not in a pack or not readable here (the
 * caller then asks libgit2). */
int packset_read(const struct packset *ps, struct pack_cursor *pc, const git_oid *id,
		 struct strbuf *out, git_object_t *type);
/* Only the type of the object id (no inflating): 0, or -1 as packset_read. */
int packset_type(const struct packset *ps, const git_oid *id, git_object_t *type);
/* The one object whose id starts with the n hex digits of key (the rest zero), over the packs:
 * 0 found (into out), 1 none, 2 more than one; -1 when libgit2 must answer (loose objects
 * with that first byte, fewer than 4 digits). */
int packset_prefix(const struct packset *ps, const git_oid *key, size_t n, git_oid *out);
void pack_cursor_release(struct pack_cursor *pc);

/* One row of the commits table. NULL / zero-length optional fields are stored as NULL. */
struct index_row {
	const char *id; /* 40 hex */
	const struct tag_range *range;
	const char *upstream, *reverts; /* 40 hex or NULL */
	const char *fixes; size_t fixes_len;
	const char *subject; size_t subject_len;
	const char *author; size_t author_len;
	long long author_time, commit_time;
};
/* INSERT INTO commits VALUES(?1..?10) / ranges VALUES(?1..?4); 0 or -1 (sqlite3_errmsg). */
int index_row_insert(sqlite3_stmt *ins, const struct index_row *r);
int index_range_insert(sqlite3_stmt *rins, const struct tag_range *r, size_t count);
/* Known generation numbers, inserted sorted by id (appends instead of random b-tree inserts);
 * sorts v. */
struct gen_row {
	unsigned char id[GIT_OID_RAWSZ];
	uint32_t gen;
};
int index_generations_insert(sqlite3_stmt *gins, struct gen_row *v, size_t n);

/* index_walk.c: a full build in one pass (fresh index, every range): every commit reachable
 * from the release tags read once by a pool of threads, each range's revwalk replayed in
 * memory, rows written in the order the per-range walks would write them. *commits gets the
 * number of rows written. */
int index_build_onepass(struct history *h, const struct range_list *ranges, sqlite3_stmt *ins,
			sqlite3_stmt *rins, sqlite3_stmt *gins, bool progress, size_t *commits,
			struct kcve_err *err);

/* index_build.c: bring the index up to date with the repository's tag ranges; the tag
 * fingerprint fp (if not NULL) is stored in the same transaction (one disk sync less). */
int index_update(struct history *h, const struct range_list *ranges, const char *fp,
		 unsigned flags, struct history_index_stats *st, struct kcve_err *err);
/* True if every range in `ranges` is recorded and no recorded range is obsolete. */
int index_is_current(sqlite3 *db, const struct range_list *ranges, bool *current,
		     struct kcve_err *err);

#endif
