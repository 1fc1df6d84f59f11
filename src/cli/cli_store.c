/* Shared helpers of the store commands (see cli_store.h). */
#include "cli_store.h"
#include "cli_report.h"

#include <stdio.h>

#include "history/history.h"

int cli_fail(const struct kcve_err *err)
{
	kcve_error("%s", err->msg);
	return err->code ? err->code : KCVE_E_GENERIC;
}

struct cve_tree *cli_open_tree(struct kcve_global *g)
{
	struct cve_tree *t;
	struct kcve_err err = {0};
	if (tree_open(&t, g->tree, &err))
		kcve_die(err.code, "%s", err.msg);
	return t;
}

struct history *cli_open_history(struct kcve_global *g)
{
	struct history *h;
	struct kcve_err err = {0};
	if (history_open(&h, g->repo, g->index, &err))
		kcve_die(err.code ? err.code : KCVE_E_NOREPO, "%s", err.msg);
	return h;
}
