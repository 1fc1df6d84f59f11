/* kcve return: give an unused reserved id back (reserved -> returned). */
#include <stdio.h>

#include "cli_store.h"
#include "store/ops.h"

int cmd_return(int argc, char **argv, struct kcve_global *g)
{
	static const struct cli_command cmd = {
		"return", "CVE-ID",
		"Move an unused reserved id to cve/returned/YEAR/ and print the cve.org command that\n"
		"rejects it there.\n",
		NULL, false};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	while (cli_next(&p) != -1)
		;
	char **ops;
	cli_done(&p, &ops, 1, 1, "one CVE-ID");
	const char *id = ops[0];
	struct cve_tree *t = cli_open_tree(g);
	struct kcve_err err = {0};
	int rc = store_return(t, id, &err);
	if (rc) {
		cli_fail(&err);
	} else {
		int year = cve_id_year(id);
		printf("%s returned\n", id);
		printf("cve -o Linux reject %s -j '{\"rejectedReasons\": [{\"lang\": \"en\", \"value\": "
		       "\"** REJECT ** DO NOT USE THIS CANDIDATE NUMBER. Reason: This candidate was "
		       "in a CNA pool that was not assigned to any issues during %d.\"}]}'\n",
		       id, year);
	}
	tree_close(t);
	return rc;
}
