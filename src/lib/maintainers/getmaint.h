/* The address list get_maintainer.pl prints for a set of files, computed the same way
 * (`get_maintainer.pl --nogit --nogit-fallback --norolestats -f FILE...`): sections in
 * specificity order, M:/R: people deduplicated by name or address, L: lists (subscriber-only
 * lists left out), K: keyword sections from file contents, addresses named in .yaml files,
 * .mailmap rewriting, and Linus dropped as "chief penguin". This is the peer-compatible view;
 * dispute authority uses the sections directly (authority.h). */
#ifndef KCVE_MAINTAINERS_GETMAINT_H
#define KCVE_MAINTAINERS_GETMAINT_H

#include <stdbool.h>
#include <stddef.h>

#include "maintainers/maintainers.h"

struct gm_opts {
	bool keywords;     /* match K: against file contents (get_maintainer's default) */
	bool no_lists;     /* leave L: lists out (--nol) */
	const char *root;  /* kernel tree the files are read from; NULL = never read files */
};

struct gm_addr {
	char *text;  /* as printed: "Name <addr>" or "addr" */
	char kind;   /* 'M' maintainer, 'R' reviewer, 'L' list, 'F' found in the file */
};

struct gm_result {
	struct gm_addr *v;
	size_t n, alloc;
};

/* files: tree-relative, canonical (see mnt_file_arg). */
void gm_run(const struct maintainers *m, const char *const *files, size_t nfiles,
            const struct gm_opts *o, struct gm_result *out);
void gm_result_release(struct gm_result *r);

/* Turn a command-line path into the tree-relative form get_maintainer.pl uses: canonpath,
 * strip root/ or cwd prefix, '/' appended for directories. Caller frees. */
char *mnt_file_arg(const char *root, const char *arg);

#endif
