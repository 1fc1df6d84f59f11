/* Unified diff reader (see patch.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codefix/patch.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/text.h"
#include "core/xalloc.h"

struct cursor {
	const char *p, *end;
	unsigned long lineno;
};

/* The next line (without its newline, nor a CR before it); false at the end. */
static bool next_line(struct cursor *c, const char **s, size_t *n)
{
	if (c->p >= c->end)
		return false;
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));
	const char *e = nl ? nl : c->end;
	*s = c->p;
	*n = (size_t)(e - c->p);
	if (*n && (*s)[*n - 1] == '\r')
		(*n)--;
	c->p = nl ? nl + 1 : c->end;
	c->lineno++;
	return true;
}

static bool starts(const char *s, size_t n, const char *pfx)
{
	size_t k = strlen(pfx);
	return n >= k && !memcmp(s, pfx, k);
}

/* The path of a "--- " / "+++ " line: up to a tab (diff -u puts the date there), without the
 * a/ or b/ prefix.  NULL for /dev/null; *bad for a path kcve refuses (absolute, "..", quoted,
 * control characters, not UTF-8: a path is text that reaches JSON and VEX statements). */
static char *header_path(const char *s, size_t n, bool *bad)
{
	s += 4;
	n -= 4;
	const char *tab = memchr(s, '\t', n);
	if (tab)
		n = (size_t)(tab - s);
	while (n && s[n - 1] == ' ')
		n--;
	if (n == 9 && !memcmp(s, "/dev/null", 9))
		return NULL;
	if (n > 2 && (s[0] == 'a' || s[0] == 'b') && s[1] == '/') {
		s += 2;
		n -= 2;
	}
	*bad = n == 0 || n > 4096 || s[0] == '/' || s[0] == '"' || !utf8_valid(s, n);
	for (size_t i = 0; i < n && !*bad; i++)
		*bad = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ||
		       ((i == 0 || s[i - 1] == '/') && n - i >= 2 && !memcmp(s + i, "..", 2) &&
			(n - i == 2 || s[i + 2] == '/'));
	return *bad ? NULL : xstrndup(s, n);
}

/* "@@ -a[,b] +c[,d] @@ func": false when malformed or a count is out of bounds. */
static bool parse_range(const char **s, const char *end, char sign, unsigned long *start,
			unsigned long *len)
{
	const char *p = *s;
	if (p >= end || *p != sign)
		return false;
	p++;
	unsigned long v[2] = {0, 1};
	for (int k = 0; k < 2; k++) {
		if (p >= end || *p < '0' || *p > '9')
			return false;
		v[k] = 0;
		while (p < end && *p >= '0' && *p <= '9') {
			v[k] = v[k] * 10 + (unsigned long)(*p++ - '0');
			if (v[k] > CF_PATCH_MAX_LINES)
				return false;
		}
		if (k == 1 || p >= end || *p != ',')
			break;
		p++;
	}
	*start = v[0];
	*len = v[1];
	*s = p;
	return true;
}

static bool parse_hunk_header(const char *s, size_t n, struct cf_phunk *h)
{
	const char *p = s + 3, *end = s + n;
	if (!parse_range(&p, end, '-', &h->old_start, &h->old_len) || p >= end || *p++ != ' ' ||
	    !parse_range(&p, end, '+', &h->new_start, &h->new_len) || end - p < 3 ||
	    memcmp(p, " @@", 3))
		return false;
	p += 3;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	size_t fl = (size_t)(end - p);
	while (fl && (p[fl - 1] == ' ' || p[fl - 1] == '\t'))
		fl--;
	if (fl > 200)
		fl = 200;
	h->func = xstrndup(p, fl);
	for (char *q = h->func; *q; q++)
		if ((unsigned char)*q < 0x20 || *q == 0x7f)
			*q = ' ';
	return true;
}

static int fail(struct kcve_err *err, const char *name, const struct cursor *c, const char *what)
{
	return kcve_err_set(err, KCVE_E_PARSE, "%s:%lu: not a usable unified diff (%s); give a "
			    "'diff -u' or 'git format-patch' file", name, c->lineno, what);
}

/* The body of one hunk: exactly the lines its header counts. */
static int read_hunk(struct cursor *c, struct cf_phunk *h, size_t *total, const char *name,
		     struct kcve_err *err)
{
	unsigned long old = h->old_len, new = h->new_len;
	const char *s;
	size_t n;
	while (old || new) {
		if (!next_line(c, &s, &n))
			return fail(err, name, c, "hunk cut short");
		char t = n ? s[0] : ' ';
		if (t == '\\')
			continue; /* "\ No newline at end of file" */
		if ((t == ' ' && (!old || !new)) || (t == '-' && !old) || (t == '+' && !new) ||
		    (t != ' ' && t != '-' && t != '+'))
			return fail(err, name, c, "hunk line does not match its header's counts");
		old -= t != '+';
		new -= t != '-';
		if (++*total > CF_PATCH_MAX_LINES)
			return fail(err, name, c, "too many lines");
		XGROW(h->l, h->n + 1, h->alloc);
		h->l[h->n++] = (struct cf_pline){t, n ? s + 1 : s, n ? n - 1 : 0};
	}
	return 0;
}

static int parse_lines(struct cf_patch *p, struct cursor *c, const char *name,
		       struct kcve_err *err)
{
	const char *s, *prev = NULL;
	size_t n, prevn = 0, total = 0, hunks = 0;
	struct cf_pfile *f = NULL;
	while (next_line(c, &s, &n)) {
		if (starts(s, n, "+++ ") && prev && starts(prev, prevn, "--- ")) {
			bool bad_old = false, bad_new = false;
			char *oldp = header_path(prev, prevn, &bad_old);
			char *newp = header_path(s, n, &bad_new);
			if (bad_old || bad_new || (!oldp && !newp)) {
				free(oldp);
				free(newp);
				return fail(err, name, c, "file name refused (absolute, '..', quoted, a "
					    "control character or not UTF-8)");
			}
			XGROW(p->f, p->n + 1, p->alloc);
			f = &p->f[p->n++];
			*f = (struct cf_pfile){.path = newp ? newp : oldp};
			if (newp)
				free(oldp);
		} else if (starts(s, n, "@@ -")) {
			if (!f)
				return fail(err, name, c, "hunk before any file header");
			if (++hunks > CF_PATCH_MAX_HUNKS)
				return fail(err, name, c, "too many hunks");
			XGROW(f->h, f->n + 1, f->alloc);
			struct cf_phunk *h = &f->h[f->n++];
			memset(h, 0, sizeof *h);
			if (!parse_hunk_header(s, n, h))
				return fail(err, name, c, "bad hunk header");
			int rc = read_hunk(c, h, &total, name, err);
			if (rc)
				return rc;
		} else if (starts(s, n, "diff ")) {
			f = NULL;
		}
		prev = s;
		prevn = n;
	}
	return 0;
}

int cf_patch_parse(struct cf_patch *p, const char *text, size_t len, const char *name,
		   struct kcve_err *err)
{
	memset(p, 0, sizeof *p);
	if (len > CF_PATCH_MAX)
		return kcve_err_set(err, KCVE_E_PARSE, "%s: patch larger than %u MiB; refused", name,
				    CF_PATCH_MAX >> 20);
	p->text = xmalloc(len + 1);
	memcpy(p->text, text, len);
	p->text[len] = '\0';
	struct cursor c = {p->text, p->text + len, 0};
	int rc = parse_lines(p, &c, name, err);
	if (rc == 0 && p->n == 0)
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s: no file changes found; give a 'diff -u' or "
				  "'git format-patch' file", name);
	return rc;
}

int cf_patch_read(struct cf_patch *p, const char *path, struct kcve_err *err)
{
	memset(p, 0, sizeof *p);
	struct strbuf sb = STRBUF_INIT;
	int rc;
	/* the bounded reader: a FIFO is refused at once, never waited on */
	if (read_file_capped(path, &sb, CF_PATCH_MAX) != 0) {
		int e = errno;
		char *shown = safe_printable(path);
		rc = kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				  "cannot read patch %s: %s (a regular file of at most %u MiB)", shown,
				  read_file_reason(e), CF_PATCH_MAX >> 20);
		free(shown);
	} else
		rc = cf_patch_parse(p, sb.buf, sb.len, path, err);
	sb_release(&sb);
	return rc;
}

void cf_patch_release(struct cf_patch *p)
{
	for (size_t i = 0; i < p->n; i++) {
		for (size_t j = 0; j < p->f[i].n; j++) {
			free(p->f[i].h[j].func);
			free(p->f[i].h[j].l);
		}
		free(p->f[i].h);
		free(p->f[i].path);
	}
	free(p->f);
	free(p->text);
	memset(p, 0, sizeof *p);
}
