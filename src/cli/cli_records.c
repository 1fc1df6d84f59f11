/* One way for the record-set commands to pick --db or a tree, so that they accept the same
 * options and fail with the same message (see cli_records.h). */
#include "cli_records.h"
#include "cli_report.h"

#include <stdlib.h>

int cli_load_records(struct ck_set *set, const char *db, const char *tree,
		     const struct kcve_global *g, struct kcve_err *err)
{
	if (db)
		return ck_set_load_db(set, db, err);
	char *root = ck_tree_find(tree ? tree : g->tree, err);
	if (!root)
		kcve_die(err->code, "%s", err->msg);
	int rc = ck_set_load_tree(set, root, err);
	free(root);
	return rc;
}
