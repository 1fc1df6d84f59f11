/* kcve return: give an unused reserved id back (reserved -> returned). */
#include <stdio.h>

#include "cli_store.h"
#include "store/ops.h"

int cmd_return(int argc, char **argv, struct kcve_global *g)
{
	if (argc != 2 || cli_wants_help(argc, argv)) {
		fprintf(argc != 2 ? stderr : stdout,
			"usage: kcve return CVE-ID\n\nMove an unused reserved id to cve/returned/YEAR/"
			" and print the cve.org command that\nrejects it there.\n");
		return argc != 2 ? KCVE_E_USAGE : 0;
	}
	struct cve_tree *t = cli_open_tree(g);
	struct kcve_err err = {0};
	int rc = store_return(t, argv[1], &err);
	if (rc) {
		cli_fail(&err);
	} else {
		int year = cve_id_year(argv[1]);
		printf("%s returned\n", argv[1]);
		printf("cve -o Linux reject %s -j '{\"rejectedReasons\": [{\"lang\": \"en\", \"value\": "
		       "\"** REJECT ** DO NOT USE THIS CANDIDATE NUMBER. Reason: This candidate was "
		       "in a CNA pool that was not assigned to any issues during %d.\"}]}'\n",
		       argv[1], year);
	}
	tree_close(t);
	return rc;
}
