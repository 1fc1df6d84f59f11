/* Mutating operations on the record tree. Every operation takes the tree lock itself, writes
 * each file atomically (core/fileio.h) and orders multi-file moves through a journal so that a
 * crash at any point leaves every CVE either in its old or in its new state (see journal.h). */
#ifndef KCVE_STORE_OPS_H
#define KCVE_STORE_OPS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "store/tree.h"

struct history;
struct kcve_identity;

/* Move a published CVE to rejected/: its files move along, a .mbox.rejected announcement
 * (In-Reply-To the original announcement, docs/spec/workflow.md "Reject") is written, and the reason is kept
 * in the id's own file (CVE-ID, "Rejected YYYY-MM-DD: reason" appended; cve/README: "the text
 * in the identifier should explain the reasons"). A reserved id is rejected without mail. */
int store_reject(struct cve_tree *t, const char *cve, const char *reason,
		 const struct kcve_identity *who, struct kcve_err *err);
/* Regenerate .dyad/.json/.mbox of one published CVE from its .sha1/.vulnerable/...;
 * *changed set when a file was rewritten (only if something besides the generator-version,
 * header or sender-address lines changed, docs/spec/workflow.md "Update"). */
int store_update_one(struct cve_tree *t, struct history *h, const char *cve, bool *changed,
		     struct kcve_err *err);
/* Same, with a report of which files changed (e.g. "dyad json mbox"), and an optional
 * identity for the regenerated mail. Unless STORE_UPDATE_FULL (or an explicit identity), a
 * CVE whose input files and scripts/tags, scripts/linux.uuid are all older than its .json is
 * refreshed through the pairs alone: when the recomputed pairs equal the stored .dyad, the
 * .json/.mbox (functions of pairs and inputs) are not re-rendered. Use STORE_UPDATE_FULL
 * after upgrading kcve (a new renderer may change every record). */
#define STORE_UPDATE_FULL 1u
struct store_batch;
/* With batch != NULL the new files join that batch and are written at store_batch_commit
 * (*changed then means "changes at commit"); with NULL the CVE is its own transaction. */
int store_update_one_ex(struct cve_tree *t, struct history *h, const char *cve,
			const struct kcve_identity *who, unsigned flags, struct strbuf *what,
			bool *changed, struct store_batch *batch, struct kcve_err *err);
/* Many updates as one transaction: refreshing thousands of CVEs then pays one journal and one
 * sync per touched directory per batch instead of per CVE, and creates no short-lived journal
 * file per CVE. Each CVE stays old or new after a crash; a batch lands whole or not at all.
 * begin takes the tree lock, commit (or abort) releases it and frees the batch. */
int store_batch_begin(struct store_batch **out, struct cve_tree *t, struct kcve_err *err);
size_t store_batch_cves(const struct store_batch *b);
int store_batch_commit(struct store_batch *b, struct kcve_err *err);
void store_batch_abort(struct store_batch *b);
/* Write (atomically) a file of a CVE, e.g. ".vulnerable". */
int store_write_file(struct cve_tree *t, const char *cve, const char *ext, const char *data,
		     size_t len, struct kcve_err *err);

/* Reserve ids: create empty placeholders under reserved/YEAR/. KCVE_E_DUPLICATE if the id is
 * already in the tree in any state. */
int store_reserve(struct cve_tree *t, const char *cve, struct kcve_err *err);
/* Take the lowest reserved id of a year (for create): out receives the id. KCVE_E_EXHAUSTED
 * if none is left. Does not modify the tree. */
int store_pick_reserved(struct cve_tree *t, int year, char out[32], struct kcve_err *err);
/* The same, passing over the ids in except (a dry run's ids already "allocated"). */
int store_pick_reserved_except(struct cve_tree *t, int year, const char *const *except,
			       size_t nexcept, char out[32], struct kcve_err *err);
/* Publish a CVE: the reserved placeholder `cve` becomes published/YEAR/cve.* with the given
 * files (ext -> content). The placeholder is removed last. */
struct store_file { const char *ext; const char *data; size_t len; };
int store_publish(struct cve_tree *t, const char *cve, const struct store_file *files,
		  size_t nfiles, struct kcve_err *err);
/* Hold a free reserved id of `year` for a not-yet-fixed issue (anchor: "contact the team to
 * get an identifier assigned from their batch of reserved identifiers"): the note (requester,
 * date, summary) is written into the placeholder, which makes the id non-free. */
int store_hold(struct cve_tree *t, int year, const char *requester, const char *summary,
	       char out[32], struct kcve_err *err);

/* Which of a CVE's generated files a comparison is about. */
enum store_file_kind { STORE_DYAD, STORE_JSON, STORE_MBOX };
/* True if old and new differ in a line that is not a generator-version, '#' header or
 * sender-address line (docs/spec/workflow.md "Update"). */
bool store_meaningful_change(enum store_file_kind kind, const char *old, const char *new_);

/* Give a reserved (or rejected) id back: it becomes a placeholder under returned/. */
int store_return(struct cve_tree *t, const char *cve, struct kcve_err *err);

#endif
