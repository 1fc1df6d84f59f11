/* Unit tests of the review module: vote-file names and lines, classifier rules, tags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "review/classify.h"
#include "review/score.h"
#include "review/votefile.h"

static void test_names(void **state)
{
	(void)state;
	struct votefile vf = {0};
	assert_true(votefile_split_name("v6.7.10-annotated-greg", &vf));
	assert_string_equal(vf.tag, "v6.7.10");
	assert_string_equal(vf.reviewer, "greg");
	assert_true(vf.annotated);
	votefile_release(&vf);
	assert_true(votefile_split_name("v7.1.5-sasha", &vf));
	assert_string_equal(vf.tag, "v7.1.5");
	assert_string_equal(vf.reviewer, "sasha");
	assert_false(vf.annotated);
	votefile_release(&vf);
	assert_true(votefile_split_name("gsd-request-2021-05-26.review-fromfile-greg", &vf));
	assert_true(vf.fromfile);
	assert_string_equal(vf.reviewer, "greg");
	assert_string_equal(vf.tag, "gsd-request-2021-05-26");
	votefile_release(&vf);
	assert_false(votefile_split_name("README", &vf));
	votefile_release(&vf);
}

static void test_lines(void **state)
{
	(void)state;
	static const char text[] =
		"bd68ffce69f6c powerpc/pseries/memhp: Fix access beyond end of drmem array\n"
		"7e7f81cf6f5c x86/bugs: Make Safe-RET robust [auto: cve already created]\n"
		"2d9c4a4ed4ee (\"f2fs: fix UAF in f2fs_write_end_io()\")\n"
		"- [sasha] **YES**\n"
		"  This commit should be assigned a CVE because:\n"
		"\n"
		"Everyone agrees\n"
		"ABCDEF1234567 Upper case id\n"
		"deadbee\n"
		"xyz123456789 not a vote\n";
	struct votefile vf = {0};
	votefile_parse_text(text, strlen(text), &vf);
	assert_int_equal(vf.n, 5);
	assert_string_equal(vf.v[0].sha, "bd68ffce69f6c");
	assert_string_equal(vf.v[0].subject, "powerpc/pseries/memhp: Fix access beyond end of drmem array");
	assert_true(vf.v[1].auto_cve);
	assert_string_equal(vf.v[1].subject, "x86/bugs: Make Safe-RET robust");
	assert_string_equal(vf.v[2].subject, "f2fs: fix UAF in f2fs_write_end_io()");
	assert_non_null(vf.v[2].annotation);
	assert_non_null(strstr(vf.v[2].annotation, "should be assigned"));
	assert_string_equal(vf.v[3].sha, "abcdef1234567");
	assert_string_equal(vf.v[4].subject, "");
	assert_int_equal(vf.notes, 2);
	votefile_release(&vf);
	/* binary junk never crashes and yields no votes */
	static const char junk[] = "\x01\x02\xff\xfe\n\n\n-\n- [\n";
	votefile_parse_text(junk, sizeof junk - 1, &vf);
	assert_int_equal(vf.n, 0);
	votefile_release(&vf);
}

static int score_of(const char *msg, const char *const *paths, size_t npaths, int nparents,
		    char *reasons, size_t rsz)
{
	struct classify_input in = {msg, paths, npaths, nparents};
	struct classify_result r;
	classify_commit(&in, &r);
	snprintf(reasons, rsz, "%s", sb_str(&r.reasons));
	int s = r.candidate ? r.score : -100 + r.score;
	classify_result_release(&r);
	return s;
}

static void test_classifier(void **state)
{
	(void)state;
	char why[512];
	assert_true(score_of("net: fix use-after-free in foo_release()\n\nBody.\n", NULL, 0, 1,
			     why, sizeof why) >= CLASSIFY_THRESHOLD);
	assert_non_null(strstr(why, "use-after-free"));
	assert_true(score_of("foo: handle bar\n\nFixes: 0123456789ab (\"x\")\nCc: stable@vger.kernel.org\n",
			     NULL, 0, 1, why, sizeof why) >= CLASSIFY_THRESHOLD);
	assert_non_null(strstr(why, "Fixes: tag"));
	assert_non_null(strstr(why, "Cc: stable"));
	/* indented, odd-case trailers count too */
	assert_true(score_of("foo: something\n\n    FIXES: 0123456789ab\n", NULL, 0, 1, why, sizeof why) >= 0);
	assert_non_null(strstr(why, "Fixes: tag"));
	/* merges never are candidates */
	assert_true(score_of("Merge tag 'fix-uaf'\n", NULL, 0, 2, why, sizeof why) < 0);
	/* documentation-only change with a risky word is demoted by its paths */
	const char *docs[] = {"Documentation/foo.rst"};
	assert_true(score_of("docs: explain the race in foo\n", docs, 1, 1, why, sizeof why) < 0);
	assert_non_null(strstr(why, "only documentation"));
	/* a feature is not a candidate */
	assert_true(score_of("net: ethtool: add support for reporting the PHY firmware version\n",
			     NULL, 0, 1, why, sizeof why) < 0);
	/* "Fix ... cleanup" is still a fix */
	assert_true(score_of("nfsd: Fix error cleanup path in nfsd_rename()\n", NULL, 0, 1, why,
			     sizeof why) >= CLASSIFY_THRESHOLD);
	/* word boundaries: "debug" is not "bug", "prefix" is not "fix" */
	assert_true(score_of("foo: add debug prefix option\n", NULL, 0, 1, why, sizeof why) < 0);
	/* reported by syzbot */
	assert_true(score_of("foo: adjust bar\n\nReported-by: syzbot+123@syzkaller.appspotmail.com\n",
			     NULL, 0, 1, why, sizeof why) >= CLASSIFY_THRESHOLD);
	assert_non_null(strstr(why, "fuzzer"));
}

static void test_previous_tag(void **state)
{
	(void)state;
	char out[32];
	assert_true(review_previous_tag("v6.7.3", out, sizeof out));
	assert_string_equal(out, "v6.7.2");
	assert_true(review_previous_tag("v6.7.1", out, sizeof out));
	assert_string_equal(out, "v6.7");
	assert_false(review_previous_tag("v6.7", out, sizeof out));
	assert_false(review_previous_tag("gsd-request", out, sizeof out));
}

static void test_highlight(void **state)
{
	(void)state;
	const char *line = "fix a use-after-free and a debug race";
	assert_int_equal(classify_risk_word_at(line + 6, line), strlen("use-after-free"));
	assert_int_equal(classify_risk_word_at(line + 29, line), 0); /* "bug" inside "debug" */
	assert_int_equal(classify_risk_word_at(line + 33, line), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),     cmocka_unit_test(test_lines),
		cmocka_unit_test(test_classifier), cmocka_unit_test(test_previous_tag),
		cmocka_unit_test(test_highlight),
	};
	return cmocka_run_group_tests_name("review", tests, NULL, NULL);
}
