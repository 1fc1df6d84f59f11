/* A file a fingerprint names that the tree lacks (renamed or moved since the fix): the files of
 * the tree with the same basename, the candidates the matcher may read instead (tree.c).
 *
 * The index of basenames is built on first use, once per check, by one walk of the tree
 * (regular files only; links, and directories whose name starts with '.', such as .git or a
 * quilt .pc holding unpatched originals, are not entered), so a tree where every named file
 * exists costs nothing more. */
#ifndef KCVE_CODEFIX_MOVED_H
#define KCVE_CODEFIX_MOVED_H

#include <stdbool.h>
#include <stddef.h>

#define CF_MOVED_MAX 4          /* more files of that basename: too common to guess */
#define CF_NAMES_MAX 4000000    /* files indexed at most (a kernel tree has ~90,000) */
#define CF_NAMES_BYTES (256u << 20) /* bytes of their paths at most (a kernel tree: ~4 MB) */

struct cf_names {
	char *buf;     /* the relative paths, NUL-terminated one after the other */
	size_t *off;   /* offsets into buf, sorted by basename then path */
	size_t n;
	bool built;
};

/* Index every regular file below dirfd (once; later calls return at once).  When part of the
 * tree cannot be indexed (a directory that cannot be read or lies deeper than 48 levels, more
 * than CF_NAMES_MAX files or CF_NAMES_BYTES of paths) the index is empty: a partial one could
 * name one candidate where the tree holds two. */
void cf_names_build(struct cf_names *x, int dirfd);
/* The paths other than `path` with path's basename: their number, 0 when there are none or
 * more than CF_MOVED_MAX; out[0..n) point into x. */
size_t cf_names_find(const struct cf_names *x, const char *path, const char *out[CF_MOVED_MAX]);
void cf_names_release(struct cf_names *x);

#endif
