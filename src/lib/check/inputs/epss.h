/* FIRST's Exploit Prediction Scoring System scores (`kcve check --epss FILE`).
 *
 * The CSV FIRST publishes daily (epss_scores-YYYY-MM-DD.csv, also gzip-compressed: both are
 * read):
 *     #model_version:v2025.03.14,score_date:2025-08-25T12:55:00Z
 *     cve,epss,percentile
 *     CVE-1999-0001,0.01141,0.77858
 * Lines starting with '#' before the header are comments (the model line is kept for output);
 * the header must be exactly "cve,epss,percentile"; every row is a valid CVE id and two decimal
 * numbers in [0, 1] (no exponent, no sign, no NaN); CR LF line ends are accepted.  A malformed
 * row is an error naming its line: a partial score set would rank silently wrong.
 * The file is hostile input: a regular file of at most CK_EPSS_MAX bytes, and its decompressed
 * text at most CK_EPSS_MAX bytes too. */
#ifndef KCVE_CHECK_EPSS_H
#define KCVE_CHECK_EPSS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* ~300,000 CVEs scored in 2025: 10 MB of text.  64 MiB is six times that. */
#define CK_EPSS_MAX ((size_t)64 << 20)

struct ck_epss_entry {
	char id[29];        /* CVE-YYYY-N{4,19} */
	double epss;        /* probability of exploitation activity in the next 30 days, 0..1 */
	double percentile;  /* 0..1 */
};

struct ck_epss {
	char model[128];          /* the #model_version... comment, "" when absent */
	struct ck_epss_entry *v;  /* sorted by id, one per id */
	size_t n;
};

int ck_epss_parse(struct ck_epss *e, const char *text, size_t len, const char *name,
		  struct kcve_err *err);
/* Read path (plain or gzip) and parse it. */
int ck_epss_load(struct ck_epss *e, const char *path, struct kcve_err *err);
const struct ck_epss_entry *ck_epss_find(const struct ck_epss *e, const char *id);
void ck_epss_release(struct ck_epss *e);

#endif
