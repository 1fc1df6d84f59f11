/* Publication dates from the record tree's git history, for kcve report. */
#ifndef KCVE_CHECK_GITDATES_H
#define KCVE_CHECK_GITDATES_H

#include <stddef.h>

#include "check/records/recset.h"
#include "core/diag.h"
#include "core/error.h"

/* When root is the top of a git checkout: set every record's `published` to the commit time of
 * the first-parent commit that added its cve/published/.../ID.json (0 when no commit did) and
 * return 0 with the number of dated records; 1 (nothing changed) when root is not a git
 * checkout; an error code when its history cannot be read. */
int ck_set_dates_from_git(struct ck_set *s, const char *root, size_t *ndated,
			  struct kcve_err *err);
/* Committer time of HEAD when root is the top of a git checkout (libgit2, no subprocess; a
 * shallow clone is enough): 0 with *t set; 1 when root is not the top of a git checkout or
 * its HEAD cannot be read (*t = 0; the second is a warning to diag, NULL: the default sink).
 * For the coverage warning on the tree's age. */
int ck_tree_head_time(const char *root, long long *t, const struct kcve_diag *diag);

#endif
