/* Rendering check results: terminal table and --ids (the JSON writer: json.h; the VEX
 * writers: vex.h, csaf.h, spdx3_vex.h, each translating the one statement of
 * check/verdict/statement.h, docs/vex.md). */
#ifndef KCVE_CHECK_OUTPUT_H
#define KCVE_CHECK_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "check/verdict/check.h"
#include "check/verdict/delta.h"

struct ck_out_opts {
	bool all;       /* also list records not affected by version (JSON/VEX) */
	bool fixed_in;  /* print the --fixed-in line(s) */
	bool color;     /* terminal colours */
	const struct ck_delta *deltas; /* check --since: one per result (shown first), or NULL */
	const char *since;             /* OLD as given */
};

void ck_print_table(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		    const struct ck_out_opts *o);
/* One line per result: "<release>: CVE-A CVE-B ..." (kept CVEs). */
void ck_print_ids(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres);

#endif
