/* Shared declarations of the kcve command-line front end.
 * Each subcommand lives in its own cmd_<name>.c and is listed in commands.def. */
#ifndef KCVE_CLI_H
#define KCVE_CLI_H

#include <stdbool.h>

/* Options given before the subcommand, with their environment fallbacks applied. */
struct kcve_global {
	const char *repo;   /* --repo DIR, else $KCVE_REPO, else "." */
	const char *tree;   /* --tree DIR, else $KCVE_TREE, else NULL (commands discover it) */
	const char *index;  /* --index FILE, else NULL (default location inside the git dir) */
	bool verbose;
};

/* The command list: commands.def for kcve, a smaller list for the static embedded build. */
#ifndef KCVE_COMMANDS_DEF
#define KCVE_COMMANDS_DEF "commands.def"
#endif

#define KCVE_CMD(name, summary) int cmd_##name(int argc, char **argv, struct kcve_global *g);
#include KCVE_COMMANDS_DEF
#undef KCVE_CMD

/* "--name VALUE" or "--name=VALUE" at argv[*i]: the value (advancing *i), or NULL when argv[*i]
 * is another option; a missing value is a usage error naming 'kcve [cmd] --help'. */
const char *cli_optval(int argc, char **argv, int *i, const char *name, const char *cmd);

/* True if argv[i] is -h/--help. */
bool cli_wants_help(int argc, char **argv);

#endif
