/* The check pipeline on its own (check/run/pipeline.h) and the one entry (check/run/entry.h),
 * over a record set built in memory: the stage order and counts, the release/kernel split that
 * --batch uses equal to one full run, the age warning said once while every result keeps it, a
 * stage's error reaching the caller, and a result holding a count for every stage of the table
 * (a full stage array once dropped the last one silently). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "check/records/coverage.h"
#include "check/records/recset.h"
#include "check/run/entry.h"
#include "check/run/pipeline.h"
#include "check/stages/codestage.h"
#include "check/verdict/check.h"
#include "core/xalloc.h"

/* A record the JSON cannot decide (no versions, no defaultStatus): its .dyad pair decides. */
static void add_record(struct ck_set *s, const char *id, const char *file, const char *v,
		       const char *f)
{
	char json[768];
	snprintf(json, sizeof json,
		 "{\"cveMetadata\":{\"cveId\":\"%s\"},\"containers\":{\"cna\":{\"title\":\"t\","
		 "\"affected\":[{\"vendor\":\"Linux\",\"product\":\"Linux\",\"programFiles\":[%s%s%s]"
		 "}]}}}", id, file ? "\"" : "", file ? file : "", file ? "\"" : "");
	struct kcve_err e = {0};
	struct ck_record *r = &s->v[s->n];
	assert_int_equal(ck_record_parse_json(r, json, strlen(json), id, &e), 0);
	dyad_list_push(&r->dyad, v, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", f,
		       "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb");
	ck_record_link_pairs(r);
	s->n++;
}

/* 0001 fs/a.c (compiled), 0002 drivers/b.c (not compiled), 0003 no file; all affect 6.1.5,
 * none 6.1.40. */
static void make_set(struct ck_set *s)
{
	memset(s, 0, sizeof *s);
	s->v = xcalloc(4, sizeof *s->v);
	add_record(s, "CVE-2099-0001", "fs/a.c", "5.10", "6.1.20");
	add_record(s, "CVE-2099-0002", "drivers/b.c", "0", "6.1.30");
	add_record(s, "CVE-2099-0003", NULL, "6.1.3", "6.1.30");
}

static enum ck_filev fake_files(void *ctx, const char *path, const char **reason)
{
	(void)ctx;
	*reason = NULL;
	if (!strcmp(path, "fs/a.c"))
		return CK_FILE_COMPILED;
	if (!strcmp(path, "drivers/b.c"))
		return CK_FILE_NOT_COMPILED;
	return CK_FILE_UNKNOWN;
}

static void assert_stages(const struct ck_result *r, const char *const *names, int n)
{
	assert_int_equal(r->nstages, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(r->stages[i].name, names[i]);
}

static void test_order_and_counts(void **state)
{
	(void)state;
	struct ck_set s;
	make_set(&s);
	struct ck_pipeline p = {.set = &s};
	struct ck_kernel k = {.release = "6.1.5", .reading = CK_READ_JSON, .fixed_in = true};
	struct ck_result r;
	struct kcve_err e = {0};
	assert_int_equal(ck_pipeline_run(&p, &k, &r, &e), 0);
	/* the first stage made one entry per record */
	assert_int_equal(r.n, 3);
	static const char *const v[] = {"records", "version"};
	assert_stages(&r, v, 2);
	assert_int_equal(r.stages[0].count, 3);
	assert_int_equal(r.stages[1].count, 3);
	for (size_t i = 0; i < r.n; i++)
		assert_int_equal(r.e[i].outcome, CK_OUT_AFFECTED);
	assert_string_equal(r.e[0].fixed_in, "6.1.20");
	assert_string_equal(r.fixed_in, "6.1.30");
	ck_result_release(&r);

	/* config and build in that order, each its own count */
	k.config = (struct ck_file_input){"config", fake_files, NULL};
	k.build = (struct ck_file_input){"build", fake_files, NULL};
	assert_int_equal(ck_pipeline_run(&p, &k, &r, &e), 0);
	static const char *const vcb[] = {"records", "version", "config", "build"};
	assert_stages(&r, vcb, 4);
	assert_int_equal(r.e[0].outcome, CK_OUT_AFFECTED);
	assert_int_equal(r.e[1].outcome, CK_OUT_NOT_COMPILED);
	assert_int_equal(r.stages[2].count, 2); /* 0001 affected, 0003 kept (no file: unknown) */
	assert_int_equal(r.stages[2].unknown, r.e[2].outcome == CK_OUT_AFFECTED ? 0 : 1);
	ck_result_release(&r);

	/* a release with nothing to say */
	k = (struct ck_kernel){.release = "6.1.40", .reading = CK_READ_JSON};
	assert_int_equal(ck_pipeline_run(&p, &k, &r, &e), 0);
	assert_int_equal(r.stages[1].count, 0);
	assert_int_equal(r.e[0].outcome, CK_OUT_FIXED);
	ck_result_release(&r);
	ck_set_release(&s);
}

/* --batch runs the release stages once and copies that result for each kernel of the release:
 * the same outcomes, reasons and counts as one full run. */
static void test_release_kernel_split(void **state)
{
	(void)state;
	struct ck_set s;
	make_set(&s);
	struct ck_cov_index cov;
	ck_cov_index_build(&cov, &s);
	struct ck_pipeline p = {.set = &s, .cov = &cov, .now = 4102444800LL};
	struct ck_kernel k = {.release = "6.1.5", .reading = CK_READ_JSON, .fixed_in = true,
			      .config = {"files", fake_files, NULL}};
	struct kcve_err e = {0};
	struct ck_result full, base, copy;
	assert_int_equal(ck_pipeline_run(&p, &k, &full, &e), 0);
	assert_int_equal(ck_pipeline_run_scope(&p, &k, &base, CK_STAGE_RELEASE, &e), 0);
	ck_result_copy(&copy, &base);
	assert_ptr_not_equal(copy.e, base.e);
	assert_int_equal(ck_pipeline_run_scope(&p, &k, &copy, CK_STAGE_KERNEL, &e), 0);
	assert_int_equal(copy.nstages, full.nstages);
	for (int i = 0; i < full.nstages; i++) {
		assert_string_equal(copy.stages[i].name, full.stages[i].name);
		assert_int_equal(copy.stages[i].count, full.stages[i].count);
		assert_int_equal(copy.stages[i].unknown, full.stages[i].unknown);
	}
	assert_int_equal(copy.ncov, full.ncov);
	for (size_t i = 0; i < full.n; i++) {
		assert_int_equal(copy.e[i].outcome, full.e[i].outcome);
		assert_string_equal(copy.e[i].fixed_in, full.e[i].fixed_in);
		assert_true((copy.e[i].reason == NULL) == (full.e[i].reason == NULL));
		if (full.e[i].reason)
			assert_string_equal(copy.e[i].reason, full.e[i].reason);
	}
	/* the base is untouched by the kernel stages of its copy */
	assert_int_equal(base.nstages, 2);
	ck_result_release(&copy);
	ck_result_release(&base);
	ck_result_release(&full);
	ck_cov_index_release(&cov);
	ck_set_release(&s);
}

/* Every stage of the table can add its count: none is dropped (the array is sized from the
 * table, CK_STAGE_COUNTS_MAX). */
static void test_room_for_every_stage(void **state)
{
	(void)state;
	struct ck_set s;
	make_set(&s);
	struct ck_result r;
	ck_result_init(&r, &s, "6.1.5", "6.1.5");
	static const char *const names[CK_PIPELINE_STAGES] = {
		"version", "git", "config", "build", "code", "functions", "modules", "modprobe",
		"fixed-in", "files"};
	for (int i = 0; i < CK_PIPELINE_STAGES; i++)
		ck_result_push_stage(&r, names[i]);
	assert_int_equal(r.nstages, CK_STAGE_COUNTS_MAX);
	assert_string_equal(r.stages[CK_STAGE_COUNTS_MAX - 1].name, "files");
	/* the seven counts of --running --build with a fingerprint --db and --source */
	assert_true(CK_STAGE_COUNTS_MAX >= 7);
	ck_result_release(&r);
	ck_set_release(&s);
}

/* A sink that records what ck_run says. */
struct seen {
	int warnings, age_warnings, code_warnings, kernels, ends;
	bool affected;
	size_t nres;
	char last_warning[512];
	int stop_after; /* kernel callback returns 7 after this many (0: never) */
};

static void seen_warn(void *ctx, const char *msg)
{
	struct seen *s = ctx;
	s->warnings++;
	s->age_warnings += strstr(msg, "the age of") != NULL;
	s->code_warnings += strstr(msg, "is a symbolic link (not followed), read as missing") != NULL;
	snprintf(s->last_warning, sizeof s->last_warning, "%s", msg);
}

static int seen_kernel(void *ctx, const struct ck_set *set, struct ck_result *res)
{
	struct seen *s = ctx;
	(void)set;
	s->kernels++;
	/* the age stays in every result's coverage, after the release's warnings */
	assert_true(res->ncov >= 1);
	assert_true(ck_coverage_is_age(&res->cov[res->ncov - 1]));
	return s->stop_after && s->kernels >= s->stop_after ? 7 : 0;
}

static int seen_end(void *ctx, const struct ck_set *set, const struct ck_run_end *end,
		    struct kcve_err *err)
{
	struct seen *s = ctx;
	(void)set, (void)err;
	s->ends++;
	s->affected = end->affected;
	s->nres = end->nres;
	return 0;
}

static void test_entry(void **state)
{
	(void)state;
	struct ck_set s;
	make_set(&s);
	char *rels[] = {"6.1.5", "6.1.40", "6.1.7"};
	struct ck_request rq = {.set = &s, .releases = rels, .nreleases = 3,
				.reading = CK_READ_JSON, .fixes = true, .max_age = 30,
				.now = 4102444800LL};
	struct seen seen = {0};
	struct ck_sink sink = {.ctx = &seen, .diag = {.warn = seen_warn, .ctx = &seen},
			       .kernel = seen_kernel, .end = seen_end};
	struct kcve_err e = {0};
	assert_int_equal(ck_run(&rq, &sink, &e), 0);
	assert_int_equal(seen.kernels, 3);
	assert_int_equal(seen.ends, 1);
	assert_int_equal(seen.nres, 3);
	assert_true(seen.affected);
	assert_int_equal(seen.age_warnings, 1); /* once, whatever the number of kernels */

	/* a sink that stops the run: its value comes back, no end */
	seen = (struct seen){.stop_after = 2};
	assert_int_equal(ck_run(&rq, &sink, &e), 7);
	assert_int_equal(seen.kernels, 2);
	assert_int_equal(seen.ends, 0);

	/* nothing to check is the caller's error, not a silent success */
	rq.nreleases = 0;
	seen = (struct seen){0};
	assert_int_equal(ck_run(&rq, &sink, &e), KCVE_E_USAGE);
	assert_non_null(strstr(e.msg, "nothing to check"));
	assert_int_equal(seen.kernels, 0);
	ck_set_release(&s);
}

/* make_set with a fix fingerprint for CVE-2099-0001 (fs/a.c), for the code stage. */
static void make_fprint_set(struct ck_set *out)
{
	char dir[] = "/tmp/kcve-pipeline-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/CVE-2099-0001.patch", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("--- a/fs/a.c\n+++ b/fs/a.c\n@@ -1,3 +1,3 @@\n int a(void)\n {\n-\treturn 1;\n"
	      "+\treturn 2;\n", f);
	fclose(f);
	struct ck_set s;
	make_set(&s);
	size_t added = 0, skipped = 0;
	struct kcve_err e = {0};
	assert_int_equal(ck_set_add_patches(&s, dir, NULL, &added, &skipped, &e), 0);
	assert_int_equal(skipped, 0);
	assert_int_equal(added, 1);
	unlink(path);
	rmdir(dir);
	*out = s;
}

/* The code stage's error (a source tree that cannot be read) reaches the caller of the
 * pipeline and of the entry, with the tree named. */
static void test_stage_error(void **state)
{
	(void)state;
	struct ck_set s;
	make_fprint_set(&s);
	struct kcve_err e = {0};

	struct ck_pipeline p = {.set = &s};
	struct ck_kernel k = {.release = "6.1.5", .reading = CK_READ_JSON,
			      .code_source = "/nonexistent/kcve-ksrc"};
	struct ck_result r;
	int rc = ck_pipeline_run(&p, &k, &r, &e);
	assert_int_equal(rc, KCVE_E_NOTFOUND);
	assert_non_null(strstr(e.msg, "source tree /nonexistent/kcve-ksrc not found"));
	ck_result_release(&r);

	char *rels[] = {"6.1.5"};
	struct ck_request rq = {.set = &s, .releases = rels, .nreleases = 1,
				.reading = CK_READ_JSON, .max_age = -1,
				.source = "/nonexistent/kcve-ksrc"};
	struct seen seen = {0};
	struct ck_sink sink = {.ctx = &seen, .kernel = seen_kernel, .end = seen_end};
	e = (struct kcve_err){0};
	assert_int_equal(ck_run(&rq, &sink, &e), KCVE_E_NOTFOUND);
	assert_non_null(strstr(e.msg, "source tree /nonexistent/kcve-ksrc not found"));
	assert_int_equal(seen.kernels, 0);
	assert_int_equal(seen.ends, 0);
	ck_set_release(&s);
}

/* The code stage's warnings (a fix's file that the tree holds as a symbolic link) go to the
 * run's sink, from the pipeline and from the entry, and nothing reaches stderr: the public API
 * hands its caller every warning (they once went to the default sink, stderr). */
static void test_code_warnings_to_sink(void **state)
{
	(void)state;
	struct ck_set s;
	make_fprint_set(&s);
	char tree[] = "/tmp/kcve-pipeline-tree-XXXXXX";
	assert_non_null(mkdtemp(tree));
	char path[256];
	snprintf(path, sizeof path, "%s/fs", tree);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof path, "%s/fs/a.c", tree);
	assert_int_equal(symlink("/dev/null", path), 0);

	/* stderr to a file while the library runs */
	fflush(stderr);
	char errpath[] = "/tmp/kcve-pipeline-stderr-XXXXXX";
	int efd = mkstemp(errpath);
	assert_true(efd >= 0);
	int saved = dup(2);
	assert_true(saved >= 0);
	assert_int_equal(dup2(efd, 2), 2);

	struct seen seen = {0};
	struct kcve_diag d = {.warn = seen_warn, .ctx = &seen};
	struct ck_pipeline p = {.set = &s, .diag = &d};
	struct ck_kernel k = {.release = "6.1.5", .reading = CK_READ_JSON, .code_source = tree};
	struct ck_result r;
	struct kcve_err e = {0};
	int rc = ck_pipeline_run(&p, &k, &r, &e);
	ck_result_release(&r);
	int pipeline_warnings = seen.code_warnings;

	char *rels[] = {"6.1.5"};
	struct ck_request rq = {.set = &s, .releases = rels, .nreleases = 1,
				.reading = CK_READ_JSON, .max_age = 30, .now = 4102444800LL,
				.source = tree};
	seen = (struct seen){0};
	struct ck_sink sink = {.ctx = &seen, .diag = {.warn = seen_warn, .note = seen_warn,
						      .ctx = &seen},
			       .kernel = seen_kernel, .end = seen_end};
	int rc2 = ck_run(&rq, &sink, &e);

	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	struct stat st;
	assert_int_equal(fstat(efd, &st), 0);
	close(efd);
	unlink(errpath);
	unlink(path);
	snprintf(path, sizeof path, "%s/fs", tree);
	rmdir(path);
	rmdir(tree);

	assert_int_equal(rc, 0);
	assert_int_equal(pipeline_warnings, 1);
	assert_int_equal(rc2, 0);
	assert_int_equal(seen.code_warnings, 1);
	assert_int_equal(seen.kernels, 1);
	assert_int_equal(st.st_size, 0); /* the library wrote nothing to stderr */
	ck_set_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_and_counts),
		cmocka_unit_test(test_release_kernel_split),
		cmocka_unit_test(test_room_for_every_stage),
		cmocka_unit_test(test_entry),
		cmocka_unit_test(test_stage_error),
		cmocka_unit_test(test_code_warnings_to_sink),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
