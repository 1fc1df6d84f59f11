/* Unit tests of the one VEX statement of an entry in CSAF's words, the CVSS vector's database round trip and
 * the delta between two record sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "check/emit/csaf.h"
#include "check/records/recset.h"
#include "check/verdict/check.h"
#include "check/verdict/delta.h"
#include "check/verdict/statement.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

/* The one statement of an entry (check/verdict/statement.h) and CSAF's words for it. */
static void test_csaf_map(void **state)
{
	(void)state;
	static const struct {
		enum ck_outcome o;
		const char *stage, *status, *flag;
		bool listed; /* without --all */
	} rows[] = {
		{CK_OUT_AFFECTED, "version", "known_affected", NULL, true},
		{CK_OUT_UNKNOWN, "config", "under_investigation", NULL, true},
		{CK_OUT_NO_DATA, "version", "under_investigation", NULL, true},
		{CK_OUT_NOT_COMPILED, "config", "known_not_affected", "vulnerable_code_not_present", true},
		{CK_OUT_NOT_COMPILED, "functions", "known_not_affected", "vulnerable_code_not_present", true},
		{CK_OUT_MITIGATED, "modprobe", "known_not_affected", "inline_mitigations_already_exist", true},
		{CK_OUT_NOT_INTRODUCED, "version", "known_not_affected", "vulnerable_code_not_present", false},
		{CK_OUT_FIXED, "code", "known_not_affected", "vulnerable_code_not_present", false},
		{CK_OUT_FIXED, "version", "fixed", NULL, false},
		{CK_OUT_FIXED, "git", "fixed", NULL, false},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ck_entry e = {.outcome = (unsigned char)rows[i].o, .stage = rows[i].stage};
		struct ck_vex_stmt vs;
		ck_vex_stmt_of(&e, false, &vs);
		assert_string_equal(ck_csaf_status(vs.status), rows[i].status);
		const char *flag = vs.status == CK_VEX_NOT_AFFECTED ? ck_csaf_flag(vs.just) : NULL;
		if (rows[i].flag)
			assert_string_equal(flag, rows[i].flag);
		else
			assert_null(flag);
		assert_int_equal(vs.listed, rows[i].listed);
		/* kept outcomes (--ids) are exactly known_affected and under_investigation */
		assert_int_equal(vs.status == CK_VEX_AFFECTED || vs.status == CK_VEX_UNDER_INVESTIGATION,
				 ck_outcome_kept(rows[i].o));
		ck_vex_stmt_of(&e, true, &vs); /* --all lists everything */
		assert_true(vs.listed);
		e.stated = true; /* a revision renews what the previous one stated */
		ck_vex_stmt_of(&e, false, &vs);
		assert_true(vs.listed);
	}
}

/* A record affected from 5.10 until the given fix on 6.1 (NULL: no fix on 6.1), optionally
 * with a CVSS 3.1 vector. */
static struct ck_record rec(const char *id, const char *fix61, const char *vector,
			    const char *title)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "{\"cveMetadata\":{\"cveId\":\"%s\"},\"containers\":{\"cna\":{\"title\":\"%s\","
		"\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux\",\"defaultStatus\":"
		"\"affected\",\"programFiles\":[\"fs/a.c\"],\"versions\":["
		"{\"version\":\"0\",\"lessThan\":\"5.10\",\"status\":\"unaffected\","
		"\"versionType\":\"semver\"}", id, title);
	if (fix61)
		sb_addf(&sb, ",{\"version\":\"%s\",\"lessThanOrEqual\":\"6.1.*\",\"status\":"
			"\"unaffected\",\"versionType\":\"semver\"}", fix61);
	sb_addf(&sb, "]}]");
	if (vector)
		sb_addf(&sb, ",\"metrics\":[{\"cvssV3_1\":{\"version\":\"3.1\",\"vectorString\":"
			"\"%s\",\"baseScore\":%s,\"baseSeverity\":\"X\"}}]", vector,
			strstr(vector, "C:N") ? "5.5" : "7.8");
	sb_addf(&sb, "}}}");
	struct ck_record r;
	struct kcve_err e = {0};
	assert_int_equal(ck_record_parse_json(&r, sb.buf, sb.len, id, &e), 0);
	sb_release(&sb);
	return r;
}

static void set_of(struct ck_set *s, struct ck_record *v, size_t n)
{
	memset(s, 0, sizeof *s);
	s->v = xcalloc(n + 1, sizeof *s->v);
	memcpy(s->v, v, n * sizeof *v);
	s->n = n;
	s->alloc = n + 1;
}

static const char *V1 = "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H";
static const char *V2 = "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H";

static bool has(const struct ck_delta *d, enum ck_delta_kind k, const char *id, const char *why)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind == k && !strcmp(d->v[i].id, id))
			return strstr(d->v[i].why, why) != NULL;
	return false;
}

static void test_delta(void **state)
{
	(void)state;
	/* OLD: A (unscored), B, C (affected at 6.1.50), E (fixed by 6.1.40), G (affected) */
	struct ck_record o[] = {
		rec("CVE-2024-0001", NULL, NULL, "a"),  rec("CVE-2024-0002", NULL, V1, "b"),
		rec("CVE-2024-0003", NULL, NULL, "c"),  rec("CVE-2024-0005", "6.1.40", NULL, "e"),
		rec("CVE-2024-0007", NULL, NULL, "g"),
	};
	/* now: A scored (changed), B gone (rejected), C fixed by 6.1.20 (removed), D new (added),
	 * E's fix moved past 6.1.50 (added), G unchanged */
	struct ck_record n[] = {
		rec("CVE-2024-0001", NULL, V2, "a"),    rec("CVE-2024-0003", "6.1.20", NULL, "c"),
		rec("CVE-2024-0004", NULL, NULL, "d"),  rec("CVE-2024-0005", "6.1.60", NULL, "e"),
		rec("CVE-2024-0007", NULL, NULL, "g"),
	};
	struct ck_set os, ns;
	set_of(&os, o, 5);
	set_of(&ns, n, 5);
	struct ck_result orr, nrr;
	memset(&orr, 0, sizeof orr);
	memset(&nrr, 0, sizeof nrr);
	ck_run_version(&os, "6.1.50", CK_READ_JSON, &orr);
	ck_run_version(&ns, "6.1.50", CK_READ_JSON, &nrr);
	struct ck_delta d;
	ck_delta_compute(&os, &orr, &ns, &nrr, NULL, &d);
	assert_int_equal(d.count[CK_DELTA_ADDED], 2);
	assert_int_equal(d.count[CK_DELTA_REMOVED], 2);
	assert_int_equal(d.count[CK_DELTA_CHANGED], 1);
	assert_true(has(&d, CK_DELTA_ADDED, "CVE-2024-0004", "new record"));
	assert_true(has(&d, CK_DELTA_ADDED, "CVE-2024-0005", "range or fix changed"));
	assert_true(has(&d, CK_DELTA_REMOVED, "CVE-2024-0003", "fixed in this release"));
	assert_true(has(&d, CK_DELTA_REMOVED, "CVE-2024-0002", "no longer published"));
	assert_true(has(&d, CK_DELTA_CHANGED, "CVE-2024-0001", "score none -> 7.8"));
	for (size_t i = 0; i < d.n; i++)
		assert_int_equal(d.v[i].rejected, !strcmp(d.v[i].id, "CVE-2024-0002"));
	/* sorted by kind, then CVE */
	assert_string_equal(d.v[0].id, "CVE-2024-0004");
	assert_string_equal(d.v[1].id, "CVE-2024-0005");
	json_t *j = ck_delta_json(&d, "old");
	assert_int_equal(json_array_size(json_object_get(j, "added")), 2);
	assert_true(json_is_true(json_object_get(json_array_get(json_object_get(j, "removed"), 0),
						 "withdrawn")));
	json_decref(j);
	/* G's file no longer compiled (as a config stage would say): removed, saying so */
	struct ck_delta nc;
	nrr.e[4].outcome = CK_OUT_NOT_COMPILED;
	nrr.e[4].reason = xstrdup("fs/a.c: CONFIG_A is not set");
	ck_delta_compute(&os, &orr, &ns, &nrr, NULL, &nc);
	assert_true(has(&nc, CK_DELTA_REMOVED, "CVE-2024-0007", "no longer compiled: fs/a.c: CONFIG_A"));
	assert_int_equal(nc.count[CK_DELTA_REMOVED], 3);
	ck_delta_release(&nc);
	/* a reason quoting a name from a hostile tree (a renamed file's directory, read by the
	 * code stage) reaches the terminal through the delta table: no control character */
	free(nrr.e[4].reason);
	nrr.e[4].reason = xstrdup("code fixed: ev\x1b]0;owned\x07il/\x1b[2Ja.c:3 fixed");
	ck_delta_compute(&os, &orr, &ns, &nrr, NULL, &nc);
	char *text = NULL;
	size_t tlen = 0;
	FILE *mf = open_memstream(&text, &tlen);
	assert_non_null(mf);
	ck_delta_print(mf, &nc, "6.1.50", "old");
	fclose(mf);
	assert_non_null(strstr(text, "il/"));
	assert_null(memchr(text, '\x1b', tlen));
	assert_null(memchr(text, '\x07', tlen));
	free(text);
	ck_delta_release(&nc);
	/* nothing changed: an empty delta */
	struct ck_delta same;
	ck_delta_compute(&ns, &nrr, &ns, &nrr, NULL, &same);
	assert_int_equal(same.n, 0);
	ck_delta_release(&same);
	ck_delta_release(&d);
	ck_result_release(&orr);
	ck_result_release(&nrr);
	ck_set_release(&os);
	ck_set_release(&ns);
}

/* The CVSS vector survives the database (flag bit 4), for the records that have one. */
static void test_db_vector(void **state)
{
	(void)state;
	struct ck_record v[] = {rec("CVE-2024-0001", NULL, NULL, "a"), rec("CVE-2024-0002", NULL, V1, "b")};
	struct ck_set s, t;
	set_of(&s, v, 2);
	char path[] = "/tmp/kcve-csaf-unit-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct kcve_err e = {0};
	assert_int_equal(ck_db_write(&s, path, &e), 0);
	assert_int_equal(ck_set_load_db(&t, path, &e), 0);
	unlink(path);
	assert_int_equal(t.n, 2);
	assert_true(!t.v[0].cvss31 || !*t.v[0].cvss31);
	assert_string_equal(t.v[1].cvss31, V1);
	ck_set_release(&t);
	ck_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csaf_map),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_db_vector),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
