/* core/clock.h: a refused $KCVE_NOW is an error clock_init() returns (kcve's main reports it at
 * start-up); the clock itself never exits, and the other variable still counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"

static void test_refused_is_returned_not_fatal(void **state)
{
	(void)state;
	/* the variables are read once per process: set them before the first call */
	setenv("KCVE_NOW", "12abc", 1);
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	struct kcve_err e = {0};
	assert_int_equal(clock_init(&e), KCVE_E_USAGE);
	assert_int_equal(e.code, KCVE_E_USAGE);
	assert_non_null(strstr(e.msg, "KCVE_NOW='12abc' is not a time between 1970 and 9999"));
	/* the same answer on every call */
	struct kcve_err again = {0};
	assert_int_equal(clock_init(&again), KCVE_E_USAGE);
	assert_string_equal(again.msg, e.msg);
	/* still here: the refused value counts as unset (the real clock) */
	long long before = clock_real();
	long long now = clock_now();
	assert_true(now >= before && now <= clock_real());
	/* the valid one is used */
	assert_int_equal(clock_stamp(), 1700000000LL);
}

static void test_parse(void **state)
{
	(void)state;
	long long v = -1;
	struct kcve_err e = {0};
	assert_int_equal(clock_parse_seconds("X", "0", &v, &e), 0);
	assert_int_equal(v, 0);
	assert_int_equal(clock_parse_seconds("X", "253402300799", &v, &e), 0);
	assert_int_equal(v, CLOCK_MAX_SECONDS);
	assert_int_equal(clock_parse_seconds("X", "253402300800", &v, &e), KCVE_E_USAGE);
	assert_int_equal(clock_parse_seconds("X", "-5", &v, &e), KCVE_E_USAGE);
	assert_int_equal(clock_parse_seconds("X", " 5", &v, &e), KCVE_E_USAGE);
	assert_int_equal(clock_parse_seconds("X", "", &v, &e), KCVE_E_USAGE);
	assert_null(strchr(e.msg, '\n'));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused_is_returned_not_fatal),
		cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
