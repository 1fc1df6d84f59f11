/* core/error.h: every error message is one line that cannot drive a terminal, whatever hostile
 * input it quotes (found by fuzz_check_kev: jansson's "near '...'" text carried a newline from
 * a broken catalogue into the message). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/diag.h"
#include "core/error.h"
#include "core/safefs.h"

static void test_neutralise(void **state)
{
	(void)state;
	char s[] = "a\nb\rc\x1b]0;t\x07 \x7f|\xc2\x9b|\xe2\x80\xae|\xe2\x81\xa6|\xd8\x9c|caf\xc3\xa9\tz";
	text_neutralise(s);
	assert_string_equal(s, "a?b?c?]0;t? ?|?|?|?|?|caf\xc3\xa9?z");
	char e[] = "";
	text_neutralise(e);
	assert_string_equal(e, "");
	char cut[] = "x\xe2\x80"; /* a sequence cut by the end of the text stays as it is */
	text_neutralise(cut);
	assert_string_equal(cut, "x\xe2\x80");
}

static void test_err_set_one_line(void **state)
{
	(void)state;
	struct kcve_err e = {0};
	int rc = kcve_err_set(&e, KCVE_E_PARSE, "%s: not valid JSON (line %d: %s)", "kev.json", 2,
			      "control character 0xa near '\"c \\\n0 {'\x1b[2J");
	assert_int_equal(rc, KCVE_E_PARSE);
	assert_int_equal(e.code, KCVE_E_PARSE);
	assert_null(strchr(e.msg, '\n'));
	assert_null(strchr(e.msg, '\x1b'));
	assert_string_equal(e.msg, "kev.json: not valid JSON (line 2: control character 0xa near "
			    "'\"c \\?0 {'?[2J)");
}

/* The default sink (core/diag.h) prints one line, also for a message longer than a stack
 * buffer. */
static void test_report_one_line(void **state)
{
	(void)state;
	char path[] = "/tmp/kcve-test-error.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	fflush(stderr);
	int saved = dup(2);
	assert_true(saved >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	char *big = malloc(5000);
	assert_non_null(big);
	memset(big, 'x', 4999);
	big[4999] = '\0';
	big[100] = '\n';
	diag_warn(NULL, "name %s: %s", "a\nb", big);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n = getline(&line, &cap, f);
	assert_true(n > 5000);
	assert_int_equal(strncmp(line, "kcve: warning: name a?b: ", 25), 0);
	assert_int_equal(line[n - 1], '\n');
	assert_int_equal(getline(&line, &cap, f), -1); /* nothing after the one line */
	free(line);
	fclose(f);
	close(fd);
	unlink(path);
	free(big);
}

struct seen {
	char warn[2][64], note[64];
	int nwarn, nnote;
};

static void on_warn(void *ctx, const char *msg)
{
	struct seen *s = ctx;
	if (s->nwarn < 2)
		snprintf(s->warn[s->nwarn], sizeof s->warn[0], "%s", msg);
	s->nwarn++;
}

static void on_note(void *ctx, const char *msg)
{
	struct seen *s = ctx;
	snprintf(s->note, sizeof s->note, "%s", msg);
	s->nnote++;
}

/* A caller's sink gets each message once, formatted and neutralised, without a prefix. */
static void test_caller_sink(void **state)
{
	(void)state;
	struct seen s = {0};
	struct kcve_diag d = {on_warn, on_note, &s};
	diag_warn(&d, "skipping %s: %d", "x\x1b[2Jy", 7);
	diag_warn(&d, "second");
	diag_note(&d, "building the history index %s", "/i\n");
	assert_int_equal(s.nwarn, 2);
	assert_string_equal(s.warn[0], "skipping x?[2Jy: 7");
	assert_string_equal(s.warn[1], "second");
	assert_int_equal(s.nnote, 1);
	assert_string_equal(s.note, "building the history index /i?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_neutralise),
		cmocka_unit_test(test_err_set_one_line),
		cmocka_unit_test(test_report_one_line),
		cmocka_unit_test(test_caller_sink),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
