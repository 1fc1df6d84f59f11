#include "core/fileio.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/random.h>
#include <unistd.h>

#include "core/safefs.h"

ssize_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int read_fd_capped(int fd, struct strbuf *sb, size_t cap)
{
	size_t start = sb->len;
	for (;;) {
		sb_grow(sb, 65536);
		size_t room = sb->alloc - sb->len - 1, left = cap - (sb->len - start);
		ssize_t n = read(fd, sb->buf + sb->len, room < left + 1 ? room : left + 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0 && (size_t)n > left) {
			n = -1;
			errno = EFBIG;
		}
		if (n <= 0) {
			int e = errno;
			if (n < 0)
				sb->len = start; /* no partial content */
			sb->buf[sb->len] = '\0'; /* also for an empty file: callers use it as a string */
			errno = e;
			return n < 0 ? -1 : 0;
		}
		sb->len += (size_t)n;
	}
}

/* fd (opened O_NONBLOCK, so a FIFO did not wait for a writer) when it is a regular file of
 * at most cap bytes: read it into sb. Closes fd. */
static int read_regular_fd(int fd, struct strbuf *sb, size_t cap)
{
	struct stat st;
	int e = 0;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
	else if ((uint64_t)st.st_size > cap)
		e = EFBIG;
	int fl = e ? -1 : fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (!e) {
		sb_grow(sb, (size_t)st.st_size);
		if (read_fd_capped(fd, sb, cap) < 0)
			e = errno;
	}
	close(fd);
	errno = e;
	return e ? -1 : 0;
}

int read_file_capped(const char *path, struct strbuf *sb, size_t cap)
{
	const char *rel;
	int root = safefs_lookup(path, &rel);
	if (root >= 0)
		return safe_read_at(root, rel, sb, cap);
	if (!strcmp(path, "/dev/stdin")) /* "-" on the command line: a pipe is fine there */
		return read_fd_capped(0, sb, cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	return read_regular_fd(fd, sb, cap);
}

int read_file(const char *path, struct strbuf *sb)
{
	return read_file_capped(path, sb, SAFEFS_READ_MAX);
}

/* openat2(2) with RESOLVE_IN_ROOT: "/" and ".." stop at rootfd, absolute links resolve
 * inside it. Called through syscall(): glibc 2.36 has no wrapper. */
static int open_in_root(int rootfd, const char *rel)
{
	struct open_how how = {
		.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd = (int)syscall(SYS_openat2, rootfd, rel, &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS) { /* before Linux 5.6: no link is followed at all */
		struct stat st;
		fd = safe_open_read(rootfd, rel, &st);
	}
	return fd;
}

int read_file_in_root(int rootfd, const char *rel, struct strbuf *sb, size_t cap)
{
	int fd = open_in_root(rootfd, rel);
	if (fd < 0)
		return -1;
	return read_regular_fd(fd, sb, cap);
}

int open_file_in_root(int rootfd, const char *rel)
{
	int fd = open_in_root(rootfd, rel);
	struct stat st;
	if (fd < 0)
		return -1;
	int e = fstat(fd, &st) < 0 ? errno : S_ISREG(st.st_mode) ? 0 : S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
	int fl = e ? -1 : fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* Directory holding path, opened: below a guarded root without following links. *base is
 * path's last component. -1 with errno. */
static int open_parent(const char *path, bool create, const char **base)
{
	const char *rel;
	int root = safefs_lookup(path, &rel);
	if (root >= 0)
		return safe_open_parent(root, rel, create, base);
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	if (!**base) {
		errno = EINVAL;
		return -1;
	}
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *dir = slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
	if (create && mkdir_p(dir, 0755) < 0) {
		free(dir);
		return -1;
	}
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd;
}

static int open_dir(const char *dir)
{
	const char *rel;
	int root = safefs_lookup(dir, &rel);
	if (root >= 0)
		return safe_open_dir(root, rel, false, 0);
	return open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

DIR *dir_open(const char *dir)
{
	int fd = open_dir(dir);
	if (fd < 0)
		return NULL;
	DIR *d = fdopendir(fd);
	if (!d) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

int file_rmdir(const char *path)
{
	const char *rel;
	int root = safefs_lookup(path, &rel);
	return root >= 0 ? safe_rmdir_at(root, rel) : rmdir(path);
}

int file_unlink(const char *path)
{
	const char *base;
	int dfd = open_parent(path, false, &base);
	if (dfd < 0)
		return -1;
	int r = unlinkat(dfd, base, 0);
	int e = errno;
	close(dfd);
	errno = e;
	return r;
}

int file_rename(const char *from, const char *to, bool create_parent)
{
	const char *fb, *tb;
	int fd = open_parent(from, false, &fb);
	if (fd < 0)
		return -1;
	int td = open_parent(to, create_parent, &tb);
	if (td < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	int r = renameat(fd, fb, td, tb);
	int e = errno;
	close(fd);
	close(td);
	errno = e;
	return r;
}

int file_open_append(const char *path, int mode)
{
	const char *base;
	int dfd = open_parent(path, false, &base);
	if (dfd < 0)
		return -1;
	int fd = openat(dfd, base, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC | O_NOCTTY, (mode_t)mode);
	int e = errno;
	close(dfd);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		e = ENODEV;
	}
	errno = e;
	return fd;
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);
	while (la > 1 && a[la - 1] == '/')
		la--;
	while (*b == '/')
		b++;
	size_t lb = strlen(b);
	char *p = xmalloc(la + lb + 2);
	memcpy(p, a, la);
	p[la] = '/';
	memcpy(p + la + 1, b, lb + 1);
	return p;
}

/* fsync (one directory) or syncfs (its whole file system) through a descriptor of dir. */
static int sync_dir(const char *dir, bool whole_fs)
{
	int fd = open_dir(dir);
	if (fd < 0)
		return -1;
	int r = whole_fs ? syncfs(fd) : fsync(fd);
	int e = errno;
	close(fd);
	errno = e;
	return r;
}

int fsync_dir(const char *dir)
{
	return sync_dir(dir, false);
}

int syncfs_of(const char *dir)
{
	return sync_dir(dir, true);
}

int fsync_parent_dir(const char *path)
{
	char *copy = xstrdup(path);
	int r = fsync_dir(dirname(copy));
	free(copy);
	return r;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int atomic_write_file(const char *path, const void *data, size_t len, int mode)
{
	return atomic_write_file_ex(path, data, len, mode, true);
}

/* Create a fresh temporary file next to base in dirfd: an unpredictable name, O_EXCL and
 * O_NOFOLLOW, so nothing another user prepared in a shared directory is followed or reused.
 * The ".tmp." in the name keeps the tree walker away from it. */
static int create_temp(int dirfd, const char *base, char **name)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	for (int attempt = 0; attempt < 100; attempt++) {
		unsigned char rnd[8];
		if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
			return -1;
		char suffix[9];
		for (size_t i = 0; i < 8; i++)
			suffix[i] = abc[rnd[i] % (sizeof(abc) - 1)];
		suffix[8] = '\0';
		struct strbuf sb = STRBUF_INIT;
		sb_addf(&sb, "%s.tmp.%s", base, suffix);
		int fd = openat(dirfd, sb.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				0600);
		if (fd >= 0) {
			*name = sb_detach(&sb);
			return fd;
		}
		sb_release(&sb);
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

/* The umask, read once (umask(2) can only be read by setting it: done before any thread
 * creates files). */
static mode_t umask_value;
static void read_umask(void)
{
	umask_value = umask(022);
	umask(umask_value);
}

mode_t process_umask(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, read_umask);
	return umask_value;
}

int atomic_write_file_ex(const char *path, const void *data, size_t len, int mode, bool durable)
{
	const char *base;
	int dfd = open_parent(path, false, &base);
	if (dfd < 0)
		return -1;
	int r = atomic_write_at(dfd, base, data, len, mode, durable);
	int e = errno;
	close(dfd);
	errno = e;
	return r;
}

int atomic_write_at(int dfd, const char *base, const void *data, size_t len, int mode,
		    bool durable)
{
	/* the replaced file keeps its permissions (a 0600 file stays 0600); a link in its place
	 * is replaced, never followed */
	struct stat st;
	if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		mode = st.st_mode & 07777;
	else /* a new file: the umask applies, as to any file created (caches, .published) */
		mode &= ~(int)process_umask();
	char *tmp = NULL;
	int fd = create_temp(dfd, base, &tmp);
	if (fd < 0)
		return -1;
	int r = 0;
	if (fchmod(fd, (mode_t)mode) < 0 || write_all(fd, data, len) < 0 ||
	    (durable && fsync(fd) < 0))
		r = -1;
	int e = errno;
	if (close(fd) < 0 && !r) {
		r = -1;
		e = errno;
	}
	if (!r && renameat(dfd, tmp, dfd, base) < 0) {
		r = -1;
		e = errno;
	}
	if (r < 0)
		unlinkat(dfd, tmp, 0);
	else if (durable && fsync(dfd) < 0)
		r = -1, e = errno;
	free(tmp);
	errno = e;
	return r;
}

int write_file_staged(const char *path, const void *data, size_t len, int mode, bool sync)
{
	const char *base;
	int dfd = open_parent(path, false, &base);
	if (dfd < 0)
		return -1;
	int fd = openat(dfd, base, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
			(mode_t)mode);
	if (fd >= 0 && fchmod(fd, (mode_t)mode) < 0) { /* exactly mode: see fileio.h */
		int e = errno;
		close(fd);
		fd = -1;
		errno = e;
	}
	if (fd < 0) {
		int e = errno;
		close(dfd);
		errno = e;
		return -1;
	}
	int rc = write_all(fd, data, len) < 0 || (sync && fsync(fd) < 0) ? -1 : 0;
	int e = errno;
	if (close(fd) < 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc < 0)
		unlinkat(dfd, base, 0);
	close(dfd);
	errno = e;
	return rc;
}

int mkdir_p(const char *path, int mode)
{
	const char *rel;
	int root = safefs_lookup(path, &rel);
	if (root >= 0) {
		int fd = safe_open_dir(root, rel, true, mode);
		if (fd < 0)
			return -1;
		close(fd);
		return 0;
	}
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, (mode_t)mode) < 0 && errno != EEXIST) {
			free(p);
			return -1;
		}
		*s = '/';
	}
	int r = mkdir(p, (mode_t)mode);
	free(p);
	if (r < 0 && errno != EEXIST)
		return -1;
	return is_dir(path) ? 0 : (errno = ENOTDIR, -1);
}

/* stat, but below a guarded root without following links. */
static int stat_path(const char *path, struct stat *st)
{
	const char *rel;
	int root = safefs_lookup(path, &rel);
	if (root >= 0)
		return safe_lstat_at(root, rel, st);
	return stat(path, st);
}

bool path_exists(const char *path)
{
	struct stat st;
	return stat_path(path, &st) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat_path(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int file_stat(const char *path, struct stat *st)
{
	return stat_path(path, st);
}

const char *read_file_reason(int err)
{
	switch (err) {
	case ENODEV: return "not a regular file (a FIFO, device or socket is refused)";
	case EISDIR: return "a directory, not a file";
	case EFBIG: return "larger than the limit for this kind of file";
	case ELOOP: return "a symbolic link (refused here)";
	default: return strerror(err);
	}
}
