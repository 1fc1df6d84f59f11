/* kcve verify: check the whole record tree; non-zero exit on any problem. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"
#include "cli_store.h"
#include "core/xalloc.h"
#include "store/verify.h"
#include "core/kjson.h"

/* The problem lines "<subject>: <rule>: <evidence>" as JSON. */
static int problems_json(const char *text, size_t checked)
{
	json_t *a = json_array();
	for (const char *line = text; line && *line;) {
		size_t n = strcspn(line, "\n");
		char *l = xstrndup(line, n);
		char *r = strstr(l, ": "), *ev = r ? strstr(r + 2, ": ") : NULL;
		if (r && ev) {
			*r = *ev = '\0';
			json_array_append_new(a, kj_pack("{s:s, s:s, s:s}", "subject", l, "rule",
							   r + 2, "evidence", ev + 2));
		} else {
			json_array_append_new(a, kj_pack("{s:n, s:n, s:s}", "subject", "rule",
							   "evidence", l));
		}
		free(l);
		line += n + (line[n] == '\n');
	}
	return cli_json_print(kj_pack("{s:I, s:o}", "checked", (json_int_t)checked, "problems", a));
}

int cmd_verify(int argc, char **argv, struct kcve_global *g)
{
	struct verify_args {
		bool json, recover;
	} a = {0};
	static const struct cli_option opts[] = {
		CLI_OPT_FLAG("json", struct verify_args, json,
			     "{\"checked\": N, \"problems\": [{\"subject\" (a CVE id or a directory),\n"
			     "\"rule\", \"evidence\"}]}"),
		CLI_OPT_FLAG("recover", struct verify_args, recover,
			     "first complete an interrupted operation, as any writing command would"),
		CLI_OPT_END};
	static const struct cli_command cmd = {
		"verify", "[--json] [--recover] [CVE-ID|YEAR]...",
		"Check every CVE of the tree (or the given ones): files present for its state,\n"
		"id in the right year, .sha1/.vulnerable syntax, one CVE per commit, .mbox\n"
		"subject, and the .dyad <-> .json rules (git ranges, CPE ranges). One line per\n"
		"problem: \"<CVE>: <rule>: <evidence>\". Exit status 17 when a problem was\n"
		"found. Entries kcve refuses to read (links, FIFOs, devices, oversize files,\n"
		"names with control characters, foreign journals) are problems too.\n"
		"verify never completes an interrupted operation (it reports it).\n",
		opts, false};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	bool json = a.json, recover = a.recover;
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
	/* take the lock (waiting for a running writer) so the tree is judged between
	 * operations; an interrupted operation is only completed when asked */
	tree_set_replay(t, recover);
	int rc = tree_lock(t, &err);
	if (rc == KCVE_E_IO && !recover) {
		/* a damaged state directory (.kcve/lock a link, ...) is one of the problems
		 * verify reports: judge the tree without the lock */
		kcve_warn("%s (verifying without the lock)", err.msg);
	} else if (rc) {
		tree_close(t);
		free(ids);
		free(years);
		return cli_fail(&err);
	}
	struct verify_stats st;
	bool locked = rc == 0;
	rc = 0;
	char *text = NULL;
	size_t len = 0;
	FILE *out = json ? open_memstream(&text, &len) : stdout;
	if (!out)
		kcve_die(KCVE_E_GENERIC, "out of memory for the problem list, verify, retry");
	store_verify(t, &scope, out, &st, &err);
	if (locked)
		tree_unlock(t);
	if (json) {
		fclose(out);
		rc = problems_json(text, st.cves);
		free(text);
	} else {
		printf("%zu CVEs checked, %zu problems\n", st.cves, st.problems);
	}
	tree_close(t);
	free(ids);
	free(years);
	return rc ? rc : st.problems ? KCVE_E_VERIFY : 0;
}
