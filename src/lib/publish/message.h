/* Turning a stored mbox (the tree's .mbox / .mbox.rejected, docs/spec/record.md "The announcement mbox", docs/spec/workflow.md "Reject") into the
 * message that goes on the wire: the mbox "From " separator line is dropped, Date and
 * Message-Id are added (the git send-email hook of the anchor does the same), In-Reply-To is
 * filled for rejections, and lines end in CRLF.
 *
 * The result is a pure function of (mbox, Message-Id, Date, In-Reply-To), which is what lets
 * a crashed run rebuild the very same message instead of minting a second Message-Id. */
#ifndef KCVE_PUBLISH_MESSAGE_H
#define KCVE_PUBLISH_MESSAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "core/strbuf.h"

/* "<YYYYMMDDSS-CVE-YYYY-NNNNN-xxxx@host>" (docs/spec/workflow.md "Publish": date as year-month-day-seconds,
 * 4 random hex digits). */
void message_make_id(char *out, size_t n, const char *cve, time_t now, const char *host);
/* RFC 5322 date in UTC: "Thu, 03 Dec 2026 09:30:00 +0000". */
void message_date(char *out, size_t n, time_t t);
/* Build the wire message. in_reply_to may be NULL or ""; it only replaces an empty
 * In-Reply-To header (or adds one) and adds References. */
void message_build(struct strbuf *out, const char *mbox, size_t len, const char *msgid,
		   const char *date, const char *in_reply_to);

/* Header injection guard: 0 when every header line of the mbox (up to the blank line) is free
 * of control characters other than TAB, else the 1-based number of the first bad line (a bare
 * CR inside a line is read as a line break by some mail servers, so it could smuggle in a
 * Bcc: or a second message). */
size_t message_bad_header_line(const char *mbox, size_t len);
/* The same for one header value (Message-Id, In-Reply-To): true when it is clean. */
bool message_value_ok(const char *v);

#endif
