/* The one option parser of every kcve command (see cli_opt.h). */
#include "cli_opt.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_report.h"
#include "core/assert.h"
#include "core/error.h"
#include "core/xalloc.h"
#include "core/text.h"

enum cli_color cli_color_mode = CLI_COLOR_AUTO;

/* The global options; a command's own option of the same name (or letter) takes precedence. */
enum { G_REPO = 1000, G_TREE, G_INDEX, G_VERBOSE, G_COLOR, G_HELP };
/* getopt's value of the n-th option of a command's table when it is bound (key 0) */
enum { CLI_BOUND = 2000 };
static const struct cli_option global_opts[] = {
	CLI_OPT("repo", G_REPO, true),       CLI_OPT("tree", G_TREE, true),   CLI_OPT("index", G_INDEX, true),
	CLI_OPT("verbose", G_VERBOSE, false), CLI_OPT("color", G_COLOR, true), CLI_OPT("help", G_HELP, false),
	CLI_OPT_END,
};

/* One option's --help: "  -j, --jobs N       text", later lines of the text under it. */
static void print_option(const struct cli_option *o, FILE *out)
{
	char left[96], letter[8] = "";
	if (o->key > 0 && o->key < 128 && isalnum(o->key))
		text_snprintf(letter, sizeof letter, "-%c, ", o->key);
	text_snprintf(left, sizeof left, "  %s--%s%s%s", letter, o->name, o->arg ? " " : "",
		 o->arg ? (o->meta ? o->meta : "VALUE") : "");
	const char *h = o->help;
	size_t n = strcspn(h, "\n");
	if (strlen(left) > 19) /* the text starts two spaces after the option at least */
		fprintf(out, "%s\n%21s%.*s\n", left, "", (int)n, h);
	else
		fprintf(out, "%-21s%.*s\n", left, (int)n, h);
	for (h += n; *h; h += n) {
		h++;
		n = strcspn(h, "\n");
		fprintf(out, "%21s%.*s\n", "", (int)n, h);
	}
}

/* The declared options (those with a help line), under their headings. */
static void print_options(const struct cli_command *cmd, FILE *out)
{
	bool any = false;
	for (const struct cli_option *o = cmd->opts; o && o->name; o++) {
		if (!o->help)
			continue;
		if (!any)
			fprintf(out, "\nOptions:\n");
		any = true;
		if (o->type == CLI_HEADING)
			fprintf(out, "%s\n", o->help);
		else
			print_option(o, out);
	}
}

void cli_usage(const struct cli_command *cmd, FILE *out)
{
	const char *s = cmd->synopsis ? cmd->synopsis : "";
	bool self = !strcmp(cmd->name, "kcve");
	for (int line = 0; line == 0 || *s; line++) {
		size_t n = strcspn(s, "\n");
		fprintf(out, "%s kcve [global options]%s%s%s%.*s\n", line ? "   or:" : "usage:",
			self ? "" : " ", self ? "" : cmd->name, n ? " " : "", (int)n, s);
		s += n;
		if (*s)
			s++;
	}
	if (cmd->help && *cmd->help)
		fprintf(out, "\n%s", cmd->help);
	print_options(cmd, out);
	if (!self)
		fprintf(out, "\nGlobal options (before or after the command): --repo DIR, --tree DIR, "
			     "--index FILE,\n-v/--verbose, --color=auto|always|never, -h/--help; see "
			     "'kcve --help'.\n");
}

_Noreturn void cli_usage_error(const struct cli_parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	const char *name = p->cmd->name;
	bool self = !strcmp(name, "kcve");
	kcve_die(KCVE_E_USAGE, "%s; see 'kcve%s%s --help'", msg, self ? "" : " ", self ? "" : name);
}

static bool command_has(const struct cli_command *cmd, const char *name, int key)
{
	for (const struct cli_option *o = cmd->opts; o && o->name; o++)
		if (o->type != CLI_HEADING && (!strcmp(o->name, name) || (key && key < 128 && o->key == key)))
			return true;
	return false;
}

void cli_bind(struct cli_parser *p, void *opts)
{
	p->bind = opts;
}

/* The declaration behind getopt's value c, when it is bound; NULL: the command's own. */
static const struct cli_option *bound_option(const struct cli_parser *p, int c)
{
	const struct cli_option *v = p->cmd->opts;
	if (!v)
		return NULL;
	size_t n = 0;
	while (v[n].name)
		n++;
	if (c >= CLI_BOUND && c < CLI_BOUND + (int)n)
		return &v[c - CLI_BOUND];
	for (size_t i = 0; i < n; i++)
		if (v[i].key == c && v[i].type != CLI_RETURN && v[i].type != CLI_HEADING)
			return &v[i];
	return NULL;
}

/* Store a bound option's value into the command's option struct. */
static void store_option(const struct cli_parser *p, const struct cli_option *o, const char *v)
{
	KCVE_ASSERT(p->bind);
	char *at = (char *)p->bind + o->target;
	char name[96];
	switch (o->type) {
	case CLI_FLAG: *(bool *)at = true; break;
	case CLI_STRING: *(const char **)at = v; break;
	case CLI_NUMBER:
		if (o->key > 0 && o->key < 128 && isalnum(o->key))
			text_snprintf(name, sizeof name, "-%c/--%s", o->key, o->name);
		else
			text_snprintf(name, sizeof name, "--%s", o->name);
		*(long *)at = cli_num(p, name, v, o->min, o->max);
		break;
	default: break;
	}
}

static void add_short(struct cli_parser *p, int key, bool arg)
{
	size_t n = strlen(p->shorts);
	if (key < 128 && isalnum(key) && n + 3 < sizeof(p->shorts)) {
		p->shorts[n++] = (char)key;
		if (arg)
			p->shorts[n++] = ':';
		p->shorts[n] = '\0';
	}
}

void cli_begin(struct cli_parser *p, const struct cli_command *cmd, int argc, char **argv,
	       struct kcve_global *g)
{
	memset(p, 0, sizeof(*p));
	p->cmd = cmd;
	p->g = g;
	p->argc = argc;
	p->argv = argv;
	size_t n = 0;
	for (const struct cli_option *o = cmd->opts; o && o->name; o++)
		n++;
	p->lopts = xcalloc(n + sizeof(global_opts) / sizeof(global_opts[0]) + 1, sizeof(*p->lopts));
	text_snprintf(p->shorts, sizeof(p->shorts), "%s:", cmd->stop_at_operand ? "+" : "");
	size_t k = 0;
	for (const struct cli_option *o = cmd->opts; o && o->name; o++) {
		if (o->type == CLI_HEADING)
			continue;
		int val = o->key ? o->key : CLI_BOUND + (int)(o - cmd->opts);
		p->lopts[k++] = (struct option){o->name, o->arg ? required_argument : no_argument,
						NULL, val};
		add_short(p, o->key, o->arg);
	}
	for (const struct cli_option *o = global_opts; o->name; o++) {
		if (command_has(cmd, o->name, 0))
			continue;
		p->lopts[k++] = (struct option){o->name, o->arg ? required_argument : no_argument,
						NULL, o->key};
	}
	if (!command_has(cmd, "", 'v'))
		strcat(p->shorts, "v");
	if (!command_has(cmd, "", 'h'))
		strcat(p->shorts, "h");
	optind = 0; /* glibc: full re-initialisation, the parser runs once per level */
	opterr = 0;
}

void cli_end(struct cli_parser *p)
{
	free(p->lopts);
	p->lopts = NULL;
}

static void set_color(const struct cli_parser *p, const char *v)
{
	if (!strcmp(v, "auto"))
		cli_color_mode = CLI_COLOR_AUTO;
	else if (!strcmp(v, "always"))
		cli_color_mode = CLI_COLOR_ALWAYS;
	else if (!strcmp(v, "never"))
		cli_color_mode = CLI_COLOR_NEVER;
	else
		cli_usage_error(p, "bad --color value '%s', use auto, always or never", v);
}

/* The text of the option getopt just rejected. */
static const char *bad_option(const struct cli_parser *p, char buf[3])
{
	if (optopt > 0 && optopt < 128 && isalnum(optopt)) {
		buf[0] = '-';
		buf[1] = (char)optopt;
		buf[2] = '\0';
		return buf;
	}
	const char *a = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "?";
	return a;
}

int cli_next(struct cli_parser *p)
{
	for (;;) {
		int c = getopt_long(p->argc, p->argv, p->shorts, p->lopts, NULL);
		p->arg = optarg;
		char buf[3];
		switch (c) {
		case -1:
			p->next_operand = optind;
			return -1;
		case '?':
			cli_end(p);
			cli_usage_error(p, "unknown option '%s' for 'kcve%s%s'", bad_option(p, buf),
					strcmp(p->cmd->name, "kcve") ? " " : "",
					strcmp(p->cmd->name, "kcve") ? p->cmd->name : "");
		case ':': {
			const char *o = bad_option(p, buf);
			char name[128];
			text_snprintf(name, sizeof(name), "%.*s", (int)strcspn(o, "="), o);
			cli_end(p);
			cli_usage_error(p, "option '%s' needs a value", name);
		}
		case 'h':
		case G_HELP:
			if (c == 'h' && command_has(p->cmd, "", 'h'))
				return c;
			cli_end(p);
			cli_usage(p->cmd, stdout);
			exit(fflush(stdout) == 0 ? 0 : KCVE_E_IO);
		case 'v':
		case G_VERBOSE:
			if (c == 'v' && command_has(p->cmd, "", 'v'))
				return c;
			p->g->verbose = true;
			break;
		case G_REPO:
			p->g->repo = optarg;
			break;
		case G_TREE:
			p->g->tree = optarg;
			break;
		case G_INDEX:
			p->g->index = optarg;
			break;
		case G_COLOR:
			set_color(p, optarg);
			break;
		default: {
			const struct cli_option *o = p->bind ? bound_option(p, c) : NULL;
			if (!o)
				return c;
			store_option(p, o, optarg);
			break;
		}
		}
	}
}

int cli_operands(struct cli_parser *p, char ***operands)
{
	*operands = p->argv + p->next_operand;
	return p->argc - p->next_operand;
}

int cli_done(struct cli_parser *p, char ***operands, int min, int max, const char *what)
{
	char **ops;
	int n = cli_operands(p, &ops);
	cli_end(p);
	if (max >= 0 && n > max)
		cli_usage_error(p, "unexpected argument '%s'%s%s", ops[max], max ? ", expected " : "",
				max ? what : "");
	if (n < min)
		cli_usage_error(p, "missing argument, expected %s", what);
	if (operands)
		*operands = ops;
	return n;
}

long cli_num(const struct cli_parser *p, const char *opt, const char *text, long min, long max)
{
	char *end;
	errno = 0;
	long v = strtol(text, &end, 10);
	if (!*text || isspace((unsigned char)*text) || *end || errno || v < min || v > max)
		cli_usage_error(p, "%s takes a whole number from %ld to %ld, not '%s'", opt, min, max,
				text);
	return v;
}

bool cli_is_year(const char *text)
{
	if (strlen(text) != 4 || strspn(text, "0123456789") != 4)
		return false;
	int y = atoi(text);
	return y >= 1999 && y <= 9999;
}

int cli_year(const struct cli_parser *p, const char *opt, const char *text)
{
	return (int)cli_num(p, opt, text, 1999, 9999);
}

bool cli_use_color(FILE *out)
{
	if (cli_color_mode != CLI_COLOR_AUTO)
		return cli_color_mode == CLI_COLOR_ALWAYS;
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
	if (nc && *nc)
		return false;
	if (!term || !strcmp(term, "dumb"))
		return false;
	return isatty(fileno(out)) != 0;
}
