/* Unit tests of the publish library's pure parts: answer parsing, request bodies, mail
 * building, configuration and secret scrubbing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "publish/archive.h"
#include "publish/config.h"
#include "publish/cveapi.h"
#include "publish/cveapi_parse.h"
#include "publish/message.h"
#include "publish/smtp.h"
#include "record/identity.h"

#define S(x) x, strlen(x)

/* issue 29: "Retry-After: 99999999999999999999" saturates strtol at LONG_MAX; every wait,
 * whatever the server or the configuration says, is at most CVEAPI_MAX_WAIT_S */
static void test_backoff_clamped(void **st)
{
	(void)st;
	const long max = CVEAPI_MAX_WAIT_S * 1000;
	assert_int_equal(cveapi_backoff_ms(500, 60000, 1, LONG_MAX), 60000);
	assert_int_equal(cveapi_backoff_ms(500, LONG_MAX, 1, LONG_MAX), max);
	assert_true(cveapi_backoff_ms(LONG_MAX, LONG_MAX, 60, -1) <= max);
	assert_true(cveapi_backoff_ms(500, LONG_MAX, 1000, -1) <= max);
	assert_int_equal(cveapi_backoff_ms(500, LONG_MAX, 1, 7), 7000);
	long d = cveapi_backoff_ms(500, 60000, 1, -1);
	assert_true(d >= 500 && d < 625);
	assert_int_equal(cveapi_backoff_ms(-5, -5, 1, -1), 0);
}

static void test_error_body(void **st)
{
	(void)st;
	char code[32], msg[64];
	assert_true(cveapi_parse_error(S("{\"error\":\"CVE_RECORD_EXISTS\",\"message\":\"a\\nb\"}"),
				       code, sizeof(code), msg, sizeof(msg)));
	assert_string_equal(code, "CVE_RECORD_EXISTS");
	assert_string_equal(msg, "a?b");   /* control characters never reach the terminal */
	assert_false(cveapi_parse_error(S("<html>502</html>"), code, sizeof(code), msg, sizeof(msg)));
	assert_false(cveapi_parse_error(S("[1,2]"), code, sizeof(code), msg, sizeof(msg)));
	assert_true(cveapi_parse_error(S("{\"error\":7}"), code, sizeof(code), msg, sizeof(msg)));
	assert_string_equal(code, "");
}

static void test_ids(void **st)
{
	(void)st;
	struct cveapi_idlist l = {0};
	struct kcve_err err = {0};
	long rem, next;
	assert_int_equal(cveapi_parse_ids(S("{\"cve_ids\":[{\"cve_id\":\"CVE-2025-90000\",\"state\":"
					    "\"RESERVED\",\"x\":[]},{\"cve_id\":\"CVE-2025-90001\"}],"
					    "\"meta\":{\"remaining_quota\":\"41\"},\"nextPage\":3}"),
					  &l, &rem, &next, &err), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].id, "CVE-2025-90000");
	assert_string_equal(l.v[0].state, "RESERVED");
	assert_int_equal(l.v[1].year, 2025);
	assert_int_equal(rem, 41);
	assert_int_equal(next, 3);
	/* an invalid id is refused, not filed */
	assert_int_equal(cveapi_parse_ids(S("{\"cve_ids\":[{\"cve_id\":\"../../etc/passwd\"}]}"), &l,
					  &rem, &next, &err), KCVE_E_NET);
	assert_non_null(strstr(err.msg, "invalid CVE id"));
	assert_int_equal(cveapi_parse_ids(S("{\"cve_ids\":{}}"), &l, &rem, &next, &err), KCVE_E_NET);
	assert_int_equal(cveapi_parse_ids(S("<!DOCTYPE html><p>gateway</p>"), &l, &rem, &next, &err),
			 KCVE_E_NET);
	assert_non_null(strstr(err.msg, "HTML page"));
	assert_int_equal(cveapi_parse_ids(S("{\"cve_ids\":[],\"nextPage\":null}"), &l, &rem, &next,
					  &err), 0);
	assert_int_equal(next, -1);
	cveapi_idlist_release(&l);
}

static void test_quota_record(void **st)
{
	(void)st;
	struct cveapi_quota q;
	struct kcve_err err = {0};
	assert_int_equal(cveapi_parse_quota(S("{\"id_quota\":100,\"total_reserved\":3,\"available\":97}"),
					    &q, &err), 0);
	assert_int_equal(q.available, 97);
	assert_int_equal(cveapi_parse_quota(S("{\"id_quota\":-1,\"total_reserved\":3,\"available\":9}"),
					    &q, &err), KCVE_E_NET);
	char id[32], state[16];
	assert_int_equal(cveapi_parse_record(S("{\"cveMetadata\":{\"cveId\":\"CVE-2024-1234\",\"state\":"
					       "\"PUBLISHED\"}}"), id, state, &err), 0);
	assert_string_equal(state, "PUBLISHED");
	assert_int_equal(cveapi_parse_record(S("{\"cveMetadata\":{\"cveId\":5}}"), id, state, &err),
			 KCVE_E_NET);
	assert_int_equal(cveapi_parse_object(S(""), &err), KCVE_E_NET);
	assert_non_null(strstr(err.msg, "empty"));
}

static void test_cna_body(void **st)
{
	(void)st;
	struct strbuf sb = STRBUF_INIT;
	struct kcve_err err = {0};
	assert_int_equal(cveapi_cna_body(S("{\"cveMetadata\":{\"cveId\":\"CVE-2024-1\"},\"containers\":"
					   "{\"cna\":{\"title\":\"t\\u00e9\",\"b\":1}}}"), "CVE-2024-1",
					 &sb, &err), 0);
	assert_string_equal(sb.buf, "{\"cnaContainer\":{\"title\":\"t\\u00E9\",\"b\":1}}");
	sb_reset(&sb);
	assert_int_equal(cveapi_cna_body(S("{\"cveMetadata\":{\"cveId\":\"CVE-2024-2\"},\"containers\":"
					   "{\"cna\":{}}}"), "CVE-2024-1", &sb, &err), KCVE_E_PARSE);
	assert_int_equal(cveapi_cna_body(S("{\"containers\":{}}"), "CVE-2024-1", &sb, &err),
			 KCVE_E_PARSE);
	sb_release(&sb);
}

static void test_message(void **st)
{
	(void)st;
	char id[128], date[64];
	message_make_id(id, sizeof(id), "CVE-2024-44947", 1724673000 + 55, "gregkh");
	/* 2024-08-26 11:50:55 UTC -> 20240826 + seconds 55 */
	assert_int_equal(strncmp(id, "<2024082655-CVE-2024-44947-", 27), 0);
	assert_string_equal(id + strlen(id) - 8, "@gregkh>");
	message_date(date, sizeof(date), 0);
	assert_string_equal(date, "Thu, 01 Jan 1970 00:00:00 +0000");
	const char *mbox = "From cve_reject-1 Mon Sep 17 00:00:00 2001\n"
			   "From: A <a@b.org>\nTo: <l@x.org>\nSubject: REJECTED: X\n"
			   "In-Reply-To: \nMessage-Id: <old@x>\n\nbody\n.dot\n";
	struct strbuf sb = STRBUF_INIT;
	message_build(&sb, mbox, strlen(mbox), "<new@h>", date, "<ann@h>");
	assert_string_equal(sb.buf, "From: A <a@b.org>\r\nTo: <l@x.org>\r\nSubject: REJECTED: X\r\n"
				    "Date: Thu, 01 Jan 1970 00:00:00 +0000\r\nMessage-Id: <new@h>\r\n"
				    "In-Reply-To: <ann@h>\r\nReferences: <ann@h>\r\nMIME-Version: 1.0\r\n"
				    "Content-Type: text/plain; charset=UTF-8\r\n"
				    "Content-Transfer-Encoding: 8bit\r\n\r\nbody\r\n.dot\r\n");
	char *to = mail_recipients(sb.buf);
	assert_string_equal(to, "l@x.org");
	free(to);
	char *v = mail_header_value(sb.buf, "from");
	char *a = mail_first_address(v);
	assert_string_equal(a, "a@b.org");
	free(v);
	free(a);
	sb_release(&sb);
}

/* Success means the body says so (docs/publish.md). */
static void test_written(void **st)
{
	(void)st;
	struct kcve_err err = {0};
	const char *ok = "{\"message\":\"m\",\"created\":{\"cveMetadata\":{\"cveId\":"
			 "\"CVE-2024-1\",\"state\":\"PUBLISHED\"}}}";
	assert_int_equal(cveapi_parse_written(S(ok), "created", "CVE-2024-1", "PUBLISHED", &err), 0);
	assert_int_equal(cveapi_parse_written(S(ok), "updated", "CVE-2024-1", NULL, &err), KCVE_E_NET);
	assert_int_equal(cveapi_parse_written(S(ok), "created", "CVE-2024-2", NULL, &err), KCVE_E_NET);
	assert_int_equal(cveapi_parse_written(S(ok), "created", "CVE-2024-1", "REJECTED", &err),
			 KCVE_E_NET);
	assert_int_equal(cveapi_parse_written(S("{\"error\":\"INTERNAL_SERVER_ERROR\"}"), "created",
					      "CVE-2024-1", NULL, &err), KCVE_E_NET);
	assert_non_null(strstr(err.msg, "INTERNAL_SERVER_ERROR"));
	char state[16];
	assert_int_equal(cveapi_parse_id_state(S("{\"updated\":{\"cve_id\":\"CVE-2024-1\",\"state\":"
						 "\"REJECTED\"}}"), "updated", "CVE-2024-1", state,
					       &err), 0);
	assert_string_equal(state, "REJECTED");
	assert_int_equal(cveapi_parse_id_state(S("{\"cve_id\":\"CVE-2024-9\",\"state\":\"X\"}"), NULL,
					       "CVE-2024-1", state, &err), KCVE_E_NET);
}

static void test_record_holds(void **st)
{
	(void)st;
	const char *rec = "{\"cveMetadata\":{\"cveId\":\"CVE-2024-1\",\"state\":\"PUBLISHED\"},"
			  "\"containers\":{\"cna\":{\"providerMetadata\":{\"orgId\":\"o\"},"
			  "\"title\":\"t\",\"x\":[1,{\"d\":\"v\"}]}}}";
	/* the server's providerMetadata and trimmed blanks are no difference */
	assert_int_equal(cveapi_record_holds(S(rec), S("{\"cnaContainer\":{\"title\":\" t\\n\","
						     "\"x\":[1,{\"d\":\"v\"}]}}"), "PUBLISHED"), 1);
	assert_int_equal(cveapi_record_holds(S(rec), S("{\"cnaContainer\":{\"title\":\"t\","
						     "\"x\":[1,{\"d\":\"v\"}]}}"), "REJECTED"), 0);
	assert_int_equal(cveapi_record_holds(S(rec), S("{\"cnaContainer\":{\"title\":\"t2\","
						     "\"x\":[1,{\"d\":\"v\"}]}}"), "PUBLISHED"), 0);
	assert_int_equal(cveapi_record_holds(S(rec), S("{\"cnaContainer\":{\"title\":\"t\"}}"),
					     "PUBLISHED"), 0);
	assert_int_equal(cveapi_record_holds(S("<html>"), S("{}"), "PUBLISHED"), -1);
}

static void test_header_injection(void **st)
{
	(void)st;
	assert_int_equal(message_bad_header_line(S("From x\nSubject: a\r\nTo: b\n\nbody\r\x01\n")), 0);
	assert_int_equal(message_bad_header_line(S("From x\nSubject: a\rBcc: v@x\n\nbody\n")), 2);
	assert_int_equal(message_bad_header_line(S("Subject: \x1b[2J\n")), 1);
	/* every command's --from / $KCVE_FROM goes through identity_parse */
	struct kcve_identity id;
	struct kcve_err err = {0};
	assert_int_equal(identity_parse(&id, "Eve\r\nBcc: v@x <e@x.org>", &err), KCVE_E_USAGE);
	assert_non_null(strstr(err.msg, "control character"));
	assert_int_equal(identity_parse(&id, "Eve <e@x.org>\n", &err), 0);   /* $(cat file) */
	assert_string_equal(id.email, "e@x.org");
	assert_true(message_value_ok("<a@b>"));
	assert_false(message_value_ok("<a@b>\r\nBcc: v@x"));
}

static void test_config(void **st)
{
	(void)st;
	struct publish_config c;
	struct kcve_err err = {0};
	setenv("KCVE_CVE_API_URL", "https://cveawg.mitre.org/api", 1);
	setenv("KCVE_CVE_API_ORG", "Linux", 1);
	setenv("KCVE_CVE_API_USER", "u@x", 1);
	setenv("KCVE_CVE_API_KEY", "topsecretkey", 1);
	assert_int_equal(publish_config_load(&c, NULL, NULL, &err), 0);
	assert_string_equal(c.api_url, "https://cveawg.mitre.org/api/");
	assert_int_equal(publish_config_check_api(&c, &err), 0);
	char msg[128] = "server said topsecretkey is wrong (topsecretkey)";
	publish_config_scrub(&c, msg, sizeof(msg));
	assert_string_equal(msg, "server said *** is wrong (***)");
	/* a key straddling the message's size limit: scrubbed before the cut, no tail left */
	char pad[sizeof(err.msg)];
	memset(pad, 'A', sizeof(pad) - 8);
	pad[sizeof(pad) - 8] = '\0';
	assert_int_equal(publish_err_set(&c, &err, KCVE_E_NET, "%s%s", pad, "topsecretkey"),
			 KCVE_E_NET);
	assert_null(strstr(err.msg, "topsec"));
	assert_non_null(strstr(err.msg, "AAA***"));
	char body[] = "a\0topsecretkey\0b topsecretkey";
	size_t blen = sizeof(body) - 1;
	publish_config_scrub_mem(&c, body, &blen);   /* past NULs too */
	assert_int_equal(blen, 11);
	assert_memory_equal(body, "a\0***\0b ***", 12);
	publish_config_release(&c);
	setenv("KCVE_CVE_API_URL", "http://example.org/api/", 1);
	assert_int_equal(publish_config_load(&c, NULL, NULL, &err), 0);
	assert_int_equal(publish_config_check_api(&c, &err), KCVE_E_USAGE);
	publish_config_release(&c);
	assert_true(url_is_loopback("http://127.0.0.1:8080/api/"));
	assert_true(url_is_loopback("smtp://user@localhost:25"));
	assert_true(url_is_loopback("http://[::1]:1/"));
	assert_false(url_is_loopback("http://127.0.0.1.evil.org/"));
	setenv("KCVE_CVE_API_TIMEOUT", "soon", 1);
	assert_int_equal(publish_config_load(&c, NULL, NULL, &err), KCVE_E_USAGE);
	assert_non_null(strstr(err.msg, "KCVE_CVE_API_TIMEOUT"));
	publish_config_release(&c);
	unsetenv("KCVE_CVE_API_TIMEOUT");
}

/* Which attempt outcomes may have delivered the message: only those decide whether the
 * list archive is asked before a resend. */
static void test_smtp_outcome(void **st)
{
	(void)st;
	assert_int_equal(smtp_classify(CURLE_OK, 250), SMTP_SENT);
	assert_int_equal(smtp_classify(CURLE_WEIRD_SERVER_REPLY, 451), SMTP_RETRY);
	assert_int_equal(smtp_classify(CURLE_SEND_ERROR, 421), SMTP_RETRY);
	assert_int_equal(smtp_classify(CURLE_WEIRD_SERVER_REPLY, 554), SMTP_REFUSED);
	assert_int_equal(smtp_classify(CURLE_LOGIN_DENIED, 0), SMTP_REFUSED);
	assert_int_equal(smtp_classify(CURLE_PEER_FAILED_VERIFICATION, 0), SMTP_REFUSED);
	assert_int_equal(smtp_classify(CURLE_COULDNT_CONNECT, 0), SMTP_RETRY);
	assert_int_equal(smtp_classify(CURLE_COULDNT_RESOLVE_HOST, 0), SMTP_RETRY);
	/* the link broke or timed out after the data went out: nobody knows */
	assert_int_equal(smtp_classify(CURLE_RECV_ERROR, 354), SMTP_IN_DOUBT);
	assert_int_equal(smtp_classify(CURLE_OPERATION_TIMEDOUT, 354), SMTP_IN_DOUBT);
	assert_int_equal(smtp_classify(CURLE_GOT_NOTHING, 0), SMTP_IN_DOUBT);
}

static void test_archive_message_id(void **st)
{
	(void)st;
	char id[128];
	assert_true(archive_message_id("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
				       "Subject: x\nMessage-Id: <a-1@h>\n\nbody\n", id, sizeof(id)));
	assert_string_equal(id, "a-1@h");
	assert_true(archive_message_id("message-id:\r\n <b@h>\r\n\r\n", id, sizeof(id)));
	assert_string_equal(id, "b@h");
	/* a header below the body is not the message's */
	assert_false(archive_message_id("Subject: x\n\nMessage-Id: <c@h>\n", id, sizeof(id)));
	assert_false(archive_message_id("<html>not found</html>", id, sizeof(id)));
	assert_false(archive_message_id("From x", id, sizeof(id)));
	assert_false(archive_message_id("Message-Id: <>\n\n", id, sizeof(id)));

	/* the archive's answer can suppress an announcement: https, or http to localhost only */
	struct publish_config c;
	struct kcve_err err = {0};
	setenv("KCVE_SMTP_URL", "smtp://127.0.0.1:2525", 1);
	setenv("KCVE_SMTP_ARCHIVE", "http://lore.kernel.org/linux-cve-announce/", 1);
	assert_int_equal(publish_config_load(&c, NULL, NULL, &err), 0);
	assert_int_equal(c.archive_settle_ms, 120000);
	assert_int_equal(publish_config_check_smtp(&c, &err), KCVE_E_USAGE);
	assert_non_null(strstr(err.msg, "smtp.archive"));
	publish_config_release(&c);
	setenv("KCVE_SMTP_ARCHIVE", "https://lore.kernel.org/linux-cve-announce/", 1);
	setenv("KCVE_SMTP_ARCHIVE_SETTLE_MS", "2500", 1);
	assert_int_equal(publish_config_load(&c, NULL, NULL, &err), 0);
	assert_int_equal(c.archive_settle_ms, 2500);
	assert_int_equal(publish_config_check_smtp(&c, &err), 0);
	publish_config_release(&c);
	setenv("KCVE_SMTP_ARCHIVE_SETTLE_MS", "-1", 1);
	assert_int_equal(publish_config_load(&c, NULL, NULL, &err), KCVE_E_USAGE);
	publish_config_release(&c);
	unsetenv("KCVE_SMTP_ARCHIVE");
	unsetenv("KCVE_SMTP_ARCHIVE_SETTLE_MS");
	unsetenv("KCVE_SMTP_URL");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_body), cmocka_unit_test(test_ids),
		cmocka_unit_test(test_quota_record), cmocka_unit_test(test_cna_body),
		cmocka_unit_test(test_message), cmocka_unit_test(test_config),
		cmocka_unit_test(test_written), cmocka_unit_test(test_record_holds),
		cmocka_unit_test(test_header_injection), cmocka_unit_test(test_smtp_outcome),
		cmocka_unit_test(test_archive_message_id), cmocka_unit_test(test_backoff_clamped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
