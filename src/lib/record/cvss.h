/* CVSS v3.1 base vectors: parsing, canonical form, score and severity (docs/spec/record.md "Metrics",
 * "Metrics"), with the specification's Roundup so scores match the CNA's to the digit. */
#ifndef KCVE_RECORD_CVSS_H
#define KCVE_RECORD_CVSS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

enum cvss_metric { CVSS_AV, CVSS_AC, CVSS_PR, CVSS_UI, CVSS_S, CVSS_C, CVSS_I, CVSS_A, CVSS_NMETRICS };

#define CVSS_PREFIX "CVSS:3.1/"
#define CVSS_VECTOR_MAX 64

/* One value letter per metric, in vector order. */
struct cvss_vector {
	char v[CVSS_NMETRICS];
};

/* "AV", "AC", ... for a metric index. */
const char *cvss_metric_key(enum cvss_metric m);
/* Metric index of a key ("AV"), or -1. */
int cvss_metric_from_key(const char *key, size_t len);

/* Parse "CVSS:3.1/..." (surrounding whitespace ignored): exactly the 8 base metrics, any order,
 * no duplicates or unknowns, values from each metric's alphabet. 0 or KCVE_E_PARSE. */
int cvss_vector_parse(const char *s, struct cvss_vector *out, struct kcve_err *err);
/* Canonical "CVSS:3.1/AV:x/AC:x/PR:x/UI:x/S:x/C:x/I:x/A:x". */
void cvss_vector_format(const struct cvss_vector *v, char out[CVSS_VECTOR_MAX]);
/* Base score (0.0 .. 10.0, one decimal). */
double cvss_score(const struct cvss_vector *v);
/* CVSS v3.1 Roundup: smallest number with one decimal >= x, robust to float noise. */
double cvss_roundup(double x);
/* "NONE", "LOW", "MEDIUM", "HIGH", "CRITICAL". */
const char *cvss_severity(double score);
/* Score as Rust's Display prints an f64 ("7", "7.8", "10"): the mbox form. */
void cvss_score_display(double score, char out[16]);

#endif
