/* The functions of a fix fingerprint without function lists (`db build --patches`), read in
 * the --source tree where the code stage found its hunks (rules in check/stages/funclevel.h:
 * ck_fix_funcs_fprints).  A wrong "not affected" hides a vulnerability: every hunk that cannot
 * be placed in one function for sure counts as outside every function. */
#include <ctype.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "check/stages/functree.h"
#include "check/verdict/check.h"
#include "codefix/match.h"
#include "codefix/norm.h"
#include "core/safefs.h"
#include "core/xalloc.h"

/* A hunk the code stage found: the functions its change's span overlaps. */
static void from_place(struct fl_fix *fx, const char *path, const struct funcscan *fs,
		       const struct cf_ev *ev)
{
	size_t idx[16];
	bool out = false;
	size_t n = funcscan_range(fs, ev->first, ev->last, idx, 16, &out);
	/* a change between two lines of two functions may be in either, or between them */
	if (out || n == 0 || n > 16 || (ev->ins && n > 1)) {
		fx->outside = true;
		return;
	}
	/* a change placed between two lines is inside the function only between its braces: right
	 * after its closing one or before its opening one (a comment there is in no function and
	 * no code line, so the scan does not call it outside) it is between functions */
	const struct funcscan_fn *f = &fs->fn[idx[0]];
	if (ev->ins && (ev->first < f->body_line || ev->last > f->end_line)) {
		fx->outside = true;
		return;
	}
	for (size_t i = 0; i < n; i++)
		fl_fix_add_scanned(fx, path, &fs->fn[idx[i]]);
	fx->from_place++;
}

/* The start of line `line` (1-based) in text, and its length without the newline. */
static const char *line_at(const struct strbuf *text, const size_t *starts, unsigned nlines,
			   unsigned line, size_t *len)
{
	if (line == 0 || line > nlines)
		return NULL;
	size_t b = starts[line - 1], e = line < nlines ? starts[line] : text->len;
	while (e > b && (text->buf[e - 1] == '\n' || text->buf[e - 1] == '\r'))
		e--;
	*len = e - b;
	return text->buf + b;
}

/* Is s[0..len) (no leading blank) a conditional directive (#if, #ifdef, #ifndef, #elif,
 * #else, #endif)?  Those only frame the function; a #define, #include or #undef changes what
 * the code after it compiles to. */
static bool conditional_directive(const char *s, size_t len)
{
	static const char *const names[] = {"if", "ifdef", "ifndef", "elif", "else", "endif"};
	size_t i = 1;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	size_t w = i;
	while (w < len && isalpha((unsigned char)s[w]))
		w++;
	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		if (w - i == strlen(names[k]) && !memcmp(s + i, names[k], w - i))
			return true;
	return false;
}

/* Only conditional directives, EXPORT_SYMBOL lines, comments and blanks between lines a and b
 * (exclusive): nothing a hunk there could change but the function before. */
static bool quiet_gap(const struct funcscan *fs, const struct strbuf *text, const size_t *starts,
		      unsigned nlines, unsigned a, unsigned b)
{
	for (unsigned l = a + 1; l < b && l <= nlines; l++) {
		if (l >= fs->ncode || !fs->code[l])
			continue;
		size_t len;
		const char *s = line_at(text, starts, nlines, l, &len);
		while (s && len && isspace((unsigned char)*s)) {
			s++;
			len--;
		}
		if (!s || !len)
			continue;
		if (*s == '#' ? !conditional_directive(s, len)
			      : len < 13 || strncmp(s, "EXPORT_SYMBOL", 13))
			return false;
	}
	return true;
}

/* Does some line of hunk h (strict form) equal line `line` of the file? */
static bool hunk_has_line(const struct cf_set *cs, const struct cf_hunk *h,
			  const struct strbuf *text, const size_t *starts, unsigned nlines,
			  unsigned line)
{
	size_t len;
	const char *s = line_at(text, starts, nlines, line, &len);
	char norm[CF_NORM_MAX + 1];
	size_t n = s ? cf_norm(s, len, norm) : 0;
	if (!n)
		return false;
	uint64_t hs = cf_hash_strict(norm, n);
	for (uint32_t k = 0; k < h->n; k++)
		if (cs->lines[h->it[k].line].hs == hs && !strcmp(cs->lines[h->it[k].line].text, norm))
			return true;
	return false;
}

struct tfile {
	const char *path;
	struct strbuf text;
	size_t *starts; /* offset of each line */
	unsigned nlines;
	struct funcscan fs;
};

/* Is the hunk header (the line above the hunk that diff named, maybe cut short) the start of
 * the tree's definition of f: a prefix of its first line or of its name's line?  A header that
 * is a prototype ("int foo(int x);", followed by data or macros) or a call names the function
 * without the hunk being in it. */
static bool header_defines(const char *hfunc, const struct tfile *tf, const struct funcscan_fn *f)
{
	char hn[CF_NORM_MAX + 1], ln[CF_NORM_MAX + 1];
	size_t n = cf_norm(hfunc, strlen(hfunc), hn);
	const unsigned at[2] = {f->decl_line, f->name_line};
	for (int i = 0; n && i < 2; i++) {
		size_t len;
		const char *s = line_at(&tf->text, tf->starts, tf->nlines, at[i], &len);
		if (s && cf_norm(s, len, ln) >= n && !memcmp(ln, hn, n))
			return true;
	}
	return false;
}

/* A hunk the code stage did not find: the function its header names, when the tree's file
 * defines it (the header being the start of that definition) and nothing else near it could
 * hold the change. */
static void from_header(struct fl_fix *fx, const struct cf_set *cs, const struct cf_hunk *h,
			const struct tfile *tf)
{
	char name[256];
	cf_header_name(h->func, name, sizeof name);
	const struct funcscan *fs = &tf->fs;
	size_t found = 0;
	for (size_t i = 0; name[0] && i < fs->n; i++) {
		const struct funcscan_fn *f = &fs->fn[i];
		if (strcmp(f->name, name))
			continue;
		if (!header_defines(h->func, tf, f)) {
			fx->outside = true; /* a prototype or a call: the hunk is not in f */
			return;
		}
		unsigned next = i + 1 < fs->n ? fs->fn[i + 1].decl_line : tf->nlines + 1;
		if (!quiet_gap(fs, &tf->text, tf->starts, tf->nlines, f->end_line, next)) {
			fx->outside = true; /* data or macros after it: the hunk may change those */
			return;
		}
		fl_fix_add_scanned(fx, tf->path, f);
		found++;
	}
	if (!found) {
		fx->outside = true;
		return;
	}
	/* a function that starts inside the hunk (the header names the one above it) */
	for (size_t i = 0; i < fs->n; i++)
		if (strcmp(fs->fn[i].name, name) &&
		    (hunk_has_line(cs, h, &tf->text, tf->starts, tf->nlines, fs->fn[i].decl_line) ||
		     hunk_has_line(cs, h, &tf->text, tf->starts, tf->nlines, fs->fn[i].name_line)))
			fl_fix_add_scanned(fx, tf->path, &fs->fn[i]);
	fx->from_header++;
}

static bool tfile_read(struct tfile *tf, int dirfd, const char *path)
{
	memset(tf, 0, sizeof *tf);
	tf->path = path;
	if (!safe_relpath(path) || safe_read_at(dirfd, path, &tf->text, CF_SRC_MAX) != 0)
		return false;
	size_t alloc = 0;
	for (size_t off = 0; off < tf->text.len;) {
		XGROW(tf->starts, tf->nlines + 1, alloc);
		tf->starts[tf->nlines++] = off;
		const char *nl = memchr(tf->text.buf + off, '\n', tf->text.len - off);
		off = nl ? (size_t)(nl - tf->text.buf) + 1 : tf->text.len;
	}
	funcscan_scan(&tf->fs, tf->text.buf ? tf->text.buf : "", tf->text.len);
	return true;
}

static void tfile_free(struct tfile *tf)
{
	sb_release(&tf->text);
	free(tf->starts);
	funcscan_free(&tf->fs);
}

bool ck_fix_funcs_tree(const char *source, const struct cf_set *cs, const struct cf_fp *fp,
		       const struct ck_code *code, struct fl_fix *out)
{
	/* the code stage's places are those of this fingerprint only */
	bool placed = code && code->label && !strcmp(code->label, fp->label);
	int dirfd = open(source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return false;
	out->from_tree = true;
	size_t at = 0;
	for (uint32_t i = 0; i < fp->n; i++) {
		const struct cf_file *f = &fp->f[i];
		/* the file the code stage read: the fix's, or where it moved to (codefix/moved.h) */
		const struct cf_ev *fev = placed && at < code->nev ? &code->ev[at] : NULL;
		const char *path = fev && !strcmp(fev->file, f->path) && fev->moved ? fev->moved
										  : f->path;
		struct tfile tf;
		bool have = tfile_read(&tf, dirfd, path);
		for (uint32_t j = 0; j < f->n; j++, at++) {
			const struct cf_ev *ev = placed && at < code->nev ? &code->ev[at] : NULL;
			if (ev && (strcmp(ev->file, f->path) || ev->hunk != j ||
				   strcmp(ev->moved ? ev->moved : ev->file, path)))
				ev = NULL; /* not the evidence of this hunk here: never guess */
			if (!have)
				out->outside = true; /* a missing file (or not C: fl_fix_add_text) */
			else if (ev && ev->first && (ev->state == CF_H_FIXED || ev->state == CF_H_VULN))
				from_place(out, path, &tf.fs, ev);
			else
				from_header(out, cs, &f->h[j], &tf);
		}
		if (have)
			tfile_free(&tf);
		else
			sb_release(&tf.text);
	}
	close(dirfd);
	return out->n > 0 || out->outside;
}
