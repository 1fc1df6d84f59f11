/* Reviewer accuracy over the finished reviews (cve/review/done/, excluding gsd/ and annotated
 * copies): the share of each reviewer's votes that became CVEs, and — when the kernel
 * repository has the reviewed tags — the CVE'd commits of those releases they did not vote for. */
#ifndef KCVE_REVIEW_SCORE_H
#define KCVE_REVIEW_SCORE_H

#include <stddef.h>

#include "history/history.h"
#include "store/tree.h"

struct reviewer_score {
	char name[64];
	size_t files;       /* vote files */
	size_t votes;       /* vote lines */
	size_t hits;        /* votes whose commit has a CVE */
	size_t releases_checked; /* reviewed releases found in the repository */
	size_t cve_commits; /* CVE'd commits in those releases */
	size_t missed;      /* ... that this reviewer did not vote for */
};

struct score_report {
	struct reviewer_score *v;
	size_t n, alloc;
	size_t files_parsed;
	size_t notes;       /* non-vote lines seen (tally outputs, prose) */
};

/* h may be NULL (then missed counts are not computed). */
int review_score(struct cve_tree *tree, struct history *h, const char *review_dir,
		 struct score_report *out, struct kcve_err *err);
void score_report_release(struct score_report *r);

/* "v6.7.3" -> "v6.7.2"; "v6.7.1" -> "v6.7"; false for anything else. */
bool review_previous_tag(const char *tag, char *out, size_t outsz);

#endif
