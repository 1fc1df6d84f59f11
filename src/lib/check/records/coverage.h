/* What the records cannot vouch for about a checked release (`kcve check` coverage warnings).
 *
 * Per release, from the records and the supported-branch data they carry (the same data in a
 * tree and in a database built from it, so --tree and --db give the same warnings):
 *   newer        the release is newer than the newest release of its branch that any record
 *                names (.dyad pairs, JSON version entries): fixes made after that are not
 *                counted; a branch newer than every branch the records name counts too;
 *   nonexistent  the release is more than CK_COV_FAR releases beyond that newest one: it
 *                probably does not exist (a typo?), and its verdict means nothing;
 *   unsupported  the branch is not supported by the kernel CNA according to the tree's
 *                supported-branch data (`kcve branches`: scripts/kcve-branches imported from
 *                kernel.org's releases.json, scripts/kcve-eol), so no fixes are tracked for
 *                it.  Only when the records carry no such data (a tree without those files, a
 *                database of format 1 or built from such a tree) is it judged from the records
 *                alone, and the message says so: no record names any release of the branch
 *                although newer branches are named; or the branch had reached its end of
 *                life before the kernel CNA began (policy/branches.h: branch_ended_before_cna).
 * Per record set (once per run, repeated in every result):
 *   stale        the records are older than max_days: the tree's git HEAD commit (a git
 *                checkout), else its newest record date (cveMetadata.datePublished or
 *                dateUpdated); a database's build time and the tree time it was built from;
 *   age-unknown  the age cannot be told: a database of format 1 (written before the build
 *                time was recorded), or a tree that is not a git checkout and whose records
 *                carry no date.  Informational: it does not count for --strict. */
#ifndef KCVE_CHECK_COVERAGE_H
#define KCVE_CHECK_COVERAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "check/records/recset.h"

#define CK_COV_FAR 50
/* Default --max-age, days. */
#define CK_COV_MAX_AGE 30
/* Most warnings one release can get: newer/nonexistent, unsupported, stale/age-unknown. */
#define CK_COV_MAX 3

struct ck_coverage {
	const char *kind; /* "newer", "nonexistent", "unsupported", "stale", "age-unknown" */
	char message[384];
};

/* The newest release per branch that the records name (built once per set, then read-only,
 * so that every release of a run, and every batch worker, looks it up without a scan). */
struct ck_cov_index {
	struct ck_cov_branch *v; /* sorted by key */
	size_t n;
};
void ck_cov_index_build(struct ck_cov_index *ix, const struct ck_set *s);
/* The same from the records alone (ignoring a stored index): what `kcve db build` stores. */
void ck_cov_index_scan(struct ck_cov_index *ix, const struct ck_set *s);
void ck_cov_index_release(struct ck_cov_index *ix);

/* The release warnings (newer/nonexistent, unsupported) of one normalised release, written to
 * out[0..max); returns how many.  now: seconds since the epoch (the branch EOL dates). */
size_t ck_coverage_of(const struct ck_cov_index *ix, const struct ck_set *s, const char *release,
		      long long now, struct ck_coverage *out, size_t max);
/* The age warning of the set (stale or age-unknown); 1 when out was filled.  max_days < 0
 * turns the check off. */
int ck_coverage_age(const struct ck_set *s, long long now, long max_days, struct ck_coverage *out);
/* Is it the records' age (stale, age-unknown), not a warning about the release? */
bool ck_coverage_is_age(const struct ck_coverage *c);
/* Does the warning make --strict fail (everything but age-unknown)? */
bool ck_coverage_strict(const struct ck_coverage *c);

#endif
