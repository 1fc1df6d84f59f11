/* Helpers shared by the record-tree commands (store area): option parsing and opening the
 * tree / history with one-line errors. */
#ifndef KCVE_CLI_STORE_H
#define KCVE_CLI_STORE_H

#include "cli.h"
#include "core/error.h"
#include "store/tree.h"

struct history;

/* Open the tree from --tree/$KCVE_TREE/discovery, or die with the error. */
struct cve_tree *cli_open_tree(struct kcve_global *g);
/* Open the history (repo + index) or die. */
struct history *cli_open_history(struct kcve_global *g);
/* Print err as the one-line error and return its code. */
int cli_fail(const struct kcve_err *err);
/* "--opt VALUE" / "--opt=VALUE" at argv[*i]: value, or NULL if argv[*i] is another option.
 * Dies with a usage error when the value is missing. */
const char *cli_opt(int argc, char **argv, int *i, const char *opt);

#endif
