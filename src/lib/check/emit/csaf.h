/* CSAF 2.0 VEX document (profile csaf_vex) of a check result (docs/check.md "CSAF").
 *
 * One product per checked kernel, named as the other VEX writers name it (purl, CPE 2.3, or the
 * kernel component of an --sbom, whose BOM-Link becomes an sbom_url). Each record listed for
 * some kernel (check/verdict/statement.h decides that and the status, for every VEX writer)
 * is one vulnerability with the status of every kernel it is listed for (ck_csaf_status,
 * ck_csaf_flag); the CNA's CVSS 3.1 vector, scored by record/cvss.h, for the affected kernels;
 * a vendor_fix remediation naming the first release on the kernel's branch that fixes it
 * (entries need fixed_in: ck_compute_fixed_in), else none_available; a workaround naming the
 * modprobe rule of a mitigated CVE; the fix commits and the CVE record as references.
 *
 * tracking: id derived from the kernels' identities (stable across runs and revisions), status
 * final, dates from $SOURCE_DATE_EPOCH when set. With a delta (check --since OLD) the document is
 * revision 2 of the one OLD gives: revision 1 dated by OLD's records, revision 2 summing up the
 * delta, and rejected CVEs keep a withdrawn vulnerability (known_not_affected with an impact
 * threat saying so) instead of disappearing. */
#ifndef KCVE_CHECK_CSAF_H
#define KCVE_CHECK_CSAF_H

#include <stdio.h>

#include "check/emit/vex.h"
#include "check/records/recset.h"
#include "check/verdict/check.h"
#include "check/verdict/delta.h"
#include "check/verdict/statement.h"

/* The statement of an entry (check/verdict/statement.h) in CSAF's words: its product_status
 * list, and for known_not_affected the flag label (NULL when none). */
const char *ck_csaf_status(enum ck_vex_status st);
const char *ck_csaf_flag(enum ck_vex_just j);

/* The previous state for a revision (check --since): the delta of each result (same order as
 * res, NULL when none) and when OLD's records are from (UTC seconds, 0 = unknown). */
struct ck_csaf_since {
	const struct ck_delta *deltas;
	const char *label; /* OLD as given */
	long long old_time;
};

int ck_print_csaf(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		  const struct ck_vex_opts *o, const struct ck_csaf_since *since);

#endif
