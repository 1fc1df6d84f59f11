/* kcve verify: check the whole record tree; non-zero exit on any problem. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_store.h"
#include "core/xalloc.h"
#include "store/verify.h"

int cmd_verify(int argc, char **argv, struct kcve_global *g)
{
	if (cli_wants_help(argc, argv)) {
		fprintf(stdout,
			"usage: kcve verify [--recover] [CVE-ID|YEAR]...\n\n"
			"Check every CVE of the tree (or the given ones): files present for its state,\n"
			"id in the right year, .sha1/.vulnerable syntax, one CVE per commit, .mbox\n"
			"subject, and the .dyad <-> .json rules (git ranges, CPE ranges). One line per\n"
			"problem: \"<CVE>: <rule>: <evidence>\". Exit status %d when a problem was\n"
			"found. Entries kcve refuses to read (links, FIFOs, devices, oversize files,\n"
			"names with control characters, foreign journals) are problems too.\n"
			"verify never completes an interrupted operation (it reports it); with\n"
			"--recover it first completes it, as any writing command would.\n",
			KCVE_E_VERIFY);
		return 0;
	}
	const char **ids = xcalloc((size_t)argc, sizeof(*ids));
	int *years = xcalloc((size_t)argc, sizeof(*years));
	struct verify_scope scope = {ids, 0, years, 0};
	bool recover = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--recover"))
			recover = true;
		else if (cve_id_valid(argv[i]))
			ids[scope.nids++] = argv[i];
		else if (strlen(argv[i]) == 4 && strspn(argv[i], "0123456789") == 4)
			years[scope.nyears++] = atoi(argv[i]);
		else
			kcve_die(KCVE_E_USAGE, "not a CVE id or a year, %s, see 'kcve verify --help'",
				 argv[i]);
	}
	struct cve_tree *t = cli_open_tree(g);
	struct kcve_err err = {0};
	/* take the lock (waiting for a running writer) so the tree is judged between
	 * operations; an interrupted operation is only completed when asked */
	tree_set_replay(t, recover);
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
