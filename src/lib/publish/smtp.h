/* Sending one prepared message over SMTP with libcurl: STARTTLS when the server offers it
 * (or required by configuration), AUTH when a user is configured, TLS certificates always
 * verified. One connection is reused for every message of a run, so that curl_easy_perform()
 * returns right after the server's final 250 (QUIT is only sent at smtp_close) — this keeps
 * the window between "server accepted" and "outbox recorded it" as short as possible. */
#ifndef KCVE_PUBLISH_SMTP_H
#define KCVE_PUBLISH_SMTP_H

#include <stddef.h>

#include "core/error.h"
#include "publish/config.h"

struct smtp;

int smtp_open(struct smtp **out, const struct publish_config *cfg, struct kcve_err *err);
void smtp_close(struct smtp *s);
/* What one attempt to send a message says about its delivery. */
enum smtp_outcome {
	SMTP_SENT,      /* the server answered 250 to the end of the data */
	SMTP_RETRY,     /* surely not taken (4xx reply, no connection): worth another attempt */
	SMTP_REFUSED,   /* surely not taken, and retrying will not help (5xx, bad login, TLS) */
	SMTP_IN_DOUBT,  /* the link broke or timed out after connecting: the server may have
			   taken the message without kcve seeing its 250 */
};
/* The outcome of a libcurl result and the server's last reply code (exposed for tests). */
enum smtp_outcome smtp_classify(int curl_code, long reply);
/* One attempt to send msg (CRLF lines, headers included). Envelope sender = config smtp.from,
 * else the From: address; recipients = config smtp.to, else To:/Cc:. 0 once the server
 * answered 250; otherwise an error, and *outcome says whether the message may still have
 * been delivered. Retrying is the caller's (outbox.h). */
int smtp_send(struct smtp *s, const char *msg, size_t len, enum smtp_outcome *outcome,
	      struct kcve_err *err);

/* Envelope helpers (exposed for tests): address of a header ("Name <a@b>" -> "a@b"), every
 * address of To:+Cc: as a comma-separated list. Caller frees; NULL when absent. */
char *mail_header_value(const char *msg, const char *name);
char *mail_first_address(const char *value);
char *mail_recipients(const char *msg);

#endif
