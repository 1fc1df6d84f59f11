/* Is a kernel release affected by a record?  Two independent readings of the same record:
 *
 * 1. Dyad pairs (primary).  A pair "V:VG:F:FG" says: introduced by release V, fixed by release
 *    F on that branch.  Release A "is in" release X (version-only ancestry, as strak does it):
 *    A = "0" is in everything; on the same branch (same X.Y) A <= X; across branches only a
 *    mainline A older than X is in X.  X is affected when some pair's introduction is in X and
 *    no such pair's fix is in X.  Same-version pairs (introduced and fixed by the same
 *    release, never shipped vulnerable) are ignored, as bippy ignores them.
 *
 * 2. JSON products (cross-check).  For each vendor/product "Linux" entry: walk "versions"
 *    in order, the first entry that matches decides, else defaultStatus.  A point entry
 *    {version} matches only that exact release; a range matches version <= X < lessThan or
 *    version <= X <= lessThanOrEqual.  "*" is infinity; "P.*" stands above every release
 *    starting with P (so "5.4.*" includes 5.4.300, excludes 5.5).  versionType git entries are
 *    skipped (a release number cannot be compared with a commit); original_commit_for_fix is
 *    compared like semver.  The record is affected if any product says affected.
 *
 * The checker reports the dyad verdict and flags records where the two readings disagree. */
#ifndef KCVE_CHECK_VERDICT_H
#define KCVE_CHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "check/record.h"
#include "core/error.h"
#include "core/version.h"

/* CK_ST_AFFECTED / CK_ST_UNAFFECTED; CK_ST_UNKNOWN when the record has no usable pair. */
enum ck_vstatus ck_dyad_verdict(const struct dyad_list *pairs, const struct kver *v);
/* CK_ST_AFFECTED / CK_ST_UNAFFECTED / CK_ST_UNKNOWN (no product could decide). */
enum ck_vstatus ck_semver_verdict(const struct ck_record *r, const struct kver *v);
/* kver_parse() with a fast path for plain release strings (same result). */
void ck_kver_parse(struct kver *v, const char *s);
/* Verdicts of a record from its parsed (compiled) pairs and ranges: same results as
 * ck_dyad_verdict(&r->pairs, v) / ck_semver_verdict(r, v), without re-parsing version strings
 * for every checked release.  `introduced` (optional) tells fixed from never introduced. */
enum ck_vstatus ck_record_dyad_verdict(struct ck_record *r, const struct kver *v, bool *introduced);
enum ck_vstatus ck_record_semver_verdict(struct ck_record *r, const struct kver *v);
void ck_compiled_free(struct ck_compiled *cc);
/* Release a is "in" release x (see above). */
bool ck_release_in(const char *a, const struct kver *x);

/* Smallest release on x's branch, newer than x, for which the record is no longer affected
 * (from the pairs' fixed versions); false if the branch has no such fix.  out >= 32 bytes. */
bool ck_branch_fix(const struct ck_record *r, const struct kver *x, char *out, size_t outsz);

/* Normalise a user-supplied version to a release string ("6.1.107", "6.8", "6.9-rc3").
 * Rules (documented in docs/check.md):
 *  - a leading "v"/"V" and "linux-" are dropped;
 *  - "X.Y.0" is the mainline release "X.Y" (6.1.0 = 6.1);
 *  - "-rcN" is kept; any other suffix after the numbers ("-3", "+", "-amd64", "-cip3",
 *    "-android14") is dropped when the stable number is not 0 ("6.1.192-3" -> 6.1.192);
 *  - "X.Y.0-N..." with a distro suffix (Debian's "6.1.0-27-amd64", Ubuntu's
 *    "5.15.0-91-generic") is refused: the ABI number does not say which stable release the
 *    package carries; the message says to pass the upstream number or to use --running, which
 *    reads it from /proc/version ("Debian 6.1.115-1", Ubuntu's trailing "5.15.131").
 * Returns 0 or KCVE_E_USAGE with err filled. */
int ck_version_normalize(const char *in, char *out, size_t outsz, struct kcve_err *err);
/* Upstream release from a /proc/version text: Debian's "Debian 6.1.115-1" or Ubuntu's
 * "(Ubuntu 5.15.0-91.101-generic 5.15.131)"; false when no such marker is present. */
bool ck_version_from_proc(const char *proc_version, char *out, size_t outsz);

#endif
