/* Rule-based triage of stable commits: is this a bug fix the CVE team should look at?
 *
 * The kernel CNA is "overly cautious" and assigns an id to any bug fix it identifies, so the
 * classifier is tuned for recall: it flags anything that looks like a fix and only demotes
 * changes that are clearly not one (documentation, selftests, cleanups, features, merges).
 * Every point it adds or removes is reported as a reason, so a reviewer can see why. */
#ifndef KCVE_REVIEW_CLASSIFY_H
#define KCVE_REVIEW_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"

/* Score at or above which a commit is a candidate. */
#define CLASSIFY_THRESHOLD 2

struct classify_input {
	const char *message;        /* full commit message: subject line, blank line, body */
	const char *const *paths;   /* files touched (may be NULL when unknown) */
	size_t npaths;
	int nparents;               /* 2+ = merge commit; 0 when unknown */
};

struct classify_result {
	int score;
	bool candidate;
	struct strbuf reasons;      /* "; "-separated, e.g. "+3 risk word 'use-after-free' in subject" */
};

void classify_commit(const struct classify_input *in, struct classify_result *out);
void classify_result_release(struct classify_result *r);

/* Risk / benign vocabulary used for terminal highlighting by the interactive review.
 * Returns the length of the match at s (case-insensitive, word-bounded) or 0. */
size_t classify_risk_word_at(const char *s, const char *line_start);
size_t classify_benign_word_at(const char *s, const char *line_start);

#endif
