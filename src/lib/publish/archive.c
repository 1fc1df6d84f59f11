#include "publish/archive.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/strbuf.h"
#include "publish/smtp.h"
#include "core/text.h"

/* A raw announcement is a few KiB; a page this big is not one. */
#define ARCHIVE_MAX_BODY ((size_t)4 << 20)

struct body {
	struct strbuf sb;
	bool too_big;
};

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
	struct body *b = ctx;
	size_t len = size * n;
	if (b->sb.len + len > ARCHIVE_MAX_BODY) {
		b->too_big = true;
		return 0;
	}
	sb_add(&b->sb, p, len);
	return len;
}

/* "<a@b>" or " a@b " -> "a@b" */
static void bare_id(const char *in, char *out, size_t outsz)
{
	in += strspn(in, " \t<");
	size_t l = strcspn(in, "> \t\r\n");
	text_snprintf(out, outsz, "%.*s", (int)l, in);
}

bool archive_message_id(const char *raw, char *out, size_t outsz)
{
	if (!strncmp(raw, "From ", 5)) {   /* mboxrd: the envelope line comes first */
		const char *nl = strchr(raw, '\n');
		if (!nl)
			return false;
		raw = nl + 1;
	}
	char *v = mail_header_value(raw, "Message-Id");
	if (!v)
		return false;
	bare_id(v, out, outsz);
	free(v);
	return *out != '\0';
}

int archive_has(const struct publish_config *cfg, const char *msgid, bool *found,
		struct kcve_err *err)
{
	*found = false;
	char want[512], got[512];
	bare_id(msgid, want, sizeof(want));
	if (!*want)
		return kcve_err_set(err, KCVE_E_PARSE, "queued mail has no Message-Id to look up in "
				    "the list archive");
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot initialise libcurl");
	CURL *c = curl_easy_init();
	if (!c)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot initialise libcurl");
	char *esc = curl_easy_escape(c, want, 0);
	struct strbuf url = STRBUF_INIT;
	const char *base = cfg->smtp_archive;
	size_t bl = strlen(base);
	sb_addf(&url, "%s%s%s/raw", base, bl && base[bl - 1] == '/' ? "" : "/", esc ? esc : "");
	curl_free(esc);
	/* a public archive needs no credentials, but an answer it did not give could suppress
	 * an announcement: https only (plain http to localhost for tests) */
	const char *protos = url_is_loopback(base) ? "https,http" : "https";
	struct body b = {STRBUF_INIT, false};
	char errbuf[CURL_ERROR_SIZE] = "";
	curl_easy_setopt(c, CURLOPT_URL, url.buf);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, protos);
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, protos);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kcve/" KCVE_VERSION);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, cfg->smtp_timeout_s);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT,
			 cfg->smtp_timeout_s < 10 ? cfg->smtp_timeout_s : 10L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	CURLcode cc = curl_easy_perform(c);
	long status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	int rc = 0;
	if (cc != CURLE_OK)
		rc = kcve_err_set(err, KCVE_E_NET, "list archive %s did not answer whether <%s> "
				  "arrived (%s)", base, want,
				  b.too_big ? "answer too large" : errbuf[0] ? errbuf
									: curl_easy_strerror(cc));
	else if (status == 404 || status == 410)
		*found = false;
	else if (status != 200)
		rc = kcve_err_set(err, KCVE_E_NET, "list archive %s answered HTTP %ld for <%s>",
				  base, status, want);
	else if (!b.sb.len || memchr(b.sb.buf, '\0', b.sb.len) || !archive_message_id(b.sb.buf, got, sizeof(got)) ||
		 strcmp(got, want) != 0)
		rc = kcve_err_set(err, KCVE_E_NET, "list archive %s answered 200 for <%s> but not "
				  "with that message; is smtp.archive the raw public-inbox URL of the "
				  "list?", base, want);
	else
		*found = true;
	sb_release(&b.sb);
	sb_release(&url);
	curl_easy_cleanup(c);
	return rc;
}
