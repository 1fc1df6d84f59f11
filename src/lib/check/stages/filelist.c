/* A per-file verdict list (see filelist.h). */
#include "check/stages/filelist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/text.h"
#include "core/xalloc.h"

struct flist_ent {
	const char *path;
	enum ck_filev v;
	size_t line; /* 1-based, for messages */
};

struct ck_filelist {
	struct strbuf buf;
	struct flist_ent *v; /* sorted by path */
	size_t n;
};

static int cmp_ent(const void *a, const void *b)
{
	return strcmp(((const struct flist_ent *)a)->path, ((const struct flist_ent *)b)->path);
}

/* By path, then line: the order of the list (a path listed twice: its first line first). */
static int cmp_ent_line(const void *a, const void *b)
{
	const struct flist_ent *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	return c ? c : (x->line > y->line) - (x->line < y->line);
}

bool ck_filelist_looks(const char *c)
{
	while (*c == '#' || *c == '\n') { /* comments and blank lines first, as the parser */
		const char *eol = strchr(c, '\n');
		if (!eol)
			return false;
		c = eol + 1;
	}
	const char *tab = strchr(c, '\t');
	const char *eol = strchr(c, '\n');
	if (!tab || (eol && tab > eol))
		return false;
	tab++;
	return !strncmp(tab, "compiled", 8) || !strncmp(tab, "not-compiled", 12) ||
	       !strncmp(tab, "unknown", 7);
}

struct ck_filelist *ck_filelist_parse(const char *text, size_t len, char **error)
{
	*error = NULL;
	const char *nul = memchr(text, '\0', len);
	if (nul) { /* the lines after it would be left out unread */
		size_t line = 1;
		for (const char *p = text; p < nul; p++)
			line += *p == '\n';
		char msg[96];
		text_snprintf(msg, sizeof msg, "line %zu holds a NUL byte: not a text list", line);
		*error = xstrdup(msg);
		return NULL;
	}
	struct ck_filelist *fl = xcalloc(1, sizeof *fl);
	sb_add(&fl->buf, text, len);
	size_t alloc = 0, lineno = 0;
	for (char *line = fl->buf.buf; line && *line;) {
		char *eol = strchr(line, '\n');
		if (eol)
			*eol = '\0';
		lineno++;
		char *tab = strchr(line, '\t');
		if (line[0] && line[0] != '#') {
			char *verdict = tab ? tab + 1 : NULL;
			char *tab2 = verdict ? strchr(verdict, '\t') : NULL;
			if (tab2)
				*tab2 = '\0';
			enum ck_filev v;
			if (!verdict && !fl->n) {
				/* as a --batch line's FILES is told by its first entry (ck_filelist_looks):
				 * a .config or a JSON document given as a list is refused, not read as
				 * paths that are all unknown */
				char msg[160];
				text_snprintf(msg, sizeof msg, "line %zu: '%.40s' has no verdict, and the "
					      "first entry of a list needs one", lineno, line);
				*error = xstrdup(msg);
				break;
			} else if (!verdict) {
				v = CK_FILE_UNKNOWN;
			} else if (!strcmp(verdict, "compiled")) {
				v = CK_FILE_COMPILED;
			} else if (!strcmp(verdict, "not-compiled")) {
				v = CK_FILE_NOT_COMPILED;
			} else if (!strcmp(verdict, "unknown")) {
				v = CK_FILE_UNKNOWN;
			} else {
				char msg[128];
				text_snprintf(msg, sizeof msg, "line %zu: verdict '%.40s' is not compiled, "
					 "not-compiled or unknown", lineno, verdict);
				*error = xstrdup(msg);
				break;
			}
			if (tab)
				*tab = '\0';
			XGROW(fl->v, fl->n + 1, alloc);
			fl->v[fl->n].path = line;
			fl->v[fl->n].line = lineno;
			fl->v[fl->n++].v = v;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!*error && !fl->n)
		*error = xstrdup("the per-file verdict list is empty");
	if (!*error)
		qsort(fl->v, fl->n, sizeof *fl->v, cmp_ent_line);
	/* a path given two verdicts: which one the lookup found would depend on the sort */
	for (size_t i = 1; !*error && i < fl->n; i++) {
		const struct flist_ent *a = &fl->v[i - 1], *b = &fl->v[i];
		if (strcmp(a->path, b->path) || a->v == b->v)
			continue;
		char msg[160];
		text_snprintf(msg, sizeof msg, "line %zu: '%.60s' has another verdict than on line %zu",
			      b->line, b->path, a->line);
		*error = xstrdup(msg);
	}
	if (*error) {
		ck_filelist_free(fl);
		return NULL;
	}
	return fl;
}

int ck_filelist_open(struct ck_filelist **out, const char *path, struct kcve_err *err)
{
	*out = NULL;
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_IO, "cannot read the per-file verdict list %s (%s)",
				    path, read_file_reason(e));
	}
	char *error = NULL;
	*out = ck_filelist_parse(sb.buf ? sb.buf : "", sb.len, &error);
	sb_release(&sb);
	if (*out)
		return 0;
	kcve_err_set(err, KCVE_E_PARSE, "%s: %s (give 'path<TAB>compiled|not-compiled|unknown' "
		     "lines, as 'kcve db files' prints them)", path, error);
	free(error);
	return err->code;
}

enum ck_filev ck_filelist_verdict(void *ctx, const char *path, const char **reason)
{
	const struct ck_filelist *fl = ctx;
	struct flist_ent key = {.path = path};
	const struct flist_ent *e = bsearch(&key, fl->v, fl->n, sizeof *fl->v, cmp_ent);
	if (reason)
		*reason = e ? "per-file verdict list" : "not in the per-file verdict list";
	return e ? e->v : CK_FILE_UNKNOWN;
}

void ck_filelist_free(struct ck_filelist *fl)
{
	if (!fl)
		return;
	sb_release(&fl->buf);
	free(fl->v);
	free(fl);
}
