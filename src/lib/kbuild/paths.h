/* Pure path helpers of the kbuild module: strings in, strings out, no tree and no file system.
 * A leaf: it depends on nothing else in kbuild. */
#ifndef KCVE_KBUILD_PATHS_H
#define KCVE_KBUILD_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/* "dir" + "word" (wn bytes) normalised: "a/b/../c/./d" -> "a/c/d"; NULL when the path climbs
 * out of the root or has more than 256 components.  Caller frees. */
char *kbt_normalize(const char *dir, const char *word, size_t wn);
/* A word of dir's makefile as a path from the root: "$(obj)/x.o" expands to "dir/x.o", already
 * from the root; "x.o" is relative to dir.  NULL when it climbs out.  Caller frees. */
char *kbt_listed_path(const char *dir, const char *w, size_t wn);
/* "a/b/c.c" -> "a/b", "c.c" -> "".  Caller frees. */
char *kbt_dirname(const char *path);
/* The n bytes at s end with suf. */
bool kbt_ends_with(const char *s, size_t n, const char *suf);
/* scripts/, tools/, arch/<arch>/tools/: build-time host programs, never part of the kernel. */
bool kbt_host_tool(const char *path);
/* "dir/x.c" / ".S" / ".s" -> "dir/x.o"; NULL otherwise.  Caller frees. */
char *kbt_object_of(const char *norm);

#endif
