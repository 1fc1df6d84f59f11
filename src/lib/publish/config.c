#include "publish/config.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "core/text.h"

static void set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static int set_long(long *dst, const char *key, const char *v, long min, long max,
		    struct kcve_err *err)
{
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	if (errno || end == v || *end || n < min || n > max)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "invalid value '%s' for %s, expected a number from %ld to %ld",
				    v, key, min, max);
	*dst = n;
	return 0;
}

/* One setting by its file key; env vars map onto the same keys. */
static int apply(struct publish_config *c, const char *key, const char *v, struct kcve_err *err)
{
	long n = 0; /* set_long assigns it on success; at -O3 gcc cannot see that */
	int rc;
	if (!strcmp(key, "cve_api.url")) {
		size_t l = strlen(v);
		free(c->api_url);
		c->api_url = xmalloc(l + 2);
		memcpy(c->api_url, v, l + 1);
		if (l == 0 || v[l - 1] != '/')
			strcat(c->api_url, "/");
	} else if (!strcmp(key, "cve_api.org"))
		set_str(&c->api_org, v);
	else if (!strcmp(key, "cve_api.user"))
		set_str(&c->api_user, v);
	else if (!strcmp(key, "cve_api.key"))
		set_str(&c->api_key, v);
	else if (!strcmp(key, "cve_api.timeout"))
		return set_long(&c->api_timeout_s, key, v, 1, 3600, err);
	else if (!strcmp(key, "cve_api.attempts")) {
		if ((rc = set_long(&n, key, v, 1, 100, err)))
			return rc;
		c->api_attempts = (int)n;
	} else if (!strcmp(key, "cve_api.backoff_ms"))
		return set_long(&c->backoff_ms, key, v, 0, 600000, err);
	else if (!strcmp(key, "cve_api.backoff_cap_ms"))
		return set_long(&c->backoff_cap_ms, key, v, 0, 3600000, err);
	else if (!strcmp(key, "smtp.url"))
		set_str(&c->smtp_url, v);
	else if (!strcmp(key, "smtp.user"))
		set_str(&c->smtp_user, v);
	else if (!strcmp(key, "smtp.password"))
		set_str(&c->smtp_password, v);
	else if (!strcmp(key, "smtp.from"))
		set_str(&c->smtp_from, v);
	else if (!strcmp(key, "smtp.to"))
		set_str(&c->smtp_to, v);
	else if (!strcmp(key, "smtp.msgid_host"))
		set_str(&c->msgid_host, v);
	else if (!strcmp(key, "smtp.timeout"))
		return set_long(&c->smtp_timeout_s, key, v, 1, 3600, err);
	else if (!strcmp(key, "smtp.archive"))
		set_str(&c->smtp_archive, v);
	else if (!strcmp(key, "smtp.archive_settle_ms"))
		return set_long(&c->archive_settle_ms, key, v, 0, 3600000, err);
	else if (!strcmp(key, "smtp.tls")) {
		if (!strcmp(v, "none"))
			c->smtp_tls = SMTP_TLS_NONE;
		else if (!strcmp(v, "try"))
			c->smtp_tls = SMTP_TLS_TRY;
		else if (!strcmp(v, "required"))
			c->smtp_tls = SMTP_TLS_REQUIRED;
		else
			return kcve_err_set(err, KCVE_E_USAGE,
					    "invalid smtp.tls '%s', use none, try or required", v);
	} else
		return kcve_err_set(err, KCVE_E_USAGE, "unknown setting '%s'", key);
	return 0;
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t l = strlen(s);
	while (l && isspace((unsigned char)s[l - 1]))
		s[--l] = '\0';
	return s;
}

/* Like ssh with a private key: a credentials file others can read (or write) is named, with
 * its mode and the fix; kcve still uses it, the secret is already out. */
static void warn_if_exposed(const struct publish_config *c, const char *path, const char *secret)
{
	struct stat st;
	if (stat(path, &st) == 0 && (st.st_mode & 077))
		diag_warn(c->diag, "%s holds %s but is %s by group/others (mode %04o); run chmod "
			  "600 %s and consider the secret exposed", path, secret,
			  (st.st_mode & 044) ? "readable" : "writable",
			  (unsigned)(st.st_mode & 07777), path);
}

static int load_file(struct publish_config *c, const char *path, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_IO, "cannot read config %s: %s, check --config",
				    path, strerror(e));
	}
	int rc = 0, lineno = 0;
	const char *secret = NULL;   /* the first credential the file holds */
	char *save = NULL;
	for (char *line = strtok_r(sb.buf ? sb.buf : (char *)"", "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		char *l = trim(line);
		if (!*l || *l == '#')
			continue;
		char *eq = strchr(l, '=');
		if (!eq) {
			rc = kcve_err_set(err, KCVE_E_USAGE, "%s: line without '=' (key = value)",
					  path);
			break;
		}
		*eq = '\0';
		const char *key = trim(l);
		if (!secret && (!strcmp(key, "cve_api.key") || !strcmp(key, "smtp.password")))
			secret = !strcmp(key, "cve_api.key") ? "cve_api.key" : "smtp.password";
		rc = apply(c, key, trim(eq + 1), err);
		if (rc) {
			char m[sizeof(err->msg)];
			text_snprintf(m, sizeof(m), "%s", err->msg);
			kcve_err_set(err, rc, "%s in %s", m, path);
		}
	}
	sb_release(&sb);
	if (!rc && secret)
		warn_if_exposed(c, path, secret);
	return rc;
}

static const struct { const char *env, *key; } env_map[] = {
	{"CVE_ORG", "cve_api.org"},   /* cvelib names first: the KCVE_ ones override them */
	{"CVE_USER", "cve_api.user"},
	{"CVE_API_KEY", "cve_api.key"},
	{"KCVE_CVE_API_URL", "cve_api.url"},
	{"KCVE_CVE_API_ORG", "cve_api.org"},
	{"KCVE_CVE_API_USER", "cve_api.user"},
	{"KCVE_CVE_API_KEY", "cve_api.key"},
	{"KCVE_CVE_API_TIMEOUT", "cve_api.timeout"},
	{"KCVE_CVE_API_ATTEMPTS", "cve_api.attempts"},
	{"KCVE_CVE_API_BACKOFF_MS", "cve_api.backoff_ms"},
	{"KCVE_CVE_API_BACKOFF_CAP_MS", "cve_api.backoff_cap_ms"},
	{"KCVE_SMTP_URL", "smtp.url"},
	{"KCVE_SMTP_USER", "smtp.user"},
	{"KCVE_SMTP_PASSWORD", "smtp.password"},
	{"KCVE_SMTP_TLS", "smtp.tls"},
	{"KCVE_SMTP_FROM", "smtp.from"},
	{"KCVE_SMTP_TO", "smtp.to"},
	{"KCVE_SMTP_MSGID_HOST", "smtp.msgid_host"},
	{"KCVE_SMTP_TIMEOUT", "smtp.timeout"},
	{"KCVE_SMTP_ARCHIVE", "smtp.archive"},
	{"KCVE_SMTP_ARCHIVE_SETTLE_MS", "smtp.archive_settle_ms"},
};

int publish_config_load(struct publish_config *c, const char *path, const struct kcve_diag *diag,
			struct kcve_err *err)
{
	memset(c, 0, sizeof(*c));
	c->diag = diag;
	c->api_timeout_s = 60;
	c->api_attempts = 6;
	c->backoff_ms = 500;
	c->backoff_cap_ms = 60000;
	c->smtp_tls = SMTP_TLS_TRY;
	c->smtp_timeout_s = 60;
	c->archive_settle_ms = 120000;
	int rc;
	if (path && (rc = load_file(c, path, err)))
		return rc;
	for (size_t i = 0; i < sizeof(env_map) / sizeof(env_map[0]); i++) {
		const char *v = getenv(env_map[i].env);
		if (v && *v && (rc = apply(c, env_map[i].key, v, err))) {
			char m[sizeof(err->msg)];
			text_snprintf(m, sizeof(m), "%s", err->msg);
			return kcve_err_set(err, rc, "%s (from $%s)", m, env_map[i].env);
		}
	}
	return 0;
}

static void wipe_free(char *s)
{
	if (s) {
		volatile char *p = s;
		while (*p)
			*p++ = 0;
		free(s);
	}
}

void publish_config_release(struct publish_config *c)
{
	free(c->api_url);
	free(c->api_org);
	free(c->api_user);
	wipe_free(c->api_key);
	free(c->smtp_url);
	free(c->smtp_user);
	wipe_free(c->smtp_password);
	free(c->smtp_from);
	free(c->smtp_to);
	free(c->msgid_host);
	free(c->smtp_archive);
	memset(c, 0, sizeof(*c));
}

/* Host part of scheme://[user@]host[:port]/... */
static bool host_of(const char *url, char *host, size_t n)
{
	const char *p = strstr(url, "://");
	if (!p)
		return false;
	p += 3;
	const char *end = p + strcspn(p, "/?#");
	const char *at = memchr(p, '@', (size_t)(end - p));
	if (at)
		p = at + 1;
	const char *hend;
	if (*p == '[') {
		hend = memchr(p, ']', (size_t)(end - p));
		if (!hend)
			return false;
		p++;
	} else {
		hend = p + strcspn(p, ":/?#");
	}
	size_t l = (size_t)(hend - p);
	if (l == 0 || l >= n)
		return false;
	memcpy(host, p, l);
	host[l] = '\0';
	return true;
}

bool url_is_loopback(const char *url)
{
	char host[256];
	if (!url || !host_of(url, host, sizeof(host)))
		return false;
	return !strcmp(host, "127.0.0.1") || !strcmp(host, "::1") || !strcasecmp(host, "localhost");
}

int publish_config_check_api(const struct publish_config *c, struct kcve_err *err)
{
	static const char *how = "set it in the --config file or the environment";
	if (!c->api_url)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "no CVE Services URL (cve_api.url / KCVE_CVE_API_URL), %s", how);
	if (!c->api_org)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "no CVE Services organisation (cve_api.org / KCVE_CVE_API_ORG), %s",
				    how);
	if (!c->api_user)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "no CVE Services user (cve_api.user / KCVE_CVE_API_USER), %s", how);
	if (!c->api_key)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "no CVE Services API key (cve_api.key / KCVE_CVE_API_KEY), %s", how);
	if (strncmp(c->api_url, "https://", 8) != 0 &&
	    !(strncmp(c->api_url, "http://", 7) == 0 && url_is_loopback(c->api_url)))
		return kcve_err_set(err, KCVE_E_USAGE,
				    "CVE Services URL %s is not https://, refusing to send the API key "
				    "in clear (plain http is only allowed to localhost)", c->api_url);
	for (const char *p = c->api_org; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
			return kcve_err_set(err, KCVE_E_USAGE,
					    "invalid CVE Services organisation '%s'", c->api_org);
	return 0;
}

int publish_config_check_smtp(const struct publish_config *c, struct kcve_err *err)
{
	if (!c->smtp_url)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "no SMTP server (smtp.url / KCVE_SMTP_URL), set it in the --config "
				    "file or the environment");
	bool smtps = !strncmp(c->smtp_url, "smtps://", 8);
	if (!smtps && strncmp(c->smtp_url, "smtp://", 7) != 0)
		return kcve_err_set(err, KCVE_E_USAGE, "SMTP URL %s must start with smtp:// or "
				    "smtps://", c->smtp_url);
	if (c->smtp_password && !smtps && c->smtp_tls != SMTP_TLS_REQUIRED &&
	    !url_is_loopback(c->smtp_url))
		return kcve_err_set(err, KCVE_E_USAGE,
				    "SMTP AUTH to %s without smtps:// needs smtp.tls = required, so "
				    "that the password never travels in clear", c->smtp_url);
	if (c->smtp_archive && strncmp(c->smtp_archive, "https://", 8) &&
	    !(strncmp(c->smtp_archive, "http://", 7) == 0 && url_is_loopback(c->smtp_archive)))
		return kcve_err_set(err, KCVE_E_USAGE,
				    "list archive URL %s (smtp.archive) is not https://; an answer "
				    "forged on the way could suppress an announcement", c->smtp_archive);
	return 0;
}

static void scrub_one(char *msg, const char *secret)
{
	size_t sl;
	if (!secret || (sl = strlen(secret)) < 4)
		return;
	char *p;
	while ((p = strstr(msg, secret))) {
		memcpy(p, "***", 3);
		memmove(p + 3, p + sl, strlen(p + sl) + 1);
	}
}

static void scrub_mem_one(char *buf, size_t *len, const char *secret)
{
	size_t sl;
	if (!buf || !secret || (sl = strlen(secret)) < 4)
		return;
	char *p = buf;
	while ((p = memmem(p, *len - (size_t)(p - buf), secret, sl))) {
		memcpy(p, "***", 3);
		memmove(p + 3, p + sl, *len - (size_t)(p + sl - buf) + 1);   /* with the NUL */
		*len -= sl - 3;
		p += 3;
	}
}

void publish_config_scrub_mem(const struct publish_config *c, char *buf, size_t *len)
{
	scrub_mem_one(buf, len, c->api_key);
	scrub_mem_one(buf, len, c->smtp_password);
}

int publish_err_set(const struct publish_config *c, struct kcve_err *err, int code,
		    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *full = NULL;
	int n = vasprintf(&full, fmt, ap);
	va_end(ap);
	if (n < 0)
		return kcve_err_set(err, code, "out of memory formatting an error");
	publish_config_scrub(c, full, (size_t)n + 1);
	kcve_err_set(err, code, "%s", full);
	free(full);
	return code;
}

void publish_config_scrub(const struct publish_config *c, char *msg, size_t size)
{
	(void)size; /* only ever shrinks */
	scrub_one(msg, c->api_key);
	scrub_one(msg, c->smtp_password);
}
