#include "review/range.h"

#include <string.h>

#include "core/progress.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

static char *subject_of(const char *msg)
{
	const char *e = strchr(msg, '\n');
	return xstrndup(msg, e ? (size_t)(e - msg) : strlen(msg));
}

struct path_ctx {
	struct range_commit *c;
	size_t alloc;
};

static int on_file(const git_diff_delta *d, float progress, void *payload)
{
	(void)progress;
	struct path_ctx *pc = payload;
	XGROW(pc->c->paths, pc->c->npaths + 1, pc->alloc);
	pc->c->paths[pc->c->npaths++] = xstrdup(d->new_file.path ? d->new_file.path : d->old_file.path);
	return 0;
}

static int load_paths(git_repository *repo, git_commit *commit, struct range_commit *c)
{
	git_tree *tree = NULL, *ptree = NULL;
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	int rc = git_commit_tree(&tree, commit);
	if (!rc && git_commit_parentcount(commit) > 0 && !(rc = git_commit_parent(&parent, commit, 0)))
		rc = git_commit_tree(&ptree, parent);
	if (!rc)
		rc = git_diff_tree_to_tree(&diff, repo, ptree, tree, NULL);
	if (!rc) {
		struct path_ctx pc = {c, 0};
		rc = git_diff_foreach(diff, on_file, NULL, NULL, NULL, &pc);
	}
	git_diff_free(diff);
	git_tree_free(ptree);
	git_tree_free(tree);
	git_commit_free(parent);
	return rc;
}

int review_range_load(struct history *h, const char *range, bool want_paths,
		      struct review_range *out, struct kcve_err *err)
{
	memset(out, 0, sizeof(*out));
	const char *dots = strstr(range, "..");
	if (!dots || dots == range || !dots[2] || dots[2] == '.')
		return kcve_err_set(err, KCVE_E_USAGE,
				    "range '%s' is not of the form A..B; give e.g. v6.1.74..v6.1.75",
				    range);
	git_repository *repo = history_git(h);
	git_revwalk *walk = NULL;
	if (git_revwalk_new(&walk, repo) < 0)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot walk history: %s", git_error_last()->message);
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	if (git_revwalk_push_range(walk, range) < 0) {
		git_revwalk_free(walk);
		return kcve_err_set(err, KCVE_E_NOTFOUND,
				    "range '%s' does not resolve in the repository; check both tags exist",
				    range);
	}
	out->top = xstrdup(dots + 2);
	git_oid oid;
	int rc = 0;
	struct progress pg;
	size_t walked = 0;
	progress_begin(&pg, "reading the range's commits", 0);
	while (!rc && git_revwalk_next(&oid, walk) == 0) {
		progress_update(&pg, ++walked);
		git_commit *commit = NULL;
		if (git_commit_lookup(&commit, repo, &oid) < 0)
			continue;
		int np = (int)git_commit_parentcount(commit);
		if (np > 1) {
			git_commit_free(commit);
			continue;
		}
		XGROW(out->v, out->n + 1, out->alloc);
		struct range_commit *c = &out->v[out->n++];
		memset(c, 0, sizeof(*c));
		git_oid_tostr(c->id, sizeof c->id, &oid);
		const char *msg = git_commit_message_raw(commit);
		c->message = xstrdup(msg ? msg : "");
		c->subject = subject_of(c->message);
		c->nparents = np;
		const struct history_commit *hc = history_commit(h, c->id);
		memcpy(c->upstream, hc && hc->upstream[0] ? hc->upstream : c->id, 41);
		if (want_paths && load_paths(repo, commit, c) < 0)
			rc = kcve_err_set(err, KCVE_E_GENERIC, "cannot diff %s: %s", c->id,
					  git_error_last()->message);
		git_commit_free(commit);
	}
	progress_end(&pg, walked);
	git_revwalk_free(walk);
	if (rc)
		review_range_release(out);
	return rc;
}

void review_range_release(struct review_range *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].subject);
		free(r->v[i].message);
		for (size_t j = 0; j < r->v[i].npaths; j++)
			free(r->v[i].paths[j]);
		free(r->v[i].paths);
	}
	free(r->v);
	free(r->top);
	memset(r, 0, sizeof(*r));
}
