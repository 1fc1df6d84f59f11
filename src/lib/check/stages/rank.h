/* The one ranking of `kcve check` results: the table, --json, the HTML report and --batch all
 * list CVEs in this order.
 *
 * Among the CVEs a check keeps (affected, unknown, no data), compare in turn:
 *   1. listed in CISA's KEV catalogue (--kev) first;
 *   2. exposure on a running system (--running): reachable now (built in, a loaded module, or
 *      not known) first, then code built only as modules that are not loaded (loadable on
 *      demand), then code whose modules are all blacklisted (loadable only by name or as a
 *      dependency);
 *   3. outcome: affected before undecided (unknown, no data);
 *   4. EPSS probability (--epss), higher first; a CVE without a score after every scored one;
 *   5. the CNA's CVSS base score, higher first; unscored last;
 *   6. the CVE id, by year then number (stable, and the same on every run).
 * Without --kev, --epss or --running the order is outcome, CVSS, id. */
#ifndef KCVE_CHECK_RANK_H
#define KCVE_CHECK_RANK_H

#include <stddef.h>

#include "check/records/recset.h"
#include "check/verdict/check.h"

/* Negative when a ranks before b (both entries of one result of set s). */
int ck_rank_cmp(const struct ck_set *s, const struct ck_entry *a, const struct ck_entry *b);
/* Indices (into R->e) of the kept entries in rank order, into order (room for R->n); the
 * count. */
size_t ck_rank_order(const struct ck_set *s, const struct ck_result *R, size_t *order);

#endif
