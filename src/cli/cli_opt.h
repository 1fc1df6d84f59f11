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
#include <stddef.h>
#include <stdio.h>

struct kcve_global;

/* Keys above 255 name long-only options; a printable character is also the short option. */
enum { CLI_LONG = 256 };

/* What the parser does with an option (its binding).  A bound option is stored by cli_next()
 * into the command's option struct given to cli_bind(), at the option's target offset, and is
 * never returned; only CLI_RETURN options (the command's own logic: lists, choices, checks
 * that need other options) come back from cli_next(). */
enum cli_type {
	CLI_RETURN = 0, /* cli_next() returns the key, the value in p->arg */
	CLI_FLAG,       /* bool target = true */
	CLI_STRING,     /* const char *target = the value */
	CLI_NUMBER,     /* long target = the value, a whole number in [min, max] (cli_num) */
	CLI_HEADING,    /* not an option: a heading of the option list in --help (help = text) */
};

struct cli_option {
	const char *name; /* long name without "--"; NULL ends the table ("" for a heading) */
	int key;          /* value cli_next() returns: the short letter or CLI_LONG + n (0: bound,
			     long only) */
	bool arg;         /* takes a value (--name VALUE or --name=VALUE) */
	enum cli_type type;
	size_t target;    /* offsetof() the value in the command's option struct */
	const char *meta; /* the value's name in --help ("FILE"); NULL: "VALUE" */
	const char *help; /* --help line(s), '\n' between lines; NULL: not listed */
	long min, max;    /* CLI_NUMBER range */
};

/* An option the command handles itself, without a help line of its own (its help is prose). */
#define CLI_OPT(nm, k, a) {.name = nm, .key = k, .arg = a}
/* Declarations, one per option: name, target field of struct st, value name, help. */
#define CLI_OPT_FLAG(nm, st, field, hl) {nm, 0, false, CLI_FLAG, offsetof(st, field), NULL, hl, 0, 0}
#define CLI_OPT_STRING(nm, st, field, mv, hl) \
	{nm, 0, true, CLI_STRING, offsetof(st, field), mv, hl, 0, 0}
#define CLI_OPT_NUMBER(nm, st, field, mv, lo, hi, hl) \
	{nm, 0, true, CLI_NUMBER, offsetof(st, field), mv, hl, lo, hi}
/* An option the command handles itself (cli_next() returns key); mv NULL: takes no value. */
#define CLI_OPT_LOGIC(nm, k, mv, hl) {nm, k, (mv) != NULL, CLI_RETURN, 0, mv, hl, 0, 0}
#define CLI_OPT_HEADING(text) {"", 0, false, CLI_HEADING, 0, NULL, text, 0, 0}
#define CLI_OPT_END {.name = NULL}

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
	void *bind;      /* the command's option struct (cli_bind), NULL: none */
};

/* The standard help: "usage: kcve [options] NAME SYNOPSIS" lines, the help text, the
 * "Options:" list made from the declarations that carry a help line (under their headings),
 * and the global options line. */
void cli_usage(const struct cli_command *cmd, FILE *out);

void cli_begin(struct cli_parser *p, const struct cli_command *cmd, int argc, char **argv,
	       struct kcve_global *g);
/* Bound options (CLI_FLAG, CLI_STRING, CLI_NUMBER) are stored into *opts from now on. */
void cli_bind(struct cli_parser *p, void *opts);
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
