/* The commits of a stable release range ("v6.1.74..v6.1.75"), oldest first, merges skipped,
 * each mapped to the mainline commit it backports (the id the CVE is tracked by). */
#ifndef KCVE_REVIEW_RANGE_H
#define KCVE_REVIEW_RANGE_H

#include <stddef.h>

#include "core/error.h"
#include "history/history.h"

struct range_commit {
	char id[41];        /* the stable commit */
	char upstream[41];  /* mainline id it backports, else the commit itself */
	char *subject;
	char *message;      /* full raw message */
	char **paths;       /* files touched (first-parent diff), for the classifier */
	size_t npaths;
	int nparents;
};

struct review_range {
	char *top;          /* "v6.1.75": names vote files */
	struct range_commit *v;
	size_t n, alloc;
};

/* Walk RANGE ("A..B"; "B" alone means B's commits not in its first parent's previous tag is
 * NOT supported: give both ends). want_paths: also compute touched files. */
int review_range_load(struct history *h, const char *range, bool want_paths,
		      struct review_range *out, struct kcve_err *err);
void review_range_release(struct review_range *r);

#endif
