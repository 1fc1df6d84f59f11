/* Triage of mails to the CVE alias (cve@kernel.org), following Documentation/process/cve.rst:
 *  - a fix the team missed (commit id or commit link) that is in a released tree and has no CVE
 *    yet -> queued for review (cve/review/requests/<sha>.json);
 *  - a fix that already has a CVE, or is not in a release yet -> answered, nothing queued;
 *  - a request for an id before the issue is fixed -> answered with the reservation path
 *    (`kcve reserve-for`, ids from the reserved pool);
 *  - a report of an unfixed security bug -> referred to security@kernel.org; nothing of the
 *    report is stored or quoted;
 *  - anything else -> the alias's form letter.
 * Every outcome produces a reply mail (mbox) threaded with In-Reply-To/References. */
#ifndef KCVE_MAINTAINERS_REQUEST_H
#define KCVE_MAINTAINERS_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"
#include "maintainers/mail.h"

enum request_kind {
	REQ_QUEUE,          /* released fix without a CVE: queued */
	REQ_ALREADY,        /* every named fix already has a CVE (or is already queued) */
	REQ_UNRELEASED,     /* named fixes are unknown or not in a release yet */
	REQ_RESERVE,        /* asks for an id for an unfixed issue */
	REQ_SECURITY,       /* reports an unfixed security bug */
	REQ_OTHER,          /* none of the above */
};
const char *request_kind_name(enum request_kind k);

/* What the triage needs to know about commits; the CLI answers from history.h + the tree, the
 * tests from tables. */
struct request_oracle {
	/* full id of a (short) commit id, 0 if known */
	int (*resolve)(void *ctx, const char *rev, char out[41]);
	/* release containing it ("6.8.2"), NULL if in none */
	const char *(*release)(void *ctx, const char *sha40);
	/* CVE id already assigned to it (any state), 0 if there is one */
	int (*find_cve)(void *ctx, const char *sha40, char cve[32]);
	void *ctx;
};

struct request_commit {
	char text[41];      /* as found in the mail (12..40 hex) */
	char sha[41];       /* resolved full id, "" if unknown */
	const char *release;
	char cve[32];       /* "" if none */
};

struct request_triage {
	enum request_kind kind;
	struct request_commit *commits;
	size_t ncommits;
	size_t nqueue;      /* commits that are released and without CVE */
};
void request_triage_release(struct request_triage *t);

/* Commit ids named by the text: commit links (git.kernel.org .../c/<id>, commit/?id=<id>,
 * github.com/<owner>/linux/commit/<id>) and 12..40 hex words; unique, in order, at most max. */
size_t request_find_shas(const char *text, char (*out)[41], size_t max);

void request_classify(const struct mail *m, const struct request_oracle *o,
                      struct request_triage *t);

/* Reply mail (one mbox message) for the outcome. from = "Name <addr>" of the CVE team; date is
 * an RFC 2822 date string. */
void request_reply(const struct mail *m, const struct request_triage *t, const char *from,
                   const char *date, struct strbuf *out);
/* JSON of a queued request (no mail body: only sender, subject, ids and releases). */
char *request_queue_json(const struct mail *m, const struct request_triage *t, const char *now);

#endif
