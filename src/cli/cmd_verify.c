/* kcve verify: check the whole record tree; non-zero exit on any problem. */
#include <stdio.h>

#include "cli_store.h"
#include "store/verify.h"

int cmd_verify(int argc, char **argv, struct kcve_global *g)
{
	if (argc > 1 || cli_wants_help(argc, argv)) {
		fprintf(cli_wants_help(argc, argv) ? stdout : stderr,
			"usage: kcve verify\n\nCheck every CVE of the tree: files present for its "
			"state, id in the right year,\n.sha1/.vulnerable syntax, one CVE per commit, "
			".mbox subject, and the .dyad <->\n.json rules (git ranges, CPE ranges). One "
			"line per problem: \"<CVE>: <rule>: <evidence>\".\nExit status %d when a "
			"problem was found.\n", KCVE_E_VERIFY);
		return cli_wants_help(argc, argv) ? 0 : KCVE_E_USAGE;
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
	store_verify(t, stdout, &st, &err);
	tree_unlock(t);
	printf("%zu CVEs checked, %zu problems\n", st.cves, st.problems);
	tree_close(t);
	return st.problems ? KCVE_E_VERIFY : 0;
}
