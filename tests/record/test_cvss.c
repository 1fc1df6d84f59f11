/* CVSS 3.1 vectors, scores and .cvss files (docs/spec/tree.md ".cvss files", §4.10, §7.2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "record/cvss.h"
#include "record/cvss_file.h"
#include "record/json_writer.h"

/* The reference vectors of the anchor's cvss test-suite (verified against NIST's calculator). */
static const struct {
	const char *vector, *score, *severity;
} known[] = {
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "9.8", "CRITICAL"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H", "10.0", "CRITICAL"},
	{"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", "7.8", "HIGH"},
	{"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H", "5.5", "MEDIUM"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", "6.1", "MEDIUM"},
	{"CVSS:3.1/AV:P/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", "4.6", "MEDIUM"},
	{"CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H", "8.1", "HIGH"},
	{"CVSS:3.1/AV:L/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", "7.8", "HIGH"},
	{"CVSS:3.1/AV:A/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H", "8.8", "HIGH"},
	{"CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", "8.8", "HIGH"},
	{"CVSS:3.1/AV:N/AC:L/PR:H/UI:N/S:U/C:H/I:H/A:H", "7.2", "HIGH"},
	{"CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:H/I:H/A:H", "7.0", "HIGH"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:H", "7.5", "HIGH"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N", "7.5", "HIGH"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:H/A:N", "7.5", "HIGH"},
	{"CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:C/C:H/I:H/A:H", "8.8", "HIGH"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N", "0.0", "NONE"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:N/A:N", "5.3", "MEDIUM"},
	{"CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:L/A:L", "3.5", "LOW"},
	{"CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:H/I:H/A:H", "8.8", "HIGH"},
};

static void test_reference_vectors(void **st)
{
	(void)st;
	assert_int_equal(sizeof(known) / sizeof(known[0]), 20);
	for (size_t i = 0; i < 20; i++) {
		struct cvss_vector v;
		struct kcve_err err = {0};
		char buf[32], vec[CVSS_VECTOR_MAX];
		assert_int_equal(cvss_vector_parse(known[i].vector, &v, &err), 0);
		double s = cvss_score(&v);
		json_format_double(s, buf);
		assert_string_equal(buf, known[i].score);
		assert_string_equal(cvss_severity(s), known[i].severity);
		cvss_vector_format(&v, vec);
		assert_string_equal(vec, known[i].vector);
	}
}

static void test_canonical_order_and_display(void **st)
{
	(void)st;
	struct cvss_vector v;
	struct kcve_err err = {0};
	char vec[CVSS_VECTOR_MAX], d[16];
	assert_int_equal(cvss_vector_parse("  CVSS:3.1/A:H/I:H/C:H/S:U/UI:N/PR:L/AC:L/AV:L \n", &v, &err), 0);
	cvss_vector_format(&v, vec);
	assert_string_equal(vec, "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H");
	cvss_score_display(7.0, d);
	assert_string_equal(d, "7");
	cvss_score_display(10.0, d);
	assert_string_equal(d, "10");
	cvss_score_display(7.8, d);
	assert_string_equal(d, "7.8");
	/* Roundup must not turn float noise into an extra tenth */
	assert_true(cvss_roundup(4.000000000001) == 4.0);
	assert_true(cvss_roundup(4.02) == 4.1);
}

static void test_rejected_vectors(void **st)
{
	(void)st;
	static const char *const bad[] = {
		"CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
		"CVSS:4.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
		"CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
		"CVSS:3.1/AV:N/AC:L",
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H",
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/X:Y",
		"CVSS:3.1/AV:N/AV:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/Q:H",
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:",
		"CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/AH",
		"CVSS:3.1/AV:NN/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
		"not a vector",
		"",
		"   ",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cvss_vector v;
		struct kcve_err err = {0};
		assert_int_equal(cvss_vector_parse(bad[i], &v, &err), KCVE_E_PARSE);
		assert_true(err.msg[0] != '\0');
	}
}

#define CNA "f4215fc3-5b6b-47ff-a258-f7189bd81038"
#define VEC "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H"
#define RAT                                                                                    \
	"AV:L - reachable only through local file I/O\n"                                       \
	"AC:L - fully deterministic, no race to win\n"                                         \
	"PR:L - an unprivileged local user suffices\n"                                         \
	"UI:N - no action from any other user is needed\n"                                     \
	"S:U - stays inside the kernel's own security authority\n"                             \
	"C:N - the fault happens before any data is returned\n"                                \
	"I:H - an attacker-chosen modification of protected state\n"                           \
	"A:H - panics outright on panic_on_oops builds\n"

static int parse_validate(const char *text, struct cvss_file *f, struct kcve_err *err)
{
	int rc = cvss_file_parse(text, strlen(text), f, err);
	if (!rc) {
		rc = cvss_file_validate(f, err);
		cvss_file_release(f);
	}
	return rc;
}

static void test_file_parse(void **st)
{
	(void)st;
	struct cvss_file f;
	struct kcve_err err = {0};
	/* no rationale: no scenarios */
	assert_int_equal(cvss_file_parse(CNA " " VEC "\n", strlen(CNA " " VEC "\n"), &f, &err), 0);
	assert_int_equal(f.nhdr, 1);
	assert_int_equal(f.rat.kind, CVSS_RAT_NONE);
	cvss_file_release(&f);
	/* 8-line rationale, CRLF accepted, comments in the header */
	const char *crlf = "# note\r\n" CNA " " VEC "\r\n\r\nAV:L - reachable only\r\n    through I/O\r\n"
			   "AC:L - a\r\nPR:L - b\r\nUI:N - c\r\nS:U - d\r\nC:N - e\r\nI:H - f\r\nA:H - g\r\n";
	assert_int_equal(cvss_file_parse(crlf, strlen(crlf), &f, &err), 0);
	assert_int_equal(f.rat.kind, CVSS_RAT_PER_METRIC);
	assert_int_equal(f.rat.n, 8);
	assert_string_equal(f.rat.items[0].text, "reachable only through I/O");
	assert_int_equal(cvss_file_validate(&f, &err), 0);
	cvss_file_release(&f);
	/* an indented block is dedented first */
	const char *ind = CNA " " VEC "\n\n\tAV:L - x\n\t    y\n\tAC:L - a\n\tPR:L - b\n\tUI:N - c\n"
			  "\tS:U - d\n\tC:N - e\n\tI:H - f\n\tA:H - g\n";
	assert_int_equal(parse_validate(ind, &f, &err), 0);
	/* prose */
	const char *prose = CNA " " VEC "\n\nFirst  paragraph\nwraps.\n\nSecond.\n";
	assert_int_equal(cvss_file_parse(prose, strlen(prose), &f, &err), 0);
	assert_int_equal(f.rat.kind, CVSS_RAT_PROSE);
	assert_int_equal(f.rat.n, 2);
	assert_string_equal(f.rat.items[0].text, "First paragraph wraps.");
	cvss_file_release(&f);
}

static void test_file_errors(void **st)
{
	(void)st;
	struct cvss_file f;
	struct kcve_err err = {0};
	static const char *const bad[] = {
		"",
		"# only a comment\n",
		"just-one-field\n",
		CNA " CVSS:3.1/AV:X\n",
		/* looks like a header but the key is mistyped */
		CNA " " VEC "\n\nAX:L - typo\nmore\n",
		/* text before the first metric */
		CNA " " VEC "\n\nintro text\nAV:L - a\n",
		/* header without text */
		CNA " " VEC "\n\nAV:L -   \nAC:L - a\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(cvss_file_parse(bad[i], strlen(bad[i]), &f, &err), KCVE_E_PARSE);
	}
	/* rationale that disagrees with the vector */
	const char *mismatch = CNA " CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H\n\n" RAT;
	assert_int_equal(parse_validate(mismatch, &f, &err), KCVE_E_PARSE);
	assert_non_null(strstr(err.msg, "AV"));
	/* incomplete rationale */
	const char *seven = CNA " " VEC "\n\nAV:L - a\nAC:L - a\nPR:L - b\nUI:N - c\nS:U - d\nC:N - e\nI:H - f\n";
	assert_int_equal(parse_validate(seven, &f, &err), KCVE_E_PARSE);
	/* wrong order */
	const char *order = CNA " " VEC "\n\nAC:L - a\nAV:L - a\nPR:L - b\nUI:N - c\nS:U - d\nC:N - e\nI:H - f\nA:H - g\n";
	assert_int_equal(parse_validate(order, &f, &err), KCVE_E_PARSE);
	/* over 4096 code points (each 'é' is one code point, two bytes) */
	struct strbuf big = STRBUF_INIT;
	sb_adds(&big, CNA " " VEC "\n\nAV:L - ");
	for (int i = 0; i < 4100; i++)
		sb_adds(&big, i % 10 ? "\xc3\xa9" : " ");
	sb_adds(&big, "\nAC:L - a\nPR:L - b\nUI:N - c\nS:U - d\nC:N - e\nI:H - f\nA:H - g\n");
	assert_int_equal(parse_validate(big.buf, &f, &err), KCVE_E_PARSE);
	assert_non_null(strstr(err.msg, "4096"));
	sb_release(&big);
}

static void test_render_round_trip(void **st)
{
	(void)st;
	struct cvss_file f;
	struct kcve_err err = {0};
	const char *text = CNA " " VEC "\n\n" RAT;
	assert_int_equal(cvss_file_parse(text, strlen(text), &f, &err), 0);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	cvss_file_render(&f, &a);
	assert_string_equal(a.buf, text);
	cvss_file_release(&f);
	/* a long line wraps at 72 columns with 4-space continuation, then re-renders the same */
	const char *longt = CNA " " VEC "\n\nAV:L - one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen\n"
			    "AC:L - a\nPR:L - b\nUI:N - c\nS:U - d\nC:N - e\nI:H - f\nA:H - g\n";
	assert_int_equal(cvss_file_parse(longt, strlen(longt), &f, &err), 0);
	sb_reset(&a);
	cvss_file_render(&f, &a);
	assert_non_null(strstr(a.buf, "AV:L - one two three four five six seven eight nine ten eleven twelve\n"
				      "    thirteen fourteen fifteen\n"));
	cvss_file_release(&f);
	assert_int_equal(cvss_file_parse(a.buf, a.len, &f, &err), 0);
	cvss_file_render(&f, &b);
	assert_string_equal(a.buf, b.buf);
	cvss_file_release(&f);
	sb_release(&a);
	sb_release(&b);
}

/* Found by fuzzing: a prose paragraph whose wrap point falls before "x:Y - ..." must not be
 * rendered into a line that reads back as a metric header; NUL bytes are not text. */
static void test_render_fixed_point_regressions(void **st)
{
	(void)st;
	struct cvss_file f, f2;
	struct kcve_err err = {0};
	/* 69 columns of words, then "o:N - ...": a plain greedy wrap breaks right before o:N */
	const char *prose = CNA " " VEC "\n\nword word word word word word word word word word word "
			    "word word word o:N - and continue after the dash with more words.\n";
	assert_int_equal(cvss_file_parse(prose, strlen(prose), &f, &err), 0);
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	cvss_file_render(&f, &a);
	assert_non_null(strstr(a.buf, "word word o:N\n"));
	assert_int_equal(cvss_file_parse(a.buf, a.len, &f2, &err), 0);
	cvss_file_render(&f2, &b);
	assert_string_equal(a.buf, b.buf);
	assert_int_equal(f2.rat.kind, CVSS_RAT_PROSE);
	cvss_file_release(&f);
	cvss_file_release(&f2);
	sb_release(&a);
	sb_release(&b);
	const char nul[] = CNA "\0 " VEC "\n";
	assert_int_equal(cvss_file_parse(nul, sizeof(nul) - 1, &f, &err), KCVE_E_PARSE);
}

static void test_json_numbers_and_escapes(void **st)
{
	(void)st;
	char buf[32];
	json_format_double(7.8, buf);
	assert_string_equal(buf, "7.8");
	json_format_double(10.0, buf);
	assert_string_equal(buf, "10.0");
	json_format_double(0.0, buf);
	assert_string_equal(buf, "0.0");
	struct strbuf sb = STRBUF_INIT;
	json_escape_string(&sb, "a\"b\\c/d\n\t\x01\x7f\xc3\xa9", 13);
	assert_string_equal(sb.buf, "\"a\\\"b\\\\c/d\\n\\t\\u0001\x7f\xc3\xa9\"");
	sb_reset(&sb);
	struct json_writer w;
	jw_init(&w, &sb);
	jw_begin_object(&w);
	jw_key(&w, "a");
	jw_begin_array(&w);
	jw_end_array(&w);
	jw_key(&w, "b");
	jw_begin_array(&w);
	jw_bool(&w, false);
	jw_begin_object(&w);
	jw_end_object(&w);
	jw_end_array(&w);
	jw_end_object(&w);
	jw_finish(&w);
	assert_string_equal(sb.buf, "{\n   \"a\": [],\n   \"b\": [\n      false,\n      {}\n   ]\n}\n");
	sb_release(&sb);
}

/* The writer holds JW_MAX_DEPTH nested containers (its KCVE_ASSERT is for one more, which no
 * caller's fixed layout reaches), each on its own indented line. */
static void test_json_depth(void **st)
{
	(void)st;
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;
	jw_init(&w, &sb);
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_begin_array(&w);
	assert_int_equal(w.depth, JW_MAX_DEPTH);
	jw_string(&w, "x");
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		jw_end_array(&w);
	assert_int_equal(w.depth, 0);
	jw_finish(&w);
	struct strbuf want = STRBUF_INIT;
	for (int i = 0; i < JW_MAX_DEPTH; i++)
		sb_addf(&want, "%*s[\n", 3 * i, "");
	sb_addf(&want, "%*s\"x\"\n", 3 * JW_MAX_DEPTH, "");
	for (int i = JW_MAX_DEPTH - 1; i >= 0; i--)
		sb_addf(&want, "%*s]\n", 3 * i, "");
	assert_string_equal(sb.buf, want.buf);
	sb_release(&want);
	sb_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_vectors),
		cmocka_unit_test(test_canonical_order_and_display),
		cmocka_unit_test(test_rejected_vectors),
		cmocka_unit_test(test_file_parse),
		cmocka_unit_test(test_file_errors),
		cmocka_unit_test(test_render_round_trip),
		cmocka_unit_test(test_render_fixed_point_regressions),
		cmocka_unit_test(test_json_numbers_and_escapes),
		cmocka_unit_test(test_json_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
