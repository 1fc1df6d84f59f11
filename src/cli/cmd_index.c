/* kcve index [--rebuild]: build or update the history index of the kernel repository. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "core/error.h"
#include "history/history.h"

int cmd_index(int argc, char **argv, struct kcve_global *g)
{
	unsigned flags = HISTORY_PROGRESS | HISTORY_QUIET;
	if (cli_wants_help(argc, argv)) {
		printf("usage: kcve [--repo DIR] [--index FILE] index [--rebuild]\n\n"
		       "Build the history index of the kernel repository (default file:\n"
		       "kcve-index.sqlite in its git dir), or bring it up to date with new release\n"
		       "tags. Only ranges between tags not indexed yet are walked.\n"
		       "  --rebuild   discard the index and build it from scratch\n");
		return 0;
	}
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--rebuild") == 0)
			flags |= HISTORY_REBUILD;
		else
			kcve_die(KCVE_E_USAGE, "unknown option '%s' for 'kcve index'; see 'kcve index --help'",
				 argv[i]);
	}
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
