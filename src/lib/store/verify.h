/* Whole-tree consistency check (kcve verify). */
#ifndef KCVE_STORE_VERIFY_H
#define KCVE_STORE_VERIFY_H

#include <stddef.h>
#include <stdio.h>

#include "core/error.h"
#include "store/tree.h"

struct verify_stats {
	size_t cves, problems;
};

/* Limit the check to some ids / years (NULL or n == 0: the whole tree). */
struct verify_scope {
	const char *const *ids;   /* CVE ids */
	size_t nids;
	const int *years;
	size_t nyears;
};

/* Print one line per problem to out; 0 (problems are counted in stats, not errors). */
int store_verify(struct cve_tree *t, const struct verify_scope *scope, FILE *out,
		 struct verify_stats *stats, struct kcve_err *err);

#endif
