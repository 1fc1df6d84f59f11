/* The commit history of a linux-stable-shaped repository: one libgit2 handle plus one SQLite
 * index ("which release contains commit X, what does X fix, where was X backported").
 *
 * The index mirrors what the kernel CNA's verhaal database holds (docs/spec/versions.md): every
 * commit reachable between consecutive release tags is stored with the release that first
 * contains it, its mainline flag, the upstream id named by a stable backport, the commit it
 * reverts and its Fixes: targets. Dyad computation (dyad.h) only reads through this API. */
#ifndef KCVE_HISTORY_HISTORY_H
#define KCVE_HISTORY_HISTORY_H

#include <git2.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/diag.h"
#include "core/error.h"

struct history; /* one libgit2 repo + one SQLite index */

/* Open the kernel repo (bare mirror or normal clone; stable branches may be remote-tracking
 * refs) and its index (index_path NULL = default inside the git dir). If the index is missing
 * or older than the repo's release tags it is built/updated first (its notes and warnings to
 * the default sink, core/diag.h; history_open_ex takes another). */
int history_open(struct history **out, const char *repo_path, const char *index_path,
		 struct kcve_err *err);
void history_close(struct history *h);
git_repository *history_git(struct history *h);
/* Resolve a full or short sha (or any revision) to a full 40-hex commit id. 0 or KCVE_E_NOTFOUND. */
int history_resolve(struct history *h, const char *rev, char out[41], struct kcve_err *err);
/* Release of a commit: "6.8", "6.1.107", "6.9-rc3"; NULL when in no release (unreleased). */
const char *history_release(struct history *h, const char *sha40);
/* Committer time (UTC seconds) of a commit; -1 if unknown. */
long long history_commit_time(struct history *h, const char *sha40);
/* The vulns tree's scripts/not_fixes and scripts/not_reverts (missing files = empty lists). */
int history_load_exclusions(struct history *h, const char *vulns_tree_root, struct kcve_err *err);

/* ---- Extensions beyond the cross-area contract ---------------------------------------- */

/* How history_open_ex treats the index. */
enum history_open_flags {
	HISTORY_NO_UPDATE = 1 << 0, /* use the index as it is (error if missing) */
	HISTORY_REBUILD = 1 << 1,   /* discard the index and build it from scratch */
	HISTORY_PROGRESS = 1 << 2,  /* progress line on stderr when it is a terminal (core/progress.h) */
	HISTORY_QUIET = 1 << 3,     /* no "updating index" diagnostics */
};

/* What the last index build/update did (kcve index prints it). */
struct history_index_stats {
	size_t ranges_total;  /* tag ranges the repository defines */
	size_t ranges_new;    /* ranges processed by this run */
	size_t commits_new;   /* commits added by this run */
	double seconds;
};

/* diag receives the warnings (a shallow clone, an index without generations) and the notes
 * ("building the history index X") of the open and of later calls on h; NULL: the default
 * sink. It must outlive h. */
int history_open_ex(struct history **out, const char *repo_path, const char *index_path,
		    unsigned flags, struct history_index_stats *stats,
		    const struct kcve_diag *diag, struct kcve_err *err);
/* Path of the index file in use. */
const char *history_index_path(const struct history *h);

/* One indexed commit (verhaal's `commits` row plus metadata). Strings are owned by the
 * history handle's memo cache and stay valid until history_close(). */
struct history_commit {
	char id[41];
	const char *release;  /* never NULL for an indexed commit */
	bool mainline;
	char upstream[41];    /* "" when none (mainline_id) */
	char reverts[41];     /* "" when none */
	const char *fixes;    /* space-separated ids (full where resolvable, raw otherwise); "" */
	const char *subject;
	const char *author;   /* "Name <email>" */
	long long author_time, commit_time;
};

/* The index row of a full sha (lower-case hex), NULL when the commit is in no release. */
const struct history_commit *history_commit(struct history *h, const char *sha40);

/* A list of full shas. */
struct history_shas {
	char (*v)[41];
	size_t n, alloc;
};
void history_shas_release(struct history_shas *l);
void history_shas_push(struct history_shas *l, const char *sha40);
bool history_shas_contains(const struct history_shas *l, const char *sha40);

/* Indexed commits whose upstream id is sha40 (its stable backports), in index order. */
int history_backports(struct history *h, const char *sha40, struct history_shas *out);
/* Indexed commits that revert sha40, in index order. */
int history_reverted_by(struct history *h, const char *sha40, struct history_shas *out);
/* True if commit a is a descendant of commit b (git graph). */
bool history_descendant_of(struct history *h, const char *a40, const char *b40);
/* Exclusion lists loaded by history_load_exclusions (full or prefix shas). */
bool history_in_not_fixes(struct history *h, const char *sha40);
bool history_in_not_reverts(struct history *h, const char *sha40);

#endif
