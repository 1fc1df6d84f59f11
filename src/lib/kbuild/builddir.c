/* Exact compiled-file set from a build directory's `.*.cmd` files.
 *
 * Kbuild writes, next to every object, `.<obj>.cmd` with `source_<obj> := <file>` and
 * `deps_<obj> := \` followed by one dependency per line (headers included; `$(wildcard
 * include/config/...)` entries are Kconfig dependencies, not files).  Paths are absolute inside
 * the source tree for O= builds (the tree is named by the `include <srctree>/Makefile` line of
 * the build directory's Makefile) and relative for in-tree builds.  Files outside the tree
 * (compiler headers) and generated files of the build directory are kept out of the set except
 * for relative generated paths, which are harmless. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/diag.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "core/strmap.h"

struct kb_build {
	char *srctree;      /* absolute, or NULL for in-tree builds */
	struct strmap set;  /* relative path -> (void *)1 */
	char **sorted;
	size_t ncmd;
	const struct kcve_diag *diag; /* a .cmd file skipped */
};

static void add_path(struct kb_build *b, const char *p, size_t n)
{
	if (!n)
		return;
	char *s = xstrndup(p, n);
	const char *rel = s;
	if (s[0] == '/') {
		size_t sl = b->srctree ? strlen(b->srctree) : 0;
		if (!sl || strncmp(s, b->srctree, sl) != 0 || s[sl] != '/') {
			free(s);
			return; /* compiler or system header */
		}
		rel = s + sl + 1;
	}
	while (rel[0] == '.' && rel[1] == '/')
		rel += 2;
	if (*rel && !strmap_get(&b->set, rel))
		strmap_put(&b->set, rel, (void *)1);
	free(s);
}

/* Words of a `name := value` logical line, `$(wildcard ...)` groups skipped. */
static void add_words(struct kb_build *b, const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\\' || s[i] == '\n' || s[i] == '\r'))
			i++;
		if (i >= n)
			break;
		if (s[i] == '$' && i + 1 < n && s[i + 1] == '(') {
			int depth = 0;
			for (; i < n; i++) {
				if (s[i] == '(')
					depth++;
				else if (s[i] == ')' && --depth == 0) {
					i++;
					break;
				}
			}
			continue;
		}
		size_t st = i;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' &&
		       !(s[i] == '\\' && (i + 1 == n || s[i + 1] == '\n' || s[i + 1] == '\r')))
			i++;
		add_path(b, s + st, i - st);
	}
}

static void parse_cmd(struct kb_build *b, const char *text, size_t len)
{
	size_t pos = 0;
	while (pos < len) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		bool src = n > 7 && !memcmp(line, "source_", 7);
		bool deps = n > 5 && !memcmp(line, "deps_", 5);
		if (!src && !deps) {
			pos += n + 1;
			continue;
		}
		/* logical line: continue while the physical line ends with a backslash */
		size_t end = pos;
		for (;;) {
			const char *l = text + end;
			const char *e = memchr(l, '\n', len - end);
			size_t m = e ? (size_t)(e - l) : len - end;
			size_t k = m;
			while (k && (l[k - 1] == ' ' || l[k - 1] == '\r'))
				k--;
			end += m + (e ? 1 : 0);
			if (!e || !k || l[k - 1] != '\\')
				break;
		}
		const char *as = memmem(line, n, ":=", 2);
		if (as) {
			size_t off = (size_t)(as + 2 - text);
			if (end > off)
				add_words(b, text + off, end - off);
		}
		pos = end;
	}
}

static void walk(struct kb_build *b, const char *dir, int depth)
{
	if (depth > 64)
		return;
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	struct dirent *de;
	struct strbuf p = STRBUF_INIT, text = STRBUF_INIT;
	while ((de = readdir(dh))) {
		const char *nm = de->d_name;
		if (!strcmp(nm, ".") || !strcmp(nm, ".."))
			continue;
		sb_reset(&p);
		sb_addf(&p, "%s/%s", dir, nm);
		unsigned char type = de->d_type;
		if (type == DT_UNKNOWN) {
			struct stat st;
			if (lstat(sb_str(&p), &st) == 0)
				type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
		}
		size_t nl = strlen(nm);
		if (type == DT_DIR && strcmp(nm, ".git") != 0) {
			walk(b, sb_str(&p), depth + 1);
		} else if (type == DT_REG && nm[0] == '.' && nl > 5 && !strcmp(nm + nl - 4, ".cmd")) {
			sb_reset(&text);
			if (read_file(sb_str(&p), &text) == 0) {
				b->ncmd++;
				parse_cmd(b, sb_str(&text), text.len);
			} else { /* bounded reader: too large (a sparse 5 GB file), vanished */
				char *q = safe_printable(sb_str(&p));
				diag_warn(b->diag, "skipping %s: %s", q, read_file_reason(errno));
				free(q);
			}
		}
	}
	closedir(dh);
	sb_release(&p);
	sb_release(&text);
}

/* O= build directories carry "include <srctree>/Makefile" in their Makefile. */
static char *find_srctree(const char *builddir)
{
	struct strbuf mf = STRBUF_INIT, p = STRBUF_INIT;
	sb_addf(&p, "%s/Makefile", builddir);
	char *res = NULL;
	if (read_file(sb_str(&p), &mf) == 0) {
		const char *s = sb_str(&mf);
		for (const char *q = s; (q = strstr(q, "include /")); q++) {
			if (q != s && q[-1] != '\n')
				continue;
			const char *e = strchr(q, '\n');
			size_t n = e ? (size_t)(e - q) : strlen(q);
			while (n && (q[n - 1] == ' ' || q[n - 1] == '\r'))
				n--;
			if (n > 17 && !memcmp(q + n - 9, "/Makefile", 9)) {
				res = xstrndup(q + 8, n - 8 - 9);
				break;
			}
		}
	}
	sb_release(&mf);
	sb_release(&p);
	return res;
}

int kb_build_open(struct kb_build **out, const char *builddir, const struct kcve_diag *diag,
		  struct kcve_err *err)
{
	*out = NULL;
	if (!is_dir(builddir)) {
		kcve_err_set(err, KCVE_E_NOTFOUND, "build directory %s not found, give a kernel build (O=) directory",
			     builddir);
		return -1;
	}
	struct kb_build *b = xcalloc(1, sizeof(*b));
	strmap_init(&b->set);
	b->diag = diag;
	b->srctree = find_srctree(builddir);
	if (!b->srctree) {
		/* in-tree build: the build directory is the source tree */
		b->srctree = realpath(builddir, NULL);
	}
	walk(b, builddir, 0);
	if (b->ncmd == 0) {
		kcve_err_set(err, KCVE_E_NOTFOUND,
			     "%s has no .*.cmd files, not a kernel build directory (build it first, or give O= dir)",
			     builddir);
		kb_build_close(b);
		return -1;
	}
	b->sorted = xcalloc(b->set.count + 1, sizeof(*b->sorted));
	for (size_t i = 0; i < b->set.count; i++)
		b->sorted[i] = strmap_at(&b->set, i)->key;
	if (b->set.count)
		qsort(b->sorted, b->set.count, sizeof(*b->sorted), cmp_str);
	*out = b;
	return 0;
}

enum kb_verdict kb_build_verdict(struct kb_build *b, const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return strmap_get(&b->set, path) ? KB_COMPILED : KB_NOT_COMPILED;
}

size_t kb_build_count(struct kb_build *b)
{
	return b->set.count;
}

const char *kb_build_path(struct kb_build *b, size_t i)
{
	return i < b->set.count ? b->sorted[i] : NULL;
}

const char *kb_build_srctree(struct kb_build *b)
{
	return b->srctree;
}

void kb_build_close(struct kb_build *b)
{
	if (!b)
		return;
	strmap_free(&b->set, NULL);
	free(b->sorted);
	free(b->srctree);
	free(b);
}
