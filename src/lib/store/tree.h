/* The vulns-compatible CVE record tree (docs/spec/tree.md): cve/{reserved,published,rejected,
 * returned}/YEAR/CVE-YYYY-NNNNN[.ext]. This is the read side (with the per-tree writer lock
 * of lock.h, included here); every mutation of the tree goes through ops.h.
 *
 * The layout is exactly the one the real kernel CNA keeps in its git repository, so kcve can
 * run on that tree unchanged: a reserved id is an empty placeholder file named after the id,
 * a published CVE is CVE-ID.sha1 (+ .vulnerable, .dyad, .json, .mbox, ...), a rejected CVE
 * keeps its published files under rejected/, a returned id is a placeholder under returned/. */
#ifndef KCVE_STORE_TREE_H
#define KCVE_STORE_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/error.h"

enum cve_state { CVE_RESERVED = 1, CVE_PUBLISHED = 2, CVE_REJECTED = 4, CVE_RETURNED = 8 };
#define CVE_ALL_STATES (CVE_RESERVED | CVE_PUBLISHED | CVE_REJECTED | CVE_RETURNED)

struct cve_tree;

#include "store/lock.h"

/* path NULL: $KCVE_TREE, else walk up from the cwd to a directory holding cve/published or
 * cve/reserved. KCVE_E_TREE when none is found. Opening replays an interrupted multi-file
 * operation's journal only under tree_lock() (readers never write). */
int tree_open(struct cve_tree **out, const char *path, struct kcve_err *err);
void tree_close(struct cve_tree *t);
const char *tree_root(const struct cve_tree *t);

struct cve_entry {
	char id[32];          /* CVE-YYYY-NNNNN */
	int year;             /* the YEAR directory it lives in */
	enum cve_state state;
	char *dir;            /* directory holding the files (malloc'd; cve_entry_release) */
};
void cve_entry_release(struct cve_entry *e);

/* Every CVE in the given states (mask), sorted by year then id (numeric part). cb returns
 * non-zero to stop (that value is returned). The entry passed to cb is only valid during
 * the call. */
int tree_foreach(struct cve_tree *t, unsigned state_mask,
		 int (*cb)(const struct cve_entry *e, void *ctx), void *ctx);
/* 0 or KCVE_E_NOTFOUND; free out->dir (cve_entry_release). */
int tree_find_cve(struct cve_tree *t, const char *id, struct cve_entry *out);
/* CVE whose .sha1 (published or rejected) names this full sha (any line); 0 or
 * KCVE_E_NOTFOUND. The sha index is built on first use and refreshed by writes. */
int tree_find_sha(struct cve_tree *t, const char *sha40, struct cve_entry *out);
/* Every CVE whose .sha1 has a line starting with prefix (short sha search). cb as in
 * tree_foreach; returns the number of matches (>= 0) or -1 if cb stopped. */
int tree_find_sha_prefix(struct cve_tree *t, const char *prefix,
			 int (*cb)(const struct cve_entry *e, const char *sha40, void *ctx),
			 void *ctx);
/* A record's JSON names its own CVE: cveMetadata.cveId is a CVE id (core/cveid.h) equal to
 * the file name's. 0 (also when the CVE has no .json), else KCVE_E_PARSE / KCVE_E_IO with one
 * line naming the file, as `check` refuses it. Every reader that shows a record's id, fix or
 * text calls it first, so a forged record is refused on every read path. */
int tree_record_id_check(const struct cve_entry *e, struct kcve_err *err);
/* Path of one file of a CVE, e.g. ".json"; "" = base file (placeholder). Caller frees. */
char *tree_cve_path(const struct cve_entry *e, const char *ext);

/* Where the tree's warnings go (a state file it cannot write, ...); NULL, the default: the
 * default sink (core/diag.h). diag must outlive t. */
void tree_set_diag(struct cve_tree *t, const struct kcve_diag *diag);

/* Helpers on ids. */
bool cve_id_valid(const char *id);            /* CVE-YYYY-NNNN+: core/cveid.h's rule */
int cve_id_year(const char *id);              /* YYYY or -1 */
long cve_id_number(const char *id);           /* NNNNN or -1 */
const char *cve_state_dir(enum cve_state s);  /* "published", ... */

#endif
