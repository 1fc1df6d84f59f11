/* The one option parser of every kcve command: getopt_long behind a small table.
 *
 * Each command declares its options and its help text; the parser adds the global options
 * (--repo, --tree, --index, -v/--verbose, --color, -h/--help) unless the command defines an
 * option of the same name itself, so `kcve check -v ...` means the same as `kcve -v check ...`.
 * Every mistake (unknown option, missing value, bad number) is one "kcve: error:" line and
 * exit status 2; -h/--help prints the command's help on stdout and exits 0; "--" ends the
 * options. Options and operands may be mixed (GNU permutation). */
#ifndef KCVE_CLI_OPT_H
#define KCVE_CLI_OPT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

struct kcve_global;

/* Keys above 255 name long-only options; a printable character is also the short option. */
enum { CLI_LONG = 256 };

struct cli_option {
	const char *name; /* long name without "--"; NULL ends the table */
	int key;          /* value cli_next() returns: the short letter or CLI_LONG + n */
	bool arg;         /* takes a value (--name VALUE or --name=VALUE) */
};

struct cli_command {
	const char *name;     /* as typed: "reserve-for" */
	const char *synopsis; /* operand/option forms, one per line, without "kcve NAME" */
	const char *help;     /* the text after the synopsis (may be NULL) */
	const struct cli_option *opts;
	bool stop_at_operand; /* options end at the first operand (kcve itself) */
};

struct cli_parser {
	const struct cli_command *cmd;
	struct kcve_global *g;
	int argc;
	char **argv;
	struct option *lopts;
	char shorts[96];
	const char *arg; /* the value of the option cli_next() just returned */
	int next_operand;
};

/* The standard help: "usage: kcve [options] NAME SYNOPSIS" lines, the help text, and the
 * global options line. */
void cli_usage(const struct cli_command *cmd, FILE *out);

void cli_begin(struct cli_parser *p, const struct cli_command *cmd, int argc, char **argv,
	       struct kcve_global *g);
/* The next option's key (its value in p->arg), or -1 when only operands remain. Handles the
 * global options, --help and every usage error itself. */
int cli_next(struct cli_parser *p);
/* After cli_next() returned -1: the operands, in order (argv is permuted by getopt). */
int cli_operands(struct cli_parser *p, char ***operands);
void cli_end(struct cli_parser *p);
/* After cli_next() returned -1: the operands, between min and max of them (max < 0: no
 * limit), else a usage error saying what is expected ("CVE-ID..."). Releases the parser. */
int cli_done(struct cli_parser *p, char ***operands, int min, int max, const char *what);

/* A usage error of this command: one line, exit status 2. */
_Noreturn void cli_usage_error(const struct cli_parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Strict decimal numbers: the whole text, in [min, max], else a usage error naming opt. */
long cli_num(const struct cli_parser *p, const char *opt, const char *text, long min, long max);
/* A CVE year: 1999..9999. */
int cli_year(const struct cli_parser *p, const char *opt, const char *text);
/* True when text is a CVE year (four digits, 1999..9999). */
bool cli_is_year(const char *text);

/* Colour: --color=auto|always|never (global), NO_COLOR and TERM=dumb turn auto off. */
enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };
extern enum cli_color cli_color_mode;
bool cli_use_color(FILE *out);

#endif
