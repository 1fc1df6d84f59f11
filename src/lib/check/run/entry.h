/* The one entry of a check: `kcve check` (one or more kernels, --git, --running, --build,
 * --source), `check --batch`, `check --since`, `--fixed-between`/`--fixed-by` (a request kind:
 * two kernels and what the upgrade fixes) and the public API (kcve_check_version) all call
 * ck_run().  The request says what was asked; ck_run opens the inputs, builds each kernel's
 * description (check/run/pipeline.h: struct ck_kernel) in one place, runs the pipeline (and
 * OLD's records through the same pipeline with --since), and hands the sink the warnings, each
 * kernel's result and the end.  Printing is the caller's: the sink decides what a warning or a
 * result becomes (the CLI's table/JSON/VEX printers, the API's callback).
 *
 * Warnings, each once: the records' age (before the first kernel), then each kernel's release
 * warnings (check/records/coverage.h; the age stays in every result's coverage, as the JSON
 * contract has it), the inputs' own warnings (a configuration stage skipped, a module's
 * symbols unreadable, a modprobe.d file ignored, the code stage's unreadable files, ...).
 * Notes are the informational lines (what --running read); the details are what -v shows. */
#ifndef KCVE_CHECK_ENTRY_H
#define KCVE_CHECK_ENTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "check/inputs/spdx3.h"
#include "check/records/recset.h"
#include "check/run/since.h"
#include "check/stages/gitscan.h"
#include "check/verdict/check.h"
#include "check/verdict/upgrade.h"
#include "check/verdict/verdict.h"
#include "core/diag.h"
#include "core/error.h"

/* What is asked of the kernels. */
enum ck_request_kind {
	CK_RQ_CHECK,         /* each kernel's result (the sink's kernel and end) */
	CK_RQ_FIXED_BETWEEN, /* releases = {V1, V2}, V1 older: the CVEs the upgrade fixes
			      * (check/verdict/upgrade.h), in the end's fixed */
	CK_RQ_FIXED_BY,      /* releases = {V}: the same from the release before V */
};

/* What was asked. */
struct ck_request {
	enum ck_request_kind kind;
	struct ck_set *set;          /* the records (loaded by the caller; borrowed) */
	/* the kernels: releases given (normalised: ck_version_normalize), else the release
	 * --running, --build or --source says; or a git tree; or a fleet list */
	char *const *releases;
	size_t nreleases;
	bool running;                /* this machine, or the system image under root */
	const char *root;
	const char *gitdir, *ref, *git_cache;
	bool git_cache_write;        /* false: --no-git-cache */
	const struct ck_git_ops *git; /* the git stage (gitscan.h: &ck_git_libgit2); NULL: none */
	const char *batch;           /* a fleet list (check/run/batch.h), "-" = standard input */
	/* their inputs */
	const char *config, *source, *arch, *build, *system_map;
	const struct ck_spdx3 *sbom; /* an SPDX 3 SBOM's reading (check/inputs/spdx3.h): its
				      * compiled files (exact, stage "sbom") unless --build gives
				      * some, else its configuration unless --config gives one */
	const char *kev, *epss;      /* exploitation data (check/stages/triage.h) */
	/* how */
	enum ck_reading reading;
	bool fixes;                  /* each entry's branch fix and the result's fixed-in */
	long max_age;                /* days before the records are stale; < 0: no age warning */
	long long now;               /* clock of the age and the branch EOL dates */
	const char *since, *since_vex; /* --since OLD [--since-vex FILE] */
	bool stream;                 /* each result is released after sink->kernel (--ids; not
				      * with the fixed kinds, whose end reads both results) */
};

/* What the sink gets at the end. */
struct ck_run_end {
	struct ck_result *res;       /* every kernel's result (NULL when streamed) */
	size_t nres;
	struct ck_since *since;      /* --since: OLD's side, for the VEX revisions; else NULL */
	const struct ck_fixed *fixed; /* the fixed kinds: what the upgrade fixes; else NULL */
	bool affected;               /* a CVE applies to some kernel */
	bool gaps;                   /* a warning that counts for --strict (a release the records
				      * do not cover, stale records, a git tree whose ancestry is
				      * rewritten) */
};

/* Where the answers go.  Warnings and notes go to diag, the library's one warning sink
 * (core/diag.h): a NULL member there is the default sink (stderr, "kcve: warning: ..."), so a
 * caller that must stay quiet (the public API) hands in functions that drop or forward them.
 * Messages are one neutralised line.  The notes -v shows go to detail (with diag.ctx; NULL:
 * dropped, as without -v); the other callbacks may be NULL. */
struct ck_sink {
	void *ctx;                   /* of kernel and end */
	struct kcve_diag diag;       /* the run's warnings and notes, every stage's and input's */
	void (*detail)(void *ctx, const char *msg);
	/* Each kernel's result, in order (owned by ck_run).  Nonzero stops the run: ck_run
	 * returns that value, err untouched. */
	int (*kernel)(void *ctx, const struct ck_set *s, struct ck_result *res);
	/* After the last kernel (not called after an error): 0, or an error in err. */
	int (*end)(void *ctx, const struct ck_set *s, const struct ck_run_end *end,
		   struct kcve_err *err);
	FILE *lines;                 /* --batch: where the JSON Lines go */
};

/* Run the check the request asks for.  0; an error (err filled: inputs that cannot be opened,
 * a stage that failed, nothing to check, kernels of a batch that could not be checked -- after
 * the others were written); or the nonzero value of sink->kernel. */
int ck_run(const struct ck_request *rq, const struct ck_sink *sk, struct kcve_err *err);

#endif
