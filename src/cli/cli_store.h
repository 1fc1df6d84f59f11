/* Helpers shared by the record-tree commands (store area): opening the tree / history with
 * one-line errors (options are parsed by cli_opt.h). */
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

#endif
