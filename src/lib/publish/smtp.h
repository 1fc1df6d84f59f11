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
/* Send msg (CRLF lines, headers included). Envelope sender = config smtp.from, else the From:
 * address; recipients = config smtp.to, else To:/Cc:. 0 once the server answered 250. */
int smtp_send(struct smtp *s, const char *msg, size_t len, struct kcve_err *err);

/* Envelope helpers (exposed for tests): address of a header ("Name <a@b>" -> "a@b"), every
 * address of To:+Cc: as a comma-separated list. Caller frees; NULL when absent. */
char *mail_header_value(const char *msg, const char *name);
char *mail_first_address(const char *value);
char *mail_recipients(const char *msg);

#endif
