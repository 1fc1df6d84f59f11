/* Makefile statements: assignments, conditionals, include, define; recipes skipped, and of a
 * rule only its target and prerequisite text, handed to the rule hook.
 *
 * A conditional kcve cannot decide (it tests $(shell ...) or a compiler probe) runs BOTH branches
 * and marks every variable assigned inside as uncertain; list variables touched that way make
 * the affected makefile answer "unknown" instead of a guess. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "kbuild/cond.h"
#include "kbuild/kbuild_int.h"

#define MAX_COND 64
#define MAX_INCLUDE_DEPTH 12

struct cond {
	bool parent_active;
	bool taken;         /* some branch already ran */
	bool active;
	bool uncertain;
	size_t condstack_len;
	char *syms;         /* symbolic mode: condition literals of the running branch */
	char *else_syms;    /* symbolic mode: those of the else branch */
	bool sym_both;      /* symbolic mode: a CONFIG test, both branches run */
};

struct evalstate {
	struct cond conds[MAX_COND];
	int ncond;
	int skipped_depth;  /* conditionals nested beyond MAX_COND (treated as inactive) */
	bool in_rule;
	/* a rule line waiting for its recipe: only a rule with a recipe of its own compiles its
	 * first prerequisite; one without only adds a dependency to the pattern rule's */
	char *rule_targets, *rule_prereqs;
	unsigned rule_line;
	bool in_define;
	int define_depth;
	struct strbuf define_name;
	struct strbuf define_body;
	bool define_recursive;
	int include_depth;
};

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static const char *skip_blank(const char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

static void rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && (is_blank(s[n - 1]) || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = '\0';
}

/* Keyword at s followed by a blank, '(' (for ifeq) or end; returns the text after it or NULL. */
static const char *keyword(const char *s, const char *kw)
{
	size_t n = strlen(kw);
	if (strncmp(s, kw, n) != 0)
		return NULL;
	if (s[n] == '\0')
		return s + n;
	if (is_blank(s[n]) || s[n] == '(' || s[n] == '"' || s[n] == '\'')
		return skip_blank(s + n);
	return NULL;
}

static bool active(const struct evalstate *st)
{
	if (st->skipped_depth)
		return false;
	return st->ncond == 0 || st->conds[st->ncond - 1].active;
}

static char *expand_str(struct mk_ctx *c, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	mk_expand(c, s, strlen(s), &sb);
	return sb_detach(&sb);
}

static char *strip_dup(const char *s)
{
	s = skip_blank(s);
	char *d = xstrdup(s);
	rtrim(d);
	return d;
}

/* Evaluate the test of ifeq/ifneq/ifdef/ifndef; *uncertain set when it cannot be decided. */
static bool eval_test(struct mk_ctx *c, const char *kind, const char *arg, bool *uncertain)
{
	bool saved = c->uncertain;
	char savedwhy[sizeof(c->why)];
	memcpy(savedwhy, c->why, sizeof(savedwhy));
	c->uncertain = false;
	c->in_test = true;
	bool result = false;
	if (!strcmp(kind, "ifdef") || !strcmp(kind, "ifndef")) {
		char *name = expand_str(c, arg);
		char *nm = strip_dup(name);
		free(name);
		bool defined;
		struct mk_var *v = mk_vars_get(c->locals, nm, strlen(nm));
		if (!v && !strncmp(nm, "CONFIG_", 7) && c->symbolic && c->sym_names) {
			struct strbuf val = STRBUF_INIT;
			mk_expand_var(c, nm, &val); /* the enumerated value; records the symbol */
			defined = val.len > 0;
			sb_release(&val);
		} else if (!v && !strncmp(nm, "CONFIG_", 7)) {
			const char *r = kb_config_raw(c->cfg, nm);
			defined = c->sym_force ? c->sym_force == 1 : r && *r;
			if (c->symbolic) {
				sb_addc(&c->syms, ' ');
				sb_adds(&c->syms, nm);
			}
		} else {
			if (!v)
				v = mk_vars_get(c->globals, nm, strlen(nm));
			defined = v && *skip_blank(v->value);
			if (v && v->uncertain)
				c->uncertain = true;
		}
		free(nm);
		result = !strcmp(kind, "ifdef") ? defined : !defined;
	} else {
		char *a = NULL, *b = NULL;
		if (arg[0] == '(') {
			size_t n = strlen(arg);
			int depth = 0;
			size_t comma = 0, close = 0;
			for (size_t i = 1; i < n; i++) {
				if (arg[i] == '(' || arg[i] == '{')
					depth++;
				else if ((arg[i] == ')' || arg[i] == '}') && depth > 0)
					depth--;
				else if (arg[i] == ',' && depth == 0 && !comma)
					comma = i;
				else if (arg[i] == ')' && depth == 0) {
					close = i;
					break;
				}
			}
			if (!comma || !close) {
				mk_mark_uncertain(c, "malformed %s", kind);
			} else {
				a = xstrndup(arg + 1, comma - 1);
				b = xstrndup(arg + comma + 1, close - comma - 1);
			}
		} else if (arg[0] == '"' || arg[0] == '\'') {
			const char *e1 = strchr(arg + 1, arg[0]);
			const char *s2 = e1 ? skip_blank(e1 + 1) : NULL;
			const char *e2 = s2 && (*s2 == '"' || *s2 == '\'') ? strchr(s2 + 1, *s2) : NULL;
			if (!e2) {
				mk_mark_uncertain(c, "malformed %s", kind);
			} else {
				a = xstrndup(arg + 1, (size_t)(e1 - arg - 1));
				b = xstrndup(s2 + 1, (size_t)(e2 - s2 - 1));
			}
		} else {
			mk_mark_uncertain(c, "malformed %s", kind);
		}
		if (a && b) {
			char *ea = expand_str(c, a), *eb = expand_str(c, b);
			char *sa = strip_dup(ea), *sb = strip_dup(eb);
			result = strcmp(sa, sb) == 0;
			if (!strcmp(kind, "ifneq"))
				result = !result;
			free(ea);
			free(eb);
			free(sa);
			free(sb);
		}
		free(a);
		free(b);
	}
	c->in_test = false;
	*uncertain = c->uncertain;
	c->uncertain = saved;
	memcpy(c->why, savedwhy, sizeof(savedwhy));
	return result;
}

static void enter_branch(struct mk_ctx *c, struct cond *k)
{
	c->condstack.len = k->condstack_len;
	if (c->condstack.buf)
		c->condstack.buf[c->condstack.len] = '\0';
	if (c->symbolic && k->active && k->syms && strcmp(k->syms, "y"))
		sb_addf(&c->condstack, "\x01%s", k->syms);
}

char *mk_cond_stack(const struct mk_ctx *c)
{
	char *acc = xstrdup("y");
	const char *p = c->condstack.buf ? c->condstack.buf : "";
	while ((p = strchr(p, '\x01'))) {
		const char *e = strchr(p + 1, '\x01');
		char *part = e ? xstrndup(p + 1, (size_t)(e - p - 1)) : xstrdup(p + 1);
		char *x = kbt_cond_and(acc, part);
		free(acc);
		free(part);
		acc = x;
		p = e ? e : p + strlen(p);
	}
	return acc;
}

/* The distinct CONFIG_ symbols of " CONFIG_A CONFIG_B CONFIG_A", in order; returns the count. */
static size_t distinct_syms(const char *s, char ***out)
{
	char **v = NULL;
	size_t n = 0, alloc = 0, wn;
	for (const char *w = s; (w = mk_next_word(w, &wn)); w += wn) {
		bool dup = false;
		for (size_t i = 0; i < n && !dup; i++)
			dup = strlen(v[i]) == wn && !memcmp(v[i], w, wn);
		if (!dup) {
			XGROW(v, n + 1, alloc);
			v[n++] = xstrndup(w, wn);
		}
	}
	*out = v;
	return n;
}

static void free_syms(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* The value a symbol takes in row r of a truth table (kbt_cond_from_table's digits). */
static const char *row_value(size_t r, size_t i)
{
	static const char *const vals[4] = {"y", "m", "", "kcve-other-value"};
	for (size_t j = 0; j < i; j++)
		r /= 4;
	return vals[r % 4];
}

static void enumerate_begin(struct mk_ctx *c, char **names, size_t n, const char **vals)
{
	c->sym_names = (const char *const *)names;
	c->sym_vals = vals;
	c->nsym_vals = n;
	c->sym_missed = false;
}

static bool enumerate_end(struct mk_ctx *c)
{
	bool missed = c->sym_missed;
	c->sym_names = NULL;
	c->sym_vals = NULL;
	c->nsym_vals = 0;
	c->sym_missed = false;
	return missed;
}

/* Symbolic mode: the variables with alternatives (struct mk_var's alts) that text names as
 * $(NAME), ${NAME} or $(NAME:a=b), at most max, added to av[*n] (once each); *unknown when one
 * has too many to follow. */
struct altvar {
	char *name;
	const struct mk_var *v;
};

static void alt_refs(struct mk_ctx *c, const char *text, bool in_test, struct altvar *av, size_t *n, size_t max,
		     bool *unknown)
{
	const char *q = text, *s, *p;
	size_t nn;
	while ((p = mk_next_ref(&q, &s, &nn))) {
		const char *e = s + nn;
		/* a reference standing as whole words (`amdgpu-y += $(AMDKFD_FILES)`): its words
		 * carry their own conditions (the list hook); only one inside a word (`process_$(BITS).o`)
		 * or a test needs the values */
		bool before = p == text || strchr(" \t,(", p[-1]), after = (*e == ')' || *e == '}') && strchr(" \t,)", e[1]);
		if (!in_test && before && after)
			continue;
		const struct mk_var *v = mk_vars_get(c->locals, s, nn);
		if (!v)
			v = mk_vars_get(c->globals, s, nn);
		if (!v || (v->nalts < 2 && !v->alts_unknown))
			continue;
		bool dup = false;
		for (size_t i = 0; i < *n && !dup; i++)
			dup = strlen(av[i].name) == nn && !memcmp(av[i].name, s, nn);
		if (dup)
			continue;
		if (*n == max || v->alts_unknown) {
			*unknown = true;
			continue;
		}
		av[*n].name = xstrndup(s, nn);
		av[*n].v = v;
		(*n)++;
	}
}

#define MAX_ALT_VARS 3
#define MAX_ALT_COMBOS 16

/* Row r of the product of av's alternatives: the override values and the row's condition. */
static char *alt_row(const struct altvar *av, size_t n, size_t r, const char **names, const char **vals)
{
	char *cond = xstrdup("y");
	for (size_t i = 0; i < n; i++) {
		const struct mk_alt *a = &av[i].v->alts[r % av[i].v->nalts];
		r /= av[i].v->nalts;
		names[i] = av[i].name;
		vals[i] = a->value;
		char *x = kbt_cond_and(cond, a->cond);
		free(cond);
		cond = x;
	}
	return cond;
}

static size_t alt_rows(const struct altvar *av, size_t n)
{
	size_t rows = 1;
	for (size_t i = 0; i < n && rows <= MAX_ALT_COMBOS; i++)
		rows *= av[i].v->nalts;
	return rows;
}

static void free_altvars(struct altvar *av, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(av[i].name);
}

/* Symbolic mode: a test reading variables with alternatives and no CONFIG_ symbol (`ifeq
 * ($(BITS),32)`): each branch under the or of the rows that take it; "unknown" when too many or
 * when a row reads CONFIG_ symbols too. */
static bool sym_alt_test(struct mk_ctx *c, struct cond *k, const char *kind, const char *arg)
{
	struct altvar av[MAX_ALT_VARS];
	size_t n = 0;
	bool unknown = false;
	alt_refs(c, arg, true, av, &n, MAX_ALT_VARS, &unknown);
	if (!n && !unknown)
		return false;
	size_t rows = alt_rows(av, n);
	char *pos = xstrdup("n"), *neg = xstrdup("n");
	unknown = unknown || rows > MAX_ALT_COMBOS;
	const char *names[MAX_ALT_VARS], *vals[MAX_ALT_VARS];
	for (size_t r = 0; r < rows && !unknown; r++) {
		char *rc = alt_row(av, n, r, names, vals);
		c->ovr_names = names;
		c->ovr_vals = vals;
		c->novr = n;
		sb_reset(&c->syms);
		bool u = false;
		bool t = eval_test(c, kind, arg, &u);
		unknown = u || c->syms.len > 0;
		char **side = t ? &pos : &neg;
		char *x = kbt_cond_or(*side, rc);
		free(*side);
		*side = x;
		free(rc);
	}
	c->ovr_names = c->ovr_vals = NULL;
	c->novr = 0;
	free_altvars(av, n);
	if (unknown) {
		free(pos);
		free(neg);
		pos = xstrdup("unknown");
		neg = xstrdup("unknown");
	}
	free(k->syms);
	free(k->else_syms);
	k->syms = pos;
	k->else_syms = neg;
	k->sym_both = true;
	k->active = true;
	return true;
}

/* Symbolic mode: a test that reads CONFIG_ symbols runs both branches, each under the
 * condition the test's truth table over those symbols gives (every value each can take: y, m,
 * unset, another value), e.g. `ifneq ($(filter y,$(CONFIG_A) $(CONFIG_B)),)` -> "(CONFIG_A=y) ||
 * (CONFIG_B=y)".  More than KBT_COND_TABLE_MAX symbols, a test whose answer does not depend on
 * them (a comparison with a string or a number) or one that reads a symbol only some rows
 * reach: both branches "unknown". */
static bool sym_test(struct mk_ctx *c, struct cond *k, const char *kind, const char *arg)
{
	bool unc = false, unc2 = false;
	sb_reset(&c->syms);
	c->sym_force = 1;
	eval_test(c, kind, arg, &unc);
	c->sym_force = 2;
	eval_test(c, kind, arg, &unc2);
	c->sym_force = 0;
	char **names = NULL;
	size_t n = distinct_syms(sb_str(&c->syms), &names);
	if (!n || unc || unc2) {
		free_syms(names, n);
		return false;
	}
	char *pos = NULL, *neg = NULL;
	if (n <= KBT_COND_TABLE_MAX) {
		size_t rows = kbt_cond_rows(n);
		bool *truth = xcalloc(rows, sizeof(bool));
		const char *vals[KBT_COND_TABLE_MAX];
		enumerate_begin(c, names, n, vals);
		bool bad = false, any_t = false, any_f = false;
		for (size_t r = 0; r < rows; r++) {
			for (size_t i = 0; i < n; i++)
				vals[i] = row_value(r, i);
			bool u = false;
			truth[r] = eval_test(c, kind, arg, &u);
			bad = bad || u;
			any_t = any_t || truth[r];
			any_f = any_f || !truth[r];
		}
		bad = enumerate_end(c) || bad;
		if (!bad && any_t && any_f) {
			pos = kbt_cond_from_table((const char *const *)names, n, truth);
			for (size_t r = 0; r < rows; r++)
				truth[r] = !truth[r];
			neg = kbt_cond_from_table((const char *const *)names, n, truth);
		}
		free(truth);
	}
	free_syms(names, n);
	free(k->syms);
	free(k->else_syms);
	k->syms = pos ? pos : xstrdup("unknown");
	k->else_syms = neg ? neg : xstrdup("unknown");
	k->sym_both = true;
	k->active = true;
	return true;
}

static void begin_cond(struct mk_ctx *c, struct evalstate *st, const char *kind, const char *arg)
{
	if (st->skipped_depth || st->ncond == MAX_COND) {
		st->skipped_depth++;
		return;
	}
	bool parent_active = active(st);
	struct cond *k = &st->conds[st->ncond++];
	memset(k, 0, sizeof(*k));
	k->parent_active = parent_active;
	k->condstack_len = c->condstack.len;
	if (!k->parent_active) {
		k->taken = true; /* nothing inside runs */
		return;
	}
	if (c->symbolic && ((!c->novr && sym_alt_test(c, k, kind, arg)) || sym_test(c, k, kind, arg))) {
		enter_branch(c, k);
		return;
	}
	bool unc = false;
	bool r = eval_test(c, kind, arg, &unc);
	if (unc) {
		k->uncertain = true;
		k->active = true;
		c->cond_uncertain++;
	} else {
		k->active = r;
		k->taken = r;
	}
	enter_branch(c, k);
}

static void else_cond(struct mk_ctx *c, struct evalstate *st, const char *rest)
{
	if (st->skipped_depth)
		return;
	if (st->ncond == 0)
		return; /* stray else: make would fail; ignore */
	struct cond *k = &st->conds[st->ncond - 1];
	if (!k->parent_active)
		return;
	rest = skip_blank(rest);
	static const char *const kinds[] = {"ifeq", "ifneq", "ifdef", "ifndef"};
	if (k->sym_both) {
		/* the else side of a symbolic test: its negation, or a chained test's own condition */
		for (size_t i = 0; *rest && i < 4; i++) {
			const char *arg = keyword(rest, kinds[i]);
			char *prev = xstrdup(k->else_syms ? k->else_syms : "y");
			if (arg && sym_test(c, k, kinds[i], arg)) {
				/* else ifeq: the previous test's negation holds in both new branches */
				char *a = kbt_cond_and(prev, k->syms), *b = kbt_cond_and(prev, k->else_syms);
				free(k->syms);
				free(k->else_syms);
				k->syms = a;
				k->else_syms = b;
				free(prev);
				enter_branch(c, k);
				return;
			}
			free(prev);
		}
		free(k->syms);
		k->syms = k->else_syms;
		k->else_syms = xstrdup("n");
		k->active = true;
		enter_branch(c, k);
		return;
	}
	if (k->uncertain) {
		k->active = true; /* both branches of an undecidable test run */
		enter_branch(c, k);
		return;
	}
	if (k->taken) {
		k->active = false;
		enter_branch(c, k);
		return;
	}
	if (!*rest) {
		k->active = true;
		k->taken = true;
		enter_branch(c, k);
		return;
	}
	for (size_t i = 0; i < 4; i++) {
		const char *arg = keyword(rest, kinds[i]);
		if (!arg)
			continue;
		bool unc = false;
		bool r = eval_test(c, kinds[i], arg, &unc);
		if (unc) {
			k->uncertain = true;
			k->active = true;
			c->cond_uncertain++;
		} else {
			k->active = r;
			k->taken = r;
		}
		enter_branch(c, k);
		return;
	}
	mk_mark_uncertain(c, "malformed else");
}

static void end_cond(struct mk_ctx *c, struct evalstate *st)
{
	if (st->skipped_depth) {
		st->skipped_depth--;
		return;
	}
	if (st->ncond == 0)
		return;
	struct cond *k = &st->conds[--st->ncond];
	if (k->uncertain)
		c->cond_uncertain--;
	c->condstack.len = k->condstack_len;
	if (c->condstack.buf)
		c->condstack.buf[c->condstack.len] = '\0';
	free(k->syms);
	free(k->else_syms);
	k->syms = k->else_syms = NULL;
}

static void do_include(struct mk_ctx *c, struct evalstate *st, const char *arg, bool optional)
{
	char *files = expand_str(c, arg);
	size_t wn;
	for (const char *w = files; (w = mk_next_word(w, &wn)); w += wn) {
		char *f = xstrndup(w, wn);
		char *path;
		if (f[0] == '/') {
			path = xstrdup(f);
		} else {
			path = mk_strf("%s/%s", c->ksrc, f);
		}
		/* generated files (auto.conf) and Kbuild's own machinery are provided by kcve */
		bool builtin = strstr(f, "include/config/auto.conf") || strstr(f, "scripts/Kbuild.include") ||
			       strstr(f, "scripts/Makefile.");
		struct stat sbuf;
		if (!builtin && c->no_fs) {
			mk_mark_uncertain(c, "include %s not followed", f);
		} else if (!builtin) {
			if (st->include_depth >= MAX_INCLUDE_DEPTH) {
				mk_mark_uncertain(c, "includes nested too deeply at %s", f);
			} else if (stat(path, &sbuf) != 0 || !S_ISREG(sbuf.st_mode)) { /* not /dev/zero */
				if (!optional)
					mk_mark_uncertain(c, "included makefile %s not found", f);
			} else {
				st->include_depth++;
				const char *saved_file = c->cur_file;
				unsigned saved_line = c->cur_line;
				struct strbuf sb = STRBUF_INIT;
				/* symbolic mode: `include $(AMD_DC)` whose words were listed under
				 * conditions: the included file runs under its word's */
				size_t stack_len = c->condstack.len;
				if (c->symbolic && c->word_cond) {
					char *wc = c->word_cond(c, arg, w, wn);
					if (strcmp(wc, "y"))
						sb_addf(&c->condstack, "\x01%s", wc);
					free(wc);
				}
				if (read_file(path, &sb) == 0)
					mk_eval_text(c, sb_str(&sb), sb.len, path);
				c->condstack.len = stack_len;
				if (c->condstack.buf)
					c->condstack.buf[stack_len] = '\0';

				else if (!optional)
					mk_mark_uncertain(c, "cannot read included %s", f);
				sb_release(&sb);
				c->cur_file = saved_file;
				c->cur_line = saved_line;
				st->include_depth--;
			}
		}
		free(path);
		free(f);
	}
	free(files);
}

/* Find the assignment operator at top level; returns its start and sets *op / *oplen.  A line
 * that is a rule instead ("target: prerequisites", or a target-specific variable) returns NULL
 * with *rule at its colon. */
static const char *find_assign(const char *s, char *op, size_t *oplen, const char **rule)
{
	int depth = 0;
	*rule = NULL;
	for (const char *p = s; *p; p++) {
		if (*p == '$' && (p[1] == '(' || p[1] == '{')) {
			depth++;
			p++;
			continue;
		}
		if ((*p == '(' || *p == '{') && depth > 0) {
			depth++;
			continue;
		}
		if ((*p == ')' || *p == '}') && depth > 0) {
			depth--;
			continue;
		}
		if (depth)
			continue;
		if (*p == '=') {
			if (p > s && (p[-1] == '+' || p[-1] == '?' || p[-1] == '!')) {
				*op = p[-1];
				*oplen = 2;
				return p - 1;
			}
			*op = '=';
			*oplen = 1;
			return p;
		}
		if (*p == ':') {
			if (p[1] == '=') {
				*op = ':';
				*oplen = 2;
				return p;
			}
			if (p[1] == ':' && p[2] == '=') {
				*op = ':';
				*oplen = 3;
				return p;
			}
			*rule = p; /* target: prerequisites (or target-specific variable) */
			return NULL;
		}
	}
	return NULL;
}

/* Symbolic mode: add (value, cond) to alts, or-ing the condition of an equal value; "n" ones
 * are left out. */
static void alt_add(struct mk_alt *alts, size_t *n, size_t cap, const char *value, char *cond, bool *over)
{
	if (!strcmp(cond, "n")) {
		free(cond);
		return;
	}
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(alts[i].value, value)) {
			char *x = kbt_cond_or(alts[i].cond, cond);
			free(alts[i].cond);
			free(cond);
			alts[i].cond = x;
			return;
		}
	if (*n == cap) {
		*over = true;
		free(cond);
		return;
	}
	alts[*n].value = xstrdup(value);
	alts[*n].cond = cond;
	(*n)++;
}

/* Symbolic mode: the values variable v (not an object list) takes after an assignment under
 * cond; prev is its value before (NULL: unset), added what `+=` appended.  The value v->value
 * holds stays the last one assigned. */
static void update_alts(struct mk_var *v, char op, const char *cond, const char *prev, const char *added)
{
	if (!strcmp(cond, "y") && (op != '+' || !v->nalts)) {
		mk_var_set_alts(v, NULL, 0, false);
		return;
	}
	size_t np = v->nalts ? v->nalts : 1;
	struct mk_alt one = {(char *)(prev ? prev : ""), (char *)"y"};
	const struct mk_alt *p = v->nalts ? v->alts : &one;
	struct mk_alt out[2 * MK_MAX_ALTS + 2];
	size_t n = 0;
	bool over = v->alts_unknown;
	char *notc = kbt_cond_not(cond);
	for (size_t i = 0; i < np; i++) {
		if (op == '+') {
			char *nv = mk_strf("%s%s%s", p[i].value, *p[i].value && *added ? " " : "", added);
			alt_add(out, &n, MK_MAX_ALTS, nv, kbt_cond_and(p[i].cond, cond), &over);
			free(nv);
		}
		alt_add(out, &n, MK_MAX_ALTS, p[i].value, kbt_cond_and(p[i].cond, notc), &over);
	}
	if (op != '+')
		alt_add(out, &n, MK_MAX_ALTS, v->value, xstrdup(cond), &over);
	free(notc);
	mk_var_set_alts(v, n >= 2 ? out : NULL, n >= 2 ? n : 0, over);
	for (size_t i = 0; i < n; i++) {
		free(out[i].value);
		free(out[i].cond);
	}
}

/* The assignment proper to the expanded name (nn bytes), then the list hook.  cond: symbolic
 * mode's condition of the assignment (NULL otherwise). */
static void assign_name(struct mk_ctx *c, const char *lhs_raw, const char *name, char op, const char *rhs,
			bool exported, const char *cond)
{
	size_t nn = strlen(name);
	struct mk_var *v = mk_vars_get(c->locals, name, nn);
	bool was_uncertain = c->uncertain;
	c->uncertain = false;
	char *old = NULL; /* symbolic: the earlier value an `:=`/`=` kept or replaced */
	char *words = NULL; /* what an `:=` or a simple append expanded */
	/* symbolic: a variable other than a list assigned under a condition gets alternatives */
	bool alts = cond && op != '?' && op != '!' && !(c->keep_name && c->keep_name(name)) &&
		    (strcmp(cond, "y") || (v && v->nalts));
	char *prev = NULL;
	if (alts && v) {
		struct strbuf sb = STRBUF_INIT;
		mk_expand_var(c, name, &sb);
		prev = sb_detach(&sb);
	}
	if (cond && v && (op == '=' || op == ':') && c->keep_name && c->keep_name(name)) {
		struct strbuf sb = STRBUF_INIT;
		mk_expand_var(c, name, &sb);
		old = sb_detach(&sb);
		if (strcmp(cond, "y")) {
			/* a list assigned under a condition keeps its words where the condition fails:
			 * `ptp_kvm-$(CONFIG_X86) := a.o` then `ptp_kvm-$(CONFIG_HAVE_ARM_SMCCC) := b.o` */
			char *val = expand_str(c, rhs);
			words = xstrdup(val);
			struct strbuf all = STRBUF_INIT;
			sb_adds(&all, old);
			size_t wn, on;
			for (const char *w = val; (w = mk_next_word(w, &wn)); w += wn) {
				bool dup = false;
				for (const char *o = old; !dup && (o = mk_next_word(o, &on)); o += on)
					dup = on == wn && !memcmp(o, w, wn);
				if (!dup) {
					if (all.len)
						sb_addc(&all, ' ');
					sb_add(&all, w, wn);
				}
			}
			v = mk_vars_set(c->locals, name, nn, sb_str(&all), false);
			sb_release(&all);
			free(val);
			op = 0;
		}
	}
	/* symbolic mode, one row of variables with alternatives: the row's values are only known
	 * now, so the text is expanded now */
	if (c->novr && op == '=')
		op = ':';
	switch (op) {
	case '=':
		v = mk_vars_set(c->locals, name, nn, rhs, true);
		break;
	case ':':
		words = expand_str(c, rhs);
		v = mk_vars_set(c->locals, name, nn, words, false);
		break;
	case '?':
		if (!v && !mk_vars_get(c->globals, name, nn))
			v = mk_vars_set(c->locals, name, nn, rhs, true);
		break;
	case '+': {
		if (!v) {
			/* appending to a global (arch exports) copies it locally, like make's environment */
			struct mk_var *g = mk_vars_get(c->globals, name, nn);
			if (g) {
				v = mk_vars_set(c->locals, name, nn, g->value, g->recursive);
				v->uncertain = g->uncertain;
			}
		}
		if (!v && c->novr) {
			words = expand_str(c, rhs);
			v = mk_vars_set(c->locals, name, nn, words, false);
			break;
		}
		if (!v) {
			v = mk_vars_set(c->locals, name, nn, rhs, true);
			break;
		}
		struct strbuf sb = STRBUF_INIT;
		sb_adds(&sb, v->value);
		if (v->recursive && !c->novr) {
			if (sb.len && *rhs)
				sb_addc(&sb, ' ');
			sb_adds(&sb, rhs);
		} else {
			words = expand_str(c, rhs);
			if (sb.len && *words)
				sb_addc(&sb, ' ');
			sb_adds(&sb, words);
		}
		bool unc = v->uncertain, rec = v->recursive, exp = v->exported;
		v = mk_vars_set(c->locals, name, nn, sb_str(&sb), rec);
		v->uncertain = unc;
		v->exported = exp;
		sb_release(&sb);
		break;
	}
	case '!':
		v = mk_vars_set(c->locals, name, nn, "", false);
		v->uncertain = true;
		break;
	}
	if (v) {
		if (c->uncertain || c->cond_uncertain > 0)
			v->uncertain = true;
		if (exported)
			v->exported = true;
	}
	if (alts && v) {
		char *added = op == '+' ? expand_str(c, rhs) : NULL;
		if (op != '+' && v->recursive) { /* the alternatives hold expanded values */
			char *e = expand_str(c, v->value);
			free(v->value);
			v->value = e;
			v->recursive = false;
		}
		update_alts(v, op, cond, prev, added);
		free(added);
	}
	free(prev);
	c->uncertain = was_uncertain;
	if (c->hook && op != '?') {
		c->assign_cond = cond;
		c->assign_old = old;
		c->assign_words = words;
		c->hook(c, lhs_raw, name, rhs, c->cur_file, c->cur_line);
		c->assign_cond = NULL;
		c->assign_old = NULL;
		c->assign_words = NULL;
	}
	free(old);
	free(words);
}

/* Symbolic mode: a name built from several symbols (`musb_hdrc-$(CONFIG_USB_MUSB_HOST)$(
 * CONFIG_USB_MUSB_DUAL_ROLE)`) is expanded for every value of them; each name it can take is
 * assigned under the condition giving it (more than KBT_COND_TABLE_MAX symbols: the all-y name,
 * "unknown"). */
static void assign_computed(struct mk_ctx *c, const char *lhs_raw, const char *yname, char op,
			    const char *rhs, bool exported, char **syms, size_t k, const char *stack)
{
	if (k > KBT_COND_TABLE_MAX) {
		assign_name(c, lhs_raw, yname, op, rhs, exported, "unknown");
		return;
	}
	size_t rows = kbt_cond_rows(k);
	char **names = xcalloc(rows, sizeof(*names));
	const char *vals[KBT_COND_TABLE_MAX];
	enumerate_begin(c, syms, k, vals);
	for (size_t r = 0; r < rows; r++) {
		for (size_t i = 0; i < k; i++)
			vals[i] = row_value(r, i);
		char *e = expand_str(c, lhs_raw);
		names[r] = strip_dup(e);
		free(e);
	}
	bool missed = enumerate_end(c);
	bool *truth = xcalloc(rows, sizeof(bool));
	for (size_t r = 0; r < rows; r++) {
		const char *nm = names[r];
		if (!nm || !*nm || strchr(nm, ' ') || strchr(nm, '\t') || strstr(nm, row_value(3, 0)))
			continue;
		bool seen = false;
		for (size_t q = 0; q < r && !seen; q++)
			seen = names[q] && !strcmp(names[q], nm);
		if (seen)
			continue;
		for (size_t q = 0; q < rows; q++)
			truth[q] = names[q] && !strcmp(names[q], nm);
		char *tc = missed ? xstrdup("unknown") : kbt_cond_from_table((const char *const *)syms, k, truth);
		char *full = kbt_cond_and(stack, tc);
		assign_name(c, lhs_raw, nm, op, rhs, exported, full);
		free(full);
		free(tc);
	}
	for (size_t r = 0; r < rows; r++)
		free(names[r]);
	free(names);
	free(truth);
}

static void assign_once(struct mk_ctx *c, const char *lhs_raw, char op, const char *rhs, bool exported);

/* Symbolic mode: an assignment reading variables with alternatives (`obj-y += process_$(BITS).o`)
 * runs once per row of their values, under that row's condition ("unknown" when too many). */
static void assign(struct mk_ctx *c, const char *lhs_raw, char op, const char *rhs, bool exported)
{
	struct altvar av[MAX_ALT_VARS];
	size_t n = 0;
	bool unknown = false;
	if (c->symbolic && !c->novr) {
		alt_refs(c, lhs_raw, false, av, &n, MAX_ALT_VARS, &unknown);
		alt_refs(c, rhs, false, av, &n, MAX_ALT_VARS, &unknown);
	}
	if (!n && !unknown) {
		assign_once(c, lhs_raw, op, rhs, exported);
		return;
	}
	size_t rows = alt_rows(av, n), len = c->condstack.len;
	if (unknown || rows > MAX_ALT_COMBOS) {
		sb_adds(&c->condstack, "\x01unknown");
		assign_once(c, lhs_raw, op, rhs, exported);
	} else {
		const char *names[MAX_ALT_VARS], *vals[MAX_ALT_VARS];
		for (size_t r = 0; r < rows; r++) {
			char *rc = alt_row(av, n, r, names, vals);
			c->ovr_names = names;
			c->ovr_vals = vals;
			c->novr = n;
			sb_addf(&c->condstack, "\x01%s", rc);
			assign_once(c, lhs_raw, op, rhs, exported);
			sb_setlen(&c->condstack, len);
			free(rc);
		}
		c->ovr_names = c->ovr_vals = NULL;
		c->novr = 0;
	}
	sb_setlen(&c->condstack, len);
	free_altvars(av, n);
}

static void assign_once(struct mk_ctx *c, const char *lhs_raw, char op, const char *rhs, bool exported)
{
	c->syms.len = 0;
	if (c->syms.buf)
		c->syms.buf[0] = '\0';
	char *lhs = expand_str(c, lhs_raw);
	char *name = strip_dup(lhs);
	free(lhs);
	if (!*name || strchr(name, ' ') || strchr(name, '\t')) {
		free(name);
		return;
	}
	if (!c->symbolic) {
		assign_name(c, lhs_raw, name, op, rhs, exported, NULL);
		free(name);
		return;
	}
	/* symbolic mode: the condition is the enclosing branches' and the name's own */
	char **syms = NULL;
	size_t k = distinct_syms(sb_str(&c->syms), &syms);
	char *stack = mk_cond_stack(c);
	if (c->name_cond && strchr(lhs_raw, '$')) {
		char *nc = c->name_cond(c, lhs_raw);
		char *x = kbt_cond_and(stack, nc);
		free(stack);
		free(nc);
		stack = x;
	}
	if (k >= 2) {
		assign_computed(c, lhs_raw, name, op, rhs, exported, syms, k, stack);
	} else {
		char *full = kbt_cond_and(stack, k ? syms[0] : "y");
		assign_name(c, lhs_raw, name, op, rhs, exported, full);
		free(full);
	}
	free(stack);
	free_syms(syms, k);
	free(name);
}

/* The rule line waiting for its recipe, if any, is handed to the rule hook (recipe: whether a
 * recipe line followed) and forgotten. */
static void drop_rule(struct mk_ctx *c, struct evalstate *st, bool recipe)
{
	if (st->rule_targets && c->rule_hook)
		c->rule_hook(c, st->rule_targets, st->rule_prereqs, recipe, c->cur_file, st->rule_line);
	free(st->rule_targets);
	free(st->rule_prereqs);
	st->rule_targets = st->rule_prereqs = NULL;
}

/* A rule line ("targets: prerequisites"): handed to the rule hook at once when its recipe
 * follows ';', else once the next line shows whether a (tab-indented) recipe follows. */
static void rule_line(struct mk_ctx *c, struct evalstate *st, const char *s, const char *colon)
{
	st->in_rule = true;
	drop_rule(c, st, false);
	if (!c->rule_hook)
		return;
	char *targets = xstrndup(s, (size_t)(colon - s));
	const char *semi = strchr(colon + 1, ';');
	if (semi) {
		char *prereqs = xstrndup(colon + 1, (size_t)(semi - colon - 1));
		c->rule_hook(c, targets, prereqs, true, c->cur_file, c->cur_line);
		free(prereqs);
		free(targets);
		return;
	}
	st->rule_targets = targets;
	st->rule_prereqs = xstrdup(colon + 1);
	st->rule_line = c->cur_line;
}

/* "define NAME", "define NAME =", ":=", "+=", "?=": the body follows until the matching endef. */
static void begin_define(struct evalstate *st, const char *arg)
{
	st->in_define = true;
	st->define_depth = 1;
	sb_reset(&st->define_name);
	sb_adds(&st->define_name, arg);
	sb_rtrim(&st->define_name);
	/* "define NAME =" / ":=" */
	size_t n = st->define_name.len;
	st->define_recursive = true;
	if (n && st->define_name.buf[n - 1] == '=') {
		n--;
		if (n && st->define_name.buf[n - 1] == ':') {
			n--;
			st->define_recursive = false;
		} else if (n && (st->define_name.buf[n - 1] == '+' || st->define_name.buf[n - 1] == '?')) {
			n--;
		}
		st->define_name.len = n;
		st->define_name.buf[n] = '\0';
		sb_rtrim(&st->define_name);
	}
	sb_reset(&st->define_body);
}

/* "export A B": mark the variables exported */
static void export_names(struct mk_ctx *c, const char *s)
{
	char *names = expand_str(c, s);
	size_t wn;
	for (const char *w = names; (w = mk_next_word(w, &wn)); w += wn) {
		struct mk_var *v = mk_vars_get(c->locals, w, wn);
		if (!v) /* "export BITS" before "BITS := 64" (arch/x86/Makefile) */
			v = mk_vars_set(c->locals, w, wn, "", false);
		v->exported = true;
	}
	free(names);
}

/* One logical line (continuations joined, recipe lines already filtered). */
static void statement(struct mk_ctx *c, struct evalstate *st, char *line, bool tab)
{
	/* comments: an unescaped '#' ends the line (make has no other quoting for it here) */
	for (char *p = line; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p == '#') {
			*p = '\0';
			break;
		}
	}
	rtrim(line);
	const char *s = skip_blank(line);
	if (!*s)
		return;
	const char *arg;
	static const char *const ifs[] = {"ifeq", "ifneq", "ifdef", "ifndef"};
	for (size_t i = 0; i < 4; i++)
		if ((arg = keyword(s, ifs[i]))) {
			begin_cond(c, st, ifs[i], arg);
			return;
		}
	if ((arg = keyword(s, "else"))) {
		else_cond(c, st, arg);
		return;
	}
	if (keyword(s, "endif")) {
		end_cond(c, st);
		return;
	}
	if (tab && st->in_rule) {
		drop_rule(c, st, true);
		return;
	}
	drop_rule(c, st, false);
	if (!active(st))
		return;
	if ((arg = keyword(s, "define"))) {
		begin_define(st, arg);
		return;
	}
	bool optional = false;
	if ((arg = keyword(s, "include")) || ((arg = keyword(s, "-include")) && (optional = true)) ||
	    ((arg = keyword(s, "sinclude")) && (optional = true))) {
		st->in_rule = false;
		do_include(c, st, arg, optional);
		return;
	}
	bool exported = false;
	for (;;) {
		const char *a2;
		if ((a2 = keyword(s, "export"))) {
			exported = true;
			s = a2;
		} else if ((a2 = keyword(s, "override")) || (a2 = keyword(s, "private"))) {
			s = a2;
		} else {
			break;
		}
	}
	if (keyword(s, "unexport") || keyword(s, "vpath") || keyword(s, "undefine"))
		return;
	char op = 0;
	size_t oplen = 0;
	const char *rule = NULL;
	const char *at = find_assign(s, &op, &oplen, &rule);
	if (at) {
		st->in_rule = false;
		char *lhs = xstrndup(s, (size_t)(at - s));
		rtrim(lhs);
		const char *rhs = skip_blank(at + oplen);
		assign(c, lhs, op, rhs, exported);
		free(lhs);
		return;
	}
	if (rule) {
		rule_line(c, st, s, rule);
		return;
	}
	if (exported) {
		export_names(c, s);
		return;
	}
	/* a bare expansion such as $(eval ...) or $(foreach ...,$(eval ...)): run it for effects */
	if (strchr(s, '$')) {
		char *out = expand_str(c, s);
		free(out);
	}
}

static void define_line(struct mk_ctx *c, struct evalstate *st, const char *line)
{
	const char *s = skip_blank(line);
	if (keyword(s, "define")) {
		st->define_depth++;
	} else if (keyword(s, "endef")) {
		if (--st->define_depth == 0) {
			st->in_define = false;
			char *name = expand_str(c, sb_str(&st->define_name));
			char *nm = strip_dup(name);
			free(name);
			if (*nm) {
				struct mk_var *v = mk_vars_set(c->locals, nm, strlen(nm), sb_str(&st->define_body),
							       st->define_recursive);
				if (c->cond_uncertain > 0)
					v->uncertain = true;
			}
			free(nm);
			return;
		}
	}
	if (st->define_body.len)
		sb_addc(&st->define_body, '\n');
	sb_adds(&st->define_body, line);
}

void mk_eval_text(struct mk_ctx *c, const char *text, size_t len, const char *path)
{
	struct evalstate *st = xcalloc(1, sizeof(*st));
	sb_init(&st->define_name);
	sb_init(&st->define_body);
	const char *saved_file = c->cur_file;
	c->cur_file = path;
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;
	unsigned lineno = 0;
	if (c->depth > 40) {
		mk_mark_uncertain(c, "$(eval) nested too deeply");
		goto out;
	}
	c->depth++;
	while (pos < len) {
		sb_reset(&line);
		unsigned first = lineno + 1;
		bool tab = text[pos] == '\t';
		/* join backslash-newline continuations into one logical line */
		for (;;) {
			const char *p = text + pos;
			const char *nl = memchr(p, '\n', len - pos);
			size_t n = nl ? (size_t)(nl - p) : len - pos;
			pos += n + (nl ? 1 : 0);
			lineno++;
			size_t m = n;
			if (m && p[m - 1] == '\r')
				m--;
			size_t bs = 0;
			while (bs < m && p[m - 1 - bs] == '\\')
				bs++;
			if (bs % 2 == 1 && pos <= len && nl) {
				sb_add(&line, p, m - 1);
				while (line.len && is_blank(line.buf[line.len - 1]))
					line.len--;
				sb_addc(&line, ' ');
				/* the next line's leading blanks collapse into this one */
				while (pos < len && is_blank(text[pos]))
					pos++;
				continue;
			}
			sb_add(&line, p, m);
			break;
		}
		sb_adds(&line, ""); /* buffer always allocated */
		if (memchr(line.buf, '\0', line.len)) /* binary junk: make would choke; skip it */
			continue;
		c->cur_line = first;
		if (st->in_define) {
			define_line(c, st, sb_str(&line));
			continue;
		}
		statement(c, st, line.buf, tab);
	}
	c->depth--;
	/* unbalanced conditionals: undo their effect on the shared counters */
	while (st->ncond > 0)
		end_cond(c, st);
out:
	drop_rule(c, st, false);
	sb_release(&line);
	sb_release(&st->define_name);
	sb_release(&st->define_body);
	free(st);
	c->cur_file = saved_file;
}

int mk_eval_file(struct mk_ctx *c, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		sb_release(&sb);
		return -1;
	}
	mk_eval_text(c, sb_str(&sb), sb.len, path);
	sb_release(&sb);
	return 0;
}
