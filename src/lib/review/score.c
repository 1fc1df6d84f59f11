#include "review/score.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "review/range.h"
#include "review/tally.h"
#include "review/votefile.h"

bool review_previous_tag(const char *tag, char *out, size_t outsz)
{
	unsigned a, b, c;
	char tail;
	if (sscanf(tag, "v%u.%u.%u%c", &a, &b, &c, &tail) != 3 || c == 0)
		return false;
	if (c == 1)
		snprintf(out, outsz, "v%u.%u", a, b);
	else
		snprintf(out, outsz, "v%u.%u.%u", a, b, c - 1);
	return true;
}

static struct reviewer_score *reviewer(struct score_report *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].name, name) == 0)
			return &r->v[i];
	XGROW(r->v, r->n + 1, r->alloc);
	struct reviewer_score *s = &r->v[r->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof s->name, "%s", name);
	return s;
}

static int count_match(const struct cve_entry *e, const char *sha40, void *ctx)
{
	(void)e;
	(void)sha40;
	(*(size_t *)ctx)++;
	return 1; /* one is enough */
}

/* Missed CVE'd commits of the release this file reviewed. */
static void score_missed(struct cve_tree *tree, struct history *h, const struct votefile *vf,
			 struct reviewer_score *s)
{
	char prev[64];
	if (!review_previous_tag(vf->tag, prev, sizeof prev))
		return;
	char spec[160];
	snprintf(spec, sizeof spec, "%s..%s", prev, vf->tag);
	struct review_range r;
	struct kcve_err err;
	if (review_range_load(h, spec, false, &r, &err) != 0)
		return;
	s->releases_checked++;
	for (size_t i = 0; i < r.n; i++) {
		struct cve_entry e;
		if (tree_find_sha(tree, r.v[i].upstream, &e) != 0)
			continue;
		cve_entry_release(&e);
		s->cve_commits++;
		bool voted = false;
		for (size_t k = 0; k < vf->n && !voted; k++)
			voted = tally_vote_matches(&vf->v[k], &r.v[i]);
		if (!voted)
			s->missed++;
	}
	review_range_release(&r);
}

static void score_file(struct cve_tree *tree, struct history *h, const char *path,
		       const char *base, struct score_report *out)
{
	struct votefile vf = {0};
	if (!votefile_split_name(base, &vf) || vf.annotated || votefile_load(path, &vf) < 0) {
		votefile_release(&vf);
		return;
	}
	out->files_parsed++;
	out->notes += vf.notes;
	struct reviewer_score *s = reviewer(out, vf.reviewer);
	s->files++;
	for (size_t i = 0; i < vf.n; i++) {
		s->votes++;
		size_t found = 0;
		tree_find_sha_prefix(tree, vf.v[i].sha, count_match, &found);
		if (found)
			s->hits++;
	}
	if (h)
		score_missed(tree, h, &vf, s);
	votefile_release(&vf);
}

static void walk(struct cve_tree *tree, struct history *h, const char *dir, int depth,
		 struct score_report *out)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (depth == 0 && strcmp(de->d_name, "gsd") == 0))
			continue;
		XGROW(names, n + 1, alloc);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		char *p = path_join(dir, names[i]);
		if (is_dir(p)) {
			if (depth < 2)
				walk(tree, h, p, depth + 1, out);
		} else {
			score_file(tree, h, p, names[i], out);
		}
		free(p);
		free(names[i]);
	}
	free(names);
}

int review_score(struct cve_tree *tree, struct history *h, const char *review_dir,
		 struct score_report *out, struct kcve_err *err)
{
	memset(out, 0, sizeof(*out));
	if (!is_dir(review_dir))
		return kcve_err_set(err, KCVE_E_NOTFOUND,
				    "review directory %s does not exist; give --review-dir or a tree with cve/review/done",
				    review_dir);
	walk(tree, h, review_dir, 0, out);
	return 0;
}

void score_report_release(struct score_report *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
