/* core/text.h and core/kjson.h: text is cut only between UTF-8 characters, bytes that are not
 * UTF-8 are escaped before JSON, and no JSON constructor of ours returns NULL for text (issue
 * 35: a note cut at 320 bytes inside a character made json_pack return NULL; the caller then
 * used an array jansson had already freed). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "core/gunzip.h"
#include "core/kjson.h"
#include "core/text.h"

static void test_cut(void **state)
{
	(void)state;
	const char *s = "ab\xc3\xa9" "cd\xe2\x82\xac" "e\xf0\x9f\x98\x80";
	size_t n = strlen(s);
	assert_int_equal(utf8_cut(s, n, 100), n);
	assert_int_equal(utf8_cut(s, n, 2), 2);
	assert_int_equal(utf8_cut(s, n, 3), 2); /* inside é */
	assert_int_equal(utf8_cut(s, n, 4), 4);
	assert_int_equal(utf8_cut(s, n, 7), 6); /* inside € */
	assert_int_equal(utf8_cut(s, n, 8), 6);
	assert_int_equal(utf8_cut(s, n, 9), 9);
	assert_int_equal(utf8_cut(s, n, 11), 10); /* inside the emoji */
	const char *bad = "a\x80\x80\x80\x80z"; /* not UTF-8: cut by bytes */
	assert_int_equal(utf8_cut(bad, strlen(bad), 3), 3);
	char t[] = "x\xc3\xa9";
	text_cut(t, 2);
	assert_string_equal(t, "x");
	/* every cut of a valid text is valid */
	for (size_t m = 0; m <= n; m++) {
		char buf[64];
		size_t c = utf8_cut(s, n, m);
		assert_true(c <= m);
		memcpy(buf, s, c);
		assert_true(utf8_valid(buf, c));
		int r = text_snprintf(buf, m + 1, "%s", s);
		assert_int_equal(r, (int)n);
		assert_true(utf8_valid(buf, strlen(buf)));
		assert_int_equal(strlen(buf), c);
	}
}

static void test_valid_escape(void **state)
{
	(void)state;
	assert_true(utf8_valid("caf\xc3\xa9", 5));
	assert_false(utf8_valid("caf\xe9", 4));
	assert_false(utf8_valid("\xc0\xaf", 2));          /* overlong */
	assert_false(utf8_valid("\xed\xa0\x80", 3));      /* surrogate */
	assert_false(utf8_valid("\xf4\x90\x80\x80", 4));  /* past U+10FFFF */
	assert_false(utf8_valid("a\0b", 3));
	char *e0 = utf8_escape("", 0); /* found by fuzz_core_text: a buffer never terminated */
	assert_string_equal(e0, "");
	free(e0);
	char *e = utf8_escape("linux\xe9/x\xc3\xa9", 10);
	assert_string_equal(e, "linux\\xE9/x\xc3\xa9");
	free(e);
}

static void test_kj(void **state)
{
	(void)state;
	json_t *v = kj_str("include/linux\xe9/a.h");
	assert_non_null(v);
	assert_string_equal(json_string_value(v), "include/linux\\xE9/a.h");
	json_decref(v);
	assert_null(kj_str(NULL));
	json_t *arr = json_array();
	json_array_append_new(arr, kj_str("kept"));
	/* jansson's json_pack would return NULL here and free arr */
	json_t *o = kj_pack("{s:s, s:o, s:s#, s:i, s:I, s:b, s:n, s:f, s:s*, s:o*, s:[s, s]}",
			    "text", "\xff note", "list", arr, "n", "abcdef", 3, "i", 7, "I",
			    (json_int_t)1 << 40, "b", 1, "null", "f", 0.5, "omit", (const char *)NULL,
			    "omit2", (json_t *)NULL, "a", "x", "y\xc3");
	assert_non_null(o);
	assert_string_equal(json_string_value(json_object_get(o, "text")), "\\xFF note");
	assert_int_equal(json_array_size(json_object_get(o, "list")), 1);
	assert_string_equal(json_string_value(json_object_get(o, "n")), "abc");
	assert_int_equal(json_integer_value(json_object_get(o, "I")), (json_int_t)1 << 40);
	assert_null(json_object_get(o, "omit"));
	assert_null(json_object_get(o, "omit2"));
	assert_true(json_is_null(json_object_get(o, "null")));
	assert_string_equal(json_string_value(json_array_get(json_object_get(o, "a"), 1)), "y\\xC3");
	json_decref(o);
	json_t *nul = kj_pack("{s:s, s:o, s:f}", "a", (const char *)NULL, "b", (json_t *)NULL, "c",
			      0.0 / 0.0);
	assert_true(json_is_null(json_object_get(nul, "c")));
	assert_true(json_is_null(json_object_get(nul, "a")));
	assert_true(json_is_null(json_object_get(nul, "b")));
	json_decref(nul);
}

static void test_limits(void **state)
{
	(void)state;
	struct kj_limits lim = {1 << 20, 100};
	struct kcve_err err = {0};
	json_t *doc;
	assert_int_equal(kj_count_values("{\"a,[\\\"{\":[1,2]}", 17), 4);
	char big[1000];
	for (size_t i = 0; i < 333; i++)
		memcpy(big + 3 * i, "[],", 3);
	big[998] = ']';
	big[0] = '[';
	assert_int_equal(kj_parse(big, 999, &lim, "the test", "; hint", &doc, &err), -1);
	assert_int_equal(err.code, KCVE_E_PARSE);
	assert_non_null(strstr(err.msg, "more than 100 JSON values"));
	assert_int_equal(kj_parse("{\"a\":1}", 7, &lim, "the test", "", &doc, &err), 0);
	json_decref(doc);
	/* a FIFO: refused at once, never waited on */
	char dir[] = "/tmp/kjXXXXXX";
	assert_non_null(mkdtemp(dir));
	char fifo[64];
	snprintf(fifo, sizeof fifo, "%s/f", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(kj_load_file(fifo, &lim, "SBOM", "", &doc, &err), -1);
	assert_int_equal(err.code, KCVE_E_IO);
	assert_non_null(strstr(err.msg, "not a regular file"));
	unlink(fifo);
	rmdir(dir);
}

/* text as one gzip member, appended to out */
static void gz_member(const char *text, struct strbuf *out)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	unsigned char buf[4096];
	z.next_in = (unsigned char *)text;
	z.avail_in = (uInt)strlen(text);
	z.next_out = buf;
	z.avail_out = sizeof buf;
	assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
	sb_add(out, buf, sizeof buf - z.avail_out);
	deflateEnd(&z);
}

static void test_gunzip(void **state)
{
	(void)state;
	struct strbuf gz = STRBUF_INIT, out = STRBUF_INIT;
	gz_member("first\n", &gz);
	gz_member("second\n", &gz);
	assert_int_equal(gunzip_capped(gz.buf, gz.len, 1 << 20, &out), GUNZIP_OK);
	assert_string_equal(out.buf, "first\nsecond\n"); /* both members, as gzip reads them */
	sb_reset(&out);
	assert_int_equal(gunzip_capped(gz.buf, gz.len, 8, &out), GUNZIP_TOO_BIG);
	sb_reset(&out);
	assert_int_equal(gunzip_capped(gz.buf, gz.len - 3, 1 << 20, &out), GUNZIP_TRUNCATED);
	sb_reset(&out);
	sb_add(&gz, "junk", 4);
	assert_int_equal(gunzip_capped(gz.buf, gz.len, 1 << 20, &out), GUNZIP_TRAILING);
	sb_reset(&out);
	assert_int_equal(gunzip_capped("plain text", 10, 1 << 20, &out), GUNZIP_CORRUPT);
	sb_release(&gz);
	sb_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_valid_escape),
		cmocka_unit_test(test_kj),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_gunzip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
