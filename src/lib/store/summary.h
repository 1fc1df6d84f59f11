/* Counting the tree: per-year table (kcve summary) and per-subsystem / per-branch /
 * time-to-fix statistics (kcve stats, docs/spec/workflow.md "Summary and statistics"). */
#ifndef KCVE_STORE_SUMMARY_H
#define KCVE_STORE_SUMMARY_H

#include <stddef.h>

#include "store/tree.h"

struct summary_row {
	int year;
	size_t reserved;  /* placeholder files in reserved/YEAR */
	size_t assigned;  /* .sha1 files in published/YEAR */
	size_t rejected;  /* .sha1 files in rejected/YEAR */
	size_t returned;  /* files in returned/YEAR */
};

/* Rows for every year with at least one id, ascending. Caller frees *rows. */
size_t store_summary(struct cve_tree *t, struct summary_row **rows);

#endif
