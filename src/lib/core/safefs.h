/* File access inside a hostile directory tree (the CVE record tree: a git checkout many
 * people push to, read by kcve running as a maintainer, often as root).
 *
 * Rules: the tree root is opened once; every file below it is reached relative to that
 * descriptor, one component at a time, with O_NOFOLLOW (a symbolic link anywhere on the way
 * is refused, ELOOP) and O_DIRECTORY for the directories; only regular files and directories
 * are accepted (anything else: ENODEV); a name with a control character, a '/', or that is
 * "", "." or ".." is refused (EINVAL); a read is capped (EFBIG).
 *
 * A tree is "guarded" by safefs_guard(): from then on the path-based helpers of fileio.h
 * (read_file, atomic_write_file, mkdir_p, ...) resolve any absolute path under that root
 * through its descriptor with these rules, so every caller that builds paths from the
 * tree's root gets them without changes. Paths outside guarded roots behave as before. */
#ifndef KCVE_CORE_SAFEFS_H
#define KCVE_CORE_SAFEFS_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <sys/stat.h>

#include "core/strbuf.h"

/* Largest file read below a guarded root (records are a few KiB; journals of a whole-tree
 * update are the biggest legitimate files). */
#define SAFEFS_READ_MAX ((size_t)64 << 20)

/* One path component we accept: not "", "." or "..", no '/', no byte < 0x20 or 0x7f. */
bool safe_name(const char *name);
bool safe_name_n(const char *name, size_t len);
/* "a/b/c" made of safe_name components (no leading or trailing '/', no "//"). */
bool safe_relpath(const char *rel);

/* Open directory rel ("" = dirfd itself) below dirfd without following links; with create,
 * missing components are made (mode). Returns an fd or -1 with errno. */
int safe_open_dir(int dirfd, const char *rel, bool create, int mode);
/* Open the parent directory of rel and point *base at rel's last component. */
int safe_open_parent(int dirfd, const char *rel, bool create, const char **base);
/* Open regular file rel for reading (never blocks on a FIFO, never follows a link). */
int safe_open_read(int dirfd, const char *rel, struct stat *st);
/* Read regular file rel (at most cap bytes, else EFBIG) and append it to sb (NUL-terminated,
 * also when empty). 0 or -1 with errno. */
int safe_read_at(int dirfd, const char *rel, struct strbuf *sb, size_t cap);
/* Remove the empty directory rel below dirfd (links not followed). 0 or -1 with errno. */
int safe_rmdir_at(int dirfd, const char *rel);
/* lstat of rel below dirfd (links not followed, on the way or at the end). */
int safe_lstat_at(int dirfd, const char *rel, struct stat *st);

/* A name as one printable line: control characters (C0, DEL, C1, bidirectional controls) and
 * '\' as \xNN (for messages: a name with a newline must not split an error into lines). The
 * second form is malloc'd. */
void sb_add_printable(struct strbuf *sb, const char *name);
/* Text from a record or a makefile shown on a terminal (a title): every control character
 * (C0, DEL, C1) and every bidirectional control becomes '?', so text can neither move the
 * cursor, set a window title (ESC, OSC), overwrite a line (CR), add one (LF), nor reorder
 * what a line shows. UTF-8 otherwise kept. */
void sb_add_display(struct strbuf *sb, const char *text);
char *safe_printable(const char *name);
/* The same as sb_add_display, in place (the text can only shrink): an error message quoting
 * hostile input (a parser's "near '...'") stays one line that cannot drive the terminal. */
void text_neutralise(char *s);
/* The one place table text is written: printf into f, every line of the result shown as by
 * sb_add_display (its line ends kept). Every text a table line carries (titles, reasons,
 * file and module names of an image, paths) goes through it, whatever its source. */
void fprint_display(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Guard a root (absolute, canonical path) through its open directory descriptor. */
void safefs_guard(const char *root, int fd);
void safefs_unguard(int fd);
/* When path lies below a guarded root: that root's fd, *rel = the path's rest ("" for the
 * root itself). Otherwise -1. */
int safefs_lookup(const char *path, const char **rel);
/* Short reason for an errno of the helpers above ("a symbolic link", ...), for messages. */
const char *safefs_reason(int err);

#endif
