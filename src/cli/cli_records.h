/* Where the record-set commands (db, report) get their records from. */
#ifndef KCVE_CLI_RECORDS_H
#define KCVE_CLI_RECORDS_H

#include "check/records/recset.h"
#include "cli.h"
#include "core/error.h"

/* The records of --db FILE if given, else of the tree (the command's --tree, the global
 * --tree, or the one found above the current directory).  Dies when no tree is found; a load
 * error is returned with err filled (set must still be released). */
int cli_load_records(struct ck_set *set, const char *db, const char *tree,
		     const struct kcve_global *g, struct kcve_err *err);

#endif
