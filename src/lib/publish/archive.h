/* Asking the list archive whether a message arrived.
 *
 * SMTP has one window no client can close on its own: the link breaks (or kcve dies) after
 * the server took a message but before its 250 came back. Resending then delivers the
 * message twice; not resending may lose it. A public-inbox archive of the list (lore for
 * linux-cve-announce) answers the question: <archive>/<Message-Id>/raw is 200 with the
 * message once the list delivered it, 404 before. With smtp.archive set, kcve asks it
 * before resending a message whose earlier attempt ended in doubt (outbox.h). */
#ifndef KCVE_PUBLISH_ARCHIVE_H
#define KCVE_PUBLISH_ARCHIVE_H

#include <stdbool.h>

#include "core/error.h"
#include "publish/config.h"

/* Ask cfg->smtp_archive for msgid ("<...>" or bare). *found is true when the archive holds
 * a message with exactly that Message-Id, false when it answers 404/410. Anything else (no
 * answer, another status, a body that is not that message) is KCVE_E_NET: the question
 * stays open. */
int archive_has(const struct publish_config *cfg, const char *msgid, bool *found,
		struct kcve_err *err);

/* The Message-Id of a raw message or mbox ("From " line first allowed), without "<>" and
 * blanks, into out; false when it has none. Exposed for tests and the fuzzer. */
bool archive_message_id(const char *raw, char *out, size_t outsz);

#endif
