/* The commits a commit message says it carries, and the ones it reverts (`kcve check --git`).
 *
 * A vendor or stable tree carries a fix either as the fix commit itself (ancestry) or as a
 * copy whose message names it. Only these whole-line forms name it (leading/trailing blanks and
 * the case of the keywords do not matter):
 *   commit <40-hex> upstream.            stable trees (Greg KH's scripts), openEuler
 *   [ Upstream commit <40-hex> ]         stable trees (Sasha Levin's scripts)
 *   (cherry picked from commit <id>)     `git cherry-pick -x`: Android, Oracle UEK, Ubuntu, ...;
 *                                        text after the id ("... <id> linux-next)") is allowed
 *   (backported from commit <id>)        Ubuntu, for a backport that needed changes
 *   Git-commit: <40-hex>                 SUSE patch headers
 *   commit <40-hex>                      alone on its line: Red Hat / CentOS Stream, which copy
 *                                        the upstream `git show` header into the body
 * <id> is 12 to 40 hex digits; a short id counts only when the repository resolves it to one
 * object (git itself writes abbreviated ids when asked to). An id anywhere else -- "Unlike
 * commit <id> (...)", "see <id>", a Fixes: line -- is prose and names nothing.
 *   This reverts commit <id>[...]        a revert: the first id on the line is the reverted
 *                                        commit (12+ hex digits, resolved like above); the rest
 *                                        ("which is commit <sha> upstream.") only describes it. */
#ifndef KCVE_CHECK_GITREFS_H
#define KCVE_CHECK_GITREFS_H

#include <stdbool.h>
#include <stddef.h>

struct ck_idvec {
	unsigned char (*v)[20];
	size_t n, alloc;
};

struct ck_msgrefs {
	struct ck_idvec refs;    /* commits the message says it carries */
	struct ck_idvec reverts; /* commits it reverts */
};

/* Resolve an abbreviated id (n hex digits, 12 <= n < 40) to the one object it names. */
typedef bool (*ck_resolve_fn)(void *ctx, const char *hex, size_t n, unsigned char out[20]);

/* Fill out (its lists are emptied first; each id at most once per list). resolve may be NULL:
 * abbreviated ids are then ignored. */
void ck_scan_message(struct ck_msgrefs *out, const char *msg, size_t len, ck_resolve_fn resolve,
		     void *ctx);
void ck_msgrefs_free(struct ck_msgrefs *m);

#endif
