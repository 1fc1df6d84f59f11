/* File helpers: whole-file reads and crash-safe writes.
 *
 * Every write to the record tree goes through atomic_write_file(): the content lands in a
 * temporary file in the same directory, is fsync'd, renamed over the target, and the directory
 * is fsync'd, so a crash leaves either the old or the new file, never a torn one. */
#ifndef KCVE_CORE_FILEIO_H
#define KCVE_CORE_FILEIO_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "core/strbuf.h"

/* The one bounded reader of input files. Read a whole file into sb (appends; sb is
 * NUL-terminated, also for an empty file). Returns 0, or -1 with errno set. Only regular
 * files are read: the file is opened O_NONBLOCK (a FIFO never waits for a writer) and then
 * checked, so FIFOs, devices (a link to /dev/zero) and sockets fail with ENODEV, directories
 * with EISDIR; more than cap bytes (SAFEFS_READ_MAX for read_file) fail with EFBIG and nothing
 * appended. Below a guarded record tree (safefs.h) no link is followed either. "/dev/stdin"
 * ("-" on a command line) reads standard input, a pipe included, with the same cap. */
int read_file(const char *path, struct strbuf *sb);
int read_file_capped(const char *path, struct strbuf *sb, size_t cap);
/* The same for rel below rootfd, the root directory of a system image (--root): every
 * component, links and ".." included, is resolved inside the image (openat2 RESOLVE_IN_ROOT),
 * so an absolute link in the image never reaches the host's files. */
int read_file_in_root(int rootfd, const char *rel, struct strbuf *sb, size_t cap);
/* Open rel below rootfd the same way: an fd of a regular file (blocking), or -1 with errno. */
int open_file_in_root(int rootfd, const char *rel);
/* Read fd to its end into sb, at most cap bytes (EFBIG, nothing appended). */
int read_fd_capped(int fd, struct strbuf *sb, size_t cap);
/* Message for an errno of these readers: "is not a regular file", "is larger than the cap"... */
const char *read_file_reason(int err);
/* Read from fd into buf until len bytes or end of file (resuming after EINTR): the count
 * read, or -1 with errno. */
ssize_t read_full(int fd, void *buf, size_t len);
/* The process's umask (read once). */
mode_t process_umask(void);
/* Atomically replace path with data. mode, less the umask, is used for new files (an existing
 * file keeps its mode).
 * The temporary file gets an unpredictable name in path's directory and is created with
 * O_EXCL|O_NOFOLLOW, then renamed into place (a link at path is replaced, never followed).
 * Returns 0, or -1 with errno set (no temporary file is left behind). */
int atomic_write_file(const char *path, const void *data, size_t len, int mode);
/* Same, durable only if asked: without it the rename is still atomic (readers see the old or
 * the new file), but a crash may lose the new one — for caches that can be rebuilt. */
int atomic_write_file_ex(const char *path, const void *data, size_t len, int mode, bool durable);
/* The same for name, one entry of the already opened directory dirfd: the directory is not
 * looked up again, so a caller that reached it without links (safefs.h) keeps that guarantee. */
int atomic_write_at(int dirfd, const char *name, const void *data, size_t len, int mode,
		    bool durable);
/* Create or truncate path and write data (fsync'd if sync), without rename or directory sync:
 * only for files nobody reads until a later commit point (staging areas). The file gets
 * exactly mode (no umask: the caller chose it, see store/txn.c). 0, or -1 with errno
 * set (and the file removed). */
int write_file_staged(const char *path, const void *data, size_t len, int mode, bool sync);
/* fsync a directory (after entries in it were created or renamed). */
int fsync_dir(const char *dir);
/* syncfs() the file system holding dir: one commit for many files written without fsync. */
int syncfs_of(const char *dir);
/* fsync the directory containing path (after a rename). */
int fsync_parent_dir(const char *path);
/* mkdir -p; returns 0 or -1 with errno. */
int mkdir_p(const char *path, int mode);
/* These do not follow links below a guarded record tree (a link there exists, and is not a
 * directory). */
bool path_exists(const char *path);
bool is_dir(const char *path);
int file_stat(const char *path, struct stat *st);
/* opendir / unlink / rename / open for appending (a regular file only, never through a link),
 * with the same rules below a guarded record tree. file_rename can create the destination's
 * parent directories. */
DIR *dir_open(const char *dir);
int file_unlink(const char *path);
int file_rmdir(const char *path); /* an empty directory */
int file_rename(const char *from, const char *to, bool create_parent);
int file_open_append(const char *path, int mode);
/* Join two path parts with one '/'. Caller frees. */
char *path_join(const char *a, const char *b);

#endif
