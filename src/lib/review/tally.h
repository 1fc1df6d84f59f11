/* Tally of reviewer votes for one stable release range: which reviewers voted for which
 * commit, which commits already have a CVE, which are agreed by enough reviewers. */
#ifndef KCVE_REVIEW_TALLY_H
#define KCVE_REVIEW_TALLY_H

#include <stdbool.h>
#include <stddef.h>

#include "review/range.h"
#include "review/votefile.h"
#include "store/tree.h"

#define TALLY_MAX_REVIEWERS 32

struct tally_row {
	unsigned long voters; /* bit i = reviewer i voted */
	int nvoters;
	char cve[32];         /* "" when the commit has no CVE yet */
};

struct tally {
	char *reviewers[TALLY_MAX_REVIEWERS];
	size_t nreviewers;
	struct votefile *files;
	size_t nfiles, filesalloc;
	char **paths;          /* path of each loaded vote file */
	struct tally_row *rows; /* one per range commit */
	size_t nrows;
};

/* Load every vote file for `tag` from cve/review/proposed/ (and cve/review/done/<any>/ when
 * include_done). KCVE_E_NOTFOUND when there is none. */
int tally_load(struct tally *t, const char *tree_root, const char *tag, bool include_done,
	       struct kcve_err *err);
/* Does a vote name this commit? By id prefix (mainline or stable id) or identical subject. */
bool tally_vote_matches(const struct vote *v, const struct range_commit *c);
/* Fill rows for the range; tree may be NULL (then no CVE lookup). */
void tally_compute(struct tally *t, const struct review_range *r, struct cve_tree *tree);
void tally_release(struct tally *t);

#endif
