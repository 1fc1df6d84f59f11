/* What a record takes from the main fix commit (docs/spec/record.md "Inputs"): the subject (git's
 * "summary": first paragraph, whitespace squashed), the raw message, and the files it touches
 * in the order `git show --pretty=format: --name-only <sha>` lists them. */
#ifndef KCVE_RECORD_COMMIT_INFO_H
#define KCVE_RECORD_COMMIT_INFO_H

#include <git2.h>
#include <stddef.h>

#include "core/error.h"

struct commit_info {
	char sha[41];
	char *subject;  /* "" when the message is not UTF-8 (as the anchor's git2 binding) */
	char *message;  /* idem */
	char **files;   /* git show --name-only order, C-quoted like git's core.quotePath */
	size_t nfiles;
};

/* Load the commit sha40 (full lower-case hex). KCVE_E_NOTFOUND if it is not a commit. */
int commit_info_load(git_repository *repo, const char *sha40, struct commit_info *ci,
		     struct kcve_err *err);
void commit_info_release(struct commit_info *ci);

/* The files a commit touches as git show lists them: diff against its parent with git's
 * default rename detection (a rename lists only the new name); a root commit lists its tree;
 * a merge lists the paths that differ from every parent (git's combined diff). */
int commit_changed_files(git_repository *repo, git_commit *c, char ***files, size_t *nfiles,
			 struct kcve_err *err);
/* git's quote_c_style(): returns a new string, quoted only when needed. */
char *git_quote_path(const char *path);

#endif
