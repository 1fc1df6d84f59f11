#include "core/fileio.h"
#include "core/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int read_file(const char *path, struct strbuf *sb)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		errno = EISDIR;
		return -1;
	}
	if (st.st_size > 0)
		sb_grow(sb, (size_t)st.st_size);
	for (;;) {
		sb_grow(sb, 65536);
		ssize_t n = read(fd, sb->buf + sb->len, sb->alloc - sb->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
		sb->buf[sb->len] = '\0';
	}
	close(fd);
	return 0;
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
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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

int atomic_write_file_ex(const char *path, const void *data, size_t len, int mode, bool durable)
{
	struct stat st;
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	size_t plen = strlen(path);
	char *tmp = xmalloc(plen + 32);
	snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0) {
		free(tmp);
		return -1;
	}
	if (fchmod(fd, (mode_t)mode) < 0 || write_all(fd, data, len) < 0 ||
	    (durable && fsync(fd) < 0)) {
		int e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		free(tmp);
		errno = e;
		return -1;
	}
	free(tmp);
	return durable ? fsync_parent_dir(path) : 0;
}

int write_file_staged(const char *path, const void *data, size_t len, int mode, bool sync)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	int rc = write_all(fd, data, len) < 0 || (sync && fsync(fd) < 0) ? -1 : 0;
	int e = errno;
	if (close(fd) < 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	if (rc < 0) {
		unlink(path);
		errno = e;
	}
	return rc;
}

int mkdir_p(const char *path, int mode)
{
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

bool path_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}
