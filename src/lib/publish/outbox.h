/* The outbox: mail that must be sent survives a crash and is sent once.
 *
 * Layout: <tree>/cve/.outbox/<name>.eml (to send) and <tree>/cve/.outbox/sent/<name>.eml
 * (server answered 250). A message is written completely and atomically into the outbox
 * before the first attempt, and moved (rename, then directory fsync) to sent/ right after the
 * server's 250. Resends always reuse the stored bytes, hence the same Message-Id.
 *
 * The one window that cannot be closed on the client side is "the server answered 250, then
 * kcve died before the rename": the next run sends the same message again. The window is
 * bounded to the rename+fsync after curl returns (no QUIT round trip, see smtp.h), and the
 * duplicate carries the same Message-Id, which is what list archives (public-inbox/lore)
 * de-duplicate on. */
#ifndef KCVE_PUBLISH_OUTBOX_H
#define KCVE_PUBLISH_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

struct smtp;

/* name is e.g. "CVE-2024-1234.announce". */
char *outbox_path(const char *tree_root, const char *name, bool sent);
bool outbox_is_sent(const char *tree_root, const char *name);
bool outbox_is_queued(const char *tree_root, const char *name);
/* Atomically queue msg (no-op if already queued or sent). */
int outbox_queue(const char *tree_root, const char *name, const char *msg, size_t len,
		 struct kcve_err *err);
/* Send a queued message and move it to sent/. 0 if sent (or already sent). */
int outbox_send(const char *tree_root, const char *name, struct smtp *s, struct kcve_err *err);
/* Names (without .eml) of every queued message, sorted. */
int outbox_list(const char *tree_root, char ***names, size_t *n, struct kcve_err *err);

#endif
