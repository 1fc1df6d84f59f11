/* The check pipeline: everything that checks a kernel (`kcve check`, `check --batch`, the
 * public API) runs its stages through ck_pipeline_run(), in the one order listed in the stage
 * table of check/run/pipeline.c:
 *
 *   version | git ─▶ coverage ─▶ exploitation ─▶ config ─▶ build ─▶ code ─▶ functions ─▶
 *   modules ─▶ modprobe ─▶ fixed-in
 *
 * A stage reads what the kernel description gives it and the result so far, and is skipped
 * when its input is absent (no configuration: no config stage).  Adding a stage: add its input
 * to struct ck_kernel (or to struct ck_pipeline when it is shared by every kernel of a run),
 * write `static int stage_x(const struct ck_pipeline *, const struct ck_kernel *,
 * struct ck_result *, struct kcve_err *)` in pipeline.c (or in its own file, declared here)
 * and put it in the table at its place; a stage that fails returns its error, which stops the
 * run and reaches the caller (check/run/entry.h).  Rules, asserted: the first stage creates
 * one entry per record; a stage adds at most one stage count (the counts are sized from the
 * table: CK_PIPELINE_STAGES); the release-scope stages allocate nothing per entry, so --batch
 * can copy their result for every kernel of a release (ck_result_copy).  A stage whose result depends only on the release (not on a kernel's
 * configuration, build, machine...) is CK_STAGE_RELEASE: --batch runs those once per distinct
 * release and the CK_STAGE_KERNEL ones once per distinct kernel. */
#ifndef KCVE_CHECK_PIPELINE_H
#define KCVE_CHECK_PIPELINE_H

#include <stdbool.h>

#include "check/inputs/running.h"
#include "check/records/coverage.h"
#include "check/records/recset.h"
#include "check/stages/filestage.h"
#include "check/stages/funclevel.h"
#include "check/stages/triage.h"
#include "check/verdict/check.h"
#include "check/verdict/verdict.h"

struct ck_git;
struct ck_code_reading;
/* The git stage (check/stages/gitscan.h: ck_run_git), passed in by the caller so that a build without
 * libgit2 (kcve-embedded) links the pipeline without it. */
typedef void (*ck_git_fn)(struct ck_set *s, struct ck_git *g, const char *label,
			  const char *release, struct ck_result *out);

/* What every kernel of one run shares. */
struct ck_pipeline {
	struct ck_set *set;
	const struct ck_cov_index *cov;  /* coverage stage (NULL: skipped) */
	long long now;                   /* clock of the branch EOL dates */
	const struct ck_coverage *age;   /* the records' age warning, appended to every result's
					    coverage (NULL: none) */
	const struct ck_triage *triage;  /* exploitation stage: --kev, --epss (NULL: skipped) */
	const struct kcve_diag *diag;    /* the run's warnings (the code stage's unreadable files);
					    NULL: the default sink (core/diag.h) */
};

/* A file stage's answer per source path: a .config or build directory (ck_files_verdict), or
 * --batch's precomputed tables. */
struct ck_file_input {
	const char *stage; /* stage name in the result: "config", "build", "files" */
	ck_file_fn fn;     /* NULL: no such stage */
	void *ctx;
};

/* One kernel to check. */
struct ck_kernel {
	const char *release;         /* normalised release; NULL only with git */
	struct ck_git *git;          /* the git stage replaces the version stage (NULL: version) */
	ck_git_fn git_run;           /* ck_run_git */
	const char *git_label;       /* "git:PATH@REF" */
	enum ck_reading reading;     /* version verdict from the JSON, the .dyad or either */
	struct ck_file_input config; /* .config, or a per-file verdict list */
	struct ck_file_input build;  /* build directory */
	struct ck_func_input funcs;  /* function level: the image's symbols (NULL: skipped) */
	const struct ck_running *running; /* modules stage (NULL: skipped) */
	struct ck_files *modmap;     /* exact file-to-module mapping for it (NULL: by name) */
	const struct ck_modprobe *modprobe; /* modprobe stage: the system's modprobe.d rules
					     * (needs running and modmap; NULL: skipped) */
	bool fixed_in;               /* fixed-in stage */
	const char *code_source;     /* code stage: the source tree the fix fingerprints of the
				      * set are read in (check/stages/codestage.h; NULL: skipped) */
	const struct ck_code_reading *code_reading; /* or that tree's reading, made once for
						     * several kernels (--batch; borrowed) */
};

enum ck_stage_scope {
	CK_STAGE_RELEASE = 1, /* depends on the release and the records only */
	CK_STAGE_KERNEL = 2,  /* depends on the kernel's own inputs */
	CK_STAGE_ALL = 3,
};

/* Run every stage for one kernel into res (initialised here; ck_result_release() frees it,
 * also after an error).  0, or the error of the stage that failed. */
int ck_pipeline_run(const struct ck_pipeline *p, const struct ck_kernel *k, struct ck_result *res,
		    struct kcve_err *err);
/* Run the stages of one scope: CK_STAGE_RELEASE initialises res, CK_STAGE_KERNEL continues a
 * result the release stages made (--batch shares those between the kernels of a release). */
int ck_pipeline_run_scope(const struct ck_pipeline *p, const struct ck_kernel *k,
			  struct ck_result *res, enum ck_stage_scope scope, struct kcve_err *err);

#endif
