/* Publication dates of a record set from the record tree's git history: the date of the commit
 * that added each record's .json under cve/published/ (see gitdates.h). */
#include "check/records/gitdates.h"

#include <errno.h>
#include <git2.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/cveid.h"
#include "core/diag.h"
#include "core/progress.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "history/gitguard.h"

struct id_idx {
	const char *id;
	size_t i;
};

static int cmp_id(const void *a, const void *b)
{
	return cveid_cmp(((const struct id_idx *)a)->id, ((const struct id_idx *)b)->id);
}

struct walk_ctx {
	struct id_idx *ids;
	size_t n;
	long long *when; /* per record: commit time, 0 = not seen yet */
	long long t;
};

static int on_file(const git_diff_delta *d, float progress, void *payload)
{
	(void)progress;
	struct walk_ctx *c = payload;
	if (d->status != GIT_DELTA_ADDED && d->status != GIT_DELTA_RENAMED &&
	    d->status != GIT_DELTA_COPIED)
		return 0;
	const char *p = d->new_file.path, *base = strrchr(p, '/');
	base = base ? base + 1 : p;
	size_t len = strlen(base);
	if (!strstr(p, "cve/published/") || len < 6 || strcmp(base + len - 5, ".json"))
		return 0;
	char id[64];
	if (len - 5 >= sizeof id)
		return 0;
	memcpy(id, base, len - 5);
	id[len - 5] = '\0';
	struct id_idx key = {id, 0};
	struct id_idx *hit = bsearch(&key, c->ids, c->n, sizeof *c->ids, cmp_id);
	if (hit && !c->when[hit->i])
		c->when[hit->i] = c->t;
	return 0;
}

int ck_set_dates_from_git(struct ck_set *s, const char *root, size_t *ndated,
			  struct kcve_err *err)
{
	*ndated = 0;
	git_libgit2_init();
	git_repository *repo = NULL;
	if (git_repository_open_ext(&repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
		git_libgit2_shutdown();
		return 1; /* not a git checkout: the caller uses datePublished */
	}
	int grc = gitguard_install(repo, err);
	if (grc) {
		git_repository_free(repo);
		git_libgit2_shutdown();
		return grc;
	}
	struct walk_ctx c = {xcalloc(s->n + 1, sizeof *c.ids), s->n,
			     xcalloc(s->n + 1, sizeof *c.when), 0};
	for (size_t i = 0; i < s->n; i++)
		c.ids[i] = (struct id_idx){s->v[i].id, i};
	qsort(c.ids, s->n, sizeof *c.ids, cmp_id);
	git_revwalk *walk = NULL;
	int rc = 0;
	if (git_revwalk_new(&walk, repo) || git_revwalk_push_head(walk)) {
		rc = kcve_err_set(err, KCVE_E_TREE, "cannot walk the history of %s (%s); check the "
				  "checkout or use a tree that is not a git repository", root,
				  git_error_last() ? git_error_last()->message : "no HEAD");
		goto out;
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	git_revwalk_simplify_first_parent(walk);
	char *spec = (char *)"cve/published";
	git_diff_options opts;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	opts.pathspec.strings = &spec;
	opts.pathspec.count = 1;
	struct progress pg;
	size_t walked = 0;
	progress_begin(&pg, "reading the record tree's history", 0);
	git_oid oid;
	int wr = 0;
	while (!rc && (wr = git_revwalk_next(&oid, walk)) == 0) {
		progress_update(&pg, ++walked);
		git_commit *cm = NULL, *parent = NULL;
		git_tree *t = NULL, *pt = NULL;
		git_diff *diff = NULL;
		if (git_commit_lookup(&cm, repo, &oid) || git_commit_tree(&t, cm) ||
		    (git_commit_parentcount(cm) && (git_commit_parent(&parent, cm, 0) ||
						    git_commit_tree(&pt, parent))) ||
		    git_diff_tree_to_tree(&diff, repo, pt, t, &opts)) {
			rc = kcve_err_set(err, KCVE_E_TREE, "cannot read commit %.12s of %s (%s)",
					  git_oid_tostr_s(&oid), root,
					  git_error_last() ? git_error_last()->message : "?");
		} else {
			c.t = (long long)git_commit_time(cm);
			git_diff_foreach(diff, on_file, NULL, NULL, NULL, &c);
		}
		git_diff_free(diff);
		git_tree_free(pt);
		git_tree_free(t);
		git_commit_free(parent);
		git_commit_free(cm);
	}
	progress_end(&pg, walked);
	if (!rc && wr != GIT_ITEROVER) /* a commit the walk could not read: not the end */
		rc = kcve_err_set(err, KCVE_E_TREE, "cannot walk the history of %s (%s); check the "
				  "checkout or use a tree that is not a git repository", root,
				  git_error_last() ? git_error_last()->message : "?");
	for (size_t i = 0; !rc && i < s->n; i++) {
		s->v[i].published = c.when[i];
		*ndated += c.when[i] != 0;
	}
out:
	git_revwalk_free(walk);
	git_repository_free(repo);
	git_libgit2_shutdown();
	free(c.ids);
	free(c.when);
	return rc;
}

int ck_tree_head_time(const char *root, long long *t, const struct kcve_diag *diag)
{
	*t = 0;
	/* a directory with neither a .git entry nor a HEAD file is no repository: then libgit2 is
	 * not even initialised (its TLS setup costs a cached check ~3 ms) */
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	sb_addf(&p, "%s/.git", root);
	bool none = lstat(p.buf, &st) < 0 && errno == ENOENT;
	sb_reset(&p);
	sb_addf(&p, "%s/HEAD", root);
	none = none && lstat(p.buf, &st) < 0 && errno == ENOENT;
	sb_release(&p);
	if (none)
		return 1;
	git_libgit2_init();
	git_repository *repo = NULL;
	git_reference *head = NULL;
	git_commit *cm = NULL;
	int rc = 1;
	struct kcve_err gerr = {0};
	if (git_repository_open_ext(&repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) == 0 &&
	    !git_repository_is_bare(repo) && git_repository_head(&head, repo) == 0 &&
	    git_reference_target(head)) {
		if (gitguard_install(repo, &gerr) == 0 &&
		    git_commit_lookup(&cm, repo, git_reference_target(head)) == 0) {
			*t = (long long)git_commit_time(cm);
			rc = 0;
		} else { /* a checkout whose HEAD cannot be read: say so, the age check is off */
			char *r = safe_printable(root);
			diag_warn(diag, "cannot read the HEAD commit of the record tree %s (%s); its age is "
				  "not checked: repair the checkout (git fsck)", r,
				  gerr.msg[0] ? gerr.msg : git_error_last() ? git_error_last()->message : "?");
			free(r);
		}
	}
	git_commit_free(cm);
	git_reference_free(head);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}
