/* What an upgrade brings: the CVEs fixed going from release V1 to release V2 (kcve check
 * --fixed-between V1 V2), or by one release (--fixed-by V = from the release before V to V),
 * like the kernel CNA's `strak --fixed`.  A CVE counts when the version stage keeps it at V1
 * (affected, or undecided) and not at V2: exactly the set difference of two `--ids` runs. */
#ifndef KCVE_CHECK_UPGRADE_H
#define KCVE_CHECK_UPGRADE_H

#include "check/verdict/check.h"
#include "core/error.h"

/* The release just before rel (normalised, not -rc): 6.1.50 -> 6.1.49, 6.1.1 -> 6.1,
 * 6.2 -> 6.1, 6.0 -> 5.19, 2.6.32.5 -> 2.6.32.4, 2.6.33 -> 2.6.32.  KCVE_E_USAGE when there
 * is none (an -rc, the first release). */
int ck_previous_release(const char *rel, char *out, size_t outsz, struct kcve_err *err);

/* What an upgrade fixes: the CVEs a result of release `from` keeps (affected or undecided) and
 * the result of `to` does not, by severity (CRITICAL, HIGH, MEDIUM, LOW, none), then id.
 * ck_run computes it for a --fixed-between / --fixed-by request (check/run/entry.h) from the
 * two kernels' final results, so every stage the request switches on counts. */
struct ck_fixed_row {
	const struct ck_record *r; /* borrowed from the set */
	int sev;                   /* 0 CRITICAL .. 3 LOW, 4 none */
};
struct ck_fixed {
	const char *from, *to;     /* the two releases (borrowed) */
	const struct ck_result *a, *b; /* their results (borrowed: their coverage warnings) */
	struct ck_fixed_row *rows; /* owned */
	size_t n;
	size_t count[5];           /* per severity, in the order of sev */
};

/* 0 when v1 (normalised) is older than v2, else KCVE_E_USAGE naming both. */
int ck_fixed_order(const char *v1, const char *v2, struct kcve_err *err);
/* The CVEs fixed from a (release a->release) to b, both results of the same set. */
void ck_fixed_between(struct ck_fixed *fx, const struct ck_set *s, const struct ck_result *a,
		      const struct ck_result *b);
void ck_fixed_release(struct ck_fixed *fx);

#endif
