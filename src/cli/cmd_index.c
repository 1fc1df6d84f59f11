/* kcve index [--rebuild]: build or update the history index of the kernel repository. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "history/history.h"
#include "core/kjson.h"

int cmd_index(int argc, char **argv, struct kcve_global *g)
{
	unsigned flags = HISTORY_PROGRESS | HISTORY_QUIET;
	struct index_args {
		bool rebuild, json;
	} a = {0};
	static const struct cli_option opts[] = {
		CLI_OPT_FLAG("rebuild", struct index_args, rebuild,
			     "discard the index and build it from scratch"),
		CLI_OPT_FLAG("json", struct index_args, json,
			     "{\"index\", \"ranges\", \"ranges_new\", \"commits_added\", \"seconds\"}"),
		CLI_OPT_END};
	static const struct cli_command cmd = {
		"index", "[--rebuild] [--json]",
		"Build the history index of the kernel repository (--repo; default file:\n"
		"kcve-index.sqlite in its git dir, or --index FILE), or bring it up to date with new\n"
		"release tags. Only ranges between tags not indexed yet are walked.\n",
		opts, false};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	if (a.rebuild)
		flags |= HISTORY_REBUILD;
	bool json = a.json;
	cli_done(&p, NULL, 0, 0, "");
	struct history *h;
	struct history_index_stats st;
	struct kcve_err err = {0};
	if (history_open_ex(&h, g->repo, g->index, flags, &st, NULL, &err)) {
		kcve_error("%s", err.msg);
		return err.code;
	}
	int rc = 0;
	if (json)
		rc = cli_json_print(kj_pack("{s:s, s:I, s:I, s:I, s:f}", "index",
					      history_index_path(h), "ranges",
					      (json_int_t)st.ranges_total, "ranges_new",
					      (json_int_t)st.ranges_new, "commits_added",
					      (json_int_t)st.commits_new, "seconds", st.seconds));
	else
		printf("%s: %zu ranges (%zu new), %zu commits added, %.2f s\n",
		       history_index_path(h), st.ranges_total, st.ranges_new, st.commits_new,
		       st.seconds);
	history_close(h);
	return rc;
}
