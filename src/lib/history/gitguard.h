/* Repositories users did not write (a vendor tree given to `check --git`, a record tree's
 * checkout) opened with their object reads guarded.
 *
 * libgit2 (1.5) follows a pack's delta chain without a cycle check: two objects that are
 * deltas of each other make it allocate without bound, and its header lookup loops. The
 * guard is an object database of our own in front of libgit2's pack and loose backends:
 * before an object is read, its delta chain is followed in the pack index (packread.c,
 * headers only, a cycle or a chain deeper than 4096 refused) and the size it declares is
 * checked against GITGUARD_MAX_OBJECT; loose objects are checked by their declared size.
 * The alternates are read by packread (each objects directory once, by device and inode,
 * at most 5 levels and 64 directories, loops refused), never by libgit2.
 *
 * Ancestry rewrites (a shallow clone's boundary, info/grafts, refs/replace/) are reported:
 * commits beyond a shallow boundary are missing, so "not affected" cannot be concluded. */
#ifndef KCVE_HISTORY_GITGUARD_H
#define KCVE_HISTORY_GITGUARD_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

/* Largest object read from a guarded repository (commits, tags and trees are small; the
 * largest blob of the kernel is a few MiB). */
#define GITGUARD_MAX_OBJECT ((size_t)256 << 20)
/* libgit2's object cache, in bytes, for every guarded repository */
#define GITGUARD_CACHE_MAX ((ssize_t)96 << 20)

enum gitguard_ancestry {
	GITGUARD_SHALLOW = 1,  /* shallow clone: history stops at the commits in .git/shallow */
	GITGUARD_GRAFTS = 2,   /* .git/info/grafts rewrites parents */
	GITGUARD_REPLACE = 4,  /* refs/replace/ substitutes objects */
};

/* git_repository_open_ext(path, NO_SEARCH) with the guard installed. 0, or an error (code
 * code_norepo when path is no repository, KCVE_E_NOREPO for a refused alternates setup). */
int gitguard_open(git_repository **out, const char *path, int code_norepo, struct kcve_err *err);
/* The same on a repository opened already (before any object was read). */
int gitguard_install(git_repository *repo, struct kcve_err *err);
/* A reader of the repository's packed objects that bypasses libgit2 (history/packread.c:
 * lock-free, its own limits: delta chains of 64, objects of 64 MiB, so a hostile pack is
 * refused rather than followed) for callers reading many objects, such as check --git's
 * walk: the guard's per-object chain check and libgit2's locks are then paid only for what
 * it cannot read. NULL when the repository has no usable pack. */
struct gitguard_reader *gitguard_reader_open(git_repository *repo);
/* Object id into out (replaced) with its type: 0, or -1 when the caller must read it through
 * the guarded object database (a loose object, a deeper chain, a damaged pack). */
int gitguard_reader_read(struct gitguard_reader *r, const git_oid *id, struct strbuf *out,
			 git_object_t *type);
/* Why object id's delta chain is refused ("a delta chain that loops back on itself"), NULL
 * when it is not (or not in a pack): for a message when libgit2 says only "not found". */
const char *gitguard_reader_why(struct gitguard_reader *r, const git_oid *id);
void gitguard_reader_free(struct gitguard_reader *r);
/* Which ancestry rewrites the repository has (enum gitguard_ancestry bits). */
unsigned gitguard_ancestry(git_repository *repo);
/* "a shallow clone, grafts" for a message (static storage). */
const char *gitguard_ancestry_text(unsigned bits);
/* The newest release the shallow boundary's commits declare in their top Makefile, into out
 * (kver string): a commit first released in it or before may lie beyond the boundary, a
 * later one would be inside the history. false when the repository is not shallow or a
 * boundary commit or its Makefile cannot be read (then any commit may be beyond it). */
bool gitguard_shallow_release(git_repository *repo, char *out, size_t outsz);
/* Whether commit id is a shallow boundary (its parents are missing). */
bool gitguard_is_shallow_boundary(git_repository *repo, const git_oid *id);

#endif
