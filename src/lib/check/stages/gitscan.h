/* `kcve check --git TREE [--ref REF]`: applicability against a real (vendor/stable) tree.
 *
 * One walk over the history reachable from REF collects the commits (ancestry becomes a lookup),
 * the commits each message says it carries and the ones it reverts (gitrefs.h: whole-line forms
 * only, prose never counts). A commit's change is present when the commit is an ancestor or
 * some commit carries it, and at least one of those copies is not undone by a live revert (a
 * revert that is reverted itself undoes nothing).
 * Verdict per record: some pair's introducing commit is present ("0" = always there; pairs of
 * one release count, for -rc tags) and no fix commit of any pair (nor the .sha1 main fix) is. */
#ifndef KCVE_CHECK_GITSCAN_H
#define KCVE_CHECK_GITSCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "check/verdict/check.h"
#include "core/diag.h"
#include "core/error.h"

struct ck_git;
/* KCVE_E_NOREPO when path is not a git repository, KCVE_E_NOTFOUND for an unknown ref.
 * With use_cache, what each commit holds is taken from / added to the scan cache
 * (check/inputs/scancache.h) at cache_path, default <git common dir>/kcve-scan.cache; a cache
 * that cannot be written is a warning, not an error. Warnings (that one, a shallow clone, a
 * record whose introduction may lie beyond its boundary) go to diag (NULL: the default sink,
 * core/diag.h), which must outlive the handle. */
int ck_git_open(struct ck_git **out, const char *path, const char *ref, const char *cache_path,
		bool use_cache, const struct kcve_diag *diag, struct kcve_err *err);
size_t ck_git_commit_count(const struct ck_git *g);
/* Of those commits: read from the object database / known from the scan cache. */
size_t ck_git_read_count(const struct ck_git *g);
size_t ck_git_cached_count(const struct ck_git *g);
size_t ck_git_reference_count(const struct ck_git *g);
/* Is this full sha an ancestor of (or equal to) REF? Carried by some commit (gitrefs.h)? */
bool ck_git_contains(const struct ck_git *g, const char *sha40);
bool ck_git_references(const struct ck_git *g, const char *sha40);
/* Resolved head commit id (40 hex). */
const char *ck_git_head(const struct ck_git *g);
void ck_git_close(struct ck_git *g);

/* The git stage: fills res like ck_run_version (label "git:PATH@REF"). If release is not
 * NULL, it is recorded for --fixed-in and the JSON cross-check is done against it. */
/* The repository's ancestry rewrites (history/gitguard.h bits: shallow, grafts, replace refs):
 * with --strict a reason for exit 21 (KCVE_E_COVERAGE). */
unsigned ck_git_ancestry(const struct ck_git *g);
void ck_run_git(struct ck_set *s, struct ck_git *g, const char *label, const char *release,
		struct ck_result *out);

/* What the check entry (check/run/entry.h) needs of this file, as a table its caller passes
 * in: a build without libgit2 (kcve-embedded) then links the entry without the git stage. */
struct ck_git_ops {
	int (*open)(struct ck_git **out, const char *path, const char *ref, const char *cache_path,
		    bool use_cache, const struct kcve_diag *diag, struct kcve_err *err);
	void (*close)(struct ck_git *g);
	void (*run)(struct ck_set *s, struct ck_git *g, const char *label, const char *release,
		    struct ck_result *out);
	size_t (*commits)(const struct ck_git *g);
	size_t (*read)(const struct ck_git *g);
	size_t (*cached)(const struct ck_git *g);
	size_t (*references)(const struct ck_git *g);
	unsigned (*ancestry)(const struct ck_git *g);
};
extern const struct ck_git_ops ck_git_libgit2;

#endif
