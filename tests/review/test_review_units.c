/* Unit tests of the review module: vote-file names and lines, the learned classifier (features,
 * model file), tags. */
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

extern const char review_model_builtin_text[];
extern const size_t review_model_builtin_len;

static bool has_feature(const struct review_features *f, const char *name)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->v[i], name) == 0)
			return true;
	return false;
}

static void test_features(void **state)
{
	(void)state;
	struct review_features f;
	static const char msg[] = "  \nX86/MM: Fix UAF in foo_bar()\r\n\nBUG: KASAN: slab-use-after-free"
				  " at 0xffff deadbeef12\nFixes: 0123456789ab (\"x\")\n"
				  "Signed-off-by: A <a@b>\n";
	const char *paths[] = {"Documentation/devicetree/bindings/x.yaml", "include/linux/foo.h", "Makefile"};
	review_features_extract(msg, sizeof msg - 1, paths, 3, &f);
	static const char *const want[] = {
		"p:x86", "pp:x86/mm", "f:fix", "w:fix", "w:uaf", "w:foo_bar", "ww:fix+uaf",
		"ww:in+foo_bar", "b:bug", "b:kasan", "b:slab", "b:free", "d:documentation",
		"dd:documentation/devicetree", "k:dt-bindings", "k:header", "d:include", "d:/",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		assert_true(has_feature(&f, want[i]));
	/* trailers, hex ids and 0x... are no features; the list is sorted and distinct */
	assert_false(has_feature(&f, "b:fixes"));
	assert_false(has_feature(&f, "b:signed"));
	assert_false(has_feature(&f, "b:0xffff"));
	assert_false(has_feature(&f, "b:deadbeef12"));
	assert_false(has_feature(&f, "k:only-doc-tools"));
	for (size_t i = 1; i < f.n; i++)
		assert_true(strcmp(f.v[i - 1], f.v[i]) < 0);
	review_features_release(&f);
	/* trailers added to a message change no feature */
	static const char a[] = "foo: rework bar\n\nMove bar into baz.\n";
	static const char b[] = "foo: rework bar\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n\n"
				"Move bar into baz.\n\nFixes: 0123456789ab (\"x\")\nCc: stable@vger.kernel.org\n"
				"Link: https://x\nReported-by: syzbot+1@x\nSigned-off-by: A <a@b>\n";
	struct review_features fa, fb;
	review_features_extract(a, sizeof a - 1, NULL, 0, &fa);
	review_features_extract(b, sizeof b - 1, NULL, 0, &fb);
	assert_int_equal(fa.n, fb.n);
	for (size_t i = 0; i < fa.n; i++)
		assert_string_equal(fa.v[i], fb.v[i]);
	review_features_release(&fa);
	review_features_release(&fb);
}

static int parse(const char *text, struct kcve_err *err)
{
	struct review_model m;
	int rc = review_model_parse(text, strlen(text), "t", &m, err);
	if (!rc)
		review_model_release(&m);
	return rc;
}

static void test_model_file(void **state)
{
	(void)state;
	struct kcve_err err = {0};
	struct review_model m;
	/* the built-in model loads and has a real vocabulary */
	assert_int_equal(review_model_builtin(&m, &err), 0);
	assert_true(m.n > 1000);
	assert_true(m.threshold > 0 && m.threshold < 1);
	review_model_release(&m);
	/* a small model: the score is sigmoid(bias + the matched weights) */
	static const char small[] = "# c\nversion\t1\nfeatures-version\t1\nmeta\tk\tv w\nbias\t-1.5\n"
				    "threshold\t0.4\nweights\t3\nf:fix\t0.25\nw:fix\t1.0\nw:uaf\t2.5\nend\n";
	assert_int_equal(review_model_parse(small, sizeof small - 1, "small", &m, &err), 0);
	struct classify_input in = {"foo: Fix UAF\n", NULL, 0, 1, 0};
	struct classify_result r;
	classify_commit(&m, 0, &in, &r);
	assert_true(r.candidate);
	assert_true(r.score == review_sigmoid(-1.5 + 0.25 + 1.0 + 2.5));
	assert_int_equal(r.nhits, 3);
	assert_string_equal(r.hits[0].feature, "w:uaf");
	assert_non_null(strstr(sb_str(&r.reasons), "+2.50 subject word 'uaf'"));
	classify_result_release(&r);
	/* --threshold moves the decision; merges are never candidates */
	classify_commit(&m, 0.99, &in, &r);
	assert_false(r.candidate);
	classify_result_release(&r);
	struct classify_input merge = {"Merge tag 'fix-uaf'\n", NULL, 0, 2, 0};
	classify_commit(&m, 0, &merge, &r);
	assert_false(r.candidate);
	classify_result_release(&r);
	int sign = 0;
	const char *line = "a fix for the uaf";
	assert_int_equal(classify_weighty_word_at(&m, line + 2, line, 0.5, &sign), 3);
	assert_int_equal(sign, 1);
	assert_int_equal(classify_weighty_word_at(&m, line + 3, line, 0.5, &sign), 0);
	review_model_release(&m);

	/* malformed: one-line KCVE_E_PARSE errors */
	static const char *const bad[] = {
		"",
		"hello\n",
		"version\t2\nend\n",
		"version\t1\nweights\t0\nend\n",
		"version\t1\nfeatures-version\t1\nbias\tnan\nthreshold\t0.5\nweights\t0\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t1e3\nthreshold\t0.5\nweights\t0\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t1.5\nweights\t0\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t99999999\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t2\nw:b\t1\nw:a\t1\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t2\nw:a\t1\nw:a\t1\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t1\nnocolon\t1\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t1\nw:a b\t1\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t1\nw:a\t 1\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t1\nw:a\t1\nend\nmore\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t1\nw:a\t1\r\nend\n",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nweights\t1\nw:a\t1\nend",
		"version\t1\nfeatures-version\t1\nbias\t0\nthreshold\t0.5\nunknown\t1\nweights\t0\nend\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&err, 0, sizeof err);
		assert_int_equal(parse(bad[i], &err), KCVE_E_PARSE);
		assert_non_null(strstr(err.msg, "review model t"));
		assert_null(strchr(err.msg, '\n'));
	}
	/* every truncation of the built-in model is an error, the whole file is not */
	size_t len = review_model_builtin_len;
	for (size_t k = 1; k <= 64; k++) {
		size_t cut = k < 32 ? len * k / 32 : len - (k - 31);
		memset(&err, 0, sizeof err);
		assert_int_equal(review_model_parse(review_model_builtin_text, cut, "cut", &m, &err),
				 KCVE_E_PARSE);
		assert_null(strchr(err.msg, '\n'));
	}
	assert_int_equal(review_model_parse(review_model_builtin_text, len, "whole", &m, &err), 0);
	review_model_release(&m);
	/* an unreadable path is a one-line I/O error */
	assert_int_equal(review_model_load("/nonexistent/model.tsv", &m, &err), KCVE_E_IO);
	assert_null(strchr(err.msg, '\n'));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),     cmocka_unit_test(test_lines),
		cmocka_unit_test(test_features), cmocka_unit_test(test_model_file),
		cmocka_unit_test(test_previous_tag),
	};
	return cmocka_run_group_tests_name("review", tests, NULL, NULL);
}
