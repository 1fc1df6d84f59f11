/* kcve reserve-for: hold a reserved id for a not-yet-fixed issue (seed: "contact the team to
 * get an identifier assigned from their batch of reserved identifiers"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_json.h"
#include "cli_store.h"
#include "policy/branches.h"
#include "store/ops.h"

enum { O_REQUESTER = CLI_LONG, O_SUMMARY, O_YEAR, O_JSON };
static const struct cli_option opts[] = {
	CLI_OPT("requester", O_REQUESTER, true), CLI_OPT("summary", O_SUMMARY, true), CLI_OPT("year", O_YEAR, true),
	CLI_OPT("json", O_JSON, false), CLI_OPT_END};
static const struct cli_command reserve_for_cmd = {
	"reserve-for", "--requester EMAIL --summary TEXT [--year YEAR] [--json]",
	"Take the first free reserved id of YEAR (default: the current year, UTC) and\n"
	"mark it held: the note (requester, date, summary) is kept in the reserved file.\n"
	"Bind it later with 'kcve create SHA CVE-ID'. Prints the id.\n"
	"--json: {\"cve\", \"state\": \"held\", \"requester\", \"summary\"}.\n",
	opts, false};

int cmd_reserve_for(int argc, char **argv, struct kcve_global *g)
{
	const char *req = NULL, *summary = NULL;
	int year = 0;
	bool json = false;
	struct cli_parser p;
	cli_begin(&p, &reserve_for_cmd, argc, argv, g);
	for (int c; (c = cli_next(&p)) != -1;) {
		if (c == O_REQUESTER)
			req = p.arg;
		else if (c == O_SUMMARY)
			summary = p.arg;
		else if (c == O_YEAR)
			year = cli_year(&p, "--year", p.arg);
		else if (c == O_JSON)
			json = true;
	}
	cli_done(&p, NULL, 0, 0, "");
	if (!req || !*req || !strchr(req, '@'))
		cli_usage_error(&p, "--requester EMAIL is required, %s, pass the address of "
				"who asked", req ? req : "(missing)");
	if (!summary || !*summary || strchr(summary, '\n'))
		cli_usage_error(&p, "--summary TEXT (one line) is required, %s, describe the "
				"issue", summary ? "multi-line" : "(missing)");
	if (!year) {
		time_t now = store_now();
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
		rc = cli_json_print(json_pack("{s:s, s:s, s:o, s:o}", "cve", id, "state", "held",
					      "requester", cli_json_text(req), "summary",
					      cli_json_text(summary)));
	else
		printf("%s is held for %s\n", id, req);
	tree_close(t);
	return rc;
}
