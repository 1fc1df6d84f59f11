/* Reading MAINTAINERS into get_maintainer.pl's @typevalue shape (see maintainers.h). */
#include "maintainers/maintainers.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "maintainers/email.h"
#include "maintainers/perlre.h"
#include "core/text.h"

/* Perl's \s: space, \t, \n, \v, \f, \r. */
static bool perl_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* F:/X: glob -> regex text, exactly read_maintainer_file's three substitutions. */
static void glob_to_regex(const char *v, struct strbuf *out)
{
	for (; *v; v++) {
		if (*v == '.')
			sb_adds(out, "\\.");
		else if (*v == '*')
			sb_adds(out, ".*");
		else if (*v == '?')
			sb_addc(out, '.');
		else
			sb_addc(out, *v);
	}
}

static void add_line(struct maintainers *m, size_t *alloc, char tag, const char *val, size_t vlen,
                     unsigned lineno, mnt_isdir_fn isdir, void *ctx)
{
	XGROW(m->tv, m->ntv + 1, *alloc);
	struct mnt_line *l = &m->tv[m->ntv++];
	memset(l, 0, sizeof(*l));
	l->tag = tag;
	l->lineno = lineno;
	l->raw = xstrndup(val, vlen);
	if (tag == 'F' || tag == 'X') {
		struct strbuf rx = STRBUF_INIT;
		glob_to_regex(l->raw, &rx);
		/* "if pattern is a directory and it lacks a trailing slash, add one" — checked on the
		 * converted text, so a directory whose name has a '.' never gets one (as in Perl). */
		if (rx.len && rx.buf[rx.len - 1] != '/' && isdir && isdir(ctx, rx.buf))
			sb_addc(&rx, '/');
		l->value = sb_detach(&rx);
		/* Literal prefix: the path must start with it for the regex to match (none if the
		 * pattern has an alternation, which could bypass the anchor). */
		if (!strchr(l->value, '|'))
			l->litlen = strcspn(l->value, "\\.*?+[](){}^$");
	} else {
		l->value = xstrdup(l->raw);
	}
	if (tag == 'F' || tag == 'X' || tag == 'N' || tag == 'K') {
		struct strbuf pat = STRBUF_INIT;
		unsigned flags = 0;
		if (tag == 'F' || tag == 'X')
			sb_addf(&pat, "^%s", l->value);   /* m@^$pattern@ */
		else {
			sb_adds(&pat, l->value);          /* m/$value/x */
			flags = PERLRE_EXTENDED;
		}
		char eb[200];
		l->re = perlre_compile(pat.buf, flags, eb, sizeof(eb));
		if (!l->re) {
			l->bad_regex = true;
			m->nbad++;
		}
		sb_release(&pat);
	}
}

/* Sections exactly as get_maintainer.pl's loop finds them: from the first tag line, walk back
 * to the title (find_starting_index) and forward to the first non-tag line (find_ending_index),
 * continue at end + 1. */
static void find_sections(struct maintainers *m)
{
	size_t alloc = 0;
	m->section_of = xmalloc((m->ntv ? m->ntv : 1) * sizeof(size_t));
	for (size_t i = 0; i < m->ntv; i++)
		m->section_of[i] = SIZE_MAX;
	size_t tvi = 0;
	while (tvi < m->ntv && !m->tv[tvi].tag)
		tvi++;
	while (tvi < m->ntv) {
		size_t start = tvi, end = tvi;
		while (start > 0 && m->tv[start].tag)
			start--;
		while (end < m->ntv && m->tv[end].tag)
			end++;
		XGROW(m->sec, m->nsec + 1, alloc);
		struct mnt_section *s = &m->sec[m->nsec];
		memset(s, 0, sizeof(*s));
		s->start = start;
		s->end = end;
		s->key = tvi;
		s->name = m->tv[start].raw;
		s->the_rest = !m->tv[start].tag && strcmp(m->tv[start].raw, "THE REST") == 0;
		for (size_t i = start; i < end; i++) {
			const struct mnt_line *l = &m->tv[i];
			if (l->tag == 'S') {
				if (i > start)
					s->status = l->value;
				if (strcasestr(l->value, "maintain") || strcasestr(l->value, "support"))
					s->maintained = true;
			} else if (l->tag == 'M') {
				s->has_maintainer = true;
			}
			m->section_of[i] = m->nsec;
		}
		s->orphan = s->status && strncasecmp(s->status, "orphan", 6) == 0;
		m->nsec++;
		tvi = end + 1;
	}
}

int maintainers_parse(struct maintainers **out, const char *text, size_t len, mnt_isdir_fn isdir,
                      void *isdir_ctx, struct kcve_err *err)
{
	struct maintainers *m = xcalloc(1, sizeof(*m));
	size_t alloc = 0;
	unsigned lineno = 0;
	const char *p = text, *endp = text + len;
	while (p < endp) {
		const char *nl = memchr(p, '\n', (size_t)(endp - p));
		const char *le = nl ? nl : endp;
		lineno++;
		/* Values stop at an embedded NUL: C strings cannot carry them, and no real file has one. */
		const char *z = memchr(p, '\0', (size_t)(le - p));
		const char *ve = z ? z : le;
		if (ve - p >= 2 && p[0] >= 'A' && p[0] <= 'Z' && p[1] == ':') {
			const char *v = p + 2;
			while (v < ve && perl_space((unsigned char)*v))
				v++;
			add_line(m, &alloc, p[0], v, (size_t)(ve - v), lineno, isdir, isdir_ctx);
		} else {
			const char *q = p;
			while (q < le && perl_space((unsigned char)*q))
				q++;
			if (q < le && *q != '#')
				add_line(m, &alloc, 0, p, (size_t)(ve - p), lineno, NULL, NULL);
		}
		p = nl ? nl + 1 : endp;
	}
	find_sections(m);
	if (m->nsec == 0) {
		maintainers_free(m);
		return kcve_err_set(err, KCVE_E_PARSE, "no MAINTAINERS sections (no \"X: value\" lines)");
	}
	*out = m;
	return 0;
}

struct dir_ctx {
	const char *root;
};

static bool fs_isdir(void *ctx, const char *rel)
{
	const struct dir_ctx *d = ctx;
	char *p = path_join(d->root, rel);
	struct stat st;
	bool r = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
	free(p);
	return r;
}

int maintainers_load(struct maintainers **out, const char *path, const char *root,
                     struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_NOTFOUND, "cannot read MAINTAINERS file %s", path);
	}
	struct dir_ctx d = {root};
	int rc = maintainers_parse(out, sb.buf ? sb.buf : "", sb.len, root ? fs_isdir : NULL, &d, err);
	sb_release(&sb);
	if (rc) {
		char msg[sizeof(err->msg)];
		text_snprintf(msg, sizeof(msg), "%s", err->msg);
		return kcve_err_set(err, rc, "%s in %s", msg, path);
	}
	if (root) {
		char *mm = path_join(root, ".mailmap");
		struct strbuf t = STRBUF_INIT;
		if (read_file(mm, &t) == 0)
			(*out)->mailmap = mailmap_parse(t.buf ? t.buf : "", t.len);
		sb_release(&t);
		free(mm);
	}
	return 0;
}

void maintainers_free(struct maintainers *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->ntv; i++) {
		free(m->tv[i].value);
		free(m->tv[i].raw);
		perlre_free(m->tv[i].re);
	}
	free(m->tv);
	free(m->sec);
	free(m->section_of);
	mailmap_free(m->mailmap);
	free(m);
}

const char *mnt_section_next(const struct maintainers *m, const struct mnt_section *s, char tag,
                             size_t *pos)
{
	size_t i = *pos ? *pos : s->start + 1;
	for (; i < s->end; i++) {
		if (m->tv[i].tag == tag) {
			*pos = i + 1;
			return m->tv[i].value;
		}
	}
	*pos = s->end;
	return NULL;
}
