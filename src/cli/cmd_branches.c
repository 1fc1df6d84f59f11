/* kcve branches: the supported-branch data of the tree (import releases.json, list). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_store.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "store/branches.h"
#include "store/ops.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kcve branches [list]\n"
		     "       kcve branches import RELEASES.JSON|-\n\n"
		     "import: write " BRANCHES_FILE " from kernel.org's releases.json (one line per\n"
		     "        active branch). End-of-life dates are kept by hand in " EOL_FILE "\n"
		     "        (\"BRANCH YYYY-MM-DD\"). 'kcve create' refuses fixes that land only on\n"
		     "        branches that are not supported.\n"
		     "list:   every known branch and whether it is supported today.\n");
}

int cmd_branches(int argc, char **argv, struct kcve_global *g)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	struct cve_tree *t = cli_open_tree(g);
	struct kcve_err err = {0};
	int rc = 0;
	if (argc >= 2 && !strcmp(argv[1], "import")) {
		if (argc != 3) {
			tree_close(t);
			kcve_die(KCVE_E_USAGE, "import needs one file, branches import, pass "
				 "releases.json (or - for stdin)");
		}
		struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
		int r = read_file(!strcmp(argv[2], "-") ? "/dev/stdin" : argv[2], &in);
		size_t n = 0;
		if (r < 0) {
			kcve_error("cannot read the file, %s, check the path", argv[2]);
			rc = KCVE_E_IO;
		} else if ((rc = branches_from_releases_json(sb_str(&in), &out, &n, &err))) {
			cli_fail(&err);
		} else if ((rc = tree_lock(t, &err)) == 0) {
			char *p = path_join(tree_root(t), BRANCHES_FILE);
			char *dir = path_join(tree_root(t), "scripts");
			mkdir_p(dir, 0755);
			if (atomic_write_file(p, out.buf, out.len, 0644) < 0) {
				kcve_error("cannot write the branch list, %s, check permissions", p);
				rc = KCVE_E_IO;
			} else {
				printf("%zu branches imported into %s\n", n, BRANCHES_FILE);
			}
			free(p);
			free(dir);
			tree_unlock(t);
		} else {
			cli_fail(&err);
		}
		sb_release(&in);
		sb_release(&out);
	} else if (argc == 1 || (argc == 2 && !strcmp(argv[1], "list"))) {
		struct branch_policy bp;
		if ((rc = branch_policy_load(&bp, tree_root(t), &err))) {
			cli_fail(&err);
		} else if (!bp.has_data) {
			printf("no branch data (%s, %s): every branch counts as supported\n",
			       BRANCHES_FILE, EOL_FILE);
		} else {
			time_t now = store_now();
			for (size_t i = 0; i < bp.n; i++)
				printf("%-8s %-10s %-12s %s\n", bp.v[i].branch,
				       bp.v[i].moniker[0] ? bp.v[i].moniker : "-",
				       bp.v[i].latest[0] ? bp.v[i].latest : "-",
				       branch_policy_supported(&bp, bp.v[i].branch, now) ?
					       "supported" : "unsupported");
		}
		branch_policy_release(&bp);
	} else {
		usage(stderr);
		rc = KCVE_E_USAGE;
	}
	tree_close(t);
	return rc;
}
