/* kcve branches: the supported-branch data of the tree (import releases.json, list). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"
#include "cli_store.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "policy/branches.h"
#include "store/ops.h"
#include "core/kjson.h"

struct branches_args {
	bool json;
};
static const struct cli_option branches_opts[] = {
	CLI_OPT_FLAG("json", struct branches_args, json,
		     "list: {\"has_data\", \"branches\": [{\"branch\", \"moniker\", \"latest\" (null if\n"
		     "unknown), \"supported\"}]}; import: {\"imported\", \"file\"}"),
	CLI_OPT_END};
static const struct cli_command branches_cmd = {
	"branches", "[list] [--json]\nimport [--json] RELEASES.JSON|-",
	"import: write " BRANCHES_FILE " from kernel.org's releases.json (one line per\n"
	"        active branch). End-of-life dates are kept by hand in " EOL_FILE "\n"
	"        (\"BRANCH YYYY-MM-DD\"). 'kcve create' refuses fixes that land only on\n"
	"        branches that are not supported.\n"
	"list:   every known branch and whether it is supported today.\n",
	branches_opts, false};

int cmd_branches(int argc, char **argv, struct kcve_global *g)
{
	struct cli_parser p;
	cli_begin(&p, &branches_cmd, argc, argv, g);
	struct branches_args a = {0};
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	bool json = a.json;
	char **ops;
	int nops = cli_done(&p, &ops, 0, 2, "'list' or 'import FILE'");
	bool import = nops && !strcmp(ops[0], "import");
	if (nops && !import && strcmp(ops[0], "list"))
		cli_usage_error(&p, "unknown branches action '%s', use 'list' or 'import'", ops[0]);
	if (import != (nops == 2))
		cli_usage_error(&p, import ? "import needs one file, pass releases.json (or - for stdin)"
					   : "unexpected argument '%s' after 'list'", ops[nops - 1]);
	struct cve_tree *t = cli_open_tree(g);
	struct kcve_err err = {0};
	int rc = 0;
	if (import) {
		struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
		int r = read_file(!strcmp(ops[1], "-") ? "/dev/stdin" : ops[1], &in);
		size_t n = 0;
		if (r < 0) {
			kcve_error("cannot read the file, %s, check the path", ops[1]);
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
			} else if (json) {
				rc = cli_json_print(kj_pack("{s:I, s:s}", "imported", (json_int_t)n,
							      "file", BRANCHES_FILE));
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
	} else {
		struct branch_policy bp;
		if ((rc = branch_policy_load(&bp, tree_root(t), &err))) {
			cli_fail(&err);
		} else if (json) {
			time_t now = (time_t)clock_now();
			json_t *a = json_array();
			for (size_t i = 0; i < bp.n; i++)
				json_array_append_new(a, kj_pack(
					"{s:s, s:o, s:o, s:b}", "branch", bp.v[i].branch, "moniker",
					cli_json_str_or_null(bp.v[i].moniker), "latest",
					cli_json_str_or_null(bp.v[i].latest), "supported",
					branch_policy_supported(&bp, bp.v[i].branch, now)));
			rc = cli_json_print(kj_pack("{s:b, s:o}", "has_data", bp.has_data, "branches", a));
		} else if (!bp.has_data) {
			printf("no branch data (%s, %s): every branch counts as supported\n",
			       BRANCHES_FILE, EOL_FILE);
		} else {
			time_t now = (time_t)clock_now();
			for (size_t i = 0; i < bp.n; i++)
				printf("%-8s %-10s %-12s %s\n", bp.v[i].branch,
				       bp.v[i].moniker[0] ? bp.v[i].moniker : "-",
				       bp.v[i].latest[0] ? bp.v[i].latest : "-",
				       branch_policy_supported(&bp, bp.v[i].branch, now) ?
					       "supported" : "unsupported");
		}
		branch_policy_release(&bp);
	}
	tree_close(t);
	return rc;
}
