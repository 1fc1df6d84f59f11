/* File helpers: whole-file reads and crash-safe writes.
 *
 * Every write to the record tree goes through atomic_write_file(): the content lands in a
 * temporary file in the same directory, is fsync'd, renamed over the target, and the directory
 * is fsync'd, so a crash leaves either the old or the new file, never a torn one. */
#ifndef KCVE_CORE_FILEIO_H
#define KCVE_CORE_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"

/* Read a whole file into sb (appends). Returns 0, or -1 with errno set. */
int read_file(const char *path, struct strbuf *sb);
/* Atomically replace path with data. mode is used for new files (existing mode is kept).
 * Returns 0, or -1 with errno set (no temporary file is left behind). */
int atomic_write_file(const char *path, const void *data, size_t len, int mode);
/* Same, durable only if asked: without it the rename is still atomic (readers see the old or
 * the new file), but a crash may lose the new one — for caches that can be rebuilt. */
int atomic_write_file_ex(const char *path, const void *data, size_t len, int mode, bool durable);
/* Create or truncate path and write data (fsync'd if sync), without rename or directory sync:
 * only for files nobody reads until a later commit point (staging areas). 0, or -1 with errno
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
bool path_exists(const char *path);
bool is_dir(const char *path);
/* Join two path parts with one '/'. Caller frees. */
char *path_join(const char *a, const char *b);

#endif
