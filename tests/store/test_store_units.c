/* Unit tests of the store module's pure parts: the "meaningful change" rule of update,
 * batch-line parsing, releases.json import and the supported-branch decision, id helpers,
 * and the journal (a committed transaction is replayed by the next writer, an uncommitted
 * one leaves no trace). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "policy/branches.h"
#include "store/create.h"
#include "store/journal.h"
#include "store/ops.h"
#include "store/tree.h"
#include "store/txn.h"

static void test_meaningful_json(void **state)
{
	(void)state;
	const char *a = "{\n   \"engine\": \"bippy-1.2.0\"\n   \"x\": 1\n}\n";
	const char *b = "{\n   \"engine\": \"kcve-0.1.0\"\n   \"x\": 1\n}\n";
	const char *c = "{\n   \"engine\": \"bippy-1.2.0\"\n   \"x\": 2\n}\n";
	assert_false(store_meaningful_change(STORE_JSON, a, b));
	assert_true(store_meaningful_change(STORE_JSON, a, c));
	assert_true(store_meaningful_change(STORE_JSON, a, "{\n}\n"));
}

static void test_meaningful_mbox(void **state)
{
	(void)state;
	const char *a = "From bippy-1.2.0 Mon Sep 17 00:00:00 2001\nFrom: Greg <gregkh@linuxfoundation.org>\n"
			"Subject: CVE-1: x\n\nbody\n";
	const char *b = "From kcve-0.1.0 Mon Sep 17 00:00:00 2001\nFrom: Other <o@example.org>\n"
			"Subject: CVE-1: x\n\nbody\n";
	const char *c = "From kcve-0.1.0 Mon Sep 17 00:00:00 2001\nFrom: Other <o@example.org>\n"
			"Subject: CVE-1: x\n\nbody changed\n";
	assert_false(store_meaningful_change(STORE_MBOX, a, b));
	assert_true(store_meaningful_change(STORE_MBOX, a, c));
}

static void test_meaningful_dyad(void **state)
{
	(void)state;
	const char *a = "# dyad version: 86b352798e93\n# \tgetting x\n6.1:a:6.1.2:b\n";
	const char *b = "# dyad version: 1.2.0\n# \tgetting x\n6.1:a:6.1.2:b\n";
	const char *c = "# dyad version: 1.2.0\n6.1:a:6.1.2:b\n6.1:a:6.2:c\n";
	assert_false(store_meaningful_change(STORE_DYAD, a, b));
	assert_true(store_meaningful_change(STORE_DYAD, a, c));
	assert_true(store_meaningful_change(STORE_DYAD, NULL, a));
}

static void test_batch_sha(void **state)
{
	(void)state;
	char out[41];
	assert_null(store_batch_sha("", out));
	assert_null(store_batch_sha("   ", out));
	assert_null(store_batch_sha("- 0123456789ab skipped", out));
	assert_null(store_batch_sha("# 0123456789ab comment", out));
	assert_null(store_batch_sha("abc short", out));
	assert_string_equal(store_batch_sha("0123456789AB net: subject", out), "0123456789ab");
	assert_string_equal(store_batch_sha("  x y abcdef1 z", out), "abcdef1");
	assert_null(store_batch_sha("nothing here at all", out));
}

static void test_cve_ids(void **state)
{
	(void)state;
	assert_true(cve_id_valid("CVE-2024-1234"));
	assert_true(cve_id_valid("CVE-2024-123456789"));
	assert_false(cve_id_valid("CVE-2024-123"));
	assert_false(cve_id_valid("CVE-24-12345"));
	assert_false(cve_id_valid("CVE-2024-12345.json"));
	/* the schema's 4 to 19 digits, as core/cveid.h (one rule for names and cveIds) */
	assert_true(cve_id_valid("CVE-2024-1234567890123456789"));
	assert_false(cve_id_valid("CVE-2024-12345678901234567890"));
	assert_false(cve_id_valid("CVE-2024-12345\nCVE-2099-0001"));
	assert_int_equal(cve_id_year("CVE-2019-25160"), 2019);
	assert_int_equal(cve_id_number("CVE-2019-25160"), 25160);
	assert_int_equal(cve_id_year("nope"), -1);
}

static void test_branches(void **state)
{
	(void)state;
	const char *json = "{\"releases\": ["
			   "{\"moniker\": \"mainline\", \"version\": \"7.2-rc5\", \"iseol\": false},"
			   "{\"moniker\": \"stable\", \"version\": \"7.1.5\", \"iseol\": false},"
			   "{\"moniker\": \"longterm\", \"version\": \"6.1.150\", \"iseol\": false},"
			   "{\"moniker\": \"longterm\", \"version\": \"5.4.300\", \"iseol\": true},"
			   "{\"moniker\": \"linux-next\", \"version\": \"next-20260101\"}]}";
	struct strbuf sb = STRBUF_INIT;
	struct kcve_err err = {0};
	size_t n;
	assert_int_equal(branches_from_releases_json(json, &sb, &n, &err), 0);
	assert_int_equal(n, 4);
	assert_non_null(strstr(sb.buf, "\n7.2 mainline 7.2-rc5 0\n"));
	assert_non_null(strstr(sb.buf, "\n5.4 longterm 5.4.300 1\n"));
	assert_null(strstr(sb.buf, "next"));
	/* entries that would break the one-line-per-branch file are skipped (found by fuzzing) */
	struct strbuf sb2 = STRBUF_INIT;
	assert_int_equal(branches_from_releases_json(
				 "{\"releases\": [{\"moniker\": \"\", \"version\": \"7.2\"},"
				 "{\"moniker\": \"a b\", \"version\": \"7.1\"},"
				 "{\"moniker\": \"stable\", \"version\": \"7.0\\n1\"},"
				 "{\"moniker\": \"stable\", \"version\": \"6.9.1\"}]}",
				 &sb2, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_non_null(strstr(sb2.buf, "\n6.9 stable 6.9.1 0\n"));
	sb_release(&sb2);
	assert_int_equal(branches_from_releases_json("{}", &sb, &n, &err), KCVE_E_PARSE);
	assert_int_equal(branches_from_releases_json("garbage", &sb, &n, &err), KCVE_E_PARSE);

	char dir[] = "/tmp/kcve-store-unit-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *scripts = path_join(dir, "scripts");
	assert_int_equal(mkdir_p(scripts, 0755), 0);
	char *bf = path_join(dir, BRANCHES_FILE), *ef = path_join(dir, EOL_FILE);
	struct branch_policy bp;
	assert_int_equal(branch_policy_load(&bp, dir, &err), 0);
	assert_false(bp.has_data);
	assert_true(branch_policy_supported(&bp, "2.6.32", 0)); /* no data: not enforced */
	/* without data: the branches that ended before the CNA began (every one older than 6.7
	 * but the longterm ones) */
	assert_true(branch_ended_before_cna("2.6.32"));
	assert_true(branch_ended_before_cna("4.14"));
	assert_true(branch_ended_before_cna("5.3"));
	assert_true(branch_ended_before_cna("6.5"));
	assert_false(branch_ended_before_cna("4.19"));
	assert_false(branch_ended_before_cna("5.4"));
	assert_false(branch_ended_before_cna("6.6"));
	assert_false(branch_ended_before_cna("6.7"));
	assert_false(branch_ended_before_cna("6.8"));
	assert_false(branch_ended_before_cna("7.0"));
	branch_policy_release(&bp);
	assert_int_equal(atomic_write_file(bf, sb.buf, sb.len, 0644), 0);
	const char *eol = "# projected\n6.1 2027-12-31\n5.15 2026-12-31\n";
	assert_int_equal(atomic_write_file(ef, eol, strlen(eol), 0644), 0);
	assert_int_equal(branch_policy_load(&bp, dir, &err), 0);
	time_t day_2026_06 = 1780000000; /* 2026-05-28 */
	time_t day_2027_06 = 1811000000; /* 2027-05-22 */
	assert_true(branch_policy_supported(&bp, "7.1", day_2026_06));
	assert_true(branch_policy_supported(&bp, "7.2", day_2026_06));
	assert_true(branch_policy_supported(&bp, "7.3", day_2026_06)); /* newer than mainline */
	assert_false(branch_policy_supported(&bp, "5.4", day_2026_06)); /* iseol */
	assert_false(branch_policy_supported(&bp, "6.2", day_2026_06)); /* not listed */
	assert_true(branch_policy_supported(&bp, "5.15", day_2026_06)); /* EOL table, future */
	assert_false(branch_policy_supported(&bp, "5.15", day_2027_06)); /* EOL table, past */
	assert_true(branch_policy_supported(&bp, "6.1", day_2027_06));
	branch_policy_release(&bp);
	const char *bad = "6.1 someday\n";
	assert_int_equal(atomic_write_file(ef, bad, strlen(bad), 0644), 0);
	assert_int_equal(branch_policy_load(&bp, dir, &err), KCVE_E_PARSE);
	branch_policy_release(&bp);
	unlink(bf);
	unlink(ef);
	rmdir(scripts);
	rmdir(dir);
	free(bf);
	free(ef);
	free(scripts);
	sb_release(&sb);
}

static char *read_all(const char *p)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(p, &sb) < 0)
		return NULL;
	return sb_detach(&sb);
}

static void test_journal_replay(void **state)
{
	(void)state;
	char dir[] = "/tmp/kcve-store-txn-XXXXXX";
	assert_non_null(mkdtemp(dir));
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s/cve/reserved/2024", dir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	sb_adds(&p, "/CVE-2024-0001");
	assert_int_equal(atomic_write_file(p.buf, "", 0, 0644), 0);
	struct cve_tree *t;
	struct kcve_err err = {0};
	assert_int_equal(tree_open(&t, dir, &err), 0);
	assert_int_equal(tree_lock(t, &err), 0);
	/* an uncommitted transaction: nothing happens, the staging area is dropped later */
	struct txn x;
	assert_int_equal(txn_begin(&x, t, &err), 0);
	assert_int_equal(txn_put(&x, "cve/published/2024/CVE-2024-0001.sha1", "abc", 3, &err), 0);
	txn_abort(&x);
	struct cve_entry e;
	assert_int_equal(tree_find_cve(t, "CVE-2024-0001", &e), 0);
	assert_int_equal(e.state, CVE_RESERVED);
	cve_entry_release(&e);
	/* a committed journal whose steps were not applied (as after a crash at the commit
	 * point): the next lock replays it */
	struct strbuf j = STRBUF_INIT, s = STRBUF_INIT;
	sb_addf(&s, "%s/.kcve/txn.0", dir);
	assert_int_equal(mkdir_p(s.buf, 0755), 0);
	sb_adds(&s, "/0");
	assert_int_equal(atomic_write_file(s.buf, "0123", 4, 0644), 0);
	sb_addf(&j, JOURNAL_MAGIC "put .kcve/txn.0/0 cve/published/2024/CVE-2024-0001.sha1\n"
		    "move cve/reserved/2024/CVE-2024-0001 cve/published/2024/CVE-2024-0001\n");
	journal_seal(&j);
	struct strbuf jp = STRBUF_INIT;
	sb_addf(&jp, "%s/.kcve/journal.0", dir);
	assert_int_equal(atomic_write_file(jp.buf, j.buf, j.len, 0644), 0);
	tree_unlock(t);
	assert_int_equal(tree_lock(t, &err), 0);
	assert_false(path_exists(jp.buf));
	assert_int_equal(tree_find_cve(t, "CVE-2024-0001", &e), 0);
	assert_int_equal(e.state, CVE_PUBLISHED);
	char *sha = tree_cve_path(&e, ".sha1");
	char *txt = read_all(sha);
	assert_string_equal(txt, "0123");
	free(txt);
	free(sha);
	cve_entry_release(&e);
	/* replaying again is harmless (idempotent steps) */
	assert_int_equal(atomic_write_file(jp.buf, j.buf, j.len, 0644), 0);
	tree_unlock(t);
	assert_int_equal(tree_lock(t, &err), 0);
	assert_int_equal(tree_find_cve(t, "CVE-2024-0001", &e), 0);
	assert_int_equal(e.state, CVE_PUBLISHED);
	cve_entry_release(&e);
	tree_unlock(t);
	tree_close(t);
	struct strbuf cmd = STRBUF_INIT;
	sb_addf(&cmd, "%s", dir);
	/* clean up with the library's own knowledge of the layout */
	char *files[] = {"cve/published/2024/CVE-2024-0001", "cve/published/2024/CVE-2024-0001.sha1",
			 ".kcve/lock", ".kcve/.gitignore", NULL};
	for (int i = 0; files[i]; i++) {
		char *f = path_join(dir, files[i]);
		unlink(f);
		free(f);
	}
	char *dirs[] = {"cve/published/2024", "cve/published", "cve/reserved/2024", "cve/reserved",
			"cve", ".kcve/txn.0", ".kcve", NULL};
	for (int i = 0; dirs[i]; i++) {
		char *d = path_join(dir, dirs[i]);
		rmdir(d);
		free(d);
	}
	assert_int_equal(rmdir(dir), 0);
	sb_release(&cmd);
	sb_release(&p);
	sb_release(&j);
	sb_release(&s);
	sb_release(&jp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meaningful_json),
		cmocka_unit_test(test_meaningful_mbox),
		cmocka_unit_test(test_meaningful_dyad),
		cmocka_unit_test(test_batch_sha),
		cmocka_unit_test(test_cve_ids),
		cmocka_unit_test(test_branches),
		cmocka_unit_test(test_journal_replay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
