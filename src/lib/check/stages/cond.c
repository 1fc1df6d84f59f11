/* Three-valued evaluation of kbuild's file conditions (see check/stages/cond.h). */
#include <ctype.h>
#include <string.h>

#include "check/stages/cond.h"

struct cp {
	const char *p;
	const char *(*get)(void *, const char *);
	void *ctx;
	int bad;
	int depth;
};

static void ws(struct cp *c)
{
	while (isspace((unsigned char)*c->p))
		c->p++;
}

static int and3(int a, int b)
{
	if (a == 0 || b == 0)
		return 0;
	return (a < 0 || b < 0) ? -1 : 1;
}

static int or3(int a, int b)
{
	if (a == 1 || b == 1)
		return 1;
	return (a < 0 || b < 0) ? -1 : 0;
}

static int expr(struct cp *c);

static int factor(struct cp *c)
{
	ws(c);
	if (++c->depth > 200) {
		c->bad = 1;
		return -1;
	}
	int r;
	if (*c->p == '!') {
		c->p++;
		r = factor(c);
		r = r < 0 ? -1 : !r;
	} else if (*c->p == '(') {
		c->p++;
		r = expr(c);
		ws(c);
		if (*c->p == ')')
			c->p++;
		else
			c->bad = 1;
	} else {
		const char *s = c->p;
		while (isalnum((unsigned char)*c->p) || *c->p == '_')
			c->p++;
		size_t n = (size_t)(c->p - s);
		char sym[256];
		if (n == 0 || n >= sizeof sym) {
			c->bad = 1;
			r = -1;
		} else {
			memcpy(sym, s, n);
			sym[n] = '\0';
			if (strcmp(sym, "y") == 0 || strcmp(sym, "m") == 0)
				r = 1;
			else if (strcmp(sym, "n") == 0)
				r = 0;
			else if (strcmp(sym, "unknown") == 0)
				r = -1;
			else if (strcmp(sym, "defined") == 0 && *c->p == '(') {
				/* defined(CONFIG_X): the preprocessor's view, set and not =m */
				c->p++;
				const char *a = c->p;
				while (isalnum((unsigned char)*c->p) || *c->p == '_')
					c->p++;
				size_t an = (size_t)(c->p - a);
				if (an == 0 || an >= sizeof sym || *c->p != ')') {
					c->bad = 1;
					r = -1;
				} else {
					c->p++;
					memcpy(sym, a, an);
					sym[an] = '\0';
					const char *v = c->get(c->ctx, sym);
					r = v && strcmp(v, "m") != 0;
				}
			} else if (*c->p == '=') {
				/* CONFIG_X=y / CONFIG_X=m: one exact value (IS_BUILTIN / IS_MODULE) */
				const char *a = ++c->p;
				while (isalnum((unsigned char)*c->p) || *c->p == '_')
					c->p++;
				size_t an = (size_t)(c->p - a);
				const char *v = c->get(c->ctx, sym);
				if (an == 0) {
					c->bad = 1;
					r = -1;
				} else {
					r = v && strlen(v) == an && strncmp(v, a, an) == 0;
				}
			} else {
				/* set, whatever the value: as make reads $(CONFIG_X) in ifdef/ifneq */
				r = c->get(c->ctx, sym) != NULL;
			}
		}
	}
	c->depth--;
	return r;
}

static int term(struct cp *c)
{
	int r = factor(c);
	for (;;) {
		ws(c);
		if (c->p[0] == '&' && c->p[1] == '&') {
			c->p += 2;
			r = and3(r, factor(c));
		} else {
			return r;
		}
	}
}

static int expr(struct cp *c)
{
	int r = term(c);
	for (;;) {
		ws(c);
		if (c->p[0] == '|' && c->p[1] == '|') {
			c->p += 2;
			r = or3(r, term(c));
		} else {
			return r;
		}
	}
}

int ck_cond_eval(const char *cond, const char *(*get)(void *ctx, const char *sym), void *ctx)
{
	struct cp c = {cond, get, ctx, 0, 0};
	int r = expr(&c);
	ws(&c);
	if (c.bad || *c.p)
		return -1;
	return r;
}
