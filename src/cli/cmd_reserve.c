/* kcve reserve add|list: record ids reserved at cve.org; show free and held ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_store.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/xalloc.h"
#include "store/ops.h"
#include "core/kjson.h"

struct reserve_args {
	const char *year, *count, *config; /* checked after the operands, or by 'kcve remote' */
	bool remote, random, json;
};
static const struct cli_option opts[] = {
	CLI_OPT_FLAG("json", struct reserve_args, json, "print JSON (the shapes above)"),
	CLI_OPT_STRING("year", struct reserve_args, year, "YEAR",
		       "list: only this year's ids; --remote: the year to reserve ids in"),
	CLI_OPT_FLAG("remote", struct reserve_args, remote,
		     "reserve new ids at CVE Services (kcve remote reserve)"),
	CLI_OPT_STRING("count", struct reserve_args, count, "N", "--remote: how many ids to reserve"),
	CLI_OPT_FLAG("random", struct reserve_args, random, "--remote: ids not in sequence"),
	CLI_OPT_STRING("config", struct reserve_args, config, "FILE",
		       "--remote: the CVE Services configuration (see 'kcve remote --help')"),
	CLI_OPT_END};
static const struct cli_command reserve_cmd = {
	"reserve",
	"add [--json] CVE-ID...\n"
	"list [--year YEAR] [--json]\n"
	"--remote --year YEAR --count N [--random] [--config FILE] [--json]",
	"add: create the empty placeholders cve/reserved/YEAR/CVE-ID for ids already\n"
	"     reserved at cve.org. Ids already reserved are reported and skipped (a\n"
	"     rerun finishes the job, exit 0); an id published, rejected or returned\n"
	"     is refused, the other ids are still added. --json: [{\"id\", \"result\":\n"
	"     \"reserved\"|\"already-reserved\"|\"failed\", \"error\" (null unless failed)}].\n"
	"list: one line per reserved id: \"ID free\" or \"ID held <note>\" (held by\n"
	"     'kcve reserve-for'). --json: [{\"id\", \"state\": \"free\"|\"held\", \"note\"\n"
	"     (null when free)}].\n"
	"--remote: reserve new ids at CVE Services and add them to cve/reserved/\n"
	"     (the same as 'kcve remote reserve'; see 'kcve remote --help').\n",
	opts, false};

struct list_ctx {
	int year;
	size_t nfree, nheld;
	json_t *out; /* --json: the array, else NULL */
};

static int list_cb(const struct cve_entry *e, void *vctx)
{
	struct list_ctx *c = vctx;
	if (c->year && e->year != c->year)
		return 0;
	char *p = tree_cve_path(e, "");
	struct strbuf sb = STRBUF_INIT;
	read_file(p, &sb);
	free(p);
	if (!sb.len) {
		if (c->out)
			json_array_append_new(c->out, kj_pack("{s:s, s:s, s:n}", "id", e->id,
								"state", "free", "note"));
		else
			printf("%s free\n", e->id);
		c->nfree++;
	} else if (c->out) {
		json_array_append_new(c->out, kj_pack("{s:s, s:s, s:s%}", "id", e->id, "state",
							"held", "note", sb.buf, sb.len));
		c->nheld++;
	} else {
		/* the note on one line, no control character reaching the terminal */
		for (size_t i = 0; i < sb.len; i++)
			if (sb.buf[i] == '\n')
				sb.buf[i] = i + 1 < sb.len ? ';' : '\0';
		struct strbuf shown = STRBUF_INIT;
		sb_add_display(&shown, sb.buf);
		printf("%s held %s\n", e->id, sb_str(&shown));
		sb_release(&shown);
		c->nheld++;
	}
	sb_release(&sb);
	return 0;
}

/* kcve reserve --remote ... is kcve remote [--config F] reserve ...: one implementation (which
 * checks --year and --count). */
static int forward_remote(const char *year, const char *count, const char *config, bool random,
			  bool json, struct kcve_global *g)
{
	char *rargv[12];
	int n = 0;
	rargv[n++] = (char *)"remote";
	if (config) {
		rargv[n++] = (char *)"--config";
		rargv[n++] = (char *)config;
	}
	rargv[n++] = (char *)"reserve";
	if (year) {
		rargv[n++] = (char *)"--year";
		rargv[n++] = (char *)year;
	}
	if (count) {
		rargv[n++] = (char *)"--count";
		rargv[n++] = (char *)count;
	}
	if (random)
		rargv[n++] = (char *)"--random";
	if (json)
		rargv[n++] = (char *)"--json";
	rargv[n] = NULL;
	return cmd_remote(n, rargv, g);
}

int cmd_reserve(int argc, char **argv, struct kcve_global *g)
{
	struct reserve_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &reserve_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *year = a.year, *count = a.count, *config = a.config;
	bool remote = a.remote, random = a.random, json = a.json;
	char **ops;
	int nops = cli_done(&p, &ops, remote ? 0 : 1, remote ? 0 : -1, "'add' or 'list'");
	if (year)
		cli_year(&p, "--year", year);
	if (remote) {
		return forward_remote(year, count, config, random, json, g);
	}
	bool add = !strcmp(ops[0], "add"), list = !strcmp(ops[0], "list");
	if (!add && !list)
		cli_usage_error(&p, "unknown reserve action '%s', use 'add' or 'list'", ops[0]);
	if (count || config || random)
		cli_usage_error(&p, "--count, --config and --random go with --remote");
	if (add && year)
		cli_usage_error(&p, "--year goes with 'list' or --remote; 'add' takes the ids");
	if (add && nops < 2)
		cli_usage_error(&p, "no id given to 'reserve add', pass CVE-YYYY-NNNNN...");
	if (list && nops > 1)
		cli_usage_error(&p, "unexpected argument '%s' after 'reserve list'", ops[1]);
	for (int i = 1; i < nops; i++)
		if (!cve_id_valid(ops[i]))
			cli_usage_error(&p, "not a CVE id, %s, use CVE-YYYY-NNNNN", ops[i]);
	struct cve_tree *t = cli_open_tree(g);
	int rc = 0;
	if (add) {
		/* a rerun (after a failure or a kill) must converge: ids already reserved are
		 * reported and skipped, every other id is still tried; the exit status is the
		 * first real failure, 0 when every id ends up reserved */
		json_t *out = json ? json_array() : NULL;
		for (int i = 1; i < nops; i++) {
			struct kcve_err err = {0};
			int r = store_reserve(t, ops[i], &err);
			struct cve_entry e;
			const char *result = "failed";
			if (!r) {
				result = "reserved";
			} else if (r == KCVE_E_DUPLICATE && tree_find_cve(t, ops[i], &e) == 0 &&
				   e.state == CVE_RESERVED) {
				result = "already-reserved";
			} else {
				cli_fail(&err);
				rc = rc ? rc : r;
			}
			if (out)
				json_array_append_new(out, kj_pack(
					"{s:s, s:s, s:o}", "id", ops[i], "result", result, "error",
					strcmp(result, "failed") ? json_null() : cli_json_text(err.msg)));
			else if (strcmp(result, "failed"))
				printf("%s %s\n", ops[i], !r ? "reserved" : "already reserved");
			if (r == KCVE_E_DUPLICATE)
				cve_entry_release(&e);
		}
		if (out) {
			int jrc = cli_json_print(out);
			rc = rc ? rc : jrc;
		}
	} else {
		struct list_ctx c = {.year = year ? atoi(year) : 0, .out = json ? json_array() : NULL};
		tree_foreach(t, CVE_RESERVED, list_cb, &c);
		if (json)
			rc = cli_json_print(c.out);
		else
			fprintf(stderr, "%zu free, %zu held\n", c.nfree, c.nheld);
	}
	tree_close(t);
	return rc;
}
