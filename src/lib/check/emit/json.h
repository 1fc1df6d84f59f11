/* The one JSON writer of a check result: `kcve check --json` (one document, every kernel's
 * result with its CVEs: docs/check.md "JSON") and the members of each `check --batch` line
 * (check/run/batch.h) are built from the same pieces, so a stage's counts, the coverage
 * warnings and the ranking are written once: stages [{"name","count","undecided"}], coverage
 * [{"kind","message"}], kept CVEs in the one ranking of check/stages/rank.h. */
#ifndef KCVE_CHECK_JSON_H
#define KCVE_CHECK_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "check/emit/output.h"
#include "check/verdict/check.h"

/* The --json document of the results res[0..nres) (2-space indent, a final newline). */
int ck_print_json(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		  const struct ck_out_opts *o);
/* A result's "coverage": [{"kind", "message"}...], the release's warnings, then the records'
 * age (the one writer of it: --json, --batch lines, --fixed-between --json). */
json_t *ck_coverage_json(const struct ck_result *R);
/* The members of a --batch line for the result R (the caller adds the kernel's own members):
 * "records", "affected" and "unknown" (ids, ranked), with --kev "kev" and "untracked_kev",
 * "stages", "fixed_in" (null when none), "coverage", with the code stage "code", and with
 * funcs (the function level ran) "functions". */
json_t *ck_result_line_json(const struct ck_set *s, const struct ck_result *R, bool funcs);

#endif
