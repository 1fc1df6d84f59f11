/* kcve report: a static HTML page with charts for a record set (and a check result). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/recset.h"
#include "check/report.h"
#include "cli.h"
#include "cli_records.h"
#include "core/error.h"
#include "core/fileio.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kcve report --html OUT [--tree DIR | --db FILE] [--check-json FILE]\n\n"
		     "Write one self-contained HTML page (inline SVG charts, no external assets): CVEs\n"
		     "per week, per subsystem, per branch, time to fix; with --check-json (the output of\n"
		     "'kcve check --json'), the stage counts and the applicable CVEs.\n");
}

int cmd_report(int argc, char **argv, struct kcve_global *g)
{
	const char *html = NULL, *tree = NULL, *db = NULL, *cj = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--html") == 0 && i + 1 < argc) {
			html = argv[++i];
		} else if (strcmp(a, "--tree") == 0 && i + 1 < argc) {
			tree = argv[++i];
		} else if (strcmp(a, "--db") == 0 && i + 1 < argc) {
			db = argv[++i];
		} else if (strcmp(a, "--check-json") == 0 && i + 1 < argc) {
			cj = argv[++i];
		} else {
			kcve_die(KCVE_E_USAGE, "unknown or incomplete option '%s' for report; see 'kcve report --help'", a);
		}
	}
	if (!html)
		kcve_die(KCVE_E_USAGE, "report needs --html OUT (the page to write)");
	struct kcve_err err = {0};
	struct strbuf cjs = STRBUF_INIT;
	if (cj && read_file(cj, &cjs) < 0)
		kcve_die(errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
			 "cannot read %s (%s); pass the output of 'kcve check --json'", cj, strerror(errno));
	struct ck_set set;
	int rc = cli_load_records(&set, db, tree, g, &err);
	struct strbuf page = STRBUF_INIT;
	if (rc == 0)
		rc = ck_report_html(&set, cj ? cjs.buf : NULL, &page, &err);
	if (rc == 0 && atomic_write_file(html, page.buf, page.len, 0644) < 0)
		rc = kcve_err_set(&err, KCVE_E_IO, "cannot write %s (%s); check the directory", html,
				  strerror(errno));
	sb_release(&page);
	sb_release(&cjs);
	ck_set_release(&set);
	if (rc)
		kcve_die(err.code, "%s", err.msg);
	return 0;
}
