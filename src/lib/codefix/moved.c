/* The tree's files by basename, for fingerprint files the tree lacks (see moved.h). */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codefix/moved.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#define DEPTH_MAX 48

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

static const char *sort_buf;

static int cmp_off(const void *a, const void *b)
{
	const char *x = sort_buf + *(const size_t *)a, *y = sort_buf + *(const size_t *)b;
	int c = strcmp(base_of(x), base_of(y));
	return c ? c : strcmp(x, y);
}

/* Is entry e of directory fd a directory (1), a regular file (2) or neither (0)? Links: 0. */
static int kind_of(int fd, const struct dirent *e)
{
	if (e->d_type == DT_DIR)
		return 1;
	if (e->d_type == DT_REG)
		return 2;
	struct stat st;
	if (e->d_type != DT_UNKNOWN || fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return 0;
	return S_ISDIR(st.st_mode) ? 1 : S_ISREG(st.st_mode) ? 2 : 0;
}

/* Add the files below directory fd (closed here), whose path is prefix (ending in '/' or "");
 * false when some part of it could not be indexed (a directory that cannot be read or is too
 * deep, too many files or bytes of names). */
static bool walk(int fd, struct strbuf *prefix, struct strbuf *paths, size_t *n, int depth)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return false;
	}
	size_t plen = prefix->len;
	bool whole = true;
	struct dirent *e;
	while (whole && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue; /* ".", "..", .git, .pc (quilt's unpatched copies) */
		int k = kind_of(dirfd(d), e);
		if (k == 2) {
			sb_add(paths, prefix->buf, prefix->len);
			sb_add(paths, e->d_name, strlen(e->d_name) + 1);
			whole = ++*n < CF_NAMES_MAX && paths->len < CF_NAMES_BYTES;
		} else if (k == 1) {
			int sub = depth < DEPTH_MAX ? openat(dirfd(d), e->d_name, O_RDONLY |
							   O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
			if (sub < 0) {
				whole = false;
				break;
			}
			sb_addf(prefix, "%s/", e->d_name);
			whole = walk(sub, prefix, paths, n, depth + 1);
			prefix->len = plen;
			prefix->buf[plen] = '\0';
		}
	}
	closedir(d);
	return whole;
}

void cf_names_build(struct cf_names *x, int dirfd)
{
	if (x->built)
		return;
	x->built = true;
	struct strbuf prefix = STRBUF_INIT, paths = STRBUF_INIT;
	size_t n = 0;
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* a partial index could offer one candidate where the tree has two (which would leave
	 * the file's hunks undecided): only a whole one is used */
	if (fd < 0 || !walk(fd, &prefix, &paths, &n, 0)) {
		sb_reset(&paths);
		n = 0;
	}
	sb_release(&prefix);
	x->buf = sb_detach(&paths);
	x->off = xcalloc(n + 1, sizeof *x->off);
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		x->off[i] = at;
		at += strlen(x->buf + at) + 1;
	}
	x->n = n;
	sort_buf = x->buf;
	if (n)
		qsort(x->off, n, sizeof *x->off, cmp_off);
	sort_buf = NULL;
}

size_t cf_names_find(const struct cf_names *x, const char *path, const char *out[CF_MOVED_MAX])
{
	const char *base = base_of(path);
	size_t lo = 0, hi = x->n;
	while (lo < hi) { /* first entry whose basename is >= base */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(base_of(x->buf + x->off[mid]), base) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t n = 0;
	for (size_t i = lo; i < x->n && !strcmp(base_of(x->buf + x->off[i]), base); i++) {
		const char *p = x->buf + x->off[i];
		if (!strcmp(p, path))
			continue;
		if (n == CF_MOVED_MAX)
			return 0;
		out[n++] = p;
	}
	return n;
}

void cf_names_release(struct cf_names *x)
{
	free(x->buf);
	free(x->off);
	memset(x, 0, sizeof *x);
}
