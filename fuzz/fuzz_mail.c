/* libFuzzer target: the request-mail reader (RFC 5322 headers, MIME multipart, QP/base64,
 * HTML to text) and the triage on top of it (commit-id extraction, reply rendering). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "maintainers/mail.h"
#include "maintainers/request.h"

static int no_resolve(void *ctx, const char *rev, char out[41])
{
	(void)ctx;
	/* pretend every id is a released commit without a CVE, to exercise the queue path */
	memset(out, 'a', 40);
	out[40] = '\0';
	memcpy(out, rev, strlen(rev) < 40 ? strlen(rev) : 40);
	return 0;
}

static const char *rel(void *ctx, const char *sha)
{
	(void)ctx;
	return sha[0] < '8' ? "6.1.1" : NULL;
}

static int no_cve(void *ctx, const char *sha, char cve[32])
{
	(void)ctx;
	(void)sha;
	(void)cve;
	return 7;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail m;
	struct kcve_err err;
	if (mail_parse((const char *)data, size, &m, &err) != 0)
		return 0;
	struct request_oracle o = {no_resolve, rel, no_cve, NULL};
	struct request_triage t;
	request_classify(&m, &o, &t);
	struct strbuf reply = STRBUF_INIT;
	request_reply(&m, &t, "CVE team <cve@kernel.org>", "Thu, 1 Jan 1970 00:00:00 +0000", &reply);
	char *j = request_queue_json(&m, &t, "1970-01-01T00:00:00Z");
	free(j);
	sb_release(&reply);
	request_triage_release(&t);
	mail_release(&m);
	return 0;
}
