/* Assigning a CVE to a fix commit (docs/spec/workflow.md "Create") with the CNA's process rules:
 *  - the fix must be in a released tag ("no CVEs for unfixed issues")       KCVE_E_UNFIXED
 *  - a commit (or the mainline commit it backports) gets one CVE only,
 *    rejected ones included                                                KCVE_E_DUPLICATE
 *  - some pair must have shipped vulnerable (record_build: same-release)   KCVE_E_POLICY
 *  - the fix must land on a supported branch (branches.h)                  KCVE_E_UNSUPPORTED
 *  - the id comes from cve/reserved/<year of the fix's committer date, UTC> KCVE_E_EXHAUSTED
 * `force` (with a reason, recorded in the id's file) lets the CNA team override the
 * supported-branch rule and a previous rejected CVE of the same commit. */
#ifndef KCVE_STORE_CREATE_H
#define KCVE_STORE_CREATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "store/tree.h"

struct history;
struct kcve_identity;

struct store_create_opts {
	const char *sha;                 /* full or short sha, or any revision */
	const char *cve;                 /* explicit id (free or held reserved id), or NULL */
	const char *const *vulnerable;   /* introducing commits for .vulnerable, may be empty */
	size_t nvulnerable;
	bool force;
	const char *reason;              /* required with force */
	const struct kcve_identity *who;
	bool dry_run;                    /* check the rules and render, write nothing */
	const char *const *taken;        /* ids a dry run already gave out: not picked again */
	size_t ntaken;
};

struct store_create_result {
	char cve[32];
	char sha[41];
	char subject[256];
	bool was_held;                   /* bound an id held by reserve-for */
};

int store_create(struct cve_tree *t, struct history *h, const struct store_create_opts *o,
		 struct store_create_result *res, struct kcve_err *err);

/* First whitespace token of >= 7 hex characters of a batch line, or NULL for lines to skip
 * (blank, "-..." or "#..."). Writes at most 40 chars + NUL to out. */
const char *store_batch_sha(const char *line, char out[41]);

#endif
