/* Link-free, name-checked, size-capped access below an open directory (see safefs.h). */
#include "core/assert.h"
#include "core/safefs.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "core/xalloc.h"

bool safe_name_n(const char *name, size_t len)
{
	if (len == 0 || (len == 1 && name[0] == '.') || (len == 2 && !memcmp(name, "..", 2)))
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];
		if (c < 0x20 || c == 0x7f || c == '/')
			return false;
	}
	return true;
}

bool safe_name(const char *name)
{
	return safe_name_n(name, strlen(name));
}

bool safe_relpath(const char *rel)
{
	for (;;) {
		const char *slash = strchr(rel, '/');
		size_t len = slash ? (size_t)(slash - rel) : strlen(rel);
		if (!safe_name_n(rel, len))
			return false;
		if (!slash)
			return true;
		rel = slash + 1;
	}
}

struct guard {
	char *root;
	size_t len;
	int fd;
};
static struct guard *guards;
static size_t nguards, aguards;

static const int dir_flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

/* Directories already reached below a guarded root, so reading the files of one year
 * directory costs one openat each instead of a walk from the root (verify reads ~40,000
 * files). A cached descriptor is the directory that was checked when it was first reached:
 * if someone later swaps a link in its place, kcve keeps working in the real directory and
 * still never follows the link. Only successes are cached. */
#define DIR_CACHE 8
static struct dir_cache_ent {
	int base, fd;
	char *rel;
} dir_cache[DIR_CACHE];
static unsigned dir_cache_next;

static bool is_guarded_fd(int fd);

static int dir_cache_get(int base, const char *rel, size_t len)
{
	for (size_t i = 0; i < DIR_CACHE; i++) {
		struct dir_cache_ent *c = &dir_cache[i];
		if (c->rel && c->base == base && strlen(c->rel) == len && !memcmp(c->rel, rel, len))
			return openat(c->fd, ".", dir_flags);
	}
	return -1;
}

static void dir_cache_put(int base, const char *rel, size_t len, int fd)
{
	struct dir_cache_ent *c = &dir_cache[dir_cache_next++ % DIR_CACHE];
	if (c->rel) {
		free(c->rel);
		close(c->fd);
	}
	c->base = base;
	c->rel = xstrndup(rel, len);
	c->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (c->fd < 0) {
		free(c->rel);
		c->rel = NULL;
	}
}

static void dir_cache_drop(int base)
{
	for (size_t i = 0; i < DIR_CACHE; i++)
		if (dir_cache[i].rel && dir_cache[i].base == base) {
			free(dir_cache[i].rel);
			dir_cache[i].rel = NULL;
			close(dir_cache[i].fd);
		}
}

static int walk_dir_n(int dirfd, const char *rel, size_t len, bool create, int mode);

/* Walk the components of rel[0..len) from dirfd; every one must be a real directory. */
static int open_dir_n(int dirfd, const char *rel, size_t len, bool create, int mode)
{
	bool cacheable = len && is_guarded_fd(dirfd);
	if (cacheable) {
		int fd = dir_cache_get(dirfd, rel, len);
		if (fd >= 0)
			return fd;
	}
	int fd = walk_dir_n(dirfd, rel, len, create, mode);
	if (fd >= 0 && cacheable)
		dir_cache_put(dirfd, rel, len, fd);
	return fd;
}

static int walk_dir_n(int dirfd, const char *rel, size_t len, bool create, int mode)
{
	int fd = openat(dirfd, ".", dir_flags);
	const char *p = rel, *end = rel + len;
	while (fd >= 0 && p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		size_t n = slash ? (size_t)(slash - p) : (size_t)(end - p);
		if (!safe_name_n(p, n)) {
			close(fd);
			errno = EINVAL;
			return -1;
		}
		char *name = xstrndup(p, n);
		bool made = create && mkdirat(fd, name, (mode_t)mode) == 0;
		if (create && !made && errno != EEXIST) {
			int e = errno;
			free(name);
			close(fd);
			errno = e;
			return -1;
		}
		struct stat pst; /* a new directory takes its parent's mode (a group-shared tree) */
		if (made && fstat(fd, &pst) == 0)
			(void)!fchmodat(fd, name, pst.st_mode & 07777, 0); /* best effort: the directory exists */
		int next = openat(fd, name, dir_flags);
		int e = errno;
		free(name);
		close(fd);
		errno = e;
		fd = next;
		p += n + (slash ? 1 : 0);
	}
	return fd;
}

int safe_open_dir(int dirfd, const char *rel, bool create, int mode)
{
	return open_dir_n(dirfd, rel, strlen(rel), create, mode);
}

int safe_open_parent(int dirfd, const char *rel, bool create, const char **base)
{
	const char *slash = strrchr(rel, '/');
	*base = slash ? slash + 1 : rel;
	if (!safe_name(*base)) {
		errno = EINVAL;
		return -1;
	}
	return open_dir_n(dirfd, rel, slash ? (size_t)(slash - rel) : 0, create, 0755);
}

int safe_open_read(int dirfd, const char *rel, struct stat *st)
{
	const char *base;
	int dfd = safe_open_parent(dirfd, rel, false, &base);
	if (dfd < 0)
		return -1;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; the type check below then
	 * refuses it */
	int fd = openat(dfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	int e = errno;
	close(dfd);
	if (fd < 0) {
		errno = e == ENXIO ? ENODEV : e; /* a socket */
		return -1;
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		e = S_ISDIR(st->st_mode) ? EISDIR : ENODEV;
		close(fd);
		errno = e;
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

int safe_read_at(int dirfd, const char *rel, struct strbuf *sb, size_t cap)
{
	struct stat st;
	int fd = safe_open_read(dirfd, rel, &st);
	if (fd < 0)
		return -1;
	if ((size_t)st.st_size > cap) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	size_t start = sb->len;
	KCVE_ASSERT(S_ISREG(st.st_mode)); /* safe_open_read() opens regular files only */
	sb_grow(sb, (size_t)st.st_size);
	for (;;) {
		if (sb->len - start > cap) {
			close(fd);
			sb->len = start;
			sb->buf[start] = '\0';
			errno = EFBIG;
			return -1;
		}
		sb_grow(sb, 65536);
		ssize_t n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = errno;
			close(fd);
			sb->buf[sb->len] = '\0';
			errno = e;
			return n < 0 ? -1 : 0;
		}
		sb->len += (size_t)n;
		KCVE_ASSERT(sb->len < sb->alloc);
	}
}

int safe_lstat_at(int dirfd, const char *rel, struct stat *st)
{
	if (!*rel)
		return fstat(dirfd, st);
	const char *base;
	int dfd = safe_open_parent(dirfd, rel, false, &base);
	if (dfd < 0)
		return -1;
	int r = fstatat(dfd, base, st, AT_SYMLINK_NOFOLLOW);
	int e = errno;
	close(dfd);
	errno = e;
	return r;
}

/* Length of the UTF-8 sequence at p that a terminal would obey rather than show: a C1 control
 * (U+0080-U+009F) or a bidirectional control (U+061C, U+200E, U+200F, U+202A-U+202E,
 * U+2066-U+2069), which can reorder what a line shows. 0 for anything else. */
static size_t hidden_control(const unsigned char *p)
{
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return 2;
	if (p[0] == 0xd8 && p[1] == 0x9c)
		return 2;
	if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0x8e || p[2] == 0x8f || (p[2] >= 0xaa && p[2] <= 0xae)))
		return 3;
	if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
		return 3;
	return 0;
}

/* escape: '\' and controls as \xNN (names in messages); else controls become '?' (text) */
static void add_neutral(struct strbuf *sb, const char *text, bool escape)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		size_t h = hidden_control(p);
		if (h || *p < 0x20 || *p == 0x7f || (escape && *p == '\\')) {
			if (!h)
				h = 1;
			for (size_t i = 0; escape && i < h; i++)
				sb_addf(sb, "\\x%02x", p[i]);
			if (!escape)
				sb_addc(sb, '?');
			p += h - 1;
		} else {
			sb_addc(sb, (char)*p);
		}
	}
}

void text_neutralise(char *s)
{
	unsigned char *w = (unsigned char *)s;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		size_t h = hidden_control(p);
		if (h || *p < 0x20 || *p == 0x7f) {
			*w++ = '?';
			p += h ? h - 1 : 0;
		} else {
			*w++ = *p;
		}
	}
	*w = '\0';
}

void sb_add_printable(struct strbuf *sb, const char *name)
{
	add_neutral(sb, name, true);
}

void sb_add_display(struct strbuf *sb, const char *text)
{
	add_neutral(sb, text, false);
}

void fprint_display(FILE *f, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT, out = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&sb, fmt, ap);
	va_end(ap);
	char *p = sb.buf ? sb.buf : (char *)"";
	for (;;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		sb_add_display(&out, p);
		if (!nl)
			break;
		sb_addc(&out, '\n');
		p = nl + 1;
	}
	if (out.len)
		fwrite(out.buf, 1, out.len, f);
	sb_release(&sb);
	sb_release(&out);
}

char *safe_printable(const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	sb_add_printable(&sb, name);
	return sb_detach(&sb);
}

/* ---- guarded roots ------------------------------------------------------------------------ */

void safefs_guard(const char *root, int fd)
{
	XGROW(guards, nguards + 1, aguards);
	size_t len = strlen(root);
	while (len > 1 && root[len - 1] == '/')
		len--;
	guards[nguards++] = (struct guard){xstrndup(root, len), len, fd};
}

static bool is_guarded_fd(int fd)
{
	for (size_t i = 0; i < nguards; i++)
		if (guards[i].fd == fd)
			return true;
	return false;
}

void safefs_unguard(int fd)
{
	dir_cache_drop(fd);
	for (size_t i = 0; i < nguards; i++)
		if (guards[i].fd == fd) {
			free(guards[i].root);
			guards[i] = guards[--nguards];
			break;
		}
	if (!nguards) {
		free(guards);
		guards = NULL;
		aguards = 0;
	}
}

int safefs_lookup(const char *path, const char **rel)
{
	/* the most recently guarded root first: a tree opened inside another one wins */
	for (size_t i = nguards; i-- > 0;) {
		const struct guard *g = &guards[i];
		if (strncmp(path, g->root, g->len) != 0)
			continue;
		const char *r = path + g->len;
		if (*r && *r != '/' && !(g->len == 1 && g->root[0] == '/'))
			continue;
		while (*r == '/')
			r++;
		*rel = r;
		return g->fd;
	}
	return -1;
}

const char *safefs_reason(int err)
{
	switch (err) {
	case ELOOP: return "a symbolic link (refused inside the record tree)";
	case ENODEV: return "not a regular file (refused inside the record tree)";
	case EFBIG: return "larger than the limit for a record file";
	case EINVAL: return "a name with a control character, '/' or '..' (refused)";
	default: return strerror(err);
	}
}

int safe_rmdir_at(int dirfd, const char *rel)
{
	const char *base;
	int dfd = safe_open_parent(dirfd, rel, false, &base);
	if (dfd < 0)
		return -1;
	int r = unlinkat(dfd, base, AT_REMOVEDIR);
	int e = errno;
	close(dfd);
	dir_cache_drop(dirfd); /* a cached descriptor may be the directory removed */
	errno = e;
	return r;
}
