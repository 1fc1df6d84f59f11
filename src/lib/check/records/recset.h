/* The set of CVE records `kcve check` works on, from a record tree or from the compact database.
 *
 * Compact database format (version 2), all integers little-endian:
 *   bytes 0..7   "KCVEDB" NUL 0x02         magic + format version
 *   u32          number of records
 *   u32          uncompressed payload length (at most 1 GiB)
 *   u32          compressed payload length (= file length - 36)
 *   u32          CRC-32 of the uncompressed payload followed by the 8 build-time bytes
 *   u32          flags (bit 0: a file-condition section follows the records; bit 1: each
 *                condition entry also carries a module name; bit 2: the tree section follows;
 *                bit 3: the branch index follows; bit 4: the CVSS vector section follows)
 *   u64          build time, seconds since the epoch ($SOURCE_DATE_EPOCH when set)
 *   zlib stream  payload
 * Format 1 (still read) has no build time (a 28-byte header, CRC of the payload alone) and no
 * tree section: its age and supported-branch data are unknown.
 * The payload is a sequence of records; strings are LEB128 length + bytes + NUL so that the
 * loader can point into the inflated buffer without copying:
 *   str id, str title, str severity, uleb score10, uleb published,
 *   uleb nfiles, str file...; uleb nfixes, str sha...;
 *   uleb npairs, (str vver, str vsha, str fver, str fsha)...;
 *   uleb nproducts, (u8 defaultStatus, uleb n, (u8 status, u8 type, u8 has(1=lt,2=le),
 *                    str version, [str lessThan], [str lessThanOrEqual])...)...
 *   (versionType git ranges are left out: nothing evaluates them, the pairs hold the commits)
 * then, with flag bit 0: uleb n, (str path, str condition)... — kbuild's config-independent
 * "which CONFIG symbols gate this file" conditions, so --config works without the source tree.
 * With flag bit 1 every entry is (str path, str condition, str module): the module the file
 * links into ("" if none), for --running's "[module loaded]" marking.  Besides the .c files of
 * the tree, the section holds every programFile of the records (deleted files, .S, headers,
 * tools/) with the condition that reproduces the source-tree verdict, so that a --db check and
 * a --source check decide every record file the same way.
 * With flag bit 2 (always written by format 2), the tree section: uleb newest record date
 * (datePublished/dateUpdated, 0 = none), uleb committer time of the tree's git HEAD (0 = not
 * a git checkout), u8 has-branch-data, uleb n, (str branch, str moniker, str latest, u8 iseol,
 * uleb eol-day + 1)... — the tree's supported-branch data (policy/branches.h), so that --db
 * gives the coverage warnings --tree gives.
 * With flag bit 3 (written since format 2 by this kcve; a format-2 file without it is read and
 * the index is computed), the branch index of check/records/coverage.h: uleb n, (uleb key, uleb
 * newest patch)... with strictly increasing non-zero keys.
 * With flag bit 4 (records with a CVSS 3.1 vector), the vector section: uleb n, (uleb record
 * index, str vector)... with strictly increasing indexes.
 * With flag bit 5, the fix fingerprints (codefix/fprint.h gives their layout): uleb length, then
 * that many bytes; a kcve older than fingerprints refuses such a file ("bad header": rebuild it
 * or update kcve), a file without them still loads.
 * Flag bit 6 (with bit 0): the conditions cover several architectures and may test "ARCH=<arch>"
 * (kbuild's kb_export_db_conditions); a kcve that would read ARCH as an unset symbol refuses
 * such a file, a file without it (x86-only conditions) still loads.
 * Every length is bounds-checked on load: a corrupt file is a clean KCVE_E_PARSE error. */
#ifndef KCVE_CHECK_RECSET_H
#define KCVE_CHECK_RECSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/records/record.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "policy/branches.h"

/* Format version of the compact database (the last byte of its magic). */
#define CK_DB_FORMAT 2

/* The newest release of one branch that the records name (check/records/coverage.h builds the index;
 * a database stores it, so a check need not scan every record's versions for it). */
struct ck_cov_branch {
	unsigned long long key; /* the branch's numbers, ordered as the kernel orders branches */
	long long max_patch;    /* newest patch named on the branch (0: only the mainline release) */
};

struct cf_set;

struct ck_cond {
	const char *path, *cond;
	const char *module; /* NULL or "" when none */
};

struct ck_set {
	struct ck_record *v;
	size_t n, alloc;
	struct ck_cond *conds; /* sorted by path; only from a database built with --source */
	size_t nconds;
	bool has_modules;      /* conds carry module names (database flag bit 1) */
	char *blob;            /* inflated database payload the records point into */
	size_t blob_len;
	struct xbig blob_mem;  /* when set, blob points into it (freed with it, not free()) */
	struct xarena arena;   /* the records' arrays and v, when loaded from a payload */
	bool v_in_arena;
	char *origin;          /* tree root or database path, for messages */
	/* Freshness and supported branches (check/records/coverage.h); times in seconds since the epoch,
	 * 0 = unknown. */
	bool is_db;            /* loaded with ck_set_load_db (not a tree, nor its cache) */
	unsigned db_format;    /* format of the database image read, 0 for a tree */
	long long built;       /* database: when it was built */
	long long newest_record; /* newest datePublished/dateUpdated of the records */
	long long tree_head;   /* committer time of the tree's git HEAD (set by the caller) */
	struct branch_policy branches; /* the tree's scripts/kcve-branches and kcve-eol */
	struct ck_cov_branch *covix;   /* from a database with flag bit 3, sorted by key */
	size_t ncovix;
	bool has_covix;
	/* Free each record's compiled ranges right after its verdict instead of keeping them for
	 * the next release: a one-release run then reuses the same few pages for every record,
	 * where keeping them touched ~20 MB of fresh memory (page faults were a third of a run). */
	bool compile_once;
	/* Fix fingerprints (codefix/fprint.h) from `db build --patches/--repo`: NULL when none. */
	struct cf_set *fprints;
};

/* Find the record tree: `path` if given, else walk up from the current directory to a
 * directory holding cve/published.  Returns a malloc'd root or NULL with err filled. */
char *ck_tree_find(const char *path, struct kcve_err *err);
/* Load every published record of the tree at root, sorted by year then number, with the
 * tree's supported-branch data and newest record date (tree_head is left 0: see
 * ck_tree_head_time() in check/records/gitdates.h). */
int ck_set_load_tree(struct ck_set *s, const char *root, struct kcve_err *err);
/* (Re)read the tree's supported-branch data into s->branches (a cached set's copy may be
 * older than the files). */
int ck_set_load_branches(struct ck_set *s, const char *root, struct kcve_err *err);
/* Load the compact database. */
int ck_set_load_db(struct ck_set *s, const char *path, struct kcve_err *err);
/* Parse a database image from memory (used by the loader and the fuzzer). */
int ck_db_parse(struct ck_set *s, const void *data, size_t len, const char *name,
		struct kcve_err *err);
/* Parse an already inflated payload: s->blob/blob_len/origin set by the caller (the fuzzer
 * uses this to reach the record decoder without a valid checksum). */
int ck_db_parse_payload(struct ck_set *s, uint32_t nrec, uint32_t flags, struct kcve_err *err);
/* Parse an uncompressed payload that lies at mem + off (len bytes; the caller has checked that
 * mem holds them), in place: s takes mem (ck_set_release frees it, also on error). */
int ck_db_parse_raw(struct ck_set *s, struct xbig *mem, size_t off, size_t len, uint32_t nrec,
		    uint32_t flags, const char *name, struct kcve_err *err);
/* Append the uncompressed payload of s (current format) to raw; returns its header flags. */
uint32_t ck_db_payload(const struct ck_set *s, struct strbuf *raw);
/* Serialise s (records, optional conditions, the tree section; s->built as the build time)
 * as a database image of the current format appended to image (zlib level 0-9). */
int ck_db_image(const struct ck_set *s, int level, struct strbuf *image, struct kcve_err *err);
/* Serialise s (records + optional conditions) and write it atomically to path. */
int ck_db_write(const struct ck_set *s, const char *path, struct kcve_err *err);
/* Condition for a source path from the database section, or NULL. */
const char *ck_set_condition(const struct ck_set *s, const char *path);
/* Module the file links into according to the database, or NULL (none, or no module data). */
const char *ck_set_module(const struct ck_set *s, const char *path);
/* True when the database carries module names (built with --source by this version). */
bool ck_set_has_modules(const struct ck_set *s);
/* When a set's records are from: newest record date, else the database's build time, else
 * the tree's git HEAD time; 0 when unknown. */
long long ck_set_time(const struct ck_set *s);
void ck_set_release(struct ck_set *s);

#endif
