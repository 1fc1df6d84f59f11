/* What the records cannot vouch for about a checked release (`kcve check` coverage warnings).
 *
 * Derived only from the records themselves (the same data in a tree and in a database), so
 * --tree and --db give the same warnings:
 *   newer        the release is newer than the newest release of its branch that any record
 *                names: fixes made after that are not counted;
 *   nonexistent  the release is more than CK_COV_FAR releases beyond that newest one: it
 *                probably does not exist (a typo?), and its verdict means nothing;
 *   unsupported  no record names any release of the branch although newer branches are
 *                known: the kernel CNA does not track it, so no fixes are counted for it.
 * A branch newer than every branch the records know counts as "newer". */
#ifndef KCVE_CHECK_COVERAGE_H
#define KCVE_CHECK_COVERAGE_H

#include <stddef.h>

#include "check/recset.h"

#define CK_COV_FAR 50

struct ck_coverage {
	const char *kind;  /* "newer", "nonexistent", "unsupported"; NULL when covered */
	char message[256];
};

/* Coverage of one normalised release over the set; returns 1 when a warning was filled. */
int ck_coverage_of(const struct ck_set *s, const char *release, struct ck_coverage *out);

#endif
