/* kcve remote: talk to CVE Services directly (reserve ids, quota, list, show a record).
 * `kcve remote reserve` also files the new ids under cve/reserved/ (the store's
 * `kcve reserve --remote` is meant to delegate here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "publish/config.h"
#include "publish/cveapi.h"
#include "store/ops.h"
#include "store/tree.h"
#include "core/kjson.h"

/* What the command line says; --year and --count are checked after the subcommand. */
struct remote_opts {
	const char *config, *year, *count, *state;
	bool random, no_tree, json;
};
static const struct cli_option opts[] = {
	CLI_OPT_STRING("config", struct remote_opts, config, "FILE",
		       "the settings file (as for 'kcve publish')"),
	CLI_OPT_STRING("year", struct remote_opts, year, "Y",
		       "reserve: the ids' year; list: only this year's ids"),
	CLI_OPT_STRING("count", struct remote_opts, count, "N", "reserve: how many ids (1 to 10000)"),
	CLI_OPT_FLAG("random", struct remote_opts, random, "reserve: ids not in sequence"),
	CLI_OPT_FLAG("no-tree", struct remote_opts, no_tree,
		     "reserve: do not add the ids to cve/reserved/"),
	CLI_OPT_STRING("state", struct remote_opts, state, "STATE",
		       "list: only RESERVED, PUBLISHED or REJECTED ids"),
	CLI_OPT_FLAG("json", struct remote_opts, json, "print JSON (the shapes above)"),
	CLI_OPT_END};
static const struct cli_command remote_cmd = {
	"remote",
	"[--config FILE] reserve --year Y --count N [--random] [--no-tree] [--json]\n"
	"[--config FILE] quota [--json]\n"
	"[--config FILE] list [--year Y] [--state RESERVED|PUBLISHED|REJECTED] [--json]\n"
	"[--config FILE] get CVE-ID",
	"  reserve        reserve ids at CVE Services and add them to cve/reserved/Y/\n"
	"  quota          the organisation's id quota\n"
	"  list           ids the organisation holds (every page)\n"
	"  get CVE-ID     the record as CVE Services has it (JSON)\n\n"
	"--json: quota {\"id_quota\", \"total_reserved\", \"available\"}; list [{\"id\", \"state\"}];\n"
	"reserve {\"ids\": [...], \"remaining\" (null: not reported)}.\n"
	"Settings as for 'kcve publish --help' (cve_api.*, KCVE_CVE_API_*).\n",
	opts, false};

struct remote_args {
	long year, count;
	bool random, tree, json;
	const char *state;
};

static int reserve(struct cveapi *api, const struct remote_args *a, struct kcve_global *g,
		   struct kcve_err *err)
{
	long year = a->year, count = a->count;
	bool random = a->random, tree = a->tree;
	struct cve_tree *t = NULL;
	int rc = 0;
	/* Open the tree first: reserving ids we then cannot file would waste quota. */
	if (tree && (rc = tree_open(&t, g->tree, err)))
		return rc;
	struct cveapi_idlist ids = {0};
	long remaining = -1;
	json_t *out = a->json ? json_array() : NULL;
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
		if (out)
			json_array_append_new(out, kj_str(ids.v[i].id));
		else
			printf("%s\n", ids.v[i].id);
	}
	if (!rc && err->code)
		rc = err->code;
	if (out) {
		/* the ids reserved are printed even when filing some of them failed */
		int jrc = cli_json_print(kj_pack("{s:o, s:o}", "ids", out, "remaining",
						   remaining >= 0 ? json_integer(remaining)
								  : json_null()));
		rc = rc ? rc : jrc;
	} else if (remaining >= 0) {
		fprintf(stderr, "remaining quota: %ld\n", remaining);
	}
	cveapi_idlist_release(&ids);
	tree_close(t);
	return rc;
}

int cmd_remote(int argc, char **argv, struct kcve_global *g)
{
	struct remote_opts o = {0};
	struct remote_args a = {.tree = true};
	struct cli_parser p;
	cli_begin(&p, &remote_cmd, argc, argv, g);
	cli_bind(&p, &o);
	while (cli_next(&p) != -1)
		;
	const char *config = o.config, *year = o.year, *count = o.count;
	bool no_tree = o.no_tree, json = o.json;
	a.random = o.random;
	a.state = o.state;
	char **ops;
	int nops = cli_done(&p, &ops, 1, -1, "a subcommand: reserve, quota, list or get");
	const char *sub = ops[0];
	bool is_reserve = !strcmp(sub, "reserve"), is_list = !strcmp(sub, "list");
	if (!is_reserve && !is_list && strcmp(sub, "quota") && strcmp(sub, "get"))
		cli_usage_error(&p, "unknown subcommand '%s', use reserve, quota, list or get", sub);
	if (nops != (!strcmp(sub, "get") ? 2 : 1))
		cli_usage_error(&p, nops > 1 ? "unexpected argument after '%s'"
					     : "'%s' needs one CVE-ID", sub);
	if ((count || a.random || no_tree) && !is_reserve)
		cli_usage_error(&p, "--count, --random and --no-tree go with 'remote reserve'");
	if (json && !strcmp(sub, "get"))
		cli_usage_error(&p, "--json goes with 'remote list', 'quota' and 'reserve' ('get' "
				"prints JSON anyway)");
	a.json = json;
	if (a.state && !is_list)
		cli_usage_error(&p, "--state goes with 'remote list'");
	if (year && !is_reserve && !is_list)
		cli_usage_error(&p, "--year goes with 'remote reserve' or 'remote list'");
	a.year = year ? cli_year(&p, "--year", year) : 0;
	a.count = count ? cli_num(&p, "--count", count, 1, 10000) : 0;
	a.tree = !no_tree;
	if (is_reserve && (!a.year || !a.count))
		cli_usage_error(&p, "remote reserve needs --year Y and --count N");
	struct kcve_err err = {0};
	struct publish_config cfg;
	struct cveapi *api = NULL;
	int rc = publish_config_load(&cfg, config, NULL, &err);
	if (!rc)
		rc = cveapi_open(&api, &cfg, &err);
	if (!rc && is_reserve)
		rc = reserve(api, &a, g, &err);
	else if (!rc && !strcmp(sub, "quota")) {
		struct cveapi_quota q;
		if (!(rc = cveapi_quota(api, &q, &err)) && json)
			rc = cli_json_print(kj_pack("{s:I, s:I, s:I}", "id_quota",
						      (json_int_t)q.id_quota, "total_reserved",
						      (json_int_t)q.total_reserved, "available",
						      (json_int_t)q.available));
		else if (!rc)
			printf("id_quota %ld\ntotal_reserved %ld\navailable %ld\n", q.id_quota,
			       q.total_reserved, q.available);
	} else if (!rc && is_list) {
		struct cveapi_idlist ids = {0};
		json_t *out = json ? json_array() : NULL;
		if (!(rc = cveapi_list(api, (int)a.year, a.state, &ids, &err))) {
			for (size_t k = 0; k < ids.n; k++) {
				if (out)
					json_array_append_new(out, kj_pack(
						"{s:s, s:o}", "id", ids.v[k].id, "state",
						cli_json_str_or_null(ids.v[k].state)));
				else
					printf("%s %s\n", ids.v[k].id,
					       ids.v[k].state[0] ? ids.v[k].state : "-");
			}
		}
		if (out && !rc)
			rc = cli_json_print(out);
		else if (out)
			json_decref(out);
		cveapi_idlist_release(&ids);
	} else if (!rc && !strcmp(sub, "get")) {
		struct strbuf sb = STRBUF_INIT;
		if (!(rc = cveapi_get_record(api, ops[1], &sb, &err)))
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
