/* core/cveid.h: the one order of CVE ids (year, then number as a number; well-formed ids
 * first; 0 only for the same string) and the shape check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/cveid.h"

static int sgn(int c)
{
	return (c > 0) - (c < 0);
}

static void test_numeric_order(void **state)
{
	(void)state;
	assert_true(cveid_cmp("CVE-2024-9999", "CVE-2024-10000") < 0);
	assert_true(cveid_cmp("CVE-2024-10000", "CVE-2024-9999") > 0);
	assert_true(cveid_cmp("CVE-2023-99999", "CVE-2024-1000") < 0);
	/* 19 digits: no overflow (both are past LONG_MAX or near it) */
	assert_true(cveid_cmp("CVE-2024-9999999999999999999", "CVE-2024-9223372036854775808") > 0);
	/* leading zeros do not count: 01234 is 1234, before 9999 (a length rule put it after) */
	assert_true(cveid_cmp("CVE-2024-01234", "CVE-2024-9999") < 0);
	assert_true(cveid_cmp("CVE-2024-00001", "CVE-2024-0002") < 0);
	assert_int_equal(cveid_cmp("CVE-2014-0160", "CVE-2014-0160"), 0);
}

static void test_total_order(void **state)
{
	(void)state;
	/* the same number spelled twice: not 0 (a different string), by bytes, antisymmetric */
	int c = cveid_cmp("CVE-2024-01234", "CVE-2024-1234");
	assert_true(c != 0);
	assert_int_equal(sgn(cveid_cmp("CVE-2024-1234", "CVE-2024-01234")), -sgn(c));
	/* well-formed ids before anything else; malformed ones by bytes */
	assert_true(cveid_cmp("CVE-2024-1000", "garbage") < 0);
	assert_true(cveid_cmp("garbage", "CVE-2099-99999") > 0);
	assert_true(cveid_cmp("CVE-2024-123", "CVE-2024-1234") > 0); /* 3 digits: malformed */
	assert_true(cveid_cmp("a", "b") < 0);
	assert_int_equal(cveid_cmp("x", "x"), 0);
	assert_int_equal(cveid_cmp("", ""), 0);
}

static int qcmp(const void *a, const void *b)
{
	return cveid_cmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorting a shuffled list gives one order, transitive across every kind of id. */
static void test_sort(void **state)
{
	(void)state;
	const char *want[] = {"CVE-1999-0001", "CVE-2021-0001", "CVE-2021-00002", "CVE-2021-9999",
			      "CVE-2021-01234567", "CVE-2021-10000000", "CVE-2024-1234",
			      "CVE-2024-1234567890123456789", "CVE-2024-1", "CVE-24-1", "zzz"};
	size_t n = sizeof want / sizeof *want;
	const char *v[sizeof want / sizeof *want];
	for (unsigned seed = 1; seed < 50; seed++) {
		memcpy(v, want, sizeof v);
		srand(seed);
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)rand() % (i + 1);
			const char *t = v[i];
			v[i] = v[j];
			v[j] = t;
		}
		qsort(v, n, sizeof *v, qcmp);
		for (size_t i = 0; i < n; i++)
			assert_string_equal(v[i], want[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numeric_order),
		cmocka_unit_test(test_total_order),
		cmocka_unit_test(test_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
