/* Disputes of assigned CVEs by the maintainers of the affected subsystem (Documentation/
 * process/cve.rst: "The authority to dispute or modify an assigned CVE ... lies solely with the
 * maintainers of the relevant subsystem affected").
 *
 * A dispute is checked against MAINTAINERS (authority.h has the policy), then applied through
 * the record tree's normal operations (store/ops.h) and, allowed or refused, recorded as one
 * JSON line in cve/disputes.log (appended under the tree lock with a single write, fsync'd).
 * A refused dispute changes nothing else. */
#ifndef KCVE_MAINTAINERS_DISPUTE_H
#define KCVE_MAINTAINERS_DISPUTE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "maintainers/maintainers.h"

struct cve_tree;
struct history;
struct kcve_identity;

enum dispute_action {
	DISPUTE_REJECT,        /* withdraw the CVE (store_reject) */
	DISPUTE_VULNERABLE,    /* correct the introducing commit(s): .vulnerable + regenerate */
	DISPUTE_NOT_AFFECTED,  /* stable branches that never had the bug: .not_affected + regenerate */
};

struct dispute_request {
	const char *cve;
	const char *const *by;        /* disputer addresses (one or more) */
	size_t nby;
	const char *reason;
	enum dispute_action action;
	const char *const *args;      /* shas (vulnerable) or branches "6.1" (not-affected) */
	size_t nargs;
	const struct kcve_identity *sender;   /* who sends the rejection mail (the CNA side) */
	struct history *history;      /* NULL: the record is not regenerated (note in result) */
};

struct dispute_result {
	bool allowed;
	struct strbuf why;        /* one-line decision explanation */
	struct strbuf deciders;   /* who may decide */
	struct strbuf report;     /* multi-line human report (files, sections, outcome) */
	bool regenerated;
};
void dispute_result_release(struct dispute_result *r);

/* Program files of a CVE record (.json: containers.cna.affected[].programFiles, in order, no
 * duplicates). KCVE_E_PARSE if the record is malformed or names no file. */
int cve_json_program_files(const char *json_text, size_t len, char ***files, size_t *n,
                           struct kcve_err *err);

/* MAINTAINERS of a kernel repository: its working tree file if there is one, else the HEAD
 * commit's blob (directories looked up in HEAD's tree). */
int maintainers_from_repo(struct maintainers **out, const char *repo_path, struct kcve_err *err);

/* Check and apply. Returns 0 when the dispute was allowed and applied, KCVE_E_DENIED when it
 * was refused (audited; nothing else changed), another code on failure. */
int dispute_run(struct cve_tree *t, const struct maintainers *m, const struct dispute_request *rq,
                struct dispute_result *res, struct kcve_err *err);

#endif
