/* kcve remote: talk to CVE Services directly (reserve ids, quota, list, show a record).
 * `kcve remote reserve` also files the new ids under cve/reserved/ (the store's
 * `kcve reserve --remote` is meant to delegate here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "publish/config.h"
#include "publish/cveapi.h"
#include "store/ops.h"
#include "store/tree.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: kcve remote [--config FILE] <subcommand>\n\n"
		"  reserve --year Y --count N [--random] [--no-tree]\n"
		"                 reserve ids at CVE Services and add them to cve/reserved/Y/\n"
		"  quota          the organisation's id quota\n"
		"  list [--year Y] [--state RESERVED|PUBLISHED|REJECTED]\n"
		"                 ids the organisation holds (every page)\n"
		"  get CVE-ID     the record as CVE Services has it (JSON)\n\n"
		"Settings as for 'kcve publish --help' (cve_api.*, KCVE_CVE_API_*).\n");
}

static long num(const char *v, const char *opt, long min, long max)
{
	char *end;
	long n = v ? strtol(v, &end, 10) : 0;
	if (!v || end == v || *end || n < min || n > max)
		kcve_die(KCVE_E_USAGE, "%s needs a number from %ld to %ld, see 'kcve remote --help'",
			 opt, min, max);
	return n;
}

static int reserve(struct cveapi *api, int argc, char **argv, struct kcve_global *g,
		   struct kcve_err *err)
{
	long year = 0, count = 0;
	bool random = false, tree = true;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--year") && i + 1 < argc)
			year = num(argv[++i], "--year", 1999, 9999);
		else if (!strcmp(argv[i], "--count") && i + 1 < argc)
			count = num(argv[++i], "--count", 1, 10000);
		else if (!strcmp(argv[i], "--random"))
			random = true;
		else if (!strcmp(argv[i], "--no-tree"))
			tree = false;
		else
			kcve_die(KCVE_E_USAGE, "unknown argument '%s', see 'kcve remote --help'",
				 argv[i]);
	}
	if (!year || !count)
		kcve_die(KCVE_E_USAGE, "remote reserve needs --year Y and --count N");
	struct cve_tree *t = NULL;
	int rc = 0;
	/* Open the tree first: reserving ids we then cannot file would waste quota. */
	if (tree && (rc = tree_open(&t, g->tree, err)))
		return rc;
	struct cveapi_idlist ids = {0};
	long remaining = -1;
	rc = cveapi_reserve(api, (int)year, (int)count, !random, &ids, &remaining, err);
	for (size_t i = 0; !rc && i < ids.n; i++) {
		struct kcve_err e2 = {0};
		if (t) {
			int r2 = store_reserve(t, ids.v[i].id, &e2);
			if (r2 && r2 != KCVE_E_DUPLICATE) {
				/* keep going: print every id so none is lost */
				kcve_warn("%s reserved at CVE Services but not filed: %s", ids.v[i].id,
					  e2.msg);
				kcve_err_set(err, r2, "some reserved ids could not be filed in the tree, "
					     "add them with 'kcve reserve'");
			}
		}
		printf("%s\n", ids.v[i].id);
	}
	if (!rc && err->code)
		rc = err->code;
	if (remaining >= 0)
		fprintf(stderr, "remaining quota: %ld\n", remaining);
	cveapi_idlist_release(&ids);
	tree_close(t);
	return rc;
}

int cmd_remote(int argc, char **argv, struct kcve_global *g)
{
	int i = 1;
	const char *config = NULL;
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? KCVE_E_USAGE : 0;
	}
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!strncmp(argv[i], "--config=", 9))
			config = argv[i] + 9;
		else
			kcve_die(KCVE_E_USAGE, "unknown option '%s', see 'kcve remote --help'", argv[i]);
	}
	if (i >= argc)
		kcve_die(KCVE_E_USAGE, "kcve remote needs a subcommand, see 'kcve remote --help'");
	const char *sub = argv[i];
	int sargc = argc - i;
	char **sargv = argv + i;
	if (cli_wants_help(sargc, sargv)) {
		usage(stdout);
		return 0;
	}
	struct kcve_err err = {0};
	struct publish_config cfg;
	struct cveapi *api = NULL;
	int rc = publish_config_load(&cfg, config, &err);
	if (!rc && strcmp(sub, "reserve") && strcmp(sub, "quota") && strcmp(sub, "list") &&
	    strcmp(sub, "get"))
		kcve_die(KCVE_E_USAGE, "unknown subcommand '%s', see 'kcve remote --help'", sub);
	if (!rc)
		rc = cveapi_open(&api, &cfg, &err);
	if (!rc && !strcmp(sub, "reserve"))
		rc = reserve(api, sargc, sargv, g, &err);
	else if (!rc && !strcmp(sub, "quota")) {
		struct cveapi_quota q;
		if (!(rc = cveapi_quota(api, &q, &err)))
			printf("id_quota %ld\ntotal_reserved %ld\navailable %ld\n", q.id_quota,
			       q.total_reserved, q.available);
	} else if (!rc && !strcmp(sub, "list")) {
		long year = 0;
		const char *state = NULL;
		for (int j = 1; j < sargc; j++) {
			if (!strcmp(sargv[j], "--year") && j + 1 < sargc)
				year = num(sargv[++j], "--year", 1999, 9999);
			else if (!strcmp(sargv[j], "--state") && j + 1 < sargc)
				state = sargv[++j];
			else
				kcve_die(KCVE_E_USAGE, "unknown argument '%s', see 'kcve remote --help'",
					 sargv[j]);
		}
		struct cveapi_idlist ids = {0};
		if (!(rc = cveapi_list(api, (int)year, state, &ids, &err)))
			for (size_t k = 0; k < ids.n; k++)
				printf("%s %s\n", ids.v[k].id, ids.v[k].state[0] ? ids.v[k].state : "-");
		cveapi_idlist_release(&ids);
	} else if (!rc && !strcmp(sub, "get")) {
		if (sargc != 2)
			kcve_die(KCVE_E_USAGE, "usage: kcve remote get CVE-ID");
		struct strbuf sb = STRBUF_INIT;
		if (!(rc = cveapi_get_record(api, sargv[1], &sb, &err)))
			printf("%s\n", sb.buf);
		sb_release(&sb);
	}
	if (rc) {
		publish_config_scrub(&cfg, err.msg, sizeof(err.msg));
		kcve_error("%s", err.msg);
	}
	cveapi_close(api);
	publish_config_release(&cfg);
	return rc;
}
