/* Shared declarations of the kcve command-line front end.
 * Each subcommand lives in its own cmd_<name>.c and is listed in commands.def. */
#ifndef KCVE_CLI_H
#define KCVE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "cli_opt.h"

/* Global options (before or after the subcommand), with their environment fallbacks applied. */
struct kcve_global {
	const char *repo;   /* --repo DIR, else $KCVE_REPO, else "." */
	const char *tree;   /* --tree DIR, else $KCVE_TREE, else NULL (commands discover it) */
	const char *index;  /* --index FILE, else NULL (default location inside the git dir) */
	bool verbose;
};

/* The command list: commands.def for kcve, a smaller list for the static embedded build. */
#ifndef KCVE_COMMANDS_DEF
#define KCVE_COMMANDS_DEF "commands.def"
/* The exit-code table of 'kcve help exit-codes'. */
void cli_print_exit_codes(FILE *out);

#endif

#define KCVE_CMD(name, summary) int cmd_##name(int argc, char **argv, struct kcve_global *g);
#include KCVE_COMMANDS_DEF
#undef KCVE_CMD

/* The exit-code table of 'kcve help exit-codes'. */
void cli_print_exit_codes(FILE *out);

#endif
