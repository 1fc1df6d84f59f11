/* kcve: the Linux kernel CVE Numbering Authority process in one tool.
 * This file only parses the global options and dispatches to cmd_<name>(). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/kjson.h"
#include "core/text.h"

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

/* "reserve_for" -> "reserve-for" */
static void cmd_display_name(const char *name, char out[64])
{
	text_snprintf(out, 64, "%s", name);
	for (char *p = out; *p; p++)
		if (*p == '_')
			*p = '-';
}

static void usage(FILE *out)
{
	fprintf(out, "usage: kcve [--repo DIR] [--tree DIR] [--index FILE] [-v] [--color=WHEN] <command> "
		     "[args]\n\n"
		     "Global options (before the command, or after it unless the command has an\n"
		     "option of the same name):\n"
		     "  --repo DIR    kernel git repository (else $KCVE_REPO, else the current directory)\n"
		     "  --tree DIR    CVE record tree (else $KCVE_TREE, else found upward from here)\n"
		     "  --index FILE  history index (default: kcve-index.sqlite in the git dir)\n"
		     "  -v, --verbose verbose diagnostics on stderr\n"
		     "  --color=WHEN  auto (default: colour on a terminal unless NO_COLOR is set or\n"
		     "                TERM=dumb), always, never\n"
		     "  -h, --help    this help; 'kcve <command> --help' for a command's\n"
		     "  --version     print kcve's version\n\n"
		     "Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		char name[64];
		cmd_display_name(commands[i].name, name);
		fprintf(out, "  %-12s %s\n", name, commands[i].summary);
	}
	fprintf(out, "\nExit status: 0 success, 2 usage error, other codes per failure class: "
		     "'kcve help exit-codes'.\n");
}

/* Command names with a dash ("reserve-for") are cmd_reserve_for() in commands.def. */
static bool cmd_name_eq(const char *arg, const char *name)
{
	for (; *arg && *name; arg++, name++)
		if (*arg != *name && !(*arg == '-' && *name == '_'))
			return false;
	return *arg == *name;
}

static const struct cli_option version_opts[] = {CLI_OPT("json", CLI_LONG, false), CLI_OPT_END};
static const struct cli_command version_cmd = {
	"version", "[--json]", "Print kcve's version (--json: {\"version\"}).\n", version_opts, false};

int cmd_version(int argc, char **argv, struct kcve_global *g)
{
	struct cli_parser p;
	cli_begin(&p, &version_cmd, argc, argv, g);
	bool json = false;
	while (cli_next(&p) != -1)
		json = true;
	cli_done(&p, NULL, 0, 0, "");
	if (json)
		return cli_json_print(kj_pack("{s:s}", "version", KCVE_VERSION));
	printf("kcve %s\n", KCVE_VERSION);
	return 0;
}

static const struct cli_option help_opts[] = {CLI_OPT("json", CLI_LONG, false), CLI_OPT_END};
static const struct cli_command help_cmd = {
	"help", "[COMMAND | exit-codes]\n--json [exit-codes]",
	"Without an argument: the list of commands. With a command name: its help (the same as\n"
	"'kcve COMMAND --help'). 'exit-codes': the exit status of each failure class.\n"
	"--json: the commands [{\"name\", \"summary\"}]; with exit-codes [{\"code\", \"name\",\n"
	"\"meaning\"}].\n",
	help_opts, false};

int cmd_help(int argc, char **argv, struct kcve_global *g)
{
	struct cli_parser p;
	cli_begin(&p, &help_cmd, argc, argv, g);
	bool json = false;
	while (cli_next(&p) != -1)
		json = true;
	char **ops;
	int n = cli_done(&p, &ops, 0, 1, "one topic");
	if (json && n && strcmp(ops[0], "exit-codes"))
		cli_usage_error(&p, "--json goes with 'help' alone or 'help exit-codes', not '%s'",
				ops[0]);
	if (n == 0 && json) {
		json_t *a = json_array();
		for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
			char name[64];
			cmd_display_name(commands[i].name, name);
			json_array_append_new(a, kj_pack("{s:s, s:s}", "name", name, "summary",
							   commands[i].summary));
		}
		return cli_json_print(a);
	}
	if (n == 0) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(ops[0], "exit-codes")) {
		if (json)
			return cli_json_print(cli_exit_codes_json());
		cli_print_exit_codes(stdout);
		return 0;
	}
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (cmd_name_eq(ops[0], commands[c].name))
			return commands[c].fn(2, (char *[]){ops[0], (char *)"--help", NULL}, g);
	kcve_die(KCVE_E_USAGE, "no help topic '%s'; see 'kcve --help' for the commands, or 'kcve help "
		 "exit-codes'", ops[0]);
}

int main(int argc, char **argv)
{
	struct kcve_global g = {0};
	g.repo = getenv("KCVE_REPO");
	g.tree = getenv("KCVE_TREE");
	g.index = getenv("KCVE_INDEX");
	enum { O_VERSION = CLI_LONG };
	static const struct cli_option opts[] = {
		CLI_OPT("version", O_VERSION, false), CLI_OPT("help", 'h', false), CLI_OPT_END};
	static const struct cli_command self = {"kcve", "<command> [args]", NULL, opts, true};
	struct cli_parser p;
	cli_begin(&p, &self, argc, argv, &g);
	for (int c; (c = cli_next(&p)) != -1;)
		if (c == O_VERSION) {
			cli_end(&p);
			return cmd_version(1, (char *[]){(char *)"version", NULL}, &g);
		} else if (c == 'h') {
			cli_end(&p);
			usage(stdout);
			return 0;
		}
	char **rest;
	int nrest = cli_operands(&p, &rest);
	cli_end(&p);
	if (!g.repo || !*g.repo)
		g.repo = ".";
	if (nrest < 1) {
		usage(stderr);
		return KCVE_E_USAGE;
	}
	/* $KCVE_NOW and $SOURCE_DATE_EPOCH are checked once, for every command alike */
	struct kcve_err clock_err = {0};
	if (clock_init(&clock_err))
		kcve_die(clock_err.code, "%s", clock_err.msg);
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++)
		if (cmd_name_eq(rest[0], commands[c].name))
			return commands[c].fn(nrest, rest, &g);
	kcve_die(KCVE_E_USAGE, "unknown command '%s'; see 'kcve --help' for the list", rest[0]);
}
