/* The kernel's MAINTAINERS file, read and matched the way scripts/get_maintainer.pl does it.
 *
 * The model mirrors get_maintainer.pl's own: one flat array of "type/value" lines (every
 * non-blank, non-comment line; tag lines "X:\tvalue" and everything else, e.g. section
 * titles), with sections found by walking back/forward from tag lines. Keeping that shape is
 * what makes the corner cases (stray text lines, K: ordering by line index, "last matching F:
 * line wins") come out identical to the Perl script, which is the reference peer.
 *
 * Pattern semantics (get_maintainer.pl, read_maintainer_file + file_match_pattern):
 *  - F:/X: values: '.' -> '\.', '*' -> '.*', '?' -> '.', then used as a Perl regex anchored at
 *    the start of the path only. If the converted value names an existing directory and lacks a
 *    trailing '/', one is appended.
 *  - A pattern ending in '/' matches everything below; otherwise the path must also contain the
 *    same number of '/' as the pattern (so '*' never crosses a directory).
 *  - X: matches exclude the whole section for that file; N: values are /x regexes anywhere in the
 *    path (depth 0); K: values are /x regexes matched against file contents.
 *  - Depth ("specificity") = number of '/' in the pattern, +1 if it does not end in '/', -1 for a
 *    pattern starting with '*'. The last matching F:/N: line of a section sets its depth.
 *    Sections are ordered by depth, most specific first. */
#ifndef KCVE_MAINTAINERS_MAINTAINERS_H
#define KCVE_MAINTAINERS_MAINTAINERS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

struct perlre;

/* One element of get_maintainer.pl's @typevalue. */
struct mnt_line {
	char tag;            /* 'A'..'Z' for "T: value" lines, 0 for other text (titles) */
	char *value;         /* value after "T:" and whitespace; F:/X: in converted regex form */
	char *raw;           /* the value as written (F:/X: before conversion), or the text */
	unsigned lineno;     /* 1-based line in the MAINTAINERS text */
	struct perlre *re;   /* F:/X: (anchored), N:/K: (/x); NULL if not a pattern or invalid */
	bool bad_regex;      /* pattern did not compile: it never matches (Perl would die) */
	size_t litlen;       /* F:/X: literal prefix length of value, a fast pre-check */
};

struct mnt_section {
	size_t start, end;   /* @typevalue indices: [start] is the title, tag lines up to end */
	size_t key;          /* the index get_maintainer.pl uses as the section's hash key */
	const char *name;    /* title text (typevalue[start]) */
	const char *status;  /* last S: value, NULL if none */
	bool maintained;     /* an S: line matching /(maintain|support)/i */
	bool has_maintainer; /* at least one M: line */
	bool orphan;         /* S: Orphan (any case) */
	bool the_rest;       /* the catch-all "THE REST" section */
};

struct mailmap;

struct maintainers {
	struct mnt_line *tv;
	size_t ntv;
	struct mnt_section *sec;
	size_t nsec;
	size_t *section_of;       /* tv index -> section index, SIZE_MAX if none */
	size_t nbad;              /* patterns that did not compile */
	struct mailmap *mailmap;  /* optional .mailmap (NULL = none) */
};

/* Tells the parser whether a tree-relative path is a directory (for F: patterns written
 * without a trailing slash). NULL callback = no tree: never a directory. */
typedef bool (*mnt_isdir_fn)(void *ctx, const char *relpath);

int maintainers_parse(struct maintainers **out, const char *text, size_t len, mnt_isdir_fn isdir,
                      void *isdir_ctx, struct kcve_err *err);
/* Read a MAINTAINERS file; root (may be NULL) is the kernel tree for directory checks and
 * root/.mailmap. */
int maintainers_load(struct maintainers **out, const char *path, const char *root,
                     struct kcve_err *err);
void maintainers_free(struct maintainers *m);

/* One section matching a path. */
struct mnt_hit {
	size_t section;   /* index into m->sec */
	int depth;
};

/* Normalise a path like get_maintainer.pl's File::Spec canonpath ("a//b/./c/" -> "a/b/c").
 * Caller frees. */
char *mnt_canonpath(const char *path);

/* Sections whose F:/N: patterns match the tree-relative path, most specific first (ties in
 * MAINTAINERS order). *out is malloc'd (free it), returns the count. */
size_t maintainers_match(const struct maintainers *m, const char *file, struct mnt_hit **out);

/* Indices (into m->tv) of K: lines whose regex matches the text, in get_maintainer.pl's order
 * (string order of the indices). *out is malloc'd, returns the count. */
size_t maintainers_keywords(const struct maintainers *m, const char *text, size_t len,
                            size_t **out);

/* qsort comparator: size_t indices in the order of their decimal strings (Perl's sort). */
int mnt_cmp_index_str(const void *a, const void *b);

/* Value lines of a section with the given tag, iterated: start with *pos = 0; returns NULL at
 * the end. */
const char *mnt_section_next(const struct maintainers *m, const struct mnt_section *s, char tag,
                             size_t *pos);

#endif
