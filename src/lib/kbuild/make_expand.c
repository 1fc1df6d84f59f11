/* Make variable expansion and the text functions Kbuild files use.
 *
 * Everything that needs the outside world ($(shell), compiler probes through $(call cc-option),
 * $(file)) or is too odd to evaluate marks the context "uncertain" instead of guessing: the tree
 * evaluator then answers "unknown" for files of that makefile rather than "not compiled". */
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/strmap.h"
#include "core/xalloc.h"
#include "kbuild/kbuild_int.h"

#define MAX_DEPTH 48
#define MAX_STEPS 200000UL
#define MAX_OUT (1u << 20)
/* bytes produced by all expansions of one context (one makefile): each may be up to MAX_OUT,
 * but 200,000 of them copying a MiB each would take minutes */
#define MAX_BYTES (64ull << 20)

void mk_ctx_init(struct mk_ctx *c, struct mk_vars *locals, struct mk_vars *globals,
		 const struct kb_config *cfg, const char *ksrc)
{
	memset(c, 0, sizeof(*c));
	c->locals = locals;
	c->globals = globals;
	c->cfg = cfg;
	c->ksrc = ksrc;
	sb_init(&c->syms);
	sb_init(&c->condstack);
}

void mk_ctx_release(struct mk_ctx *c)
{
	sb_release(&c->syms);
	sb_release(&c->condstack);
}

void mk_mark_uncertain(struct mk_ctx *c, const char *fmt, ...)
{
	if (!c->uncertain) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->why, sizeof(c->why), fmt, ap);
		va_end(ap);
	}
	c->uncertain = true;
}

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

const char *mk_next_word(const char *s, size_t *len)
{
	while (*s && is_space(*s))
		s++;
	if (!*s)
		return NULL;
	const char *e = s;
	while (*e && !is_space(*e))
		e++;
	*len = (size_t)(e - s);
	return s;
}

/* Index of the parenthesis closing the one just before s[0] (open is '(' or '{'), or -1. */
static long find_close(const char *s, size_t n, char open)
{
	char close = open == '(' ? ')' : '}';
	int depth = 1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == open)
			depth++;
		else if (s[i] == close && --depth == 0)
			return (long)i;
	}
	return -1;
}

/* Split s at top-level commas into at most max parts (the last keeps further commas). */
struct args {
	const char *p[16];
	size_t n[16];
	int count;
};

static void split_args(const char *s, size_t n, int max, struct args *a)
{
	int depth = 0;
	size_t start = 0;
	a->count = 0;
	if (max > 16)
		max = 16;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (ch == '(' || ch == '{')
			depth++;
		else if ((ch == ')' || ch == '}') && depth > 0)
			depth--;
		else if (ch == ',' && depth == 0 && a->count < max - 1) {
			a->p[a->count] = s + start;
			a->n[a->count++] = i - start;
			start = i + 1;
		}
	}
	a->p[a->count] = s + start;
	a->n[a->count++] = n - start;
}

static char *expand_dup(struct mk_ctx *c, const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	mk_expand(c, s, n, &sb);
	return sb_detach(&sb);
}

static void add_word(struct strbuf *out, bool *first, const char *w, size_t n)
{
	if (!*first)
		sb_addc(out, ' ');
	sb_add(out, w, n);
	*first = false;
}

/* Pattern match with at most one '%'; stem receives the matched part. */
static bool pat_match(const char *pat, size_t pn, const char *w, size_t wn, const char **stem,
		      size_t *stemn)
{
	const char *pct = memchr(pat, '%', pn);
	if (!pct) {
		*stem = NULL;
		*stemn = 0;
		return pn == wn && memcmp(pat, w, wn) == 0;
	}
	size_t pre = (size_t)(pct - pat), suf = pn - pre - 1;
	if (wn < pre + suf || memcmp(w, pat, pre) != 0 || memcmp(w + wn - suf, pct + 1, suf) != 0)
		return false;
	*stem = w + pre;
	*stemn = wn - pre - suf;
	return true;
}

/* Words of text with pat replaced by rep; false when the result grew past MAX_OUT and was cut
 * (a replacement of 1 MiB for each of 500,000 words would be 500 GB). */
static bool patsubst_words(struct strbuf *out, const char *pat, const char *rep, const char *text)
{
	size_t pn = strlen(pat), rn = strlen(rep), wn;
	bool first = true;
	for (const char *w = text; (w = mk_next_word(w, &wn)); w += wn) {
		if (out->len > MAX_OUT)
			return false;
		const char *stem;
		size_t sn;
		if (!pat_match(pat, pn, w, wn, &stem, &sn)) {
			add_word(out, &first, w, wn);
			continue;
		}
		if (!first)
			sb_addc(out, ' ');
		first = false;
		const char *rp = stem ? memchr(rep, '%', rn) : NULL;
		if (rp) {
			sb_add(out, rep, (size_t)(rp - rep));
			sb_add(out, stem, sn);
			sb_add(out, rp + 1, rn - (size_t)(rp - rep) - 1);
		} else {
			sb_add(out, rep, rn);
		}
	}
	return true;
}

/* out grew past MAX_OUT inside a function's loop: marks the expansion uncertain (the caller
 * stops adding) instead of growing until memory runs out. */
static bool too_large(struct mk_ctx *c, const struct strbuf *out)
{
	if (out->len <= MAX_OUT)
		return false;
	mk_mark_uncertain(c, "expansion too deep or too large");
	return true;
}

static bool any_pat_match(const char *pats, const char *w, size_t wn)
{
	size_t pn;
	for (const char *p = pats; (p = mk_next_word(p, &pn)); p += pn) {
		const char *stem;
		size_t sn;
		if (pat_match(p, pn, w, wn, &stem, &sn))
			return true;
	}
	return false;
}

static void sort_words(struct strbuf *out, const char *text)
{
	char **v = NULL;
	size_t n = 0, alloc = 0, wn;
	for (const char *w = text; (w = mk_next_word(w, &wn)); w += wn) {
		XGROW(v, n + 1, alloc);
		v[n++] = xstrndup(w, wn);
	}
	if (n)
		qsort(v, n, sizeof(*v), cmp_str);
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			add_word(out, &first, v[i], strlen(v[i]));
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void strip_into(struct strbuf *out, const char *text)
{
	size_t wn;
	bool first = true;
	for (const char *w = text; (w = mk_next_word(w, &wn)); w += wn)
		add_word(out, &first, w, wn);
}

static void set_local(struct mk_ctx *c, const char *name, const char *value)
{
	mk_vars_set(c->locals, name, strlen(name), value, false);
}

/* Save/restore of a local variable around $(foreach)/$(call). */
struct saved_var {
	bool existed, recursive, uncertain;
	char *value;
};

static void save_var(struct mk_ctx *c, const char *name, struct saved_var *s)
{
	struct mk_var *v = mk_vars_get(c->locals, name, strlen(name));
	s->existed = v != NULL;
	s->value = v ? xstrdup(v->value) : NULL;
	s->recursive = v && v->recursive;
	s->uncertain = v && v->uncertain;
}

static void restore_var(struct mk_ctx *c, const char *name, struct saved_var *s)
{
	struct mk_var *v = mk_vars_set(c->locals, name, strlen(name), s->existed ? s->value : "",
				       s->recursive);
	v->uncertain = s->uncertain;
	free(s->value);
}

static void path_words(struct strbuf *out, const char *text, int which)
{
	size_t wn;
	bool first = true;
	for (const char *w = text; (w = mk_next_word(w, &wn)); w += wn) {
		const char *slash = NULL;
		for (size_t i = 0; i < wn; i++)
			if (w[i] == '/')
				slash = w + i;
		const char *dot = NULL;
		for (size_t i = slash ? (size_t)(slash - w) : 0; i < wn; i++)
			if (w[i] == '.')
				dot = w + i;
		switch (which) {
		case 'd': /* dir */
			if (slash)
				add_word(out, &first, w, (size_t)(slash - w) + 1);
			else
				add_word(out, &first, "./", 2);
			break;
		case 'n': /* notdir */
			if (slash)
				add_word(out, &first, slash + 1, wn - (size_t)(slash - w) - 1);
			else
				add_word(out, &first, w, wn);
			break;
		case 's': /* suffix */
			if (dot)
				add_word(out, &first, dot, wn - (size_t)(dot - w));
			break;
		case 'b': /* basename */
			add_word(out, &first, w, dot ? (size_t)(dot - w) : wn);
			break;
		}
	}
}

static void wildcard(struct mk_ctx *c, struct strbuf *out, const char *text)
{
	size_t wn;
	bool first = true;
	if (c->no_fs) {
		mk_mark_uncertain(c, "$(wildcard) not evaluated");
		return;
	}
	for (const char *w = text; (w = mk_next_word(w, &wn)); w += wn) {
		char *pat = xstrndup(w, wn);
		char *full = pat;
		if (pat[0] != '/') { /* make runs in objtree; for kcve that is the source tree */
			full = mk_strf("%s/%s", c->ksrc, pat);
		}
		glob_t g;
		if (glob(full, 0, NULL, &g) == 0) {
			size_t strip = full != pat ? strlen(c->ksrc) + 1 : 0;
			for (size_t i = 0; i < g.gl_pathc; i++)
				add_word(out, &first, g.gl_pathv[i] + strip, strlen(g.gl_pathv[i] + strip));
			globfree(&g);
		}
		if (full != pat)
			free(full);
		free(pat);
	}
}

/* The make functions kcve evaluates (the table is below the handlers). */
struct mk_fn;
static const struct mk_fn *find_function(const char *name, size_t n);
static void call_function(struct mk_ctx *c, const struct mk_fn *f, const char *s, size_t n,
			  struct strbuf *out);

const char *mk_next_ref(const char **p, const char **name, size_t *n)
{
	for (const char *d = *p; (d = strchr(d, '$')); d++) {
		if (d[1] != '(' && d[1] != '{')
			continue;
		const char *s = d + 2, *e = s;
		while ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z') || (*e >= '0' && *e <= '9') ||
		       *e == '_' || *e == '-' || *e == '.')
			e++;
		if (e == s || (*e != ')' && *e != '}' && *e != ':'))
			continue;
		*name = s;
		*n = (size_t)(e - s);
		*p = e;
		return d;
	}
	return NULL;
}

void mk_expand_var(struct mk_ctx *c, const char *name, struct strbuf *out)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < c->novr; i++)
		if (!strcmp(c->ovr_names[i], name)) {
			sb_adds(out, c->ovr_vals[i]);
			return;
		}
	struct mk_var *v = mk_vars_get(c->locals, name, n);
	if (!v && n > 7 && memcmp(name, "CONFIG_", 7) == 0) {
		const char *raw = kb_config_raw(c->cfg, name);
		if (c->symbolic) {
			sb_addc(&c->syms, ' ');
			sb_add(&c->syms, name, n);
			if (c->sym_names) {
				size_t i = 0;
				while (i < c->nsym_vals && strcmp(c->sym_names[i], name))
					i++;
				if (i < c->nsym_vals)
					sb_adds(out, c->sym_vals[i]);
				else
					c->sym_missed = true;
				return;
			}
			if (!c->in_test || c->sym_force == 1) {
				sb_adds(out, "y");
				return;
			}
			if (c->sym_force == 2)
				return;
		}
		if (raw)
			sb_adds(out, raw);
		return;
	}
	if (!v)
		v = mk_vars_get(c->globals, name, n);
	if (!v)
		return;
	if (v->uncertain)
		mk_mark_uncertain(c, "$(%s) is set under a condition kcve cannot evaluate", name);
	if (v->recursive) {
		/* copy: expanding may redefine the variable ($(eval)) */
		char *val = xstrdup(v->value);
		mk_expand(c, val, strlen(val), out);
		free(val);
	} else {
		sb_adds(out, v->value);
	}
}

/* $(name) or $(name:a=b) or $(fn args); s excludes the parentheses. */
static void reference(struct mk_ctx *c, const char *s, size_t n, struct strbuf *out)
{
	size_t k = 0;
	while (k < n && ((s[k] >= 'a' && s[k] <= 'z') || s[k] == '-'))
		k++;
	const struct mk_fn *f = k > 0 && k < n && is_space(s[k]) ? find_function(s, k) : NULL;
	if (f) {
		size_t a = k;
		while (a < n && is_space(s[a]))
			a++;
		call_function(c, f, s + a, n - a, out);
		return;
	}
	/* substitution reference $(var:a=b) */
	int depth = 0;
	long colon = -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '(' || s[i] == '{')
			depth++;
		else if ((s[i] == ')' || s[i] == '}') && depth > 0)
			depth--;
		else if (s[i] == ':' && depth == 0) {
			colon = (long)i;
			break;
		}
	}
	if (colon >= 0) {
		const char *eq = memchr(s + colon, '=', n - (size_t)colon);
		if (eq) {
			char *name = expand_dup(c, s, (size_t)colon);
			char *a = expand_dup(c, s + colon + 1, (size_t)(eq - s - colon - 1));
			char *b = expand_dup(c, eq + 1, n - (size_t)(eq - s) - 1);
			struct strbuf val = STRBUF_INIT;
			mk_expand_var(c, name, &val);
			if (!strchr(a, '%')) {
				char *a2 = mk_strf("%%%s", a), *b2 = mk_strf("%%%s", b);
				free(a);
				free(b);
				a = a2;
				b = b2;
			}
			if (!patsubst_words(out, a, b, sb_str(&val)))
				(void)too_large(c, out);
			sb_release(&val);
			free(name);
			free(a);
			free(b);
			return;
		}
	}
	char *name = expand_dup(c, s, n);
	/* make trims nothing here, but Kbuild never relies on blanks inside names */
	mk_expand_var(c, name, out);
	free(name);
}

void mk_expand(struct mk_ctx *c, const char *s, size_t n, struct strbuf *out)
{
	if (++c->depth > MAX_DEPTH || ++c->steps > MAX_STEPS || out->len > MAX_OUT || c->bytes > MAX_BYTES) {
		mk_mark_uncertain(c, "expansion too deep or too large");
		c->depth--;
		return;
	}
	size_t i = 0, start = out->len;
	while (i < n) {
		const char *d = memchr(s + i, '$', n - i);
		if (!d) {
			sb_add(out, s + i, n - i);
			break;
		}
		sb_add(out, s + i, (size_t)(d - (s + i)));
		i = (size_t)(d - s);
		if (i + 1 >= n)
			break; /* a lone trailing '$' expands to nothing */
		char ch = s[i + 1];
		if (ch == '$') {
			sb_addc(out, '$');
			i += 2;
		} else if (ch == '(' || ch == '{') {
			long close = find_close(s + i + 2, n - i - 2, ch);
			if (close < 0) {
				mk_mark_uncertain(c, "unterminated variable reference");
				break;
			}
			reference(c, s + i + 2, (size_t)close, out);
			i += 2 + (size_t)close + 1;
		} else {
			char name[2] = {ch, 0};
			mk_expand_var(c, name, out);
			i += 2;
		}
	}
	c->bytes += out->len > start ? out->len - start : 0;
	c->depth--;
}

/* ---- make functions: one handler each, argument counts in the table ---- */

/* A handler gets the arguments split at top-level commas (at most the table's max_args, the
 * last keeping further commas; at least min_args), unexpanded: each expands what it uses. */
typedef void (*mk_fn_handler)(struct mk_ctx *c, const char *name, const struct args *a,
			      struct strbuf *out);

struct mk_fn {
	const char *name;
	int min_args, max_args;
	mk_fn_handler handler;
};

static char *arg(struct mk_ctx *c, const struct args *a, int i)
{
	return expand_dup(c, a->p[i], a->n[i]);
}

/* argument i expanded, its words joined by single blanks */
static char *stripped_arg(struct mk_ctx *c, const struct args *a, int i)
{
	char *v = arg(c, a, i);
	struct strbuf t = STRBUF_INIT;
	strip_into(&t, v);
	free(v);
	return sb_detach(&t);
}

static void fn_subst(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = arg(c, a, 0), *y = arg(c, a, 1), *z = arg(c, a, 2);
	size_t xl = strlen(x);
	if (!xl)
		sb_adds(out, z);
	for (const char *p = z, *q; xl && *p && !too_large(c, out); p = q + xl) {
		q = strstr(p, x);
		if (!q) {
			sb_adds(out, p);
			break;
		}
		sb_add(out, p, (size_t)(q - p));
		sb_adds(out, y);
	}
	free(x);
	free(y);
	free(z);
}

static void fn_patsubst(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = stripped_arg(c, a, 0), *y = stripped_arg(c, a, 1), *z = arg(c, a, 2);
	if (!patsubst_words(out, x, y, z))
		(void)too_large(c, out);
	free(x);
	free(y);
	free(z);
}

static void fn_strip(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name; /* strip, and realpath/abspath: kcve's paths are already canonical */
	char *x = arg(c, a, 0);
	strip_into(out, x);
	free(x);
}

static void fn_findstring(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = arg(c, a, 0), *y = arg(c, a, 1);
	if (strstr(y, x))
		sb_adds(out, x);
	free(x);
	free(y);
}

static void fn_filter(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	bool keep = !strcmp(name, "filter"); /* else filter-out */
	char *x = arg(c, a, 0), *y = arg(c, a, 1);
	size_t wn;
	bool first = true;
	for (const char *w = y; (w = mk_next_word(w, &wn)); w += wn)
		if (any_pat_match(x, w, wn) == keep)
			add_word(out, &first, w, wn);
	free(x);
	free(y);
}

static void fn_sort(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = arg(c, a, 0);
	sort_words(out, x);
	free(x);
}

/* word N,text and wordlist FROM,TO,text */
static void fn_word(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	bool list = !strcmp(name, "wordlist");
	char *x = arg(c, a, 0), *y = NULL;
	long from = atol(x), to = from;
	if (list) {
		y = arg(c, a, 1);
		to = atol(y);
	}
	char *z = arg(c, a, list ? 2 : 1);
	long i = 0;
	size_t wn;
	bool first = true;
	for (const char *w = z; (w = mk_next_word(w, &wn)); w += wn)
		if (++i >= from && i <= to)
			add_word(out, &first, w, wn);
	free(x);
	free(y);
	free(z);
}

static void fn_words(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = arg(c, a, 0);
	long i = 0;
	size_t wn;
	for (const char *w = x; (w = mk_next_word(w, &wn)); w += wn)
		i++;
	sb_addf(out, "%ld", i);
	free(x);
}

/* firstword and lastword */
static void fn_endword(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	char *x = arg(c, a, 0);
	const char *last = NULL;
	size_t lastn = 0, wn;
	for (const char *w = x; (w = mk_next_word(w, &wn)); w += wn) {
		last = w;
		lastn = wn;
		if (name[0] == 'f')
			break;
	}
	if (last)
		sb_add(out, last, lastn);
	free(x);
}

/* dir, notdir, suffix, basename */
static void fn_path(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	char *x = arg(c, a, 0);
	path_words(out, x, name[0] == 'd' ? 'd' : name[0] == 'n' ? 'n' : name[0] == 's' ? 's' : 'b');
	free(x);
}

/* addsuffix and addprefix */
static void fn_addfix(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	char *x = arg(c, a, 0), *y = arg(c, a, 1);
	bool pre = name[3] == 'p';
	size_t wn;
	bool first = true;
	for (const char *w = y; (w = mk_next_word(w, &wn)) && !too_large(c, out); w += wn) {
		if (!first)
			sb_addc(out, ' ');
		first = false;
		if (pre)
			sb_adds(out, x);
		sb_add(out, w, wn);
		if (!pre)
			sb_adds(out, x);
	}
	free(x);
	free(y);
}

/* the next word of *p appended to out; *p becomes NULL after the last */
static bool join_next(const char **p, struct strbuf *out)
{
	size_t n = 0;
	const char *w = *p ? mk_next_word(*p, &n) : NULL;
	if (w)
		sb_add(out, w, n);
	*p = w ? w + n : NULL;
	return w != NULL;
}

static void fn_join(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = arg(c, a, 0), *y = arg(c, a, 1);
	const char *p = x, *q = y;
	bool first = true;
	for (;;) {
		size_t before = out->len;
		if (!first)
			sb_addc(out, ' ');
		bool any = join_next(&p, out);
		any = join_next(&q, out) || any;
		if (!any) {
			sb_setlen(out, before);
			break;
		}
		first = false;
	}
	free(x);
	free(y);
}

static void fn_wildcard(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = arg(c, a, 0);
	wildcard(c, out, x);
	free(x);
}

static void fn_if(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = stripped_arg(c, a, 0);
	bool cond = *x != '\0';
	free(x);
	if (cond && a->count > 1)
		mk_expand(c, a->p[1], a->n[1], out);
	else if (!cond && a->count > 2)
		mk_expand(c, a->p[2], a->n[2], out);
}

/* or: the first non-empty argument; and: the last if none is empty */
static void fn_andor(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	bool is_and = name[0] == 'a';
	char *last = NULL;
	for (int i = 0; i < a->count; i++) {
		free(last);
		last = stripped_arg(c, a, i);
		if (is_and ? !*last : *last != '\0')
			break;
	}
	if (last && (*last || is_and))
		sb_adds(out, last);
	free(last);
}

static void fn_foreach(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = stripped_arg(c, a, 0), *y = arg(c, a, 1);
	struct saved_var sv;
	save_var(c, x, &sv);
	size_t wn;
	bool first = true;
	for (const char *w = y; (w = mk_next_word(w, &wn)); w += wn) {
		char *word = xstrndup(w, wn);
		set_local(c, x, word);
		free(word);
		size_t before = out->len;
		if (!first)
			sb_addc(out, ' ');
		mk_expand(c, a->p[2], a->n[2], out);
		if (out->len == before + (first ? 0 : 1)) { /* empty result adds no blank */
			sb_setlen(out, before);
		} else {
			first = false;
		}
	}
	restore_var(c, x, &sv);
	free(x);
	free(y);
}

/* $(call fn,args): $(0) .. $(9) set around the expansion of fn */
static void call_user(struct mk_ctx *c, const char *fn, const struct args *a, struct strbuf *out)
{
	char *vals[10];
	for (int i = 1; i < 10; i++)
		vals[i] = i < a->count ? arg(c, a, i) : xstrdup("");
	struct saved_var sv[10];
	char num[4];
	for (int i = 0; i < 10; i++) {
		snprintf(num, sizeof(num), "%d", i);
		save_var(c, num, &sv[i]);
		set_local(c, num, i ? vals[i] : fn);
	}
	mk_expand_var(c, fn, out);
	for (int i = 0; i < 10; i++) {
		snprintf(num, sizeof(num), "%d", i);
		restore_var(c, num, &sv[i]);
		if (i)
			free(vals[i]);
	}
}

static void fn_call(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = stripped_arg(c, a, 0);
	if (!strncmp(x, "cc-", 3) || !strncmp(x, "ld-", 3) || !strncmp(x, "as-", 3) ||
	    !strncmp(x, "rustc-", 6) || !strcmp(x, "try-run") || !strncmp(x, "__cc-", 5)) {
		/* compiler/assembler/linker probes: their answer depends on the build machine;
		 * not expanding their arguments also keeps flag lists from being re-expanded */
		mk_mark_uncertain(c, "$(call %s) probes the compiler", x);
	} else if (!mk_vars_get(c->locals, x, strlen(x)) && !mk_vars_get(c->globals, x, strlen(x))) {
		/* compiler/linker probes (cc-option, ld-option, ...) and other helpers kcve does
		 * not define: the result depends on the build machine */
		mk_mark_uncertain(c, "$(call %s) is not defined here (compiler or tool probe?)", x);
	} else {
		call_user(c, x, a, out);
	}
	free(x);
}

static struct mk_var *lookup(struct mk_ctx *c, const char *name)
{
	struct mk_var *v = mk_vars_get(c->locals, name, strlen(name));
	return v ? v : mk_vars_get(c->globals, name, strlen(name));
}

static void fn_value(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name;
	char *x = arg(c, a, 0);
	struct mk_var *v = lookup(c, x);
	if (v)
		sb_adds(out, v->value);
	free(x);
}

/* origin and flavor */
static void fn_origin(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	char *x = arg(c, a, 0);
	struct mk_var *v = lookup(c, x);
	if (name[0] == 'o')
		sb_adds(out, v ? "file" : "undefined");
	else
		sb_adds(out, !v ? "undefined" : v->recursive ? "recursive" : "simple");
	free(x);
}

static void fn_message(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)c, (void)name, (void)a, (void)out; /* warning, info: messages only */
}

static void fn_eval(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)name, (void)out;
	char *x = arg(c, a, 0);
	mk_eval_text(c, x, strlen(x), c->cur_file ? c->cur_file : "$(eval)");
	free(x);
}

/* shell, error, file, intcmp, let, guile: depend on the build machine or abort make */
static void fn_unsupported(struct mk_ctx *c, const char *name, const struct args *a, struct strbuf *out)
{
	(void)a, (void)out;
	mk_mark_uncertain(c, "$(%s ...) cannot be evaluated without running make", name);
}

static const struct mk_fn functions[] = {
	{"subst", 3, 3, fn_subst},          {"patsubst", 3, 3, fn_patsubst},
	{"strip", 1, 1, fn_strip},          {"findstring", 2, 2, fn_findstring},
	{"filter", 2, 2, fn_filter},        {"filter-out", 2, 2, fn_filter},
	{"sort", 1, 1, fn_sort},            {"word", 2, 2, fn_word},
	{"wordlist", 3, 3, fn_word},        {"words", 1, 1, fn_words},
	{"firstword", 1, 1, fn_endword},    {"lastword", 1, 1, fn_endword},
	{"dir", 1, 1, fn_path},             {"notdir", 1, 1, fn_path},
	{"suffix", 1, 1, fn_path},          {"basename", 1, 1, fn_path},
	{"addsuffix", 2, 2, fn_addfix},     {"addprefix", 2, 2, fn_addfix},
	{"join", 2, 2, fn_join},            {"wildcard", 1, 1, fn_wildcard},
	{"realpath", 1, 1, fn_strip},       {"abspath", 1, 1, fn_strip},
	{"if", 1, 3, fn_if},                {"or", 1, 16, fn_andor},
	{"and", 1, 16, fn_andor},           {"foreach", 3, 3, fn_foreach},
	{"call", 1, 10, fn_call},           {"value", 1, 1, fn_value},
	{"origin", 1, 1, fn_origin},        {"flavor", 1, 1, fn_origin},
	{"warning", 1, 1, fn_message},      {"info", 1, 1, fn_message},
	{"eval", 1, 1, fn_eval},            {"error", 1, 1, fn_unsupported},
	{"shell", 1, 1, fn_unsupported},    {"file", 1, 1, fn_unsupported},
	{"intcmp", 1, 1, fn_unsupported},   {"let", 1, 1, fn_unsupported},
	{"guile", 1, 1, fn_unsupported},
};

static const struct mk_fn *find_function(const char *name, size_t n)
{
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
		if (strlen(functions[i].name) == n && memcmp(functions[i].name, name, n) == 0)
			return &functions[i];
	return NULL;
}

static void call_function(struct mk_ctx *c, const struct mk_fn *f, const char *s, size_t n,
			  struct strbuf *out)
{
	struct args a;
	split_args(s, n, f->max_args, &a);
	if (a.count < f->min_args)
		mk_mark_uncertain(c, "$(%s) with too few arguments", f->name);
	else
		f->handler(c, f->name, &a, out);
}
