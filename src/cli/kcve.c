/* kcve: the Linux kernel CVE Numbering Authority process in one tool.
 * This file only parses the global options and dispatches to cmd_<name>(). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

struct command {
	const char *name;
	int (*fn)(int, char **, struct kcve_global *);
	const char *summary;
};

static const struct command commands[] = {
#define KCVE_CMD(n, s) {#n, cmd_##n, s},
#include KCVE_COMMANDS_DEF
#undef KCVE_CMD
};

static void usage(FILE *out)
{
	fprintf(out, "usage: kcve [--repo DIR] [--tree DIR] [--index FILE] [-v] <command> [args]\n\n"
		     "Global options (before the command):\n"
		     "  --repo DIR    kernel git repository (else $KCVE_REPO, else the current directory)\n"
		     "  --tree DIR    CVE record tree (else $KCVE_TREE, else found upward from here)\n"
		     "  --index FILE  history index (default: kcve-index.sqlite in the git dir)\n"
		     "  -v            verbose diagnostics on stderr\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char name[64];
		snprintf(name, sizeof(name), "%s", commands[i].name);
		for (char *p = name; *p; p++)
			if (*p == '_')
				*p = '-';
		fprintf(out, "  %-12s %s\n", name, commands[i].summary);
	}
	fprintf(out, "\nRun 'kcve <command> --help' for a command's options.\n");
}

/* Command names with a dash ("reserve-for") are cmd_reserve_for() in commands.def. */
static bool cmd_name_eq(const char *arg, const char *name)
{
	for (; *arg && *name; arg++, name++)
		if (*arg != *name && !(*arg == '-' && *name == '_'))
			return false;
	return *arg == *name;
}

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
			return true;
	}
	return false;
}

int cmd_version(int argc, char **argv, struct kcve_global *g)
{
	(void)argc;
	(void)argv;
	(void)g;
	printf("kcve %s\n", KCVE_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	struct kcve_global g = {0};
	g.repo = getenv("KCVE_REPO");
	g.tree = getenv("KCVE_TREE");
	g.index = getenv("KCVE_INDEX");
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *v;
		if ((v = cli_optval(argc, argv, &i, "--repo", NULL)))
			g.repo = v;
		else if ((v = cli_optval(argc, argv, &i, "--tree", NULL)))
			g.tree = v;
		else if ((v = cli_optval(argc, argv, &i, "--index", NULL)))
			g.index = v;
		else if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "--verbose") == 0)
			g.verbose = true;
		else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			return cmd_version(0, NULL, &g);
		} else {
			kcve_die(KCVE_E_USAGE, "unknown global option '%s'; see 'kcve --help'", argv[i]);
		}
	}
	if (!g.repo || !*g.repo)
		g.repo = ".";
	if (i >= argc) {
		usage(stderr);
		return KCVE_E_USAGE;
	}
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (cmd_name_eq(argv[i], commands[c].name))
			return commands[c].fn(argc - i, argv + i, &g);
	kcve_die(KCVE_E_USAGE, "unknown command '%s'; see 'kcve --help' for the list", argv[i]);
}
