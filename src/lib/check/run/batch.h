/* `kcve check --batch FILE`: a fleet of kernels in one run, one JSON line per kernel.
 *
 * Input, one kernel per line ('#' starts a comment, blank lines are skipped), fields separated
 * by blanks:
 *     VERSION [FILES [ID]] [system-map=FILE | build=DIR]
 *   VERSION  kernel release, as --version takes it (6.1.107, v6.6.30, 6.1.192-3)
 *   FILES    "-" (none), a .config (or .config.gz: needs --source or a db built with --source),
 *            a per-file verdict list as `kcve db files` prints it (check/stages/filelist.h),
 *            or an SPDX 3 SBOM (its compiled files, else its configuration); told by content
 *   ID       the caller's name for the kernel, echoed back (default: none)
 *   system-map=FILE, build=DIR (anywhere after VERSION, at most one): what --system-map and
 *            --build give a single check: a build directory's compiled files (stage "build"),
 *            and with fix fingerprints the image's symbols for the function level
 *            (check/stages/funclevel.h); read once per distinct field
 * A line is the fleet's request (check/run/request.h) with the line's inputs, its kernel
 * described by the code a single check uses (check/run/kernel.h): the same stages, names and
 * answers as `kcve check` with the matching options (docs/check.md lists them).
 * With fix fingerprints and a source tree (rq->source), the code stage (check/stages/codestage.h)
 * reads that tree once and applies the reading to every kernel of the release its Makefile
 * names (and reads --patches fingerprints' functions there); a kernel of another release is
 * another tree, checked without that code (stats: code_other).
 * Work is shared: FILES are deduplicated by content (two paths with the same bytes are one
 * configuration), the version stage runs once per distinct release, and every distinct
 * (release, configuration, symbol source) is evaluated once; kernels that share all three
 * reuse its result.
 * Output, in input order, one line each:
 *   {"line":N,"id":ID|null,"version":"as given","release":"normalised","files":PATH|null,
 *    "records":R,"affected":[CVE...],"unknown":[CVE...],"stages":[{"name","count","undecided"}],
 *    "fixed_in":"X.Y.Z"|null,"coverage":[{"kind","message"}...]}
 * With the code stage, after "coverage": "code":{"decided":N,"cves":[{"id", and the members of
 * check --json's "code"}...]} for the CVEs whose outcome the code decided; with a symbol source
 * "functions":{"decided":N,"cves":[{"id","reason"}...]} for those the function level found not
 * affected.  Without either the line is exactly as before.
 * "affected" and "unknown" list the CVEs in the one ranking of check/stages/rank.h; with --kev a line
 * also has "kev":[CVE...] (the kept ones the catalogue lists) and "untracked_kev":[CVE...].
 * "coverage" holds the warnings `kcve check --json` gives for the release (check/records/coverage.h),
 * the records' age warning included (the same for every kernel).
 * A kernel that cannot be checked (bad version, unreadable FILES) gives {"line":N,"id":...,
 * "error":"..."} and the others are still checked. */
#ifndef KCVE_CHECK_BATCH_H
#define KCVE_CHECK_BATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "check/records/recset.h"
#include "check/run/request.h"
#include "check/stages/triage.h"
#include "check/verdict/check.h"
#include "core/diag.h"
#include "core/error.h"

/* What the run shares with the batch besides its request (check/run/request.h: the records,
 * the list rq->batch, --source/--arch, the reading, fixes, the clock; the same fields a
 * single check reads, each line being the fleet's request with the line's own inputs). */
struct ck_batch_opts {
	const struct ck_coverage *age; /* the records' age warning, NULL when none */
	const struct ck_triage *triage; /* --kev / --epss (check/stages/triage.h), NULL when neither */
	const struct kcve_diag *diag;   /* the run's warnings (NULL: the default sink, core/diag.h) */
};

struct ck_batch_stats {
	size_t kernels, errors, affected;   /* lines checked, lines with an error, kernels with a CVE */
	size_t uncovered;                   /* kernels with a release warning (not the age) */
	size_t releases, files, evaluated;  /* distinct releases, FILES contents, (release, FILES) */
	size_t code_other;   /* with the code stage: kernels not of the --source tree's release,
			      * checked without its code */
	char code_release[64]; /* that release, from the tree's Makefile ("": none found) */
};

/* Check every kernel listed in rq->batch ("-" = standard input) against rq->set, writing JSON
 * Lines to out.  Fails only when the list cannot be read or out cannot be written. */
int ck_batch_run(const struct ck_request *rq, FILE *out, const struct ck_batch_opts *o,
		 struct ck_batch_stats *st, struct kcve_err *err);

#endif
