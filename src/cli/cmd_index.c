/* kcve index [--rebuild]: build or update the history index of the kernel repository. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/error.h"
#include "history/history.h"

int cmd_index(int argc, char **argv, struct kcve_global *g)
{
	unsigned flags = HISTORY_PROGRESS | HISTORY_QUIET;
	enum { O_REBUILD = CLI_LONG };
	static const struct cli_option opts[] = {{"rebuild", O_REBUILD, false}, {NULL, 0, false}};
	static const struct cli_command cmd = {
		"index", "[--rebuild]",
		"Build the history index of the kernel repository (--repo; default file:\n"
		"kcve-index.sqlite in its git dir, or --index FILE), or bring it up to date with new\n"
		"release tags. Only ranges between tags not indexed yet are walked.\n"
		"  --rebuild   discard the index and build it from scratch\n",
		opts, false};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	for (int c; (c = cli_next(&p)) != -1;)
		if (c == O_REBUILD)
			flags |= HISTORY_REBUILD;
	cli_done(&p, NULL, 0, 0, "");
	struct history *h;
	struct history_index_stats st;
	struct kcve_err err = {0};
	if (history_open_ex(&h, g->repo, g->index, flags, &st, &err)) {
		kcve_error("%s", err.msg);
		return err.code;
	}
	printf("%s: %zu ranges (%zu new), %zu commits added, %.2f s\n", history_index_path(h),
	       st.ranges_total, st.ranges_new, st.commits_new, st.seconds);
	history_close(h);
	return 0;
}
