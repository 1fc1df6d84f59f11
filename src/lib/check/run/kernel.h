/* One kernel's description (check/run/pipeline.h: struct ck_kernel) from its request
 * (check/run/request.h) and its opened inputs: the one code a single check (check/run/entry.c:
 * options, --running, an SBOM) and every line of a batch (check/run/batch.c) go through, so
 * that a batch line and the single `kcve check` with the same inputs run the same stages under
 * the same names.
 *
 * A kernel's file inputs and the stage each one is:
 *   CK_IN_CONFIG  a .config: --config, the running kernel's, an SBOM's configuration; a
 *                 line's FILES that is a .config or such an SBOM                     "config"
 *   CK_IN_LIST    a per-file verdict list (`kcve db files`): --files, a line's FILES  "files"
 *   CK_IN_BUILD   a build directory's .cmd files: --build, a line's build=           "build"
 *   CK_IN_SBOM    an SPDX 3 SBOM's compiled files: --sbom, a line's FILES            "sbom"
 * The first two go in the configuration's place of the pipeline, the last two in the build's;
 * a build directory wins over an SBOM's files (both are exact).
 *
 * The code (--source with fix fingerprints) is read once and decides a kernel of the release
 * the tree is; the functions of --patches fingerprints are read in that tree for it too.  A
 * single check of one kernel names the pairing (its --version goes with its --source:
 * code_release NULL); a batch, or a single check of several kernels (--version A,B,
 * --fixed-between, --fixed-by), cannot tell which kernel the one tree is, so its code decides
 * only the kernels of the release the tree's Makefile names (code_release; "" when it names
 * none). */
#ifndef KCVE_CHECK_KERNEL_H
#define KCVE_CHECK_KERNEL_H

#include <stdbool.h>

#include "check/run/pipeline.h"
#include "check/run/request.h"
#include "check/stages/filestage.h"
#include "check/stages/funclevel.h"
#include "core/diag.h"
#include "core/error.h"

enum ck_input_kind { CK_IN_NONE, CK_IN_CONFIG, CK_IN_LIST, CK_IN_BUILD, CK_IN_SBOM };

/* One opened file input: what it is and the function answering per source path. */
struct ck_answers {
	enum ck_input_kind kind;
	ck_file_fn fn;
	void *ctx;
};

/* A kernel's opened inputs (borrowed by the description). */
struct ck_opened {
	const char *release;          /* normalised; NULL only with git */
	struct ck_answers config;     /* CK_IN_CONFIG or CK_IN_LIST (or none) */
	struct ck_answers build;      /* CK_IN_BUILD or CK_IN_SBOM (or none) */
	const struct ksyms *syms;     /* the image's symbols (function level), NULL: none */
	const struct ck_code_reading *code; /* the --source tree's reading, NULL: none */
	const char *code_release;     /* NULL: the code goes with the release; else only that one */
	struct ck_git *git;           /* the git stage (rq->git), NULL: the version stage */
	const char *git_label;
	const struct ck_running *running;  /* --running: the modules and modprobe stages */
	struct ck_files *modmap;
	const struct ck_modprobe *modprobe;
};

/* What the description points into (the branch of the kernel's fixes), kept by the caller
 * as long as the description. */
struct ck_kernel_scratch {
	char branch[32];
	struct ck_fix_ctx fctx;
};

/* Describe the kernel of in for the request rq into k. */
void ck_kernel_describe(const struct ck_request *rq, const struct ck_opened *in,
			struct ck_kernel_scratch *sc, struct ck_kernel *k);

/* Whether in's code decides its kernel (see above). */
bool ck_kernel_code_applies(const struct ck_opened *in);

/* An SBOM's kernel configuration (an SBOM that lists no compiled files), opened as a .config
 * is, for --sbom and a batch line's FILES alike (name: in messages): *cf NULL and a warning to
 * diag when nothing can evaluate it (no --source, records without file conditions). */
int ck_open_sbom_config(struct ck_files **cf, const struct ck_spdx3 *sb, const char *name,
			const struct ck_request *rq, const struct kcve_diag *diag,
			struct kcve_err *err);

#endif
