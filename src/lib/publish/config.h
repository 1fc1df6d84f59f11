/* Where kcve publishes to: the CVE Services endpoint and credentials, and the SMTP relay used
 * for linux-cve-announce mail.
 *
 * Values come from a "key = value" file (--config FILE) and from the environment, the
 * environment winning (so a CI secret can override a checked-in file). Secrets (the API key,
 * the SMTP password) are only ever handed to libcurl; every message kcve prints that could
 * contain server text goes through publish_config_scrub() first. */
#ifndef KCVE_PUBLISH_CONFIG_H
#define KCVE_PUBLISH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/error.h"

enum smtp_tls { SMTP_TLS_NONE, SMTP_TLS_TRY, SMTP_TLS_REQUIRED };

struct publish_config {
	/* CVE Services (keys cve_api.url/org/user/key; env KCVE_CVE_API_URL/ORG/USER/KEY, with
	 * cvelib's CVE_ORG/CVE_USER/CVE_API_KEY as fallbacks). */
	char *api_url;          /* base, ends with '/', e.g. https://cveawg.mitre.org/api/ */
	char *api_org, *api_user, *api_key;
	long api_timeout_s;     /* per request (cve_api.timeout, KCVE_CVE_API_TIMEOUT) default 60 */
	int api_attempts;       /* tries per request (cve_api.attempts) default 6 */
	long backoff_ms;        /* first retry delay (cve_api.backoff_ms) default 500 */
	long backoff_cap_ms;    /* longest delay incl. Retry-After (cve_api.backoff_cap_ms) 60000 */
	/* SMTP (keys smtp.url/user/password/tls/from/to/msgid_host/timeout/archive/archive_settle_ms;
	 * env KCVE_SMTP_*). */
	char *smtp_url;         /* smtp://host:port or smtps://host:port */
	char *smtp_user, *smtp_password;
	enum smtp_tls smtp_tls; /* none|try|required, default try (STARTTLS when offered) */
	char *smtp_from;        /* envelope sender; default: the mail's From: address */
	char *smtp_to;          /* comma-separated envelope recipients; default: To:/Cc: */
	char *msgid_host;       /* right-hand side of Message-Ids; default: local part of From */
	long smtp_timeout_s;
	/* The list's public-inbox archive (smtp.archive, KCVE_SMTP_ARCHIVE), e.g.
	 * https://lore.kernel.org/linux-cve-announce/ : asked before resending a message whose
	 * earlier attempt may have delivered it (archive.h). NULL: resend without asking. */
	char *smtp_archive;
	/* How long after such an attempt the archive is given to show the message
	 * (smtp.archive_settle_ms, KCVE_SMTP_ARCHIVE_SETTLE_MS), default 120000. */
	long archive_settle_ms;
	/* Where publishing's warnings and notes go (a credentials file others can read, a
	 * rejection that goes out unthreaded, a wait for the archive); NULL: the default sink
	 * (core/diag.h). Set by publish_config_load; it must outlive the config. */
	const struct kcve_diag *diag;
};

/* Load path (may be NULL) then the environment. KCVE_E_USAGE for a malformed file or value,
 * KCVE_E_IO if path is unreadable. diag (NULL: the default sink) receives the warnings of
 * the load and of every later use of c. */
int publish_config_load(struct publish_config *c, const char *path, const struct kcve_diag *diag,
			struct kcve_err *err);
void publish_config_release(struct publish_config *c);
/* Check that the CVE Services part is complete and safe: https, or http only to a loopback
 * host (tests). KCVE_E_USAGE naming the missing setting. */
int publish_config_check_api(const struct publish_config *c, struct kcve_err *err);
int publish_config_check_smtp(const struct publish_config *c, struct kcve_err *err);
/* True for http(s)/smtp URLs whose host is 127.0.0.1, ::1 or localhost. */
bool url_is_loopback(const char *url);
/* Replace every occurrence of a configured secret in msg (NUL-terminated, edited in place)
 * with "***", so server echoes can never leak credentials into output. */
void publish_config_scrub(const struct publish_config *c, char *msg, size_t size);
/* kcve_err_set, but the whole message is formatted and scrubbed before err->msg cuts it to
 * size, so no tail of a secret can survive the cut. Returns code. */
int publish_err_set(const struct publish_config *c, struct kcve_err *err, int code,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same over len bytes that may hold NULs (buf[len] must be a NUL); *len shrinks. */
void publish_config_scrub_mem(const struct publish_config *c, char *buf, size_t *len);

#endif
