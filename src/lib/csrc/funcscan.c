/* C function boundaries (funcscan.h): a lexer that skips comments, literals and preprocessor
 * lines, feeding a small recogniser of file-level definitions "... name(params) ... {". */
#include "csrc/funcscan.h"

#include <stdio.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/text.h"

enum tok { T_IDENT, T_PUNCT, T_OTHER };

#define PP_MAX 64 /* #if nesting followed; deeper levels are read without the correction */
#define NAME_MAX_LEN 255

struct scan {
	struct funcscan *fs;
	/* brace and (file level) paren depth */
	unsigned depth, paren;
	/* the file-level declaration being read */
	bool have_decl;
	unsigned decl_line;
	bool prev_ident; /* the previous token was an identifier (in prev) */
	char prev[NAME_MAX_LEN + 1];
	unsigned prev_line;
	char name[NAME_MAX_LEN + 1];
	unsigned name_line, flags;
	bool named, params_done, has_eq, attr_group, macro_pending, macro_at_start;
	bool group_closed; /* a parenthesised group of this declaration has closed */
	unsigned ntok;     /* tokens in the declaration so far */
	unsigned name_paren; /* paren depth of the name's parameter list */
	/* inside a function body started at depth 1 */
	bool in_func;
	/* #if bookkeeping: depth at the #if and after its first branch */
	struct { unsigned at_if, after_first; bool in_else; } pp[PP_MAX];
	unsigned npp, pp_over;
};

static bool is_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(s, *list) == 0)
			return true;
	return false;
}

/* Identifiers followed by a parenthesised argument that are attributes or type operators,
 * never the name of the function being defined. */
static const char *const attrs[] = {
	"__attribute__", "__attribute", "__declspec", "__aligned", "__printf", "__scanf",
	"__section", "__alloc_size", "__realloc_size", "__acquires", "__releases", "__must_hold",
	"__cond_acquires", "__cond_releases", "__diagnose_as", "__counted_by", "__cleanup",
	"__assume_aligned", "__no_sanitize_or_inline", "_Alignas", "alignas", "typeof",
	"__typeof__", "__typeof", "asm", "__asm__", "__asm", "__nocfi_fn", "__guarded_by",
	"__pt_guarded_by", "__no_context_analysis", "__malloc_like", "__retain", "__nonstring",
	"__builtin_offsetof", "sizeof", "_Static_assert", "static_assert", "__must_be_array",
	"__percpu_qual", "__ALIGN_KERNEL", "__free", "__weak_alias", NULL,
};

static const char *const inline_words[] = {
	"inline", "__inline", "__inline__", "__always_inline", "__always_inline__", NULL,
};

/* C type words: a macro whose first argument is one of these is a function written in
 * capitals ("int FOO(void)"), not a wrapper naming a function. */
static const char *const type_words[] = {
	"void", "int", "char", "short", "long", "unsigned", "signed", "struct", "union", "enum",
	"const", "volatile", "float", "double", "bool", "_Bool", "register", NULL,
};

static bool is_macro_name(const char *s)
{
	bool letter = false;
	for (; *s; s++) {
		if (*s >= 'A' && *s <= 'Z')
			letter = true;
		else if (!(*s == '_' || (*s >= '0' && *s <= '9')))
			return false;
	}
	return letter;
}

static void decl_reset(struct scan *s)
{
	s->have_decl = s->named = s->params_done = s->has_eq = false;
	s->attr_group = s->macro_pending = s->macro_at_start = s->group_closed = false;
	s->ntok = 0;
	s->prev_ident = false;
	s->flags = 0;
	s->paren = 0;
}

static void set_name(struct scan *s, const char *name, unsigned line, unsigned flags)
{
	text_snprintf(s->name, sizeof s->name, "%s", name);
	s->name_line = line;
	s->flags |= flags;
	s->named = true;
}

/* A wrapper macro's first argument: SYSCALL_DEFINE3(name, ...) names the function. */
static void macro_arg(struct scan *s, const char *text, unsigned line)
{
	s->macro_pending = false;
	const char *m = s->prev;
	if (is_one_of(text, type_words)) {
		if (!s->macro_at_start) /* "int FOO(void)": a function in capitals */
			set_name(s, m, s->prev_line, 0);
		return; /* else "BTF_ID(struct, x)": a macro that names no function */
	}
	unsigned f = FUNCSCAN_MACRO;
	if (strncmp(m, "SYSCALL_DEFINE", 14) == 0)
		f = FUNCSCAN_SYSCALL;
	else if (strncmp(m, "COMPAT_SYSCALL_DEFINE", 21) == 0)
		f = FUNCSCAN_COMPAT;
	set_name(s, text, line, f);
}

static void func_open(struct scan *s, unsigned line)
{
	struct funcscan *fs = s->fs;
	XGROW(fs->fn, fs->n + 1, fs->alloc);
	struct funcscan_fn *f = &fs->fn[fs->n++];
	f->name = xstrdup(s->name);
	f->decl_line = s->decl_line;
	f->name_line = s->name_line;
	f->body_line = line;
	f->end_line = line;
	f->flags = s->flags;
	s->in_func = true;
}

static void on_ident(struct scan *s, const char *text, unsigned line)
{
	if (s->macro_pending && s->paren == s->name_paren + 1)
		macro_arg(s, text, line);
	else if (s->macro_pending)
		s->macro_pending = false;
	if (!s->named && s->paren == 0) {
		if (strcmp(text, "static") == 0)
			s->flags |= FUNCSCAN_STATIC;
		else if (is_one_of(text, inline_words))
			s->flags |= FUNCSCAN_INLINE;
	}
	text_snprintf(s->prev, sizeof s->prev, "%s", text);
	s->prev_line = line;
	s->prev_ident = true;
}

static void on_open_paren(struct scan *s)
{
	if (s->prev_ident && !s->named && !s->attr_group && !s->macro_pending &&
	    !is_one_of(s->prev, type_words)) { /* "int (*f(int))(void)" */
		if (is_one_of(s->prev, attrs)) {
			s->attr_group = true; /* skipped until its paren closes */
			s->name_paren = s->paren;
		} else if (is_macro_name(s->prev)) {
			s->macro_pending = true;
			s->macro_at_start = s->ntok == 1;
			s->name_paren = s->paren;
		} else {
			set_name(s, s->prev, s->prev_line, 0);
			s->name_paren = s->paren;
		}
	}
	s->paren++;
}

static void on_close_paren(struct scan *s)
{
	if (s->paren == 0)
		return;
	s->paren--;
	if (s->paren == 0)
		s->group_closed = true;
	if (s->paren == s->name_paren) {
		if (s->attr_group)
			s->attr_group = false;
		else if (s->macro_pending)
			s->macro_pending = false; /* SEC("x"): not a name; keep looking */
		else if (s->named)
			s->params_done = true;
	}
}

static void on_brace(struct scan *s, char c, unsigned line)
{
	if (c == '{') {
		if (s->depth == 0 && !s->in_func && s->named && s->params_done && !s->has_eq &&
		    s->paren == 0)
			func_open(s, line);
		s->depth++;
		return;
	}
	if (s->depth == 0) { /* unbalanced: start afresh */
		decl_reset(s);
		return;
	}
	if (--s->depth == 0) {
		if (s->in_func) {
			s->fs->fn[s->fs->n - 1].end_line = line;
			s->in_func = false;
			decl_reset(s);
		}
		/* after "struct x { ... }" the declaration goes on ("} y;", "} *f(void) {") */
	}
}

/* One token of the file, outside comments, literals and preprocessor lines; bol: it is the
 * first character of its line. */
static void mark_code(struct funcscan *fs, unsigned line)
{
	if (line >= fs->ncode) {
		size_t old = fs->ncode, n = old ? old : 64;
		while (n <= line)
			n *= 2;
		fs->code = xrealloc(fs->code, n);
		memset(fs->code + old, 0, n - old);
		fs->ncode = (unsigned)n;
	}
	fs->code[line] = 1;
}

static void token(struct scan *s, enum tok kind, const char *text, unsigned line, bool bol)
{
	mark_code(s->fs, line);
	if (s->depth > 0) { /* inside a block: only braces matter */
		if (kind == T_PUNCT && (text[0] == '{' || text[0] == '}'))
			on_brace(s, text[0], line);
		return;
	}
	bool ends = kind == T_PUNCT && strchr("{};)", text[0]);
	/* A declaration goes on at column 0 after a closed group only with an attribute
	 * ("__releases(&l)"): else that is a new one after a macro used without ';'
	 * ("BTF_ID_LIST(x)", "NOKPROBE_SYMBOL(f)", "module_init(f)") */
	if (bol && s->group_closed && s->paren == 0 && !ends &&
	    !(kind == T_IDENT && is_one_of(text, attrs)))
		decl_reset(s);
	if (!s->have_decl && !(kind == T_PUNCT && (text[0] == ';' || text[0] == '}'))) {
		s->have_decl = true;
		s->decl_line = line;
	}
	s->ntok++;
	if (kind == T_IDENT) {
		on_ident(s, text, line);
		return;
	}
	bool was_ident = s->prev_ident;
	s->prev_ident = false;
	if (kind != T_PUNCT) {
		if (s->macro_pending && s->paren == s->name_paren + 1)
			s->macro_pending = false; /* SEC("x"): the argument is no identifier */
		return;
	}
	switch (text[0]) {
	case '(':
		s->prev_ident = was_ident;
		on_open_paren(s);
		s->prev_ident = false;
		break;
	case ')':
		on_close_paren(s);
		break;
	case '=':
		if (s->paren == 0)
			s->has_eq = true;
		break;
	case ';':
		if (s->paren == 0)
			decl_reset(s);
		break;
	case '{':
	case '}':
		on_brace(s, text[0], line);
		break;
	default:
		if (s->macro_pending && s->paren == s->name_paren + 1)
			s->macro_pending = false;
		break;
	}
}

/* --- preprocessor conditionals: the first branch's brace depth wins ---------------------- */

static void pp_directive(struct scan *s, const char *d)
{
	if (strncmp(d, "if", 2) == 0) { /* if, ifdef, ifndef */
		if (s->npp < PP_MAX) {
			s->pp[s->npp].at_if = s->depth;
			s->pp[s->npp].in_else = false;
			s->npp++;
		} else {
			s->pp_over++;
		}
	} else if (strcmp(d, "elif") == 0 || strcmp(d, "else") == 0 ||
		   strncmp(d, "elif", 4) == 0) {
		if (s->pp_over || s->npp == 0)
			return;
		if (!s->pp[s->npp - 1].in_else) {
			s->pp[s->npp - 1].after_first = s->depth;
			s->pp[s->npp - 1].in_else = true;
		}
		/* a function opened in the first branch stays open: the other branch's copy of
		 * its header and brace opens nothing new */
		s->depth = s->pp[s->npp - 1].at_if;
		s->group_closed = false; /* "#else" before a second copy of the header */
	} else if (strcmp(d, "endif") == 0) {
		if (s->pp_over) {
			s->pp_over--;
			return;
		}
		if (s->npp == 0)
			return;
		s->npp--;
		if (s->pp[s->npp].in_else)
			s->depth = s->pp[s->npp].after_first;
	}
}

/* --- the lexer ----------------------------------------------------------------------------- */

struct lex {
	const char *p, *end;
	unsigned line;
	const char *lstart; /* the current line's first character */
};

static bool is_id_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool is_id_char(char c)
{
	return is_id_start(c) || (c >= '0' && c <= '9');
}

/* Skip a backslash-newline (or backslash-CR-LF) at p; true when one was skipped. */
static bool splice(struct lex *l)
{
	if (l->p < l->end && *l->p == '\\') {
		const char *q = l->p + 1;
		if (q < l->end && *q == '\r')
			q++;
		if (q < l->end && *q == '\n') {
			l->p = q + 1;
			l->line++;
			return true;
		}
	}
	return false;
}

static void skip_block_comment(struct lex *l)
{
	l->p += 2;
	while (l->p < l->end) {
		if (*l->p == '*' && l->p + 1 < l->end && l->p[1] == '/') {
			l->p += 2;
			return;
		}
		if (*l->p == '\n')
			l->line++;
		l->p++;
	}
}

static void skip_line_comment(struct lex *l)
{
	while (l->p < l->end && *l->p != '\n')
		if (!splice(l))
			l->p++;
}

/* A string or character literal; an unescaped newline ends it (a broken literal must not
 * swallow the rest of the file). */
static void skip_literal(struct lex *l)
{
	char q = *l->p++;
	while (l->p < l->end && *l->p != '\n') {
		if (splice(l))
			continue;
		if (*l->p == '\\') {
			l->p += l->p + 1 < l->end && l->p[1] != '\n' ? 2 : 1;
			continue;
		}
		if (*l->p++ == q)
			return;
	}
}

/* A preprocessor line from its '#': its directive name goes to d. */
static void skip_pp_line(struct lex *l, char *d, size_t dsize)
{
	size_t n = 0;
	l->p++;
	while (l->p < l->end && (splice(l) || *l->p == ' ' || *l->p == '\t'))
		if (l->p < l->end && (*l->p == ' ' || *l->p == '\t'))
			l->p++;
	while (l->p < l->end) {
		if (splice(l))
			continue;
		if (!is_id_char(*l->p))
			break;
		if (n + 1 < dsize)
			d[n++] = *l->p;
		l->p++;
	}
	d[n] = '\0';
	while (l->p < l->end && *l->p != '\n') {
		if (splice(l))
			continue;
		if (*l->p == '/' && l->p + 1 < l->end && l->p[1] == '*')
			skip_block_comment(l);
		else if (*l->p == '/' && l->p + 1 < l->end && l->p[1] == '/')
			skip_line_comment(l);
		else if (*l->p == '"' || *l->p == '\'')
			skip_literal(l);
		else
			l->p++;
	}
}

static void lex_ident(struct scan *s, struct lex *l)
{
	char id[NAME_MAX_LEN + 1];
	size_t n = 0;
	unsigned line = l->line;
	bool bol = l->p == l->lstart;
	while (l->p < l->end) { /* a splice may end the input: test p again */
		if (splice(l))
			continue;
		if (!is_id_char(*l->p))
			break;
		if (n < NAME_MAX_LEN)
			id[n++] = *l->p;
		l->p++;
	}
	id[n] = '\0';
	token(s, T_IDENT, id, line, bol);
}

static void lex_run(struct scan *s, struct lex *l)
{
	bool line_start = true;
	while (l->p < l->end) {
		char c = *l->p;
		if (c == '\n') {
			l->line++;
			l->p++;
			l->lstart = l->p;
			line_start = true;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			l->p++;
		} else if (splice(l)) {
			continue;
		} else if (c == '#' && line_start) {
			char d[16];
			unsigned first = l->line;
			skip_pp_line(l, d, sizeof d);
			for (unsigned i = first; i <= l->line; i++)
				mark_code(s->fs, i);
			pp_directive(s, d);
		} else if (c == '/' && l->p + 1 < l->end && l->p[1] == '*') {
			skip_block_comment(l);
			continue; /* a comment does not end the line start */
		} else if (c == '/' && l->p + 1 < l->end && l->p[1] == '/') {
			skip_line_comment(l);
		} else if (c == '"' || c == '\'') {
			unsigned line = l->line;
			bool bol = l->p == l->lstart;
			skip_literal(l);
			token(s, T_OTHER, "\"", line, bol);
			line_start = false;
		} else if (is_id_start(c)) {
			lex_ident(s, l);
			line_start = false;
		} else if (c >= '0' && c <= '9') {
			unsigned line = l->line;
			bool bol = l->p == l->lstart;
			while (l->p < l->end && (is_id_char(*l->p) || *l->p == '.'))
				l->p++;
			token(s, T_OTHER, "0", line, bol);
			line_start = false;
		} else {
			char t[2] = {c, '\0'};
			bool bol = l->p == l->lstart;
			l->p++;
			token(s, strchr("(){};=", c) && c ? T_PUNCT : T_OTHER, t, l->line, bol);
			line_start = false;
		}
	}
}

void funcscan_free(struct funcscan *fs)
{
	for (size_t i = 0; i < fs->n; i++)
		free(fs->fn[i].name);
	free(fs->fn);
	free(fs->code);
	memset(fs, 0, sizeof *fs);
}

void funcscan_scan(struct funcscan *fs, const char *buf, size_t len)
{
	funcscan_free(fs);
	struct scan *s = xcalloc(1, sizeof *s);
	s->fs = fs;
	struct lex l = {buf, buf + len, 1, buf};
	lex_run(s, &l);
	fs->nlines = l.line;
	if (s->in_func) /* unclosed at end of file */
		fs->fn[fs->n - 1].end_line = l.line;
	free(s);
}

const struct funcscan_fn *funcscan_at(const struct funcscan *fs, unsigned line)
{
	size_t lo = 0, hi = fs->n;
	while (lo < hi) { /* first function ending at or after line */
		size_t mid = lo + (hi - lo) / 2;
		if (fs->fn[mid].end_line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < fs->n && fs->fn[lo].decl_line <= line)
		return &fs->fn[lo];
	return NULL;
}

/* Some line of [from, to] holds code (or lies past the end of the file). */
static bool code_in(const struct funcscan *fs, unsigned from, unsigned to)
{
	for (unsigned l = from; l <= to; l++) {
		if (l > fs->nlines || (l < fs->ncode && fs->code[l]))
			return true;
		if (l == ~0u)
			break;
	}
	return false;
}

size_t funcscan_range(const struct funcscan *fs, unsigned first, unsigned last, size_t *idx,
		      size_t max, bool *outside)
{
	size_t n = 0;
	unsigned covered = first; /* lines before this one are known to be inside a function */
	bool out = false;
	for (size_t i = 0; i < fs->n && first <= last; i++) {
		const struct funcscan_fn *f = &fs->fn[i];
		if (f->end_line < first || f->decl_line > last)
			continue;
		if (f->decl_line > covered && code_in(fs, covered, f->decl_line - 1))
			out = true;
		if (f->end_line >= covered)
			covered = f->end_line + 1;
		if (n < max)
			idx[n] = i;
		n++;
	}
	if (first <= last && covered <= last && code_in(fs, covered, last))
		out = true;
	if (outside)
		*outside = out;
	return n;
}

bool funcscan_has_symbol(const struct funcscan_fn *f)
{
	return !(f->flags & (FUNCSCAN_STATIC | FUNCSCAN_INLINE | FUNCSCAN_MACRO));
}

size_t funcscan_symbols(const struct funcscan_fn *f, char *buf, size_t bufsize, const char **out,
			size_t max)
{
	static const char *const sys_prefixes[] = {
		"__x64_", "__ia32_", "__arm64_", "__s390x_", "__riscv_", "",
	};
	size_t n = 0, used = 0;
	if (f->flags & FUNCSCAN_MACRO)
		return 0;
	bool sys = f->flags & (FUNCSCAN_SYSCALL | FUNCSCAN_COMPAT);
	size_t variants = sys ? sizeof sys_prefixes / sizeof sys_prefixes[0] : 1;
	for (size_t v = 0; v < variants && n < max; v++) {
		int w = sys ? text_snprintf(buf + used, bufsize - used, "%s%ssys_%s", sys_prefixes[v],
				       f->flags & FUNCSCAN_COMPAT ? "compat_" : "", f->name)
			    : text_snprintf(buf + used, bufsize - used, "%s", f->name);
		if (w < 0 || (size_t)w >= bufsize - used)
			break;
		out[n++] = buf + used;
		used += (size_t)w + 1;
	}
	return n;
}
