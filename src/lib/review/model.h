/* The learned review classifier: a logistic regression over binary features of a commit,
 * whose weights are a text file trained by tools/review-model.py from the CNA's published
 * decisions (docs/review-model.md). The repository's model is compiled into kcve; another
 * one (a retrained file) can be read with review_model_load().
 *
 * Feature extraction here and in tools/review-model.py must stay identical: the same message
 * gives the same feature names, hence the same score (tests/review/test_review_model.py). */
#ifndef KCVE_REVIEW_MODEL_H
#define KCVE_REVIEW_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

#define REVIEW_MODEL_VERSION 1
#define REVIEW_FEATURES_VERSION 1
#define REVIEW_MODEL_MAX_BYTES (64u << 20)
#define REVIEW_FEATURE_MAX 200 /* longest feature name the model may hold */

struct review_weight {
	const char *name; /* points into the model's text */
	double w;
};

struct review_model {
	char *text;                  /* owned copy of the file, names cut out in place */
	struct review_weight *v;     /* sorted by name (strcmp), no duplicates */
	size_t n;
	double bias;
	double threshold;            /* default decision threshold on the probability, (0,1) */
	char source[128];            /* "built-in" or the file name, for messages */
};

/* Parse a model file's text (len bytes, need not be NUL-terminated). 0, or KCVE_E_PARSE with a
 * one-line message naming source and line. */
int review_model_parse(const char *text, size_t len, const char *source, struct review_model *m,
		       struct kcve_err *err);
/* Read (bounded: regular file, at most REVIEW_MODEL_MAX_BYTES) and parse a model file. */
int review_model_load(const char *path, struct review_model *m, struct kcve_err *err);
/* The model compiled into kcve (src/lib/review/model-weights.tsv). */
int review_model_builtin(struct review_model *m, struct kcve_err *err);
void review_model_release(struct review_model *m);

/* Weight of a feature name, or 0 when the model does not have it. */
double review_model_weight(const struct review_model *m, const char *name, bool *found);

/* The distinct features of one commit, sorted (strcmp): subject words, word pairs, first word
 * and subsystem prefix; body words without trailer and upstream-commit lines; touched paths.
 * msg is len bytes (NULs allowed); paths may be NULL. */
struct review_features {
	char **v;
	size_t n, alloc;
};
void review_features_extract(const char *msg, size_t len, const char *const *paths,
			     size_t npaths, struct review_features *out);
void review_features_release(struct review_features *f);

/* Logistic function as the trainer computes it (same branches, same libm calls). */
double review_sigmoid(double z);

#endif
