/* Turning a stored mbox (the tree's .mbox / .mbox.rejected, anchor-spec §4.12, §5.3) into the
 * message that goes on the wire: the mbox "From " separator line is dropped, Date and
 * Message-Id are added (the git send-email hook of the anchor does the same), In-Reply-To is
 * filled for rejections, and lines end in CRLF.
 *
 * The result is a pure function of (mbox, Message-Id, Date, In-Reply-To), which is what lets
 * a crashed run rebuild the very same message instead of minting a second Message-Id. */
#ifndef KCVE_PUBLISH_MESSAGE_H
#define KCVE_PUBLISH_MESSAGE_H

#include <stddef.h>
#include <time.h>

#include "core/strbuf.h"

/* "<YYYYMMDDSS-CVE-YYYY-NNNNN-xxxx@host>" (anchor-spec §5.6: date as year-month-day-seconds,
 * 4 random hex digits). */
void message_make_id(char *out, size_t n, const char *cve, time_t now, const char *host);
/* RFC 5322 date in UTC: "Thu, 03 Dec 2026 09:30:00 +0000". */
void message_date(char *out, size_t n, time_t t);
/* Build the wire message. in_reply_to may be NULL or ""; it only replaces an empty
 * In-Reply-To header (or adds one) and adds References. */
void message_build(struct strbuf *out, const char *mbox, size_t len, const char *msgid,
		   const char *date, const char *in_reply_to);

#endif
