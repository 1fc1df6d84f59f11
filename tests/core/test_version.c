/* Version parsing and ordering (docs/spec/versions.md "Version strings" examples). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "core/version.h"

static void test_major(void **state)
{
	(void)state;
	char m[24];
	assert_string_equal(kver_str_major("2.6.12.11", m, sizeof m), "2.6.12");
	assert_string_equal(kver_str_major("2.6.12", m, sizeof m), "2.6.12");
	assert_string_equal(kver_str_major("5.14-rc1", m, sizeof m), "5.14");
	assert_string_equal(kver_str_major("6.1.107", m, sizeof m), "6.1");
	assert_string_equal(kver_str_major("2.4.20.1", m, sizeof m), "2.4");
	assert_string_equal(kver_str_major("0", m, sizeof m), "");
	assert_false(kver_str_same_major("0", "0"));
	assert_true(kver_str_same_major("6.1", "6.1.5"));
	assert_false(kver_str_same_major("6.1", "6.10.5"));
}

static void test_rc(void **state)
{
	(void)state;
	struct kver v;
	kver_parse(&v, "6.13-rc10");
	assert_true(v.rc);
	assert_int_equal(v.rcnum, 10);
	kver_parse(&v, "6.13-rc");
	assert_true(v.rc);
	assert_int_equal(v.rcnum, 0);
	kver_parse(&v, "6.13-rcx");
	assert_true(v.rc);
	assert_int_equal(v.rcnum, -1);
	assert_int_equal(v.ncomp, 2);
}

static void test_mainline(void **state)
{
	(void)state;
	assert_true(kver_str_is_mainline("2.6.14"));
	assert_false(kver_str_is_mainline("2.6.32.12"));
	assert_true(kver_str_is_mainline("2.4.20"));
	assert_false(kver_str_is_mainline("2.4.20.1"));
	assert_true(kver_str_is_mainline("6.8"));
	assert_true(kver_str_is_mainline("6.8-rc3"));
	assert_false(kver_str_is_mainline("6.8.1"));
	assert_false(kver_str_is_mainline("6.8-queue"));
	assert_false(kver_str_is_mainline("next"));
	assert_false(kver_str_is_mainline("0"));
	assert_false(kver_str_is_mainline(""));
}

static void test_order(void **state)
{
	(void)state;
	assert_true(kver_cmp_str("4.19", "4.19.1") < 0);
	assert_true(kver_cmp_str("4.2.201", "4.19.1") < 0);
	assert_true(kver_cmp_str("6.12", "6.13-rc1") < 0);
	assert_true(kver_cmp_str("6.13-rc1", "6.13") < 0);
	assert_true(kver_cmp_str("6.1-rc1", "6.0") > 0);
	assert_true(kver_cmp_str("6.13-rc1", "6.13-rc2") < 0);
	assert_true(kver_cmp_str("6.13-rc2", "6.13-rc10") < 0);
	assert_true(kver_cmp_str("6.8-rc3", "6.8.1") < 0);
	assert_true(kver_cmp_str("6.8", "6.8.1") < 0);
	assert_true(kver_cmp_str("6.7.12", "6.8") < 0);
	assert_true(kver_cmp_str("0", "2.6.12") < 0);
	assert_true(kver_cmp_str("2.6.32.12", "2.6.33") < 0);
	assert_true(kver_cmp_str("2.6.32", "2.6.32.1") < 0);
	assert_int_equal(kver_cmp_str("6.1.5", "6.1.5"), 0);
	assert_true(kver_cmp_str("5.15", "6.1") < 0);
	assert_true(kver_cmp_str("6.1.100", "6.1.99") > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_major),
		cmocka_unit_test(test_rc),
		cmocka_unit_test(test_mainline),
		cmocka_unit_test(test_order),
	};
	return cmocka_run_group_tests_name("version", tests, NULL, NULL);
}
