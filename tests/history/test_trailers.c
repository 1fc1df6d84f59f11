/* Trailer parsing (docs/spec/versions.md step 5): upstream / reverts / fixes lines, indentation,
 * case, short ids and ids that are not hex at all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "history/trailers.h"

#define A40 "0123456789abcdef0123456789abcdef01234567"
#define B40 "89abcdef0123456789abcdef0123456789abcdef"

static void parse(const char *msg, bool stable, struct trailers *t)
{
	trailers_parse(msg, strlen(msg), stable, t);
}

static void fix_eq(const struct trailers *t, size_t i, const char *want)
{
	assert_true(i < t->nfixes);
	assert_int_equal(t->fixes[i].len, strlen(want));
	assert_memory_equal(t->fixes[i].p, want, strlen(want));
}

static void upstream_forms(void **state)
{
	(void)state;
	struct trailers t;
	parse("net: fix\n\ncommit " A40 " upstream.\n\nbody\n", true, &t);
	assert_string_equal(t.upstream, A40);
	parse("net: fix\n\n[ Upstream commit " B40 " ]\n", true, &t);
	assert_string_equal(t.upstream, B40);
	/* upper-case hex and keyword are accepted, the id is stored lower-case */
	parse("x\n\nCOMMIT 0123456789ABCDEF0123456789ABCDEF01234567 UPSTREAM\n", true, &t);
	assert_string_equal(t.upstream, A40);
	/* mainline commits never get an upstream id */
	parse("x\n\ncommit " A40 " upstream.\n", false, &t);
	assert_string_equal(t.upstream, "");
}

static void upstream_first_line_with_id(void **state)
{
	(void)state;
	struct trailers t;
	/* a subject (or body line) mentioning upstream without an id is passed over: the id comes
	 * from the first line that mentions upstream and carries one */
	parse("net: phy: clean the sfp upstream if phy probing fails\n\n[ Upstream commit " B40
	      " ]\n\nThe upstream bus is released.\ncommit " A40 " upstream.\n", true, &t);
	assert_string_equal(t.upstream, B40);
	parse("sync with upstream\n\ncommit " A40 " upstream.\n", true, &t);
	assert_string_equal(t.upstream, A40);
	/* an id on a line without "upstream" is not taken; none anywhere gives none */
	parse("upstream fix\n\nSee " A40 ".\nTaken from upstream.\n", true, &t);
	assert_string_equal(t.upstream, "");
	/* a 39-digit run is not an id */
	parse("x\n\ncommit 0123456789abcdef0123456789abcdef0123456 upstream.\n", true, &t);
	assert_string_equal(t.upstream, "");
	/* a longer run: its first 40 digits */
	parse("x\n\ncommit " A40 "ff upstream.\n", true, &t);
	assert_string_equal(t.upstream, A40);
}

static void reverts_line(void **state)
{
	(void)state;
	struct trailers t;
	parse("Revert \"foo\"\n\nThis reverts commit " B40 ".\n", false, &t);
	assert_string_equal(t.reverts, B40);
	parse("Revert \"foo\"\n\n    this REVERTS commit " A40 "\n", false, &t);
	assert_string_equal(t.reverts, A40);
	/* "Revert" alone is not "reverts" */
	parse("Revert \"foo\"\n\nRevert commit " A40 "\n", false, &t);
	assert_string_equal(t.reverts, "");
	parse("x\n\nThis reverts a thing.\nThis reverts commit " A40 ".\n", false, &t);
	assert_string_equal(t.reverts, "");
}

static void fixes_lines(void **state)
{
	(void)state;
	struct trailers t;
	parse("x\n\nFixes: 1234567890ab (\"net: thing\")\nfixes: abcdef1\n", false, &t);
	assert_int_equal(t.nfixes, 2);
	fix_eq(&t, 0, "1234567890ab");
	fix_eq(&t, 1, "abcdef1");
	/* indentation, case, unanchored occurrences */
	parse("x\n\n    FIXES: " A40 "\nthis also Fixes: deadbeef99 (\"y\")\n", false, &t);
	assert_int_equal(t.nfixes, 2);
	fix_eq(&t, 0, A40);
	fix_eq(&t, 1, "deadbeef99");
	/* short runs (< 7) are skipped for the next run on the line; none = no entry */
	parse("x\n\nFixes: abc 1234abcd\nFixes: commit zzz\nFixes: 123456\n", false, &t);
	assert_int_equal(t.nfixes, 1);
	fix_eq(&t, 0, "1234abcd");
	/* only text after "fixes:" counts */
	parse("x\n\n1234567890 Fixes: 89abcdef01\n", false, &t);
	assert_int_equal(t.nfixes, 1);
	fix_eq(&t, 0, "89abcdef01");
	/* "Fixes" without colon is not a trailer */
	parse("x\n\nFixes 1234567890\n", false, &t);
	assert_int_equal(t.nfixes, 0);
}

static void message_without_trailers(void **state)
{
	(void)state;
	struct trailers t;
	parse("", true, &t);
	assert_int_equal(t.nfixes, 0);
	assert_string_equal(t.upstream, "");
	assert_string_equal(t.reverts, "");
	/* no trailing newline */
	parse("x\n\nFixes: abcdef123", false, &t);
	assert_int_equal(t.nfixes, 1);
	fix_eq(&t, 0, "abcdef123");
}

static void case_insensitive_search(void **state)
{
	(void)state;
	const char *s = "abcUpStReAmdef";
	assert_ptr_equal(memcasemem(s, strlen(s), "upstream", 8), s + 3);
	assert_null(memcasemem(s, 5, "upstream", 8));
	assert_null(memcasemem("fixes", 5, "fixes:", 6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(upstream_forms),
		cmocka_unit_test(upstream_first_line_with_id),
		cmocka_unit_test(reverts_line),
		cmocka_unit_test(fixes_lines),
		cmocka_unit_test(message_without_trailers),
		cmocka_unit_test(case_insensitive_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
