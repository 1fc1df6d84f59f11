/* What changed for one kernel between two record sets (`kcve check --since OLD`, docs/check.md
 * "What changed since"): the same checks run on OLD and on the current records, and the two
 * results compared CVE by CVE.
 *
 *   added    kept now, not kept with OLD: a new record, or a range or fix that changed
 *   removed  kept with OLD, not kept now: rejected (or no longer published), fixed in this
 *            release by a changed range, never introduced, or no longer compiled
 *   changed  kept in both, but its CVSS score or vector, fix commits, branch fix or title
 *            changed
 *
 * "Kept" is ck_outcome_kept() (what --ids prints), so added and removed are exactly the set
 * differences of two full checks. */
#ifndef KCVE_CHECK_DELTA_H
#define KCVE_CHECK_DELTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "check/records/recset.h"
#include "check/verdict/check.h"

enum ck_delta_kind { CK_DELTA_ADDED = 0, CK_DELTA_REMOVED = 1, CK_DELTA_CHANGED = 2 };

struct ck_delta_entry {
	char id[32];          /* the CVE */
	unsigned char kind;   /* enum ck_delta_kind */
	bool rejected;        /* removed because the CNA rejected it (or stopped publishing it):
			       * the VEX writers give it a withdrawn statement */
	char why[200];        /* the reason, worded */
};

struct ck_delta {
	struct ck_delta_entry *v;
	size_t n, alloc;
	size_t count[3]; /* per kind */
};

/* Compare the result of one kernel with OLD's records (old_s, old_r) and with the current ones
 * (new_s, new_r); both results come from the same inputs. A CVE kept with OLD whose record is
 * gone from the current set is "rejected" when rejected_root (a record tree root, or NULL) holds
 * it under cve/rejected/, else "no longer published". Entries are sorted by kind, then CVE. */
void ck_delta_compute(const struct ck_set *old_s, const struct ck_result *old_r,
		      const struct ck_set *new_s, const struct ck_result *new_r,
		      const char *rejected_root, struct ck_delta *out);
void ck_delta_release(struct ck_delta *d);
/* OLD of --since: a record tree (a directory) or a database file. */
int ck_delta_load_old(const char *old, struct ck_set *out, struct kcve_err *err);
const char *ck_delta_kind_name(enum ck_delta_kind k);
/* The delta as {"since": ..., "added": [{"id","why"}...], "removed": [...], "changed": [...]}. */
json_t *ck_delta_json(const struct ck_delta *d, const char *since);
/* The delta first in the table: one line per entry under a heading naming OLD. */
void ck_delta_print(FILE *f, const struct ck_delta *d, const char *label, const char *since);

#endif
