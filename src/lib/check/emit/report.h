/* `kcve report --html`: one self-contained static page (inline CSS, SVG and a few lines of
 * script for the table, no external assets, light and dark themes) describing a record set
 * and, optionally, a `kcve check --json` result.
 *
 * Charts: CVEs per week (each record's `published` date; records without one are counted in a
 * note, never dated by a file time), CVEs per subsystem (top 20), CVEs per branch (records with
 * a fix on that branch), and time-to-fix measured in mainline releases between the introducing
 * and the fixing mainline release (a mainline release is ~9-10 weeks). */
#ifndef KCVE_CHECK_REPORT_H
#define KCVE_CHECK_REPORT_H

#include "check/records/recset.h"
#include "core/error.h"
#include "core/strbuf.h"

/* check_json: text of a `kcve check --json` document, or NULL; dates: where the records'
 * publication dates come from (said on the page). */
int ck_report_html(const struct ck_set *s, const char *check_json, const char *dates,
		   struct strbuf *out, struct kcve_err *err);
/* Ordinal of a mainline release (2.6.12 = 0, 3.0 = 28, 4.0 = 48, 5.0 = 69, 6.0 = 89, 7.0 = 109
 * assuming 6.19 is the last 6.x), -1 when not a mainline X.Y release. */
int ck_mainline_ordinal(const char *ver);

#endif
