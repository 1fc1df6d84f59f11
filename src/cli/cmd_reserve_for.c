/* kcve reserve-for: hold a reserved id for a not-yet-fixed issue (seed: "contact the team to
 * get an identifier assigned from their batch of reserved identifiers"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_json.h"
#include "cli_store.h"
#include "core/clock.h"
#include "policy/branches.h"
#include "store/ops.h"
#include "core/kjson.h"

struct reserve_for_args {
	const char *requester, *summary;
	long year;
	bool json;
};
static const struct cli_option opts[] = {
	CLI_OPT_STRING("requester", struct reserve_for_args, requester, "EMAIL",
		       "who asked for the id (required)"),
	CLI_OPT_STRING("summary", struct reserve_for_args, summary, "TEXT",
		       "what the issue is (required)"),
	CLI_OPT_NUMBER("year", struct reserve_for_args, year, "YEAR", 1999, 9999,
		       "the id's year (default: the current year, UTC)"),
	CLI_OPT_FLAG("json", struct reserve_for_args, json,
		     "{\"cve\", \"state\": \"held\", \"requester\", \"summary\"}"),
	CLI_OPT_END};
static const struct cli_command reserve_for_cmd = {
	"reserve-for", "--requester EMAIL --summary TEXT [--year YEAR] [--json]",
	"Take the first free reserved id of YEAR (default: the current year, UTC) and\n"
	"mark it held: the note (requester, date, summary) is kept in the reserved file.\n"
	"Bind it later with 'kcve create SHA CVE-ID'. Prints the id.\n",
	opts, false};

int cmd_reserve_for(int argc, char **argv, struct kcve_global *g)
{
	struct reserve_for_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &reserve_for_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *req = a.requester, *summary = a.summary;
	int year = (int)a.year;
	bool json = a.json;
	cli_done(&p, NULL, 0, 0, "");
	if (!req || !*req || !strchr(req, '@'))
		cli_usage_error(&p, "--requester EMAIL is required, %s, pass the address of "
				"who asked", req ? req : "(missing)");
	if (!summary || !*summary || strchr(summary, '\n'))
		cli_usage_error(&p, "--summary TEXT (one line) is required, %s, describe the "
				"issue", summary ? "multi-line" : "(missing)");
	if (!year) {
		time_t now = (time_t)clock_now();
		struct tm tm;
		gmtime_r(&now, &tm);
		year = tm.tm_year + 1900;
	}
	struct cve_tree *t = cli_open_tree(g);
	char id[32];
	struct kcve_err err = {0};
	int rc = store_hold(t, year, req, summary, id, &err);
	if (rc)
		cli_fail(&err);
	else if (json)
		rc = cli_json_print(kj_pack("{s:s, s:s, s:o, s:o}", "cve", id, "state", "held",
					      "requester", cli_json_text(req), "summary",
					      cli_json_text(summary)));
	else
		printf("%s is held for %s\n", id, req);
	tree_close(t);
	return rc;
}
