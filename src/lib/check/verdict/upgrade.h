/* What an upgrade brings: the CVEs fixed going from release V1 to release V2 (kcve check
 * --fixed-between V1 V2), or by one release (--fixed-by V = from the release before V to V),
 * like the kernel CNA's `strak --fixed`.  A CVE counts when the version stage keeps it at V1
 * (affected, or undecided) and not at V2: exactly the set difference of two `--ids` runs. */
#ifndef KCVE_CHECK_UPGRADE_H
#define KCVE_CHECK_UPGRADE_H

#include <stdio.h>

#include "check/verdict/check.h"
#include "core/error.h"

/* The release just before rel (normalised, not -rc): 6.1.50 -> 6.1.49, 6.1.1 -> 6.1,
 * 6.2 -> 6.1, 6.0 -> 5.19, 2.6.32.5 -> 2.6.32.4, 2.6.33 -> 2.6.32.  KCVE_E_USAGE when there
 * is none (an -rc, the first release). */
int ck_previous_release(const char *rel, char *out, size_t outsz, struct kcve_err *err);

enum ck_fixed_format { CK_FIXED_TABLE, CK_FIXED_JSON, CK_FIXED_IDS };
/* Print the CVEs fixed from v1 to v2 (both normalised, v1 older) with counts per severity.
 * Returns 0, or KCVE_E_USAGE (err filled) when v1 is not older than v2. */
int ck_print_fixed_between(FILE *f, struct ck_set *s, const char *v1, const char *v2,
			   enum ck_reading rd, enum ck_fixed_format fmt, struct kcve_err *err);

#endif
