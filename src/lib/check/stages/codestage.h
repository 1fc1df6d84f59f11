/* The code stage of `kcve check --source DIR`: is each CVE's fix in the code of a tree without
 * history?  The fix fingerprints (codefix/fprint.h) come from the database (`db build
 * --patches DIR` or `--repo`); codefix/match.h reads them in the tree.  Where the code
 * decides, it overrides the version verdict: the fix found → fixed; the pre-fix code found, or
 * only part of the fix → affected.  An undecided reading leaves the version verdict, and a
 * file the configuration does not compile stays not compiled. */
#ifndef KCVE_CHECK_CODESTAGE_H
#define KCVE_CHECK_CODESTAGE_H

#include <jansson.h>

#include "check/records/recset.h"
#include "check/verdict/check.h"
#include "core/diag.h"
#include "core/error.h"

/* Read DIR/<CVE id>.patch for every record of s that has one into s->fprints (label
 * "patch").  *added: fingerprints added.  A patch that cannot be used (not a regular file, a
 * FIFO or a link, too large, not a usable diff) is left out with one warning to diag naming it
 * and counted in *skipped; the others are still read. An error only when dir is no directory. */
int ck_set_add_patches(struct ck_set *s, const char *dir, const struct kcve_diag *diag,
		       size_t *added, size_t *skipped, struct kcve_err *err);
/* Fingerprints from the kernel repository at repo (its history index is built or updated
 * first): each record's mainline fix (.sha1) labelled "mainline" and each stable backport
 * labelled with its branch ("6.1").  *added: records that got at least one.  Not in builds
 * without libgit2 (KCVE_NO_GIT). */
int ck_set_add_repo_fixes(struct ck_set *s, const char *repo, size_t *added,
			  struct kcve_err *err);
/* Run the code stage over res (entries of s) against the tree at srcdir (warnings to diag). */
int ck_run_code(struct ck_set *s, struct ck_result *res, const char *srcdir,
		const struct kcve_diag *diag, struct kcve_err *err);
/* The same in two steps, for several kernels built from one tree (--batch): read the tree once
 * (code[i] for record i of s: checked when it has a fingerprint), then apply that reading to
 * each kernel's result.  With shared, res borrows rd's readings (ck_result_release leaves
 * them; rd must outlive res), else res owns them.  A srcdir that is not a directory is
 * KCVE_E_NOTFOUND ("source tree ... not found"), the error of the run that asked for it; a
 * fix's file that cannot be read as one, and matching cut by its time limit, are warnings to
 * diag (NULL: the default sink, core/diag.h). */
struct ck_code_reading {
	struct ck_code *code;
	size_t n;
};
int ck_code_read(const struct ck_set *s, const char *srcdir, const struct kcve_diag *diag,
		 struct ck_code_reading *out, struct kcve_err *err);
void ck_code_apply(const struct ck_code_reading *rd, struct ck_result *res, bool shared);
void ck_code_reading_release(struct ck_code_reading *rd);
/* The code reading as one line (verdict, hunks found, up to six places) for reasons and VEX
 * statements, and as the JSON contract's "code" object: {"verdict", "hunks", "found", "fix",
 * "evidence": [{"file", "hunk" (1-based within the file), "state", "line"}]}. */
void ck_code_text(const struct ck_code *c, struct strbuf *sb);
json_t *ck_code_json(const struct ck_code *c);

#endif
