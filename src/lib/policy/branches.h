/* Which kernel branches are still supported: data, not code (docs/spec/workflow.md "Supported branches", seed: "no CVEs
 * for kernel versions the stable/LTS team does not support").
 *
 * Two files in the record tree, both optional (without them the rule is not enforced):
 *  scripts/kcve-branches  written by `kcve branches import releases.json` (kernel.org format):
 *                         "BRANCH MONIKER LATEST ISEOL" per active branch, '#' comments
 *  scripts/kcve-eol       hand-kept projected end-of-life table: "BRANCH YYYY-MM-DD"; a past
 *                         date makes a branch unsupported, a future one keeps it supported
 * A branch newer than every listed mainline branch (the next release in development) counts
 * as supported. */
#ifndef KCVE_POLICY_BRANCHES_H
#define KCVE_POLICY_BRANCHES_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/error.h"
#include "core/strbuf.h"

#define BRANCHES_FILE "scripts/kcve-branches"
#define EOL_FILE "scripts/kcve-eol"

struct branch_row {
	char branch[24];
	char moniker[32]; /* mainline, stable, longterm, or "eol-table" */
	char latest[40];
	bool iseol;
	long long eol_day; /* days since 1970 of the projected EOL, -1 if none */
};

struct branch_policy {
	struct branch_row *v;
	size_t n, alloc;
	bool has_data;
};

/* Parse kernel.org releases.json text into "scripts/kcve-branches" content. */
int branches_from_releases_json(const char *json, struct strbuf *out, size_t *nbranches,
				struct kcve_err *err);
/* Load both files of a tree (missing files are fine). */
int branch_policy_load(struct branch_policy *bp, const char *tree_root, struct kcve_err *err);
void branch_policy_release(struct branch_policy *bp);
/* now = seconds since the epoch (clock_now()). */
bool branch_policy_supported(const struct branch_policy *bp, const char *branch, time_t now);
/* "7.1, 6.18, 6.12, ..." of the supported branches. */
void branch_policy_list(const struct branch_policy *bp, time_t now, struct strbuf *out);
/* Did the branch reach its end of life before the kernel CNA began assigning CVEs (February
 * 2024)?  The fact that holds without any supported-branch data: the branches supported that
 * day were the longterm ones then maintained (4.19, 5.4, 5.10, 5.15, 6.1, 6.6) and the one
 * stable branch (6.7); every other branch older than the newest of them had ended (4.14, the
 * last longterm one, in January 2024; a stable branch such as 5.3 weeks after its successor's
 * release), so no fix on it was ever tracked.  Branches newer than 6.7 are not judged here. */
bool branch_ended_before_cna(const char *branch);

#endif
