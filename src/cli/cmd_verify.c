/* kcve verify: check the whole record tree; non-zero exit on any problem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_store.h"
#include "core/xalloc.h"
#include "store/verify.h"

int cmd_verify(int argc, char **argv, struct kcve_global *g)
{
	static const struct cli_command cmd = {
		"verify", "[CVE-ID|YEAR]...",
		"Check every CVE of the tree (or the given ones): files present for its state,\n"
		"id in the right year, .sha1/.vulnerable syntax, one CVE per commit, .mbox\n"
		"subject, and the .dyad <-> .json rules (git ranges, CPE ranges). One line per\n"
		"problem: \"<CVE>: <rule>: <evidence>\". Exit status 17 when a problem was\n"
		"found.\n",
		NULL, false};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	while (cli_next(&p) != -1)
		;
	char **ops;
	int nops = cli_done(&p, &ops, 0, -1, "");
	const char **ids = xcalloc((size_t)nops + 1, sizeof(*ids));
	int *years = xcalloc((size_t)nops + 1, sizeof(*years));
	struct verify_scope scope = {ids, 0, years, 0};
	for (int i = 0; i < nops; i++) {
		if (cve_id_valid(ops[i]))
			ids[scope.nids++] = ops[i];
		else if (cli_is_year(ops[i]))
			years[scope.nyears++] = atoi(ops[i]);
		else
			cli_usage_error(&p, "not a CVE id or a year (1999-9999): '%s'", ops[i]);
	}
	struct cve_tree *t = cli_open_tree(g);
	struct kcve_err err = {0};
	/* take the lock (waiting for a running writer) so an interrupted operation is finished
	 * before the tree is judged */
	int rc = tree_lock(t, &err);
	if (rc) {
		tree_close(t);
		return cli_fail(&err);
	}
	struct verify_stats st;
	store_verify(t, &scope, stdout, &st, &err);
	tree_unlock(t);
	printf("%zu CVEs checked, %zu problems\n", st.cves, st.problems);
	tree_close(t);
	free(ids);
	free(years);
	return st.problems ? KCVE_E_VERIFY : 0;
}
