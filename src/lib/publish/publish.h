/* `kcve publish`: bring cve.org and linux-cve-announce in line with the record tree.
 *
 * For each CVE (all, or the ones named): published records whose .json changed since last
 * published are sent to CVE Services (create, or update when it exists); new CVEs get their
 * announcement mailed; rejected CVEs are rejected at CVE Services and their .mbox.rejected is
 * mailed as a reply to the announcement; returned ids are rejected as never-used ids.
 * Progress is recorded per CVE and per step (pubstate.h), so the command can be killed and
 * rerun at any time. */
#ifndef KCVE_PUBLISH_PUBLISH_H
#define KCVE_PUBLISH_PUBLISH_H

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"
#include "publish/config.h"
#include "store/tree.h"

struct publish_opts {
	bool dry_run;     /* print what would be done, send and write nothing */
	bool show;        /* with dry_run: also print the request bodies and the mails */
	bool baseline;    /* record the tree as already published/announced, send nothing */
	const char *const *cves; size_t ncves;   /* empty = every CVE */
	FILE *out;        /* per-CVE lines and the summary */
};

struct publish_summary {
	unsigned published, updated, rejected, returned, mails, unchanged, failed;
};

/* 0 if everything succeeded; KCVE_E_NET (or the first failure's code) if some CVE failed
 * (the others were still processed); err holds the first failure. */
int publish_run(struct cve_tree *t, const struct publish_config *cfg,
		const struct publish_opts *o, struct publish_summary *sum, struct kcve_err *err);

#endif
