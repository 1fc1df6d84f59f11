#include "publish/smtp.h"

#include <ctype.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "core/xalloc.h"

struct smtp {
	const struct publish_config *cfg;
	CURL *curl;
	char errbuf[CURL_ERROR_SIZE];
};

char *mail_header_value(const char *msg, const char *name)
{
	size_t nl = strlen(name);
	const char *p = msg;
	while (*p && *p != '\r' && *p != '\n') {
		const char *eol = p + strcspn(p, "\n");
		if (!strncasecmp(p, name, nl) && p[nl] == ':') {
			struct strbuf v = STRBUF_INIT;
			const char *s = p + nl + 1;
			for (;;) {
				size_t l = (size_t)(eol - s);
				if (l && s[l - 1] == '\r')
					l--;
				sb_add(&v, s, l);
				if (!*eol || (eol[1] != ' ' && eol[1] != '\t'))
					break;
				s = eol + 1;
				eol = s + strcspn(s, "\n");
			}
			char *r = sb_detach(&v);
			char *t = r + strspn(r, " \t");
			memmove(r, t, strlen(t) + 1);
			size_t l = strlen(r);
			while (l && isspace((unsigned char)r[l - 1]))
				r[--l] = '\0';
			return r;
		}
		p = *eol ? eol + 1 : eol;
	}
	return NULL;
}

/* Addresses in a header value: every <...>, or comma-separated bare addresses. */
static void addresses(const char *v, struct strbuf *out)
{
	bool any = false;
	for (const char *p = v; (p = strchr(p, '<'));) {
		const char *e = strchr(p, '>');
		if (!e)
			break;
		if (e > p + 1 && memchr(p, '@', (size_t)(e - p))) {
			if (out->len)
				sb_addc(out, ',');
			sb_add(out, p + 1, (size_t)(e - p - 1));
			any = true;
		}
		p = e + 1;
	}
	if (any)
		return;
	char *dup = xstrdup(v), *save = NULL;
	for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		t += strspn(t, " \t");
		size_t l = strcspn(t, " \t");
		if (l && memchr(t, '@', l)) {
			if (out->len)
				sb_addc(out, ',');
			sb_add(out, t, l);
		}
	}
	free(dup);
}

char *mail_first_address(const char *value)
{
	struct strbuf sb = STRBUF_INIT;
	addresses(value, &sb);
	if (!sb.len) {
		sb_release(&sb);
		return NULL;
	}
	char *r = sb_detach(&sb);
	r[strcspn(r, ",")] = '\0';
	return r;
}

char *mail_recipients(const char *msg)
{
	struct strbuf sb = STRBUF_INIT;
	static const char *const hdrs[] = {"To", "Cc"};
	for (size_t i = 0; i < 2; i++) {
		char *v = mail_header_value(msg, hdrs[i]);
		if (v)
			addresses(v, &sb);
		free(v);
	}
	if (!sb.len) {
		sb_release(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

int smtp_open(struct smtp **out, const struct publish_config *cfg, struct kcve_err *err)
{
	int rc = publish_config_check_smtp(cfg, err);
	if (rc)
		return rc;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot initialise libcurl");
	struct smtp *s = xcalloc(1, sizeof(*s));
	s->cfg = cfg;
	s->curl = curl_easy_init();
	if (!s->curl) {
		free(s);
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot initialise libcurl");
	}
	CURL *c = s->curl;
	curl_easy_setopt(c, CURLOPT_URL, cfg->smtp_url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 0L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_USE_SSL,
			 cfg->smtp_tls == SMTP_TLS_REQUIRED ? (long)CURLUSESSL_ALL
			 : cfg->smtp_tls == SMTP_TLS_TRY    ? (long)CURLUSESSL_TRY
							    : (long)CURLUSESSL_NONE);
	if (cfg->smtp_user) {
		curl_easy_setopt(c, CURLOPT_USERNAME, cfg->smtp_user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, cfg->smtp_password ? cfg->smtp_password : "");
	}
	curl_easy_setopt(c, CURLOPT_TIMEOUT, cfg->smtp_timeout_s);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, cfg->smtp_timeout_s < 10 ? cfg->smtp_timeout_s : 10L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, s->errbuf);
	curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
	*out = s;
	return 0;
}

void smtp_close(struct smtp *s)
{
	if (!s)
		return;
	curl_easy_cleanup(s->curl);   /* QUIT happens here, after every message is recorded */
	free(s);
}

struct upload {
	const char *p;
	size_t left;
};

static size_t on_read(char *buf, size_t size, size_t n, void *ctx)
{
	struct upload *u = ctx;
	size_t len = size * n;
	if (len > u->left)
		len = u->left;
	memcpy(buf, u->p, len);
	u->p += len;
	u->left -= len;
	return len;
}

enum smtp_outcome smtp_classify(int curl_code, long reply)
{
	CURLcode cc = (CURLcode)curl_code;
	if (cc == CURLE_OK)
		return SMTP_SENT;
	/* a negative reply is the server's answer: the message was not taken */
	if (reply >= 500 && reply < 600)
		return SMTP_REFUSED;
	if (reply >= 400 && reply < 500)
		return SMTP_RETRY;
	if (cc == CURLE_LOGIN_DENIED || cc == CURLE_USE_SSL_FAILED ||
	    cc == CURLE_PEER_FAILED_VERIFICATION)
		return SMTP_REFUSED;
	/* no connection, or none we could talk on: no byte of the message left */
	if (cc == CURLE_COULDNT_CONNECT || cc == CURLE_COULDNT_RESOLVE_HOST ||
	    cc == CURLE_COULDNT_RESOLVE_PROXY || cc == CURLE_SSL_CONNECT_ERROR)
		return SMTP_RETRY;
	/* a broken link, a timeout, an unexpected reply: the message may have been taken */
	return SMTP_IN_DOUBT;
}

int smtp_send(struct smtp *s, const char *msg, size_t len, enum smtp_outcome *outcome,
	      struct kcve_err *err)
{
	const struct publish_config *cfg = s->cfg;
	char *from = NULL, *rcpts = NULL;
	if (cfg->smtp_from)
		from = mail_first_address(cfg->smtp_from);
	if (!from) {
		char *v = mail_header_value(msg, "From");
		from = v ? mail_first_address(v) : NULL;
		free(v);
	}
	rcpts = cfg->smtp_to ? xstrdup(cfg->smtp_to) : mail_recipients(msg);
	if (!from || !rcpts) {
		free(from);
		free(rcpts);
		*outcome = SMTP_REFUSED;
		return kcve_err_set(err, KCVE_E_PARSE, "message has no %s address, set smtp.%s or "
				    "fix the mbox", from ? "recipient" : "sender", from ? "to" : "from");
	}
	struct curl_slist *rl = NULL;
	char *save = NULL;
	struct strbuf a = STRBUF_INIT;
	for (char *t = strtok_r(rcpts, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		t += strspn(t, " \t<");
		sb_reset(&a);
		sb_addf(&a, "<%.*s>", (int)strcspn(t, " \t>"), t);
		rl = curl_slist_append(rl, a.buf);
	}
	sb_reset(&a);
	sb_addf(&a, "<%s>", from);
	CURL *c = s->curl;
	curl_easy_setopt(c, CURLOPT_MAIL_FROM, a.buf);
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, rl);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
	curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, (curl_off_t)len);
	struct upload u = {msg, len};
	curl_easy_setopt(c, CURLOPT_READDATA, &u);
	s->errbuf[0] = '\0';
	CURLcode cc = curl_easy_perform(c);
	long code = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	int rc = 0;
	*outcome = smtp_classify(cc, code);
	if (*outcome != SMTP_SENT)
		rc = publish_err_set(cfg, err, KCVE_E_NET, "SMTP server %s did not accept the mail "
				     "(%s, last reply %ld)%s", cfg->smtp_url,
				     s->errbuf[0] ? s->errbuf : curl_easy_strerror(cc), code,
				     cc == CURLE_LOGIN_DENIED ? ", check smtp.user and smtp.password"
							      : "");
	curl_easy_setopt(c, CURLOPT_MAIL_RCPT, NULL);
	curl_slist_free_all(rl);
	sb_release(&a);
	free(from);
	free(rcpts);
	return rc;
}
