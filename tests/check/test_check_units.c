/* Unit tests of the check area: version normalisation, the two version readings, file
 * conditions, and the compact database (round trip + damaged images). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "check/inputs/release.h"
#include "check/inputs/scancache.h"
#include "check/records/recset.h"
#include "check/stages/cond.h"
#include "check/stages/filestage.h"
#include "check/verdict/check.h"
#include "check/verdict/delta.h"
#include "check/verdict/statement.h"
#include "check/verdict/verdict.h"
#include "core/xalloc.h"

static const char *norm(const char *in)
{
	static char out[64];
	struct kcve_err e = {0};
	if (ck_version_normalize(in, out, sizeof out, &e) != 0)
		return NULL;
	return out;
}

static void test_normalize(void **state)
{
	(void)state;
	assert_string_equal(norm("6.1.107"), "6.1.107");
	assert_string_equal(norm("v6.6.30"), "6.6.30");
	assert_string_equal(norm("linux-5.4.2"), "5.4.2");
	assert_string_equal(norm("6.1.0"), "6.1");
	assert_string_equal(norm("6.1.192-3"), "6.1.192");
	assert_string_equal(norm("6.8-rc3"), "6.8-rc3");
	assert_string_equal(norm("6.6.30+"), "6.6.30");
	assert_null(norm("6.1.0-27-amd64"));
	assert_null(norm("5.15.0-91-generic"));
	assert_null(norm("abc"));
	assert_null(norm("6"));
	/* two versions where one is taken are refused, not read as the first */
	assert_null(norm("6.1.5,6.1.6"));
	assert_null(norm("6.1.5 6.1.6"));
	assert_null(norm("6.1.5\t"));
	assert_null(norm("6.1.5\x1b[31m"));
	assert_string_equal(norm("6.1.5x"), "6.1.5"); /* CONFIG_LOCALVERSION="x" */
	char out[64];
	assert_true(ck_version_from_proc("Linux version 6.1.0-27-amd64 (x) #1 SMP PREEMPT_DYNAMIC "
					 "Debian 6.1.115-1 (2024-11-01)", out, sizeof out));
	assert_string_equal(out, "6.1.115");
	assert_true(ck_version_from_proc("Linux version 5.15.0-91-generic (buildd@x) (gcc) #101-Ubuntu "
					 "SMP (Ubuntu 5.15.0-91.101-generic 5.15.131)", out, sizeof out));
	assert_string_equal(out, "5.15.131");
	assert_false(ck_version_from_proc("Linux version 6.1.0 #1 SMP", out, sizeof out));
	assert_true(ck_version_from_proc("Linux version 6.1.0-27-amd64 (x) #1 SMP Debian 6.1.115-1, "
					 "2024-11-01", out, sizeof out));
	assert_string_equal(out, "6.1.115");
}

static const char *REC =
	"{\"cveMetadata\":{\"cveId\":\"CVE-2024-1000\"},\"containers\":{\"cna\":{\"title\":\"t\","
	"\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux\",\"defaultStatus\":\"affected\","
	"\"programFiles\":[\"fs/a.c\"],\"versions\":["
	"{\"version\":\"2.6.36\",\"status\":\"affected\"},"
	"{\"version\":\"0\",\"lessThan\":\"2.6.36\",\"status\":\"unaffected\",\"versionType\":\"semver\"},"
	"{\"version\":\"6.1.107\",\"lessThanOrEqual\":\"6.1.*\",\"status\":\"unaffected\",\"versionType\":\"semver\"},"
	"{\"version\":\"6.11\",\"lessThanOrEqual\":\"*\",\"status\":\"unaffected\",\"versionType\":\"original_commit_for_fix\"}]}]}}}";

static struct ck_record load_rec(void)
{
	struct ck_record r;
	struct kcve_err e = {0};
	assert_int_equal(ck_record_parse_json(&r, REC, strlen(REC), "rec", &e), 0);
	dyad_list_push(&r.dyad, "2.6.36", "a", "6.1.107", "b");
	dyad_list_push(&r.dyad, "2.6.36", "a", "6.11", "c");
	ck_record_link_pairs(&r);
	return r;
}

static enum ck_vstatus both(struct ck_record *r, const char *ver, enum ck_vstatus *json)
{
	struct kver v;
	kver_parse(&v, ver);
	enum ck_vstatus d = ck_record_dyad_verdict(r, &v, NULL);
	*json = ck_record_semver_verdict(r, &v);
	if (!v.rc) { /* compiled == plain (the plain forms know no -rc rule) */
		assert_int_equal(d, ck_dyad_verdict(&r->pairs, &v));
		assert_int_equal(*json, ck_semver_verdict(r, &v));
	}
	return d;
}

static void test_verdicts(void **state)
{
	(void)state;
	struct ck_record r = load_rec();
	enum ck_vstatus j;
	const char *aff[] = {"2.6.36", "5.4.10", "6.1.106", "6.1", "6.10.3", "6.10-rc2"};
	const char *unaff[] = {"2.6.35", "6.1.107", "6.1.300", "6.11", "6.12.4"};
	for (size_t i = 0; i < sizeof aff / sizeof *aff; i++) {
		assert_int_equal(both(&r, aff[i], &j), CK_ST_AFFECTED);
		assert_int_equal(j, CK_ST_AFFECTED);
	}
	for (size_t i = 0; i < sizeof unaff / sizeof *unaff; i++) {
		assert_int_equal(both(&r, unaff[i], &j), CK_ST_UNAFFECTED);
		assert_int_equal(j, CK_ST_UNAFFECTED);
	}
	struct kver v;
	kver_parse(&v, "6.1.50");
	char fix[32];
	assert_true(ck_branch_fix(&r, &v, CK_READ_JSON, fix, sizeof fix));
	assert_string_equal(fix, "6.1.107");
	kver_parse(&v, "6.10.3");
	assert_false(ck_branch_fix(&r, &v, CK_READ_JSON, fix, sizeof fix)); /* no 6.10 stable fix */
	char sub[64];
	assert_string_equal(ck_record_subsystem(&r, sub, sizeof sub), "fs");
	ck_record_release(&r);
}

static const char *get(void *ctx, const char *sym)
{
	(void)ctx;
	if (strcmp(sym, "CONFIG_A") == 0)
		return "y";
	if (strcmp(sym, "CONFIG_M") == 0)
		return "m";
	if (strcmp(sym, "CONFIG_HZ") == 0)
		return "250";
	return NULL;
}

static void test_cond(void **state)
{
	(void)state;
	assert_int_equal(ck_cond_eval("y", get, NULL), 1);
	assert_int_equal(ck_cond_eval("n", get, NULL), 0);
	assert_int_equal(ck_cond_eval("unknown", get, NULL), -1);
	assert_int_equal(ck_cond_eval("CONFIG_A && CONFIG_M", get, NULL), 1);
	assert_int_equal(ck_cond_eval("CONFIG_A && CONFIG_B", get, NULL), 0);
	assert_int_equal(ck_cond_eval("CONFIG_B || (CONFIG_A && !CONFIG_B)", get, NULL), 1);
	assert_int_equal(ck_cond_eval("CONFIG_B && unknown", get, NULL), 0);
	assert_int_equal(ck_cond_eval("CONFIG_A && unknown", get, NULL), -1);
	assert_int_equal(ck_cond_eval("CONFIG_A &&", get, NULL), -1);
	assert_int_equal(ck_cond_eval("((CONFIG_A)", get, NULL), -1);
	/* preprocessor forms stored for #include "x.c" under #if */
	assert_int_equal(ck_cond_eval("CONFIG_A=y", get, NULL), 1);
	assert_int_equal(ck_cond_eval("CONFIG_M=y", get, NULL), 0);
	/* a plain symbol is "set", whatever its value (make's ifdef); =y/=m test one value */
	assert_int_equal(ck_cond_eval("CONFIG_HZ", get, NULL), 1);
	assert_int_equal(ck_cond_eval("!CONFIG_HZ=y && !CONFIG_HZ=m && CONFIG_HZ", get, NULL), 1);
	assert_int_equal(ck_cond_eval("(CONFIG_HZ=y || CONFIG_HZ=m)", get, NULL), 0);
	assert_int_equal(ck_cond_eval("CONFIG_M=m", get, NULL), 1);
	assert_int_equal(ck_cond_eval("CONFIG_B=m", get, NULL), 0);
	assert_int_equal(ck_cond_eval("defined(CONFIG_A)", get, NULL), 1);
	assert_int_equal(ck_cond_eval("defined(CONFIG_M)", get, NULL), 0);
	assert_int_equal(ck_cond_eval("!(defined(CONFIG_B))", get, NULL), 1);
	assert_int_equal(ck_cond_eval("(!(CONFIG_A)) && unknown", get, NULL), 0);
	assert_int_equal(ck_cond_eval("(!(CONFIG_B)) && unknown", get, NULL), -1);
	assert_int_equal(ck_cond_eval("CONFIG_A=", get, NULL), -1);
	assert_int_equal(ck_cond_eval("defined(CONFIG_A", get, NULL), -1);
	char deep[2000];
	memset(deep, '(', sizeof deep - 1);
	deep[sizeof deep - 1] = '\0';
	assert_int_equal(ck_cond_eval(deep, get, NULL), -1);
}

static void test_db_roundtrip(void **state)
{
	(void)state;
	struct ck_set s;
	memset(&s, 0, sizeof s);
	s.v = xcalloc(2, sizeof *s.v);
	s.n = 1;
	s.v[0] = load_rec();
	s.conds = xcalloc(2, sizeof *s.conds);
	s.conds[0].path = xstrdup("fs/a.c");
	s.conds[0].cond = xstrdup("CONFIG_A");
	s.conds[0].module = xstrdup("nf_tables");
	s.nconds = 1;
	s.has_modules = true;
	/* format 2: build time, tree times and supported-branch data round-trip */
	s.built = 1733011200;          /* 2024-12-01 */
	s.newest_record = 1732060800;  /* 2024-11-20 */
	s.tree_head = 1717243200;      /* 2024-06-01 12:00 */
	s.branches.has_data = true;
	s.branches.v = xcalloc(2, sizeof *s.branches.v);
	s.branches.n = 2;
	s.branches.alloc = 2;
	snprintf(s.branches.v[0].branch, sizeof s.branches.v[0].branch, "6.1");
	snprintf(s.branches.v[0].moniker, sizeof s.branches.v[0].moniker, "longterm");
	snprintf(s.branches.v[0].latest, sizeof s.branches.v[0].latest, "6.1.119");
	s.branches.v[0].eol_day = 20818;
	snprintf(s.branches.v[1].branch, sizeof s.branches.v[1].branch, "4.19");
	s.branches.v[1].iseol = true;
	s.branches.v[1].eol_day = -1;
	char path[] = "/tmp/kcve-check-unit-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	struct kcve_err e = {0};
	assert_int_equal(ck_db_write(&s, path, &e), 0);
	struct ck_set t;
	assert_int_equal(ck_set_load_db(&t, path, &e), 0);
	assert_int_equal(t.n, 1);
	assert_string_equal(t.v[0].id, "CVE-2024-1000");
	assert_int_equal(t.v[0].pairs.n, 2);
	assert_string_equal(t.v[0].pairs.v[1].fver, "6.11");
	assert_int_equal(t.v[0].nprod, 1);
	assert_int_equal(t.v[0].prod[0].n, 4);
	assert_string_equal(t.v[0].prod[0].v[2].less_equal, "6.1.*");
	assert_string_equal(ck_set_condition(&t, "fs/a.c"), "CONFIG_A");
	assert_null(ck_set_condition(&t, "fs/b.c"));
	assert_true(ck_set_has_modules(&t));
	assert_string_equal(ck_set_module(&t, "fs/a.c"), "nf_tables");
	assert_null(ck_set_module(&t, "fs/b.c"));
	assert_true(t.is_db);
	assert_int_equal(t.db_format, CK_DB_FORMAT);
	assert_int_equal(t.built, s.built);
	assert_int_equal(t.newest_record, s.newest_record);
	assert_int_equal(t.tree_head, s.tree_head);
	assert_true(t.branches.has_data);
	assert_int_equal(t.branches.n, 2);
	assert_string_equal(t.branches.v[0].branch, "6.1");
	assert_string_equal(t.branches.v[0].moniker, "longterm");
	assert_string_equal(t.branches.v[0].latest, "6.1.119");
	assert_int_equal(t.branches.v[0].eol_day, 20818);
	assert_false(t.branches.v[0].iseol);
	assert_string_equal(t.branches.v[1].branch, "4.19");
	assert_true(t.branches.v[1].iseol);
	assert_int_equal(t.branches.v[1].eol_day, -1);
	assert_false(branch_policy_supported(&t.branches, "4.19", (time_t)s.built));
	assert_true(branch_policy_supported(&t.branches, "6.1", (time_t)s.built));
	/* the stored branch index equals the one scanned from the records */
	assert_true(t.has_covix);
	struct ck_cov_index stored, scanned;
	ck_cov_index_build(&stored, &t);
	ck_cov_index_scan(&scanned, &t);
	assert_true(scanned.n > 0);
	assert_int_equal(stored.n, scanned.n);
	assert_memory_equal(stored.v, scanned.v, scanned.n * sizeof *scanned.v);
	ck_cov_index_release(&stored);
	ck_cov_index_release(&scanned);

	/* every truncation and many single-byte changes: a clean error or a valid load */
	struct strbuf img = STRBUF_INIT;
	FILE *f = fopen(path, "rb");
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sb_add(&img, buf, n);
	fclose(f);
	for (size_t cut = 0; cut < img.len; cut++) {
		struct ck_set u;
		assert_int_not_equal(ck_db_parse(&u, img.buf, cut, "cut", &e), 0);
		assert_int_equal(e.code, KCVE_E_PARSE);
		ck_set_release(&u);
	}
	for (size_t i = 0; i < img.len; i++) {
		img.buf[i] ^= 0x41;
		struct ck_set u;
		if (ck_db_parse(&u, img.buf, img.len, "flip", &e) != 0)
			assert_int_equal(e.code, KCVE_E_PARSE);
		ck_set_release(&u);
		img.buf[i] ^= 0x41;
	}
	/* format 1 (28-byte header, CRC of the payload alone, no tree section) still loads, with
	 * unknown build time and no branch data; a format-1 header with the tree flag does not */
	const char payload[] = "";
	uLongf clen = compressBound(0);
	unsigned char v1[64];
	assert_int_equal(compress2(v1 + 28, &clen, (const Bytef *)payload, 0, 9), Z_OK);
	memcpy(v1, "KCVEDB\0\x01", 8);
	uint32_t hdr[5] = {0, 0, (uint32_t)clen, (uint32_t)crc32(0L, (const Bytef *)payload, 0), 0};
	for (int i = 0; i < 5; i++)
		for (int b = 0; b < 4; b++)
			v1[8 + 4 * i + b] = (unsigned char)(hdr[i] >> (8 * b));
	struct ck_set o;
	assert_int_equal(ck_db_parse(&o, v1, 28 + clen, "v1", &e), 0);
	assert_int_equal(o.db_format, 1);
	assert_int_equal(o.built, 0);
	assert_false(o.branches.has_data);
	ck_set_release(&o);
	v1[24] = 4;
	assert_int_not_equal(ck_db_parse(&o, v1, 28 + clen, "v1", &e), 0);
	assert_int_equal(e.code, KCVE_E_PARSE);
	ck_set_release(&o);
	sb_release(&img);
	ck_set_release(&t);
	ck_set_release(&s);
	unlink(path);
}

static void fill_id(unsigned char id[20], int v)
{
	memset(id, 0, 20);
	id[0] = (unsigned char)(v >> 8);
	id[1] = (unsigned char)v;
	id[19] = 0x5a; /* never the all-zero id */
}

/* The git scan cache: entries survive a round trip (also across a second generation of adds),
 * and every damaged image loads as an empty cache with a reason instead of wrong data. */
static void test_scan_cache(void **state)
{
	(void)state;
	const char *why = "unset";
	struct scan_cache *c = scan_cache_from_bytes("", 0, &why);
	assert_non_null(why);
	assert_int_equal(scan_cache_count(c), 0);
	unsigned char id[20], par[3][20], ref[2][20], rev[1][20];
	const struct scan_entry none = {0};
	for (int i = 0; i < 3000; i++) {
		fill_id(id, i);
		fill_id(par[0], i + 1);
		fill_id(par[1], i + 7);
		fill_id(ref[0], 40000 + i);
		fill_id(rev[0], 80000 + i);
		struct scan_entry e = {par[0], ref[0], rev[0], (size_t)(i % 3), (size_t)(i % 2),
				       (size_t)(i % 5 == 0)};
		scan_cache_add(c, id, &e);
	}
	fill_id(id, 5);
	scan_cache_add(c, id, &none); /* duplicate: ignored */
	assert_int_equal(scan_cache_count(c), 3000);
	assert_int_equal(scan_cache_added(c), 3000);
	struct strbuf img = STRBUF_INIT;
	scan_cache_bytes(c, &img);
	scan_cache_free(c);

	c = scan_cache_from_bytes(img.buf, img.len, &why);
	assert_null(why);
	assert_int_equal(scan_cache_count(c), 3000);
	assert_int_equal(scan_cache_added(c), 0);
	struct scan_entry got;
	for (int i = 0; i < 3000; i++) {
		fill_id(id, i);
		assert_true(scan_cache_get(c, id, &got));
		assert_int_equal(got.nparents, (size_t)(i % 3));
		assert_int_equal(got.nrefs, (size_t)(i % 2));
		assert_int_equal(got.nreverts, (size_t)(i % 5 == 0));
		if (got.nparents) {
			fill_id(par[2], i + 1);
			assert_memory_equal(got.parents, par[2], 20);
		}
		if (got.nrefs) {
			fill_id(par[2], 40000 + i);
			assert_memory_equal(got.refs, par[2], 20);
		}
		if (got.nreverts) {
			fill_id(par[2], 80000 + i);
			assert_memory_equal(got.reverts, par[2], 20);
		}
	}
	fill_id(id, 9999);
	assert_false(scan_cache_get(c, id, &got));
	/* a second generation: old + new entries in one image */
	scan_cache_add(c, id, &none);
	struct strbuf img2 = STRBUF_INIT;
	scan_cache_bytes(c, &img2);
	scan_cache_free(c);
	c = scan_cache_from_bytes(img2.buf, img2.len, &why);
	assert_null(why);
	assert_int_equal(scan_cache_count(c), 3001);
	assert_true(scan_cache_get(c, id, &got));
	scan_cache_free(c);
	sb_release(&img2);

	/* damage: every truncation and a byte flip anywhere give an empty cache and a reason */
	for (size_t cut = 0; cut < img.len; cut += 97) {
		c = scan_cache_from_bytes(img.buf, cut, &why);
		assert_non_null(why);
		assert_int_equal(scan_cache_count(c), 0);
		scan_cache_free(c);
	}
	for (size_t i = 0; i < img.len; i += 13) {
		img.buf[i] ^= 0x10;
		c = scan_cache_from_bytes(img.buf, img.len, &why);
		assert_non_null(why);
		assert_int_equal(scan_cache_count(c), 0);
		scan_cache_free(c);
		img.buf[i] ^= 0x10;
	}
	/* another rule version (with a valid checksum) is refused too */
	uint32_t rules = SCAN_CACHE_RULES + 1, crc;
	memcpy(img.buf + 8, &rules, 4);
	crc = (uint32_t)crc32_z(0L, (const unsigned char *)img.buf, img.len - 4);
	memcpy(img.buf + img.len - 4, &crc, 4);
	c = scan_cache_from_bytes(img.buf, img.len, &why);
	assert_non_null(why);
	assert_non_null(strstr(why, "rules"));
	scan_cache_free(c);
	sb_release(&img);

	/* save: only when something was added; the file loads back */
	char path[] = "/tmp/kcve-scancache-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	c = scan_cache_load(path, &why); /* empty file */
	assert_non_null(why);
	struct kcve_err e = {0};
	assert_int_equal(scan_cache_save(c, path, &e), 0); /* nothing added: not written */
	fill_id(id, 1);
	scan_cache_add(c, id, &none);
	assert_int_equal(scan_cache_save(c, path, &e), 0);
	scan_cache_free(c);
	c = scan_cache_load(path, &why);
	assert_null(why);
	assert_int_equal(scan_cache_count(c), 1);
	scan_cache_free(c);
	unlink(path);
}

/* docs/vex.md "When nothing applies": what one VEX document of a set of results states. */
static void test_vex_scope(void **state)
{
	(void)state;
	struct ck_entry fixed[2] = {{.rec = 0, .outcome = CK_OUT_FIXED, .stage = "version"},
				    {.rec = 1, .outcome = CK_OUT_NOT_INTRODUCED, .stage = "version"}};
	struct ck_entry some[2] = {{.rec = 0, .outcome = CK_OUT_FIXED, .stage = "version"},
				   {.rec = 1, .outcome = CK_OUT_NOT_COMPILED, .stage = "config"}};
	struct ck_result res[2] = {{.e = fixed, .n = 2}, {.e = some, .n = 2}};
	/* nothing applies to the one kernel: every record, as with --all */
	assert_int_equal(ck_vex_scope_of(res, 1, false, NULL), CK_VEX_SCOPE_WIDENED);
	assert_true(ck_vex_doc_all(res, 1, false, NULL));
	struct ck_vex_stmt vs;
	ck_vex_stmt_of(&fixed[0], ck_vex_doc_all(res, 1, false, NULL), &vs);
	assert_true(vs.listed);
	assert_int_equal(vs.status, CK_VEX_FIXED);
	/* --all as given: nothing widened */
	assert_int_equal(ck_vex_scope_of(res, 1, true, NULL), CK_VEX_SCOPE_LISTED);
	/* the document is one: a second kernel with something to state keeps the rule */
	assert_int_equal(ck_vex_scope_of(res, 2, false, NULL), CK_VEX_SCOPE_LISTED);
	assert_false(ck_vex_doc_all(res, 2, false, NULL));
	/* a statement of the previous revision is renewed: something to state */
	fixed[1].stated = true;
	assert_int_equal(ck_vex_scope_of(res, 1, false, NULL), CK_VEX_SCOPE_LISTED);
	fixed[1].stated = false;
	/* a withdrawn CVE (--since) is a statement */
	struct ck_delta_entry w = {.id = "CVE-2099-0009", .kind = CK_DELTA_REMOVED, .rejected = true};
	struct ck_delta d = {.v = &w, .n = 1};
	assert_int_equal(ck_vex_scope_of(res, 1, false, &d), CK_VEX_SCOPE_LISTED);
	w.rejected = false; /* removed, not rejected: no statement */
	assert_int_equal(ck_vex_scope_of(res, 1, false, &d), CK_VEX_SCOPE_WIDENED);
	/* no entry at all: nothing, even with --all; but a withdrawn CVE is still stated */
	struct ck_result none = {.e = NULL, .n = 0};
	assert_int_equal(ck_vex_scope_of(&none, 1, false, NULL), CK_VEX_SCOPE_NOTHING);
	assert_int_equal(ck_vex_scope_of(&none, 1, true, NULL), CK_VEX_SCOPE_NOTHING);
	assert_int_equal(ck_vex_scope_of(res, 0, false, NULL), CK_VEX_SCOPE_NOTHING);
	w.rejected = true;
	assert_int_equal(ck_vex_scope_of(&none, 1, false, &d), CK_VEX_SCOPE_LISTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_cond),
		cmocka_unit_test(test_db_roundtrip),
		cmocka_unit_test(test_scan_cache),
		cmocka_unit_test(test_vex_scope),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
