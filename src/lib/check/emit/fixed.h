/* The output of --fixed-between / --fixed-by (check/verdict/upgrade.h: struct ck_fixed): a
 * table with the count per severity, one JSON document (from, to, fixed, severity, cves, and
 * each release's coverage warnings as check --json writes them: from_coverage, to_coverage),
 * or one line of ids (docs/check.md "What an upgrade brings"). */
#ifndef KCVE_CHECK_FIXED_H
#define KCVE_CHECK_FIXED_H

#include <stdio.h>

#include "check/verdict/upgrade.h"

enum ck_fixed_format { CK_FIXED_TABLE, CK_FIXED_JSON, CK_FIXED_IDS };

void ck_print_fixed(FILE *f, const struct ck_fixed *fx, enum ck_fixed_format fmt);

#endif
