/* Issuance policy, default status, both affected products, CPE and references
 * (docs/spec/record.md "Issuance policy"-§4.9, the bippy unit cases of §7.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/affected.h"

#define SHA_A "e478d6029dca9d8462f426aee0d32896ef64f10f"
#define SHA_B "11c52d250b34a0862edc29db03fbec23b30db6da"
#define SHA_C "2b503c8598d1b232e7fc7526bce9326d92331541"
#define SHA_D "569fd073a954616c8be5a26f37678a1311cc7f91"

static void pairs_of(struct dyad_list *l, const char *text)
{
	dyad_list_init(l);
	assert_int_equal(dyad_parse(text, l), 0);
}

/* "version[<lt|<=lte] status [type]" per range, joined by "; " */
static char *ranges(const struct vrange_list *l)
{
	static char buf[4096];
	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		const struct vrange *r = &l->v[i];
		char one[256];
		snprintf(one, sizeof(one), "%s%s%s%s%s %s%s%s", i ? "; " : "", r->version,
			 r->less_than ? " <" : "", r->less_than ? r->less_than : "",
			 r->less_than_or_equal ? " <=" : "",
			 r->status, r->version_type ? " " : "", r->version_type ? r->version_type : "");
		if (r->less_than_or_equal) { /* put the bound before the status */
			snprintf(one, sizeof(one), "%s%s <=%s %s%s%s", i ? "; " : "", r->version,
				 r->less_than_or_equal, r->status, r->version_type ? " " : "",
				 r->version_type ? r->version_type : "");
		}
		strcat(buf, one);
	}
	return buf;
}

static void test_default_status(void **st)
{
	(void)st;
	struct dyad_list l;
	pairs_of(&l, "0:0:5.15:" SHA_B "\n");
	assert_string_equal(affected_default_status(&l), "affected");
	dyad_list_release(&l);
	pairs_of(&l, "5.11:" SHA_A ":0:0\n");
	assert_string_equal(affected_default_status(&l), "affected");
	dyad_list_release(&l);
	pairs_of(&l, "5.11:" SHA_A ":5.15:" SHA_B "\n");
	assert_string_equal(affected_default_status(&l), "affected");
	dyad_list_release(&l);
	pairs_of(&l, "6.1:" SHA_A ":6.1:" SHA_B "\n");
	assert_string_equal(affected_default_status(&l), "unaffected");
	assert_false(affected_should_issue(&l));
	dyad_list_release(&l);
	pairs_of(&l, "5.15.1:" SHA_D ":5.15.2:" SHA_C "\n6.1:" SHA_A ":6.1:" SHA_B "\n");
	assert_string_equal(affected_default_status(&l), "unaffected");
	assert_true(affected_should_issue(&l));
	dyad_list_release(&l);
	dyad_list_init(&l);
	assert_false(affected_should_issue(&l));
}

static void test_affected_default_products(void **st)
{
	(void)st;
	struct dyad_list l;
	struct affected a;
	/* the CVE-2024-26592 shape: mainline intro, stable fixes and the mainline fix */
	pairs_of(&l, "5.15:" SHA_A ":5.15.149:" SHA_B "\n"
		     "5.15:" SHA_A ":6.1.75:" SHA_C "\n"
		     "5.15:" SHA_A ":6.8:" SHA_D "\n");
	affected_compute(&l, &a);
	assert_string_equal(a.default_status, "affected");
	assert_string_equal(ranges(&a.semver),
			    "5.15 affected; 0 <5.15 unaffected semver; 5.15.149 <=5.15.* unaffected semver; "
			    "6.1.75 <=6.1.* unaffected semver; 6.8 <=* unaffected original_commit_for_fix");
	assert_string_equal(ranges(&a.git),
			    SHA_A " <" SHA_B " affected git; " SHA_A " <" SHA_C " affected git; "
			    SHA_A " <" SHA_D " affected git");
	assert_int_equal(a.ncpe, 3);
	assert_string_equal(a.cpe[0].start, "5.15");
	assert_string_equal(a.cpe[0].end, "5.15.149");
	affected_release(&a);
	dyad_list_release(&l);
}

static void test_unaffected_default(void **st)
{
	(void)st;
	struct dyad_list l;
	struct affected a;
	/* stable-only bug (CVE-2021-4440 shape) */
	pairs_of(&l, "5.10.215:" SHA_A ":5.10.218:" SHA_B "\n");
	affected_compute(&l, &a);
	assert_string_equal(a.default_status, "unaffected");
	assert_string_equal(ranges(&a.semver), "5.10.215 <5.10.218 affected semver");
	assert_int_equal(a.git.n, 1);
	affected_release(&a);
	dyad_list_release(&l);
}

static void test_unknown_intro_and_same_version(void **st)
{
	(void)st;
	struct dyad_list l;
	struct affected a;
	pairs_of(&l, "0:0:5.18.3:" SHA_A "\n0:0:5.19:" SHA_B "\n6.1:" SHA_C ":6.1:" SHA_D "\n");
	affected_compute(&l, &a);
	assert_string_equal(a.default_status, "affected");
	/* unknown introduction = the beginning of git history; same-version pair still a git
	 * range; the stable fix of an unknown introduction adds "0 < F" to product 1 */
	assert_string_equal(ranges(&a.git),
			    AFFECTED_UNKNOWN_INTRO " <" SHA_A " affected git; "
			    AFFECTED_UNKNOWN_INTRO " <" SHA_B " affected git; "
			    SHA_C " <" SHA_D " affected git; 0 <5.18.3 affected semver");
	assert_string_equal(ranges(&a.semver),
			    "5.18.3 <=5.18.* unaffected semver; 5.19 <=* unaffected original_commit_for_fix");
	/* CPE: no start for unknown intro, same-version skipped */
	assert_int_equal(a.ncpe, 2);
	assert_null(a.cpe[0].start);
	assert_string_equal(a.cpe[1].end, "5.19");
	affected_release(&a);
	dyad_list_release(&l);
}

static void test_unfixed_stable_ceiling(void **st)
{
	(void)st;
	struct dyad_list l;
	struct affected a;
	pairs_of(&l, "5.15.1:" SHA_A ":0:0\n2.6.27.4:" SHA_B ":0:0\n6.1.5:" SHA_C
		     ":0:0\n6.1.2:" SHA_D ":6.1.9:" SHA_A "\n");
	affected_compute(&l, &a);
	assert_string_equal(a.default_status, "unaffected");
	/* 5.15.1 -> <5.16, 2.6.27.4 -> <2.6.28; 6.1.5 suppressed (6.1 has a fix) */
	assert_string_equal(ranges(&a.git),
			    SHA_A " affected git; " SHA_B " affected git; " SHA_C " affected git; "
			    SHA_D " <" SHA_A " affected git; 5.15.1 <5.16 affected semver; "
			    "2.6.27.4 <2.6.28 affected semver");
	/* CPE: unfixed stable entry on a fixed branch is left out; others are start-only */
	assert_int_equal(a.ncpe, 3);
	assert_string_equal(a.cpe[0].start, "5.15.1");
	assert_null(a.cpe[0].end);
	assert_string_equal(a.cpe[2].start, "6.1.2");
	affected_release(&a);
	dyad_list_release(&l);
}

static void test_two_introducers_gap(void **st)
{
	(void)st;
	struct dyad_list l;
	struct affected a;
	/* CVE-2025-38585 shape: two introductions, two mainline fixes, plus gap points */
	pairs_of(&l, "4.12:" SHA_A ":4.18:" SHA_B "\n5.8:" SHA_C ":6.17:" SHA_D "\n"
		     "0:0:4.14:" SHA_A "\n");
	affected_compute(&l, &a);
	assert_string_equal(ranges(&a.semver),
			    "4.12 affected; 5.8 affected; 0 <4.12 unaffected semver; "
			    "4.14 <5.8 unaffected semver; 4.15 unaffected; 4.16 unaffected; "
			    "4.17 unaffected; 4.18 <5.8 unaffected semver; "
			    "6.17 <=* unaffected original_commit_for_fix");
	affected_release(&a);
	dyad_list_release(&l);
	/* gaps between two mainline fixes are unaffected points when the default is affected */
	pairs_of(&l, "0:0:5.4:" SHA_A "\n0:0:5.7:" SHA_B "\n");
	affected_compute(&l, &a);
	assert_string_equal(ranges(&a.semver),
			    "5.4 <=* unaffected original_commit_for_fix; 5.5 unaffected; 5.6 unaffected; "
			    "5.7 <=* unaffected original_commit_for_fix");
	affected_release(&a);
	dyad_list_release(&l);
}

static void test_sort(void **st)
{
	(void)st;
	struct vrange v[4] = {
		{"6.1.2", NULL, "6.1.*", "unaffected", "semver"},
		{"6.8", NULL, "*", "unaffected", "original_commit_for_fix"},
		{"5.15.3", NULL, "5.15.*", "unaffected", "semver"},
		{"5.15", NULL, NULL, "affected", NULL},
	};
	affected_sort_ranges(v, 4);
	assert_string_equal(v[0].version, "5.15");
	assert_string_equal(v[1].version, "5.15.3");
	assert_string_equal(v[2].version, "6.1.2");
	assert_string_equal(v[3].version, "6.8");
}

static void test_refs(void **st)
{
	(void)st;
	struct dyad_list l;
	struct url_list u = {0};
	const char *extra[] = {"https://example.com/a", "https://git.kernel.org/stable/c/" SHA_B};
	pairs_of(&l, "5.15:" SHA_A ":6.8:" SHA_B "\n5.15:" SHA_A ":6.1.75:" SHA_C "\n5.15:" SHA_A
		     ":5.15.149:" SHA_D "\n6.9:" SHA_A ":0:0\n");
	affected_json_refs(&l, extra, 2, SHA_B, &u);
	assert_int_equal(u.n, 4);
	assert_string_equal(u.v[0], "https://git.kernel.org/stable/c/" SHA_B);
	assert_string_equal(u.v[3], "https://example.com/a");
	url_list_release(&u);
	affected_mbox_refs(&l, extra, 2, SHA_B, &u);
	assert_int_equal(u.n, 4);
	assert_string_equal(u.v[0], "https://git.kernel.org/stable/c/" SHA_D); /* 5.15.149 first */
	assert_string_equal(u.v[1], "https://git.kernel.org/stable/c/" SHA_C);
	assert_string_equal(u.v[2], "https://git.kernel.org/stable/c/" SHA_B); /* main fix */
	assert_string_equal(u.v[3], "https://example.com/a");
	url_list_release(&u);
	dyad_list_release(&l);
	dyad_list_init(&l);
	affected_json_refs(&l, NULL, 0, SHA_B, &u);
	assert_int_equal(u.n, 1);
	url_list_release(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_status),
		cmocka_unit_test(test_affected_default_products),
		cmocka_unit_test(test_unaffected_default),
		cmocka_unit_test(test_unknown_intro_and_same_version),
		cmocka_unit_test(test_unfixed_stable_ceiling),
		cmocka_unit_test(test_two_introducers_gap),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_refs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
