/* core/strmap.h: the string map and set every module uses (invariants in the header). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

static void test_map_basics(void **state)
{
	(void)state;
	struct strmap m = STRMAP_INIT; /* zero-filled is empty and usable */
	assert_null(strmap_get(&m, "a"));
	assert_false(strmap_contains(&m, "a"));
	assert_null(strmap_put(&m, "a", (void *)1));
	assert_null(strmap_put(&m, "b", (void *)2));
	assert_ptr_equal(strmap_put(&m, "a", (void *)3), (void *)1); /* replace returns old */
	assert_int_equal(m.count, 2);
	assert_string_equal(strmap_at(&m, 0)->key, "a"); /* a replaced value keeps its place */
	assert_ptr_equal(strmap_at(&m, 0)->val, (void *)3);
	assert_ptr_equal(strmap_getn(&m, "bcd", 1), (void *)2); /* not NUL-terminated */
	assert_null(strmap_getn(&m, "ab", 2));
	strmap_free(&m, NULL);
	assert_int_equal(m.count, 0);
	assert_null(strmap_put(&m, "again", (void *)1)); /* reusable after free */
	strmap_free(&m, NULL);
}

static void test_map_grows_in_order(void **state)
{
	(void)state;
	struct strmap m;
	strmap_init(&m);
	char key[32];
	for (int i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "k%d", i);
		char *v = malloc(8);
		snprintf(v, 8, "%d", i % 1000);
		assert_null(strmap_put(&m, key, v));
	}
	assert_int_equal(m.count, 5000);
	assert_true(m.nbuckets >= m.count && (m.nbuckets & (m.nbuckets - 1)) == 0);
	for (int i = 0; i < 5000; i++) {
		snprintf(key, sizeof key, "k%d", i);
		assert_string_equal(strmap_at(&m, (size_t)i)->key, key);
		char want[8];
		snprintf(want, sizeof want, "%d", i % 1000);
		assert_string_equal(strmap_get(&m, key), want);
	}
	strmap_free(&m, free); /* frees the values: ASan reports a leak otherwise */
}

static void test_set(void **state)
{
	(void)state;
	struct strset s = STRSET_INIT;
	assert_true(strset_add(&s, "x"));
	assert_true(strset_add(&s, "y"));
	assert_false(strset_add(&s, "x"));
	assert_true(strset_add(&s, "")); /* the empty string is a member like any other */
	assert_int_equal(strset_count(&s), 3);
	assert_string_equal(strset_at(&s, 1), "y");
	assert_true(strset_contains(&s, ""));
	assert_false(strset_contains(&s, "z"));
	strset_clear(&s);
	assert_int_equal(strset_count(&s), 0);
	assert_false(strset_contains(&s, "x"));
}

static void test_hash_and_cmp(void **state)
{
	(void)state;
	/* FNV-1a 64 test vectors: the values are written to disk, so they must never change */
	assert_true(fnv1a64(FNV1A64_INIT, "", 0) == 0xcbf29ce484222325ull);
	assert_true(fnv1a64(FNV1A64_INIT, "a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(fnv1a64(fnv1a64(FNV1A64_INIT, "fo", 2), "obar", 4) == 0x85944171f73967e8ull);
	assert_true(str_hash("abc", 2) == str_hash("ab", 2));
	const char *v[] = {"b", "a", "c", "a"};
	qsort(v, 4, sizeof *v, cmp_str);
	assert_string_equal(v[0], "a");
	assert_string_equal(v[1], "a");
	assert_string_equal(v[3], "c");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_basics),
		cmocka_unit_test(test_map_grows_in_order),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_hash_and_cmp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
