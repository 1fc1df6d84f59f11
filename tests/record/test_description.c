/* Description cleaning and truncation (docs/spec/record.md "Description", §7.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "record/description.h"

static char *trunc_of(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	description_truncate(s, n, &sb);
	return sb_detach(&sb);
}

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void test_truncate_short(void **st)
{
	(void)st;
	char *r = trunc_of("short text\n\n", 12);
	assert_string_equal(r, "short text");
	free(r);
}

static void test_truncate_at_limit(void **st)
{
	(void)st;
	char *s = repeat('a', DESCRIPTION_MAX);
	char *r = trunc_of(s, DESCRIPTION_MAX);
	assert_string_equal(r, s);
	free(r);
	free(s);
}

static void test_truncate_one_over_newline(void **st)
{
	(void)st;
	char *s = repeat('a', DESCRIPTION_MAX + 1);
	s[DESCRIPTION_MAX] = '\n';
	char *r = trunc_of(s, DESCRIPTION_MAX + 1);
	assert_int_equal(strlen(r), DESCRIPTION_MAX);
	assert_null(strstr(r, "truncated"));
	free(r);
	free(s);
}

static void test_truncate_one_over_char(void **st)
{
	(void)st;
	char *s = repeat('a', DESCRIPTION_MAX + 1);
	char *r = trunc_of(s, DESCRIPTION_MAX + 1);
	assert_int_equal(strlen(r), DESCRIPTION_MAX + 1 + strlen(DESCRIPTION_TRUNCATED));
	assert_memory_equal(r, s, DESCRIPTION_MAX);
	assert_string_equal(r + DESCRIPTION_MAX, "\n---truncated---");
	free(r);
	free(s);
}

static void test_truncate_long(void **st)
{
	(void)st;
	char *s = repeat('a', 4000);
	char *r = trunc_of(s, 4000);
	assert_true(strlen(r) <= DESCRIPTION_MAX + 16);
	assert_string_equal(r + strlen(r) - 15, "---truncated---");
	free(r);
	/* a newline right before the cut is not doubled */
	s[DESCRIPTION_MAX - 1] = '\n';
	r = trunc_of(s, 4000);
	assert_string_equal(r + DESCRIPTION_MAX - 1, "\n---truncated---");
	free(r);
	free(s);
}

static void test_truncate_utf8_boundary(void **st)
{
	(void)st;
	/* a 3-byte character (U+20AC) occupying bytes 3981..3983: the byte cut at 3982 would
	 * split it; the whole character must go */
	char *s = repeat('a', 4000);
	memcpy(s + DESCRIPTION_MAX - 1, "\xe2\x82\xac", 3);
	char *r = trunc_of(s, 4000);
	assert_int_equal(strlen(r), DESCRIPTION_MAX - 1 + 16);
	assert_memory_equal(r, s, DESCRIPTION_MAX - 1);
	assert_string_equal(r + DESCRIPTION_MAX - 1, "\n---truncated---");
	free(r);
	/* a 4-byte character ending exactly at the limit stays whole */
	memset(s, 'a', 4000);
	memcpy(s + DESCRIPTION_MAX - 4, "\xf0\x9f\x98\x80", 4);
	r = trunc_of(s, 4000);
	assert_memory_equal(r, s, DESCRIPTION_MAX);
	assert_string_equal(r + DESCRIPTION_MAX, "\n---truncated---");
	free(r);
	free(s);
}

static char *clean(const char *msg)
{
	struct tag_list t = {0};
	struct strbuf sb = STRBUF_INIT;
	tags_builtin(&t);
	description_from_commit(msg, strlen(msg), &t, &sb);
	tags_release(&t);
	return sb_detach(&sb);
}

static void test_tags_stripped(void **st)
{
	(void)st;
	char *r = clean("\n\nfoo: fix a bug\n\n\nBody line one.\n  Indented text.\n\n"
			"Fixes: 1234567890ab (\"foo: add\")\n"
			"    Reported-by: Someone <a@b.c>\n"
			"SIGNED-OFF-BY: X <x@y.z>\n"
			"Cc: stable@vger.kernel.org # 6.1\n"
			"Link: https://lore.kernel.org/r/1\n"
			"Not-a-tag: keep me\n");
	assert_string_equal(r, DESCRIPTION_PREFIX "\n\nfoo: fix a bug\n\nBody line one.\n"
				"  Indented text.\n\nNot-a-tag: keep me\n");
	free(r);
}

static void test_subject_kept_even_if_tag(void **st)
{
	(void)st;
	/* the subject is never matched against tags */
	char *r = clean("Fixes: something odd\n\nbody\n");
	assert_string_equal(r, DESCRIPTION_PREFIX "\n\nFixes: something odd\n\nbody\n");
	free(r);
}

static void test_tag_needs_colon(void **st)
{
	(void)st;
	char *r = clean("subj\n\nCc me on replies\nfixes the thing\n");
	assert_string_equal(r, DESCRIPTION_PREFIX "\n\nsubj\n\nCc me on replies\nfixes the thing\n");
	free(r);
	/* trailing whitespace after the body is trimmed, CRLF lines lose their CR */
	r = clean("subj\r\n\r\nline\r\n\r\n   \n");
	assert_string_equal(r, DESCRIPTION_PREFIX "\n\nsubj\n\nline\n");
	free(r);
}

static void test_tags_file_parsing(void **st)
{
	(void)st;
	struct tag_list t = {0};
	const char *text = "# comment\n\n  Acked-By  \nfixes\n\t\n";
	tags_parse(&t, text, strlen(text));
	assert_int_equal(t.n, 2);
	assert_string_equal(t.v[0], "acked-by");
	assert_true(tags_is_trailer(&t, "  ACKED-by: me", 14));
	assert_false(tags_is_trailer(&t, "reported-by: me", 15));
	tags_release(&t);
}

static void test_message_override(void **st)
{
	(void)st;
	struct strbuf sb = STRBUF_INIT;
	const char *msg = "\n  Custom text.\nSigned-off-by: kept\n\n";
	assert_false(description_from_message(" \n\t\n", 4, &sb));
	assert_int_equal(sb.len, 0);
	assert_true(description_from_message(msg, strlen(msg), &sb));
	assert_string_equal(sb.buf, DESCRIPTION_PREFIX "\n\nCustom text.\nSigned-off-by: kept\n");
	sb_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_truncate_short),
		cmocka_unit_test(test_truncate_at_limit),
		cmocka_unit_test(test_truncate_one_over_newline),
		cmocka_unit_test(test_truncate_one_over_char),
		cmocka_unit_test(test_truncate_long),
		cmocka_unit_test(test_truncate_utf8_boundary),
		cmocka_unit_test(test_tags_stripped),
		cmocka_unit_test(test_subject_kept_even_if_tag),
		cmocka_unit_test(test_tag_needs_colon),
		cmocka_unit_test(test_tags_file_parsing),
		cmocka_unit_test(test_message_override),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
