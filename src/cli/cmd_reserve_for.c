/* kcve reserve-for: hold a reserved id for a not-yet-fixed issue (seed: "contact the team to
 * get an identifier assigned from their batch of reserved identifiers"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_store.h"
#include "store/branches.h"
#include "store/ops.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kcve reserve-for --requester EMAIL --summary TEXT [--year YEAR]\n\n"
		     "Take the first free reserved id of YEAR (default: the current year, UTC) and\n"
		     "mark it held: the note (requester, date, summary) is kept in the reserved file.\n"
		     "Bind it later with 'kcve create SHA CVE-ID'. Prints the id.\n");
}

int cmd_reserve_for(int argc, char **argv, struct kcve_global *g)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	const char *req = NULL, *summary = NULL, *v;
	int year = 0;
	for (int i = 1; i < argc; i++) {
		if ((v = cli_optval(argc, argv, &i, "--requester", argv[0])))
			req = v;
		else if ((v = cli_optval(argc, argv, &i, "--summary", argv[0])))
			summary = v;
		else if ((v = cli_optval(argc, argv, &i, "--year", argv[0])))
			year = atoi(v);
		else
			kcve_die(KCVE_E_USAGE, "unknown argument, %s, see 'kcve reserve-for --help'",
				 argv[i]);
	}
	if (!req || !*req || !strchr(req, '@'))
		kcve_die(KCVE_E_USAGE, "--requester EMAIL is required, %s, pass the address of "
			 "who asked", req ? req : "(missing)");
	if (!summary || !*summary || strchr(summary, '\n'))
		kcve_die(KCVE_E_USAGE, "--summary TEXT (one line) is required, %s, describe the "
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
	else
		printf("%s is held for %s\n", id, req);
	tree_close(t);
	return rc;
}
