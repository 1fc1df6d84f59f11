/* The set of CVE records `kcve check` works on, from a record tree or from the compact database.
 *
 * Compact database format (version 1), all integers little-endian:
 *   bytes 0..7   "KCVEDB" NUL 0x01         magic + format version
 *   u32          number of records
 *   u32          uncompressed payload length (at most 1 GiB)
 *   u32          compressed payload length (= file length - 28)
 *   u32          CRC-32 of the uncompressed payload
 *   u32          flags (bit 0: a file-condition section follows the records; bit 1: each
 *                condition entry also carries a module name)
 *   zlib stream  payload
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
 * Every length is bounds-checked on load: a corrupt file is a clean KCVE_E_PARSE error. */
#ifndef KCVE_CHECK_RECSET_H
#define KCVE_CHECK_RECSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check/record.h"
#include "core/error.h"
#include "core/strbuf.h"

/* Format version of the compact database (the last byte of its magic). */
#define CK_DB_FORMAT 1

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
	char *origin;          /* tree root or database path, for messages */
	/* Free each record's compiled ranges right after its verdict instead of keeping them for
	 * the next release: a one-release run then reuses the same few pages for every record,
	 * where keeping them touched ~20 MB of fresh memory (page faults were a third of a run). */
	bool compile_once;
};

/* Find the record tree: `path` if given, else walk up from the current directory to a
 * directory holding cve/published.  Returns a malloc'd root or NULL with err filled. */
char *ck_tree_find(const char *path, struct kcve_err *err);
/* Load every published record of the tree at root, sorted by year then number. */
int ck_set_load_tree(struct ck_set *s, const char *root, struct kcve_err *err);
/* Load the compact database. */
int ck_set_load_db(struct ck_set *s, const char *path, struct kcve_err *err);
/* Parse a database image from memory (used by the loader and the fuzzer). */
int ck_db_parse(struct ck_set *s, const void *data, size_t len, const char *name,
		struct kcve_err *err);
/* Parse an already inflated payload: s->blob/blob_len/origin set by the caller (the fuzzer
 * uses this to reach the record decoder without a valid checksum). */
int ck_db_parse_payload(struct ck_set *s, uint32_t nrec, uint32_t flags, struct kcve_err *err);
/* Serialise s (records + optional conditions) as a database image appended to image
 * (zlib level 0-9). */
int ck_db_image(const struct ck_set *s, int level, struct strbuf *image, struct kcve_err *err);
/* Serialise s (records + optional conditions) and write it atomically to path. */
int ck_db_write(const struct ck_set *s, const char *path, struct kcve_err *err);
/* Condition for a source path from the database section, or NULL. */
const char *ck_set_condition(const struct ck_set *s, const char *path);
/* Module the file links into according to the database, or NULL (none, or no module data). */
const char *ck_set_module(const struct ck_set *s, const char *path);
/* True when the database carries module names (built with --source by this version). */
bool ck_set_has_modules(const struct ck_set *s);
void ck_set_release(struct ck_set *s);

#endif
