/* Fuzz the CVE Services answer parsers (publish/cveapi_parse.h): whatever a server or a
 * proxy in between sends must give a clean error or a bounded result, never a crash. The
 * same bytes also go through the mail helpers that read headers of stored mboxes. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "publish/archive.h"
#include "publish/cveapi_parse.h"
#include "publish/message.h"
#include "publish/smtp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *body = (const char *)data;
	struct kcve_err err = {0};
	char code[64], msg[256], id[32], state[16];
	cveapi_parse_error(body, size, code, sizeof(code), msg, sizeof(msg));

	struct cveapi_idlist l = {0};
	long rem, next;
	if (cveapi_parse_ids(body, size, &l, &rem, &next, &err) == 0)
		for (size_t i = 0; i < l.n; i++)
			if (strncmp(l.v[i].id, "CVE-", 4) != 0 || strlen(l.v[i].id) >= sizeof(l.v[i].id))
				abort();   /* only valid ids may ever reach the tree */
	cveapi_idlist_release(&l);

	struct cveapi_quota q;
	cveapi_parse_quota(body, size, &q, &err);
	cveapi_parse_record(body, size, id, state, &err);
	cveapi_parse_object(body, size, &err);
	cveapi_parse_written(body, size, "created", "CVE-2024-1234", "PUBLISHED", &err);
	cveapi_parse_id_state(body, size, "updated", "CVE-2024-1234", state, &err);
	cveapi_record_holds(body, size, body, size, "REJECTED");

	struct strbuf sb = STRBUF_INIT;
	cveapi_cna_body(body, size, "CVE-2024-1234", &sb, &err);
	sb_reset(&sb);

	/* mail side: needs a C string */
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	message_build(&sb, text, strlen(text), "<x@y>", "Thu, 01 Jan 1970 00:00:00 +0000", "<a@b>");
	if (message_bad_header_line(text, strlen(text)) > strlen(text) + 1)
		abort();   /* a line number past the text */
	char *v = mail_header_value(sb.buf, "From");
	char *a = v ? mail_first_address(v) : NULL;
	char *r = mail_recipients(sb.buf);
	free(v);
	free(a);
	free(r);
	/* a list archive's answer (raw message or mbox) */
	char mid[64];
	if (archive_message_id(text, mid, sizeof(mid)) && (!*mid || strlen(mid) >= sizeof(mid)))
		abort();   /* "found" means a non-empty id that fits */
	free(text);
	sb_release(&sb);
	return 0;
}
