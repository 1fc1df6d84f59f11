/* kcve db: the compact record database for `kcve check --db` (small systems, fast loads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/records/gitdates.h"
#include "check/records/recset.h"
#include "check/stages/codestage.h"
#include "check/stages/filestage.h"
#include "check/verdict/check.h"
#include "codefix/fprint.h"
#include "cli.h"
#include "cli_json.h"
#include "cli_records.h"
#include "cli_report.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/strmap.h"
#include "core/kjson.h"
#include "core/text.h"

struct db_args {
	const char *out, *tree, *source, *db, *config, *arch, *patches, *repo;
	bool json;
};
#define A struct db_args
static const struct cli_option opts[] = {
	{.name = "output", .key = 'o', .arg = true, .type = CLI_STRING, .target = offsetof(A, out),
	 .meta = "FILE", .help = "build: the database to write (required)"},
	CLI_OPT_STRING("tree", A, tree, "DIR", "build, files: the record tree (default: the global --tree)"),
	CLI_OPT_STRING("source", A, source, "KSRC", "build, files: the kernel source (Kbuild conditions)"),
	CLI_OPT_STRING("db", A, db, "FILE", "files: the database instead of a tree"),
	CLI_OPT_STRING("config", A, config, "CONFIG", "files: the .config to evaluate (required)"),
	CLI_OPT_STRING("arch", A, arch, "A", "files: the architecture"),
	CLI_OPT_FLAG("json", A, json, "print JSON (the shapes above)"),
	CLI_OPT_STRING("patches", A, patches, "DIR", "build: each record's fix as DIR/CVE-ID.patch"),
	CLI_OPT_STRING("repo", A, repo, "LINUX.git", "build: the fixes and their backports from this repository"),
	CLI_OPT_END};
#undef A
static const struct cli_command db_cmd = {
	"db",
	"build [--tree DIR] -o FILE [--source KSRC] [--patches DIR | --repo LINUX.git]\n"
	"      [--json]\n"
	"info [--json] FILE\n"
	"files (--db FILE | --tree DIR) --config CONFIG [--source KSRC] [--arch A] [--json]",
	"build  reduce the published records of a tree (id, title, severity, programFiles,\n"
	"       .sha1 fixes, .dyad pairs, JSON version ranges) to one compressed file for\n"
	"       'kcve check --db FILE'.  With --source, kbuild's per-file CONFIG conditions of\n"
	"       that kernel source are stored too, so --config/--running work without sources.\n"
	"       The tree's supported-branch data (kcve branches), its git HEAD commit time and\n"
	"       newest record date, and the build time ($SOURCE_DATE_EPOCH, else now) go along,\n"
	"       for check's coverage warnings.  With --patches DIR, each record's fix read\n"
	"       from DIR/CVE-YYYY-NNNN.patch (a unified diff) is stored as a fingerprint, for\n"
	"       'kcve check --source DIR' on a tree without history.  With --repo LINUX.git,\n"
	"       each record's mainline fix (.sha1) and every stable backport of it (through\n"
	"       the history index, built or updated first) are stored, each branch's own\n"
	"       version of the fix.\n"
	"info   print what a database holds (and verify it loads).\n"
	"files  the config-stage verdict and module of every distinct programFile of the\n"
	"       records, one 'path<TAB>verdict<TAB>module' line each: from KSRC's Kbuild files\n"
	"       with --source, else from the database's conditions (to compare the two).\n"
	"--json  build: {\"file\", \"records\", \"conditions\", \"fingerprints\" (records\n"
	"        with one)};\n"
	"        info: {\"file\", \"format\", \"records\", \"pairs\", \"program_files\",\n"
	"        \"conditions\", \"built\", \"tree_head\", \"newest_record\" (UTC times, null:\n"
	"        unknown), \"branches\", \"fingerprints\", \"fingerprint_cves\"};\n"
	"        files: [{\"file\", \"verdict\", \"module\" (null: none known)}]\n",
	opts, false};


/* kcve db files: per-file verdicts of the config stage, so that a database built with
 * --source can be compared with the source tree it was built from. */
static int db_files(const struct db_args *a, struct kcve_global *g)
{
	const char *db = a->db, *tree = a->tree, *config = a->config, *source = a->source;
	const char *arch = a->arch;
	struct kcve_err err = {0};
	struct ck_set set;
	int rc = cli_load_records(&set, db, tree, g, &err);
	struct ck_files *cf = NULL;
	size_t cl = strlen(config);
	bool gz = cl > 3 && !strcmp(config + cl - 3, ".gz");
	if (rc == 0)
		rc = ck_files_open_config(&cf, config, gz, source, arch, &set, &err);
	if (rc) {
		ck_set_release(&set);
		kcve_die(err.code, "%s", err.msg);
	}
	size_t total = 0, n = 0;
	for (size_t i = 0; i < set.n; i++)
		total += set.v[i].nfiles;
	const char **v = calloc(total + 1, sizeof *v);
	if (!v)
		kcve_die(KCVE_E_GENERIC, "out of memory listing %zu program files", total);
	for (size_t i = 0; i < set.n; i++)
		for (size_t j = 0; j < set.v[i].nfiles; j++)
			v[n++] = set.v[i].files[j];
	if (n)
		qsort(v, n, sizeof *v, cmp_str);
	static const char *const names[] = {"unknown", "compiled", "not-compiled"};
	json_t *out = a->json ? json_array() : NULL;
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(v[i - 1], v[i]))
			continue;
		char mod[256];
		enum ck_filev fv = ck_files_verdict(cf, v[i], NULL);
		bool hm = ck_files_module(cf, &set, v[i], mod, sizeof mod);
		if (out)
			json_array_append_new(out, kj_pack("{s:s, s:s, s:o}", "file", v[i], "verdict",
							     names[fv], "module",
							     cli_json_str_or_null(hm ? mod : NULL)));
		else
			printf("%s\t%s\t%s\n", v[i], names[fv], hm ? mod : "");
	}
	free(v);
	ck_files_close(cf);
	ck_set_release(&set);
	if (out)
		return cli_json_print(out);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the result to standard output");
	return 0;
}

/* "YYYY-MM-DDTHH:MM:SSZ" of t, "" when unknown (0). */
static void day_or_null(long long t, char out[24])
{
	time_t tt = (time_t)t;
	struct tm tm;
	out[0] = '\0';
	if (t > 0 && gmtime_r(&tt, &tm))
		strftime(out, 24, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* kcve db info FILE: what a database holds (records, pairs, files, conditions, fingerprints)
 * and its dates. */
static int db_info(const char *file, bool json)
{
	struct kcve_err err = {0};
	struct ck_set set;
	if (ck_set_load_db(&set, file, &err) != 0) {
		ck_set_release(&set);
		kcve_die(err.code, "%s", err.msg);
	}
	size_t pairs = 0, nfiles = 0;
	for (size_t i = 0; i < set.n; i++) {
		pairs += set.v[i].pairs.n;
		nfiles += set.v[i].nfiles;
	}
	char built[24], head[24], newest[24];
	day_or_null(set.built, built);
	day_or_null(set.tree_head, head);
	day_or_null(set.newest_record, newest);
	json_t *doc = !json ? NULL
			      : kj_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:I}",
					  "file", file, "format", (json_int_t)set.db_format,
					  "records", (json_int_t)set.n, "pairs", (json_int_t)pairs,
					  "program_files", (json_int_t)nfiles, "conditions",
					  (json_int_t)set.nconds, "built",
					  cli_json_str_or_null(built[0] ? built : NULL),
					  "tree_head", cli_json_str_or_null(head[0] ? head : NULL),
					  "newest_record",
					  cli_json_str_or_null(newest[0] ? newest : NULL),
					  "branches", (json_int_t)set.branches.n);
	if (!doc)
		printf("%s: %zu records, %zu vulnerable:fixed pairs, %zu program files, %zu "
		       "file conditions\n  format %u, built %s, tree HEAD commit %s, newest "
		       "record %s, %zu branches of supported-branch data\n", file, set.n,
		       pairs, nfiles, set.nconds, set.db_format, built[0] ? built : "unknown",
		       head[0] ? head : "unknown", newest[0] ? newest : "unknown",
		       set.branches.n);
	size_t nfp = set.fprints ? set.fprints->n : 0, nfpcve = 0;
	for (size_t i = 0; i < nfp; i++)
		nfpcve += !i || strcmp(set.fprints->v[i].cve, set.fprints->v[i - 1].cve);
	if (doc) {
		json_object_set_new(doc, "fingerprints", json_integer((json_int_t)nfp));
		json_object_set_new(doc, "fingerprint_cves", json_integer((json_int_t)nfpcve));
	} else if (nfp) {
		printf("  %zu fix fingerprints for %zu CVEs (check --source)\n", nfp, nfpcve);
	}
	ck_set_release(&set);
	return doc ? cli_json_print(doc) : 0;
}

int cmd_db(int argc, char **argv, struct kcve_global *g)
{
	struct db_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &db_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	char **ops;
	int nops = cli_done(&p, &ops, 1, 2, "build, info FILE or files");
	const char *sub = ops[0];
	bool info = !strcmp(sub, "info"), files = !strcmp(sub, "files"), build = !strcmp(sub, "build");
	if (!info && !files && !build)
		cli_usage_error(&p, "unknown db command '%s'; use 'build', 'info' or 'files'", sub);
	if (nops != (info ? 2 : 1))
		cli_usage_error(&p, info ? "db info needs one FILE" : "unexpected argument after '%s'",
				sub);
	if ((a.out && !build) || ((a.patches || a.repo) && !build) || (a.db && !files) || ((a.config || a.arch) && !files) ||
	    (info && (a.tree || a.source)))
		cli_usage_error(&p, "option not valid for 'db %s'", sub);
	struct kcve_err err = {0};
	struct ck_set set;
	if (info)
		return db_info(ops[1], a.json);
	if (files) {
		if (!a.config)
			cli_usage_error(&p, "db files needs --config FILE (the .config to evaluate)");
		return db_files(&a, g);
	}
	const char *tree = a.tree, *out = a.out, *source = a.source;
	if (!out)
		cli_usage_error(&p, "db build needs -o FILE (the database to write)");
	char *root = ck_tree_find(tree ? tree : g->tree, &err);
	if (!root)
		kcve_die(err.code, "%s", err.msg);
	int rc = ck_set_load_tree(&set, root, &err);
#ifndef KCVE_NO_GIT
	if (rc == 0)
		ck_tree_head_time(root, &set.tree_head, NULL);
#endif
	free(root);
	/* $SOURCE_DATE_EPOCH, else now; the header's 0 means "unknown", so 0 is stored as 1 */
	if (rc == 0)
		set.built = clock_stamp() > 0 ? clock_stamp() : 1;
	if (rc == 0 && source)
		rc = ck_set_add_conditions(&set, source, &err);
	size_t nfp = 0, nskipped = 0;
	if (rc == 0 && a.patches)
		rc = ck_set_add_patches(&set, a.patches, NULL, &nfp, &nskipped, &err);
#ifndef KCVE_NO_GIT
	size_t nrepo = 0;
	if (rc == 0 && a.repo)
		rc = ck_set_add_repo_fixes(&set, a.repo, &nrepo, &err);
	nfp += nrepo;
#else
	if (a.repo)
		kcve_die(KCVE_E_USAGE, "this kcve has no git support: build the database with --repo "
			 "on a full kcve and copy it here");
#endif
	if (rc == 0)
		rc = ck_db_write(&set, out, &err);
	if (rc == 0) {
		char left[64] = "";
		if (nskipped)
			text_snprintf(left, sizeof left, " (%zu patches left out, see the warnings)", nskipped);
		fprintf(stderr, "kcve: wrote %s: %zu records, %zu file conditions, %zu fix fingerprints%s\n",
			out, set.n, set.nconds, nfp, left);
	}
	json_t *doc = rc || !a.json ? NULL
				    : kj_pack("{s:o, s:I, s:I}", "file", cli_json_text(out), "records",
						(json_int_t)set.n, "conditions", (json_int_t)set.nconds);
	if (doc)
		json_object_set_new(doc, "fingerprints", json_integer((json_int_t)nfp));
	if (doc && a.patches)
		json_object_set_new(doc, "patches_left_out", json_integer((json_int_t)nskipped));
	ck_set_release(&set);
	if (rc)
		kcve_die(err.code, "%s", err.msg);
	return doc ? cli_json_print(doc) : 0;
}
