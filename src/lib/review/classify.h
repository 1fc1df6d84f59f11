/* Triage of stable commits: how likely is it that the CNA gives this commit a CVE?
 *
 * The score is the probability of the learned model (review/model.h): a logistic regression
 * trained on the CNA's published decisions. A commit is a candidate when the score reaches the
 * threshold, by default the model's own, chosen for recall on held-out releases (the CNA must
 * not miss fixes). Trailers every stable commit carries (Fixes:, Cc: stable, Signed-off-by,
 * upstream-commit lines) are no features, so they never move a score. The features that
 * weighed most are reported as reasons, so a reviewer can see why. */
#ifndef KCVE_REVIEW_CLASSIFY_H
#define KCVE_REVIEW_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"
#include "review/model.h"

struct classify_input {
	const char *message;        /* full commit message: subject line, blank line, body */
	const char *const *paths;   /* files touched (may be NULL when unknown) */
	size_t npaths;
	int nparents;               /* 2+ = merge commit; 0 when unknown */
	size_t message_len;         /* 0: strlen(message) */
};

struct classify_hit {
	char *feature;              /* model feature name, e.g. "w:use" */
	double weight;
};

struct classify_result {
	double score;               /* probability in [0,1] */
	double logit;
	bool candidate;
	struct strbuf reasons;      /* "; "-separated, e.g. "+1.92 subject word 'use-after-free'" */
	struct classify_hit *hits;  /* every matched feature, largest |weight| first */
	size_t nhits;
};

/* threshold: a probability in (0,1); the model's own when <= 0. */
void classify_commit(const struct review_model *m, double threshold,
		     const struct classify_input *in, struct classify_result *out);
void classify_result_release(struct classify_result *r);

/* "w:use" -> "subject word 'use'" and the like, for reasons. */
void classify_describe(const char *feature, struct strbuf *out);

/* For terminal highlighting: length of the word at s (a word start) whose subject-word weight
 * is at least +min (sign 1) or at most -min (sign -1); 0 when it weighs less. */
size_t classify_weighty_word_at(const struct review_model *m, const char *s,
				const char *line_start, double min, int *sign);

#endif
