/* Commit metadata for records (see commit_info.h). */
#include "record/commit_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "record/utf8.h"
#include "core/text.h"

struct path_list {
	char **v;
	size_t n, alloc;
};

static void pl_push(struct path_list *l, const char *p)
{
	XGROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrdup(p);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *git_quote_path(const char *path)
{
	bool need = false;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if (*p < 0x20 || *p == '"' || *p == '\\' || *p >= 0x7f)
			need = true;
	if (!need)
		return xstrdup(path);
	struct strbuf sb = STRBUF_INIT;
	sb_addc(&sb, '"');
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		switch (*p) {
		case '\a': sb_adds(&sb, "\\a"); break;
		case '\b': sb_adds(&sb, "\\b"); break;
		case '\t': sb_adds(&sb, "\\t"); break;
		case '\n': sb_adds(&sb, "\\n"); break;
		case '\v': sb_adds(&sb, "\\v"); break;
		case '\f': sb_adds(&sb, "\\f"); break;
		case '\r': sb_adds(&sb, "\\r"); break;
		case '"': sb_adds(&sb, "\\\""); break;
		case '\\': sb_adds(&sb, "\\\\"); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				sb_addf(&sb, "\\%03o", *p);
			else
				sb_addc(&sb, (char)*p);
		}
	}
	sb_addc(&sb, '"');
	return sb_detach(&sb);
}

/* Paths of a two-tree diff with rename detection, as git's --name-only prints them. */
static int diff_paths(git_repository *repo, git_tree *old, git_tree *new, struct path_list *out,
		      struct kcve_err *err)
{
	git_diff *diff = NULL;
	git_diff_options opts;
	git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
	if (git_diff_tree_to_tree(&diff, repo, old, new, &opts) < 0)
		return kcve_err_set(err, KCVE_E_GENERIC, "git diff failed: %s",
				    git_error_last() ? git_error_last()->message : "unknown error");
	git_diff_find_options fopts;
	git_diff_find_options_init(&fopts, GIT_DIFF_FIND_OPTIONS_VERSION);
	fopts.flags = GIT_DIFF_FIND_RENAMES;
	fopts.rename_threshold = 50; /* git's default -M50% */
	fopts.rename_limit = 1000;   /* git's default diff.renameLimit */
	if (git_diff_find_similar(diff, &fopts) < 0) {
		git_diff_free(diff);
		return kcve_err_set(err, KCVE_E_GENERIC, "git rename detection failed: %s",
				    git_error_last() ? git_error_last()->message : "unknown error");
	}
	size_t n = git_diff_num_deltas(diff);
	for (size_t i = 0; i < n; i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		pl_push(out, d->status == GIT_DELTA_DELETED ? d->old_file.path : d->new_file.path);
	}
	git_diff_free(diff);
	/* git queues a rename at its destination's place in path order */
	qsort(out->v, out->n, sizeof(*out->v), cmp_path);
	return 0;
}

/* Paths whose entry in the merge result differs from every parent (combined diff). */
static int merge_paths(git_repository *repo, git_commit *c, struct path_list *out,
		       struct kcve_err *err)
{
	git_tree *tree = NULL;
	struct path_list common = {0};
	int rc = 0;
	if (git_commit_tree(&tree, c) < 0)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot read the merge's tree");
	unsigned np = git_commit_parentcount(c);
	for (unsigned i = 0; i < np && !rc; i++) {
		git_commit *p = NULL;
		git_tree *pt = NULL;
		git_diff *diff = NULL;
		git_diff_options opts;
		git_diff_options_init(&opts, GIT_DIFF_OPTIONS_VERSION);
		if (git_commit_parent(&p, c, i) < 0 || git_commit_tree(&pt, p) < 0 ||
		    git_diff_tree_to_tree(&diff, repo, pt, tree, &opts) < 0) {
			rc = kcve_err_set(err, KCVE_E_GENERIC, "cannot diff the merge against parent %u",
					  i + 1);
		} else {
			struct path_list cur = {0};
			size_t n = git_diff_num_deltas(diff);
			for (size_t k = 0; k < n; k++) {
				const git_diff_delta *d = git_diff_get_delta(diff, k);
				pl_push(&cur, d->status == GIT_DELTA_DELETED ? d->old_file.path
									      : d->new_file.path);
			}
			if (i == 0) {
				common = cur;
			} else {
				size_t w = 0;
				for (size_t k = 0; k < common.n; k++) {
					bool found = false;
					for (size_t j = 0; j < cur.n && !found; j++)
						found = strcmp(common.v[k], cur.v[j]) == 0;
					if (found)
						common.v[w++] = common.v[k];
					else
						free(common.v[k]);
				}
				common.n = w;
				for (size_t j = 0; j < cur.n; j++)
					free(cur.v[j]);
				free(cur.v);
			}
		}
		git_diff_free(diff);
		git_tree_free(pt);
		git_commit_free(p);
	}
	git_tree_free(tree);
	if (rc) {
		for (size_t k = 0; k < common.n; k++)
			free(common.v[k]);
		free(common.v);
		return rc;
	}
	qsort(common.v, common.n, sizeof(*common.v), cmp_path);
	*out = common;
	return 0;
}

int commit_changed_files(git_repository *repo, git_commit *c, char ***files, size_t *nfiles,
			 struct kcve_err *err)
{
	struct path_list l = {0};
	int rc;
	unsigned np = git_commit_parentcount(c);
	if (np > 1) {
		rc = merge_paths(repo, c, &l, err);
	} else {
		git_tree *tree = NULL, *ptree = NULL;
		git_commit *parent = NULL;
		if (git_commit_tree(&tree, c) < 0 ||
		    (np == 1 && (git_commit_parent(&parent, c, 0) < 0 ||
				 git_commit_tree(&ptree, parent) < 0)))
			rc = kcve_err_set(err, KCVE_E_GENERIC, "cannot read the trees of commit %s",
					  git_oid_tostr_s(git_commit_id(c)));
		else
			rc = diff_paths(repo, ptree, tree, &l, err);
		git_tree_free(tree);
		git_tree_free(ptree);
		git_commit_free(parent);
	}
	if (rc)
		return rc;
	for (size_t i = 0; i < l.n; i++) {
		char *q = git_quote_path(l.v[i]);
		free(l.v[i]);
		l.v[i] = q;
	}
	*files = l.v;
	*nfiles = l.n;
	return 0;
}

static char *utf8_or_empty(const char *s)
{
	if (!s || !utf8_valid(s, strlen(s)))
		return xstrdup("");
	return xstrdup(s);
}

int commit_info_load(git_repository *repo, const char *sha40, struct commit_info *ci,
		     struct kcve_err *err)
{
	memset(ci, 0, sizeof(*ci));
	git_oid oid;
	git_commit *c = NULL;
	if (git_oid_fromstrn(&oid, sha40, strlen(sha40)) < 0 || strlen(sha40) != 40 ||
	    git_commit_lookup(&c, repo, &oid) < 0)
		return kcve_err_set(err, KCVE_E_NOTFOUND, "commit %s is not in the repository", sha40);
	text_snprintf(ci->sha, sizeof(ci->sha), "%s", git_oid_tostr_s(&oid));
	/* git2 (the anchor's binding) yields None for a non-UTF-8 message: keep that */
	ci->subject = utf8_or_empty(git_commit_summary(c));
	ci->message = utf8_or_empty(git_commit_message(c));
	int rc = commit_changed_files(repo, c, &ci->files, &ci->nfiles, err);
	git_commit_free(c);
	if (rc)
		commit_info_release(ci);
	return rc;
}

void commit_info_release(struct commit_info *ci)
{
	for (size_t i = 0; i < ci->nfiles; i++)
		free(ci->files[i]);
	free(ci->files);
	free(ci->subject);
	free(ci->message);
	memset(ci, 0, sizeof(*ci));
}
