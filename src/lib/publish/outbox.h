/* The outbox: mail that must be sent survives a crash and is sent once.
 *
 * Layout: <tree>/cve/.outbox/<name>.eml (to send) and <tree>/cve/.outbox/sent/<name>.eml
 * (server answered 250). A message is written completely and atomically into the outbox
 * before the first attempt, and moved (rename, then directory fsync) to sent/ right after the
 * server's 250. Resends always reuse the stored bytes, hence the same Message-Id.
 *
 * The window SMTP leaves open is "the server took the message, but kcve never saw the 250":
 * the link broke or timed out past DATA, or kcve died before the rename. Without more
 * information the next attempt sends the same bytes again (same Message-Id, which list
 * archives de-duplicate on). With smtp.archive set, kcve closes the window: before every
 * attempt it durably writes <name>.doubt (when the attempt began); an attempt that ends in
 * doubt, or a marker left by a run that died, makes the next attempt first wait
 * smtp.archive_settle_ms and ask the archive (archive.h) whether that Message-Id arrived:
 * yes means sent, no means send again, no answer means the mail stays queued with an error.
 * What is left is an archive slower than the settle time. */
#ifndef KCVE_PUBLISH_OUTBOX_H
#define KCVE_PUBLISH_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "publish/config.h"

struct smtp;

/* name is e.g. "CVE-2024-1234.announce". */
char *outbox_path(const char *tree_root, const char *name, bool sent);
bool outbox_is_sent(const char *tree_root, const char *name);
bool outbox_is_queued(const char *tree_root, const char *name);
/* Atomically queue msg (no-op if already queued or sent). */
int outbox_queue(const char *tree_root, const char *name, const char *msg, size_t len,
		 struct kcve_err *err);
/* Attempts per message and run; a 5xx refusal ends them at once. */
#define OUTBOX_ATTEMPTS 3

enum outbox_how {
	OUTBOX_SENT,            /* the server answered 250 */
	OUTBOX_ALREADY_SENT,    /* sent/ had it (a run died after the rename) */
	OUTBOX_ARCHIVE_HAD_IT,  /* an attempt in doubt did deliver it: the archive shows it */
};
/* Send a queued message and move it to sent/ (retrying, and asking the list archive after
 * an attempt in doubt, see above). 0 once delivered, *how says how it is known. */
int outbox_send(const char *tree_root, const char *name, struct smtp *s,
		const struct publish_config *cfg, enum outbox_how *how, struct kcve_err *err);
/* Names (without .eml) of every queued message, sorted. */
int outbox_list(const char *tree_root, char ***names, size_t *n, struct kcve_err *err);

#endif
