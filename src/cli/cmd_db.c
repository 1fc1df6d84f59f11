/* kcve db: the compact record database for `kcve check --db` (small systems, fast loads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/filestage.h"
#include "check/recset.h"
#include "cli.h"
#include "cli_records.h"
#include "core/error.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: kcve db build [--tree DIR] -o FILE [--source KSRC]\n"
		"       kcve db info FILE\n"
		"       kcve db files (--db FILE | --tree DIR) --config CONFIG [--source KSRC] [--arch A]\n\n"
		"build  reduce the published records of a tree (id, title, severity, programFiles,\n"
		"       .sha1 fixes, .dyad pairs, JSON version ranges) to one compressed file for\n"
		"       'kcve check --db FILE'.  With --source, kbuild's per-file CONFIG conditions of\n"
		"       that kernel source are stored too, so --config/--running work without sources.\n"
		"info   print what a database holds (and verify it loads).\n"
		"files  the config-stage verdict and module of every distinct programFile of the\n"
		"       records, one 'path<TAB>verdict<TAB>module' line each: from KSRC's Kbuild files\n"
		"       with --source, else from the database's conditions (to compare the two).\n");
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* kcve db files: per-file verdicts of the config stage, so that a database built with
 * --source can be compared with the source tree it was built from. */
static int db_files(int argc, char **argv, struct kcve_global *g)
{
	const char *db = NULL, *tree = NULL, *config = NULL, *source = NULL, *arch = NULL;
	for (int i = 2; i < argc; i++) {
		const char **slot = !strcmp(argv[i], "--db")       ? &db
				    : !strcmp(argv[i], "--tree")   ? &tree
				    : !strcmp(argv[i], "--config") ? &config
				    : !strcmp(argv[i], "--source") ? &source
				    : !strcmp(argv[i], "--arch")   ? &arch
								   : NULL;
		if (!slot || i + 1 >= argc)
			kcve_die(KCVE_E_USAGE, "unknown or incomplete option '%s' for db files; see 'kcve db --help'",
				 argv[i]);
		*slot = argv[++i];
	}
	if (!config)
		kcve_die(KCVE_E_USAGE, "db files needs --config FILE (the .config to evaluate)");
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
		qsort(v, n, sizeof *v, cmp_strp);
	static const char *const names[] = {"unknown", "compiled", "not-compiled"};
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(v[i - 1], v[i]))
			continue;
		char mod[256];
		enum ck_filev fv = ck_files_verdict(cf, v[i], NULL);
		bool hm = ck_files_module(cf, &set, v[i], mod, sizeof mod);
		printf("%s\t%s\t%s\n", v[i], names[fv], hm ? mod : "");
	}
	free(v);
	ck_files_close(cf);
	ck_set_release(&set);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the result to standard output");
	return 0;
}

int cmd_db(int argc, char **argv, struct kcve_global *g)
{
	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? KCVE_E_USAGE : 0;
	}
	struct kcve_err err = {0};
	struct ck_set set;
	if (strcmp(argv[1], "info") == 0) {
		if (argc != 3)
			kcve_die(KCVE_E_USAGE, "usage: kcve db info FILE");
		if (ck_set_load_db(&set, argv[2], &err) != 0) {
			ck_set_release(&set);
			kcve_die(err.code, "%s", err.msg);
		}
		size_t pairs = 0, files = 0;
		for (size_t i = 0; i < set.n; i++) {
			pairs += set.v[i].pairs.n;
			files += set.v[i].nfiles;
		}
		printf("%s: %zu records, %zu vulnerable:fixed pairs, %zu program files, %zu file conditions\n",
		       argv[2], set.n, pairs, files, set.nconds);
		ck_set_release(&set);
		return 0;
	}
	if (strcmp(argv[1], "files") == 0)
		return db_files(argc, argv, g);
	if (strcmp(argv[1], "build") != 0)
		kcve_die(KCVE_E_USAGE, "unknown db command '%s'; use 'build', 'info' or 'files'", argv[1]);
	const char *tree = NULL, *out = NULL, *source = NULL;
	for (int i = 2; i < argc; i++) {
		if ((strcmp(argv[i], "--tree") == 0) && i + 1 < argc)
			tree = argv[++i];
		else if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(argv[i], "--source") == 0 && i + 1 < argc)
			source = argv[++i];
		else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else
			kcve_die(KCVE_E_USAGE, "unknown or incomplete option '%s' for db build; see 'kcve db --help'",
				 argv[i]);
	}
	if (!out)
		kcve_die(KCVE_E_USAGE, "db build needs -o FILE (the database to write)");
	char *root = ck_tree_find(tree ? tree : g->tree, &err);
	if (!root)
		kcve_die(err.code, "%s", err.msg);
	int rc = ck_set_load_tree(&set, root, &err);
	free(root);
	if (rc == 0 && source)
		rc = ck_set_add_conditions(&set, source, &err);
	if (rc == 0)
		rc = ck_db_write(&set, out, &err);
	if (rc == 0)
		fprintf(stderr, "kcve: wrote %s: %zu records, %zu file conditions\n", out, set.n, set.nconds);
	ck_set_release(&set);
	if (rc)
		kcve_die(err.code, "%s", err.msg);
	return 0;
}
