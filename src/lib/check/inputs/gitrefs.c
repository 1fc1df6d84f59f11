/* Which commits a commit message says it carries or reverts (rules: gitrefs.h). */
#include "check/inputs/gitrefs.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "core/xalloc.h"

static int hexv(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Length of the hex run at s[0..n) (0 when s does not start with a hex digit). */
static size_t hexrun(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && hexv((unsigned char)s[k]) >= 0)
		k++;
	return k;
}

static void push(struct ck_idvec *v, const unsigned char id[20])
{
	for (size_t i = 0; i < v->n; i++)
		if (!memcmp(v->v[i], id, 20))
			return;
	XGROW(v->v, v->n + 1, v->alloc);
	memcpy(v->v[v->n++], id, 20);
}

/* The id of hex s[0..k): 40 digits directly, 12..39 through resolve. */
static bool take_id(const char *s, size_t k, ck_resolve_fn resolve, void *ctx, unsigned char out[20])
{
	if (k == 40) {
		for (int i = 0; i < 20; i++)
			out[i] = (unsigned char)(hexv((unsigned char)s[2 * i]) << 4 | hexv((unsigned char)s[2 * i + 1]));
		return true;
	}
	return k >= 12 && k < 40 && resolve && resolve(ctx, s, k, out);
}

/* Match keyword kw (case-insensitive, single spaces in kw match runs of blanks) at *p. */
static bool word(const char **p, const char *e, const char *kw)
{
	const char *s = *p;
	for (; *kw; kw++) {
		if (*kw == ' ') {
			if (s >= e || (*s != ' ' && *s != '\t'))
				return false;
			while (s < e && (*s == ' ' || *s == '\t'))
				s++;
			continue;
		}
		if (s >= e || tolower((unsigned char)*s) != *kw)
			return false;
		s++;
	}
	*p = s;
	return true;
}

static void blanks(const char **p, const char *e)
{
	while (*p < e && (**p == ' ' || **p == '\t'))
		(*p)++;
}

/* One line (without its newline), leading and trailing blanks already dropped. */
static void scan_line(const char *s, const char *e, ck_resolve_fn resolve, void *ctx,
		      struct ck_msgrefs *out)
{
	const char *p = s;
	unsigned char id[20];
	size_t k;
	/* "This reverts commit <id>...": the first id is the reverted commit; the rest of the line
	 * ("which is commit <sha> upstream.") only describes it */
	if (word(&p, e, "this reverts commit ")) {
		k = hexrun(p, (size_t)(e - p));
		if (take_id(p, k, resolve, ctx, id))
			push(&out->reverts, id);
		return;
	}
	p = s;
	/* "[ Upstream commit <40> ]" */
	if (*p == '[') {
		p++;
		blanks(&p, e);
		if (word(&p, e, "upstream commit ") && (k = hexrun(p, (size_t)(e - p))) == 40) {
			const char *q = p + 40;
			blanks(&q, e);
			if (q < e && *q == ']' && take_id(p, k, NULL, NULL, id))
				push(&out->refs, id);
		}
		return;
	}
	/* "(cherry picked from commit <12+>[ ...])", "(backported from commit <12+>[ ...])" */
	if (*p == '(' && e[-1] == ')') {
		p++;
		if (word(&p, e, "cherry picked from commit ") || word(&p, e, "backported from commit ")) {
			k = hexrun(p, (size_t)(e - p));
			if (p + k == e - 1 || p[k] == ' ' || p[k] == '\t')
				if (take_id(p, k, resolve, ctx, id))
					push(&out->refs, id);
		}
		return;
	}
	/* "Git-commit: <40>" */
	if (word(&p, e, "git-commit:")) {
		blanks(&p, e);
		if ((k = hexrun(p, (size_t)(e - p))) == 40 && p + 40 == e && take_id(p, k, NULL, NULL, id))
			push(&out->refs, id);
		return;
	}
	/* "commit <40> upstream[.][ ...]" and "commit <40>" alone */
	if (word(&p, e, "commit ") && (k = hexrun(p, (size_t)(e - p))) == 40) {
		const char *q = p + 40;
		bool alone = q == e;
		if (!alone && (*q == ' ' || *q == '\t')) {
			blanks(&q, e);
			const char *w = q;
			alone = word(&w, e, "upstream") && (w == e || *w == '.' || *w == ' ' || *w == ',' ||
							   *w == ';' || *w == ')');
		}
		if (alone && take_id(p, k, NULL, NULL, id))
			push(&out->refs, id);
	}
}

void ck_scan_message(struct ck_msgrefs *out, const char *msg, size_t len, ck_resolve_fn resolve,
		     void *ctx)
{
	out->refs.n = out->reverts.n = 0;
	const char *end = msg + len;
	for (const char *line = msg; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *e = nl ? nl : end;
		const char *s = line;
		line = nl ? nl + 1 : end;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e - s >= 18) /* the shortest form, "Git-commit: " + 12 hex ids, is longer */
			scan_line(s, e, resolve, ctx, out);
	}
}

void ck_msgrefs_free(struct ck_msgrefs *m)
{
	free(m->refs.v);
	free(m->reverts.v);
	memset(m, 0, sizeof *m);
}
