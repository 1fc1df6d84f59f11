/* kcve report: a static HTML page with charts for a record set (and a check result). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/emit/report.h"
#include "check/records/gitdates.h"
#include "check/records/recset.h"
#include "cli.h"
#include "cli_json.h"
#include "cli_records.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/kjson.h"

struct report_args {
	const char *html, *tree, *db, *check_json;
	bool json;
};
static const struct cli_option opts[] = {
	CLI_OPT_STRING("html", struct report_args, html, "OUT", "the page to write (required)"),
	CLI_OPT_STRING("tree", struct report_args, tree, "DIR", "the record tree (default: the global --tree)"),
	CLI_OPT_STRING("db", struct report_args, db, "FILE", "the compact database instead of a tree"),
	CLI_OPT_STRING("check-json", struct report_args, check_json, "FILE",
		       "the output of 'kcve check --json': its stage counts and applicable CVEs"),
	CLI_OPT_FLAG("json", struct report_args, json,
		     "{\"html\", \"bytes\", \"records\", \"dates\": \"git\" | \"datePublished\", \"git_dated\"}"),
	CLI_OPT_END};
static const struct cli_command report_cmd = {
	"report", "--html OUT [--tree DIR | --db FILE] [--check-json FILE] [--json]",
	"Write one self-contained HTML page (inline SVG charts and a few lines of inline script,\n"
	"no external assets; light and dark themes): CVEs per week, per subsystem, per branch,\n"
	"time to fix; with --check-json (the output of 'kcve check --json'), the stage counts and\n"
	"a sortable, filterable table of the applicable CVEs with links to cve.org and the fix.\n"
	"Publication dates come from the record tree's git history (the commit that added each\n"
	"record) when the tree is a git checkout, else from the records' datePublished.\n"
	"Prints nothing without --json.\n",
	opts, false};

int cmd_report(int argc, char **argv, struct kcve_global *g)
{
	struct report_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &report_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *html = a.html, *tree = a.tree, *db = a.db, *cj = a.check_json;
	bool json = a.json;
	cli_done(&p, NULL, 0, 0, "");
	if (!html)
		cli_usage_error(&p, "report needs --html OUT (the page to write)");
	struct kcve_err err = {0};
	struct strbuf cjs = STRBUF_INIT;
	if (cj && read_file(cj, &cjs) < 0)
		kcve_die(errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
			 "cannot read %s (%s); pass the output of 'kcve check --json'", cj,
			 read_file_reason(errno));
	struct ck_set set;
	int rc = cli_load_records(&set, db, tree, g, &err);
	/* publication dates: the git history of the record tree when it is a checkout, else the
	 * records' datePublished (never a file time) */
	const char *dates = "the records' datePublished";
	bool git_dates = false;
	size_t ndated = 0;
	if (rc == 0 && !db) {
		int g2 = ck_set_dates_from_git(&set, set.origin, &ndated, &err);
		if (g2 == 0) {
			dates = "the commit that added each record to the tree's git history";
			git_dates = true;
		}
		else if (g2 != 1)
			rc = g2;
	}
	struct strbuf page = STRBUF_INIT;
	if (rc == 0)
		rc = ck_report_html(&set, cj ? cjs.buf : NULL, dates, &page, &err);
	if (rc == 0 && atomic_write_file(html, page.buf, page.len, 0644) < 0)
		rc = kcve_err_set(&err, KCVE_E_IO, "cannot write %s (%s); check the directory", html,
				  strerror(errno));
	size_t bytes = page.len, records = set.n;
	sb_release(&page);
	sb_release(&cjs);
	ck_set_release(&set);
	if (rc)
		kcve_die(err.code, "%s", err.msg);
	if (json)
		return cli_json_print(kj_pack("{s:o, s:I, s:I, s:s, s:I}", "html", cli_json_text(html),
						"bytes", (json_int_t)bytes, "records",
						(json_int_t)records, "dates",
						git_dates ? "git" : "datePublished", "git_dated",
						(json_int_t)ndated));
	return 0;
}
