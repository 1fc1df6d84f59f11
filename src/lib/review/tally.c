#include "review/tally.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/assert.h"
#include "core/fileio.h"
#include "core/xalloc.h"

static int reviewer_index(struct tally *t, const char *name)
{
	for (size_t i = 0; i < t->nreviewers; i++)
		if (strcmp(t->reviewers[i], name) == 0)
			return (int)i;
	KCVE_ASSERT(t->nreviewers <= TALLY_MAX_REVIEWERS);
	if (t->nreviewers == TALLY_MAX_REVIEWERS)
		return -1;
	t->reviewers[t->nreviewers] = xstrdup(name);
	return (int)t->nreviewers++;
}

/* Load the files of one directory whose names are "<tag>-<reviewer>" variants. */
static void load_dir(struct tally *t, const char *dir, const char *tag)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	size_t tl = strlen(tag);
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, tag, tl) != 0 || de->d_name[tl] != '-')
			continue;
		struct votefile vf = {0};
		if (!votefile_split_name(de->d_name, &vf) || strcmp(vf.tag, tag) != 0) {
			votefile_release(&vf);
			continue;
		}
		char *path = path_join(dir, de->d_name);
		if (is_dir(path) || votefile_load(path, &vf) < 0) {
			free(path);
			votefile_release(&vf);
			continue;
		}
		XGROW(t->files, t->nfiles + 1, t->filesalloc);
		t->paths = xrealloc(t->paths, (t->nfiles + 1) * sizeof(*t->paths));
		t->paths[t->nfiles] = path;
		t->files[t->nfiles++] = vf;
		reviewer_index(t, vf.reviewer);
	}
	closedir(d);
}

int tally_load(struct tally *t, const char *tree_root, const char *tag, bool include_done,
	       struct kcve_err *err)
{
	memset(t, 0, sizeof(*t));
	char *review = path_join(tree_root, "cve/review");
	char *proposed = path_join(review, "proposed");
	load_dir(t, proposed, tag);
	if (include_done) {
		char *done = path_join(review, "done");
		DIR *d = opendir(done);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char *sub = path_join(done, de->d_name);
			if (is_dir(sub))
				load_dir(t, sub, tag);
			free(sub);
		}
		if (d)
			closedir(d);
		free(done);
	}
	free(proposed);
	free(review);
	if (t->nfiles == 0)
		return kcve_err_set(err, KCVE_E_NOTFOUND,
				    "no vote files for %s in cve/review/proposed/; reviewers write them with 'kcve review'",
				    tag);
	return 0;
}

static bool prefix_of(const char *prefix, const char *sha)
{
	size_t n = strlen(prefix);
	return n >= 7 && strncasecmp(prefix, sha, n) == 0;
}

bool tally_vote_matches(const struct vote *v, const struct range_commit *c)
{
	if (prefix_of(v->sha, c->upstream) || prefix_of(v->sha, c->id))
		return true;
	return v->subject && v->subject[0] && c->subject && strcmp(v->subject, c->subject) == 0;
}

void tally_compute(struct tally *t, const struct review_range *r, struct cve_tree *tree)
{
	t->nrows = r->n;
	t->rows = xcalloc(r->n ? r->n : 1, sizeof(*t->rows));
	for (size_t i = 0; i < r->n; i++) {
		struct tally_row *row = &t->rows[i];
		for (size_t f = 0; f < t->nfiles; f++) {
			int ri = reviewer_index(t, t->files[f].reviewer);
			if (ri < 0 || (row->voters & (1UL << ri)))
				continue;
			for (size_t k = 0; k < t->files[f].n; k++)
				if (tally_vote_matches(&t->files[f].v[k], &r->v[i])) {
					row->voters |= 1UL << ri;
					row->nvoters++;
					break;
				}
		}
		if (tree) {
			struct cve_entry e;
			if (tree_find_sha(tree, r->v[i].upstream, &e) == 0 ||
			    tree_find_sha(tree, r->v[i].id, &e) == 0) {
				snprintf(row->cve, sizeof row->cve, "%s", e.id);
				cve_entry_release(&e);
			}
		}
	}
}

void tally_release(struct tally *t)
{
	for (size_t i = 0; i < t->nfiles; i++) {
		votefile_release(&t->files[i]);
		free(t->paths[i]);
	}
	free(t->files);
	free(t->paths);
	for (size_t i = 0; i < t->nreviewers; i++)
		free(t->reviewers[i]);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
