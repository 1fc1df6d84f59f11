/* What a check asks (check/run/entry.h: ck_run): the records, the kernels, their inputs and
 * the options that switch stages on.  One struct for every path: a single `kcve check`, each
 * line of `check --batch` (the fleet's request with the line's own inputs: check/run/batch.h),
 * --since, --fixed-between/--fixed-by and the public API; check/run/kernel.h turns a request
 * and a kernel's opened inputs into the kernel's description. */
#ifndef KCVE_CHECK_REQUEST_H
#define KCVE_CHECK_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "check/inputs/spdx3.h"
#include "check/records/recset.h"
#include "check/stages/gitscan.h"
#include "check/verdict/verdict.h"

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
	const char *files;           /* a per-file verdict list (check/stages/filelist.h), in the
				      * configuration's place (unless --config gives one) */
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

#endif
