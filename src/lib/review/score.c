#include "review/score.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "core/fileio.h"
#include "core/sha.h"
#include "core/strbuf.h"
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

/* All fix shas of published and rejected CVEs, sorted, for prefix look-ups of abbreviated
 * vote ids (tens of thousands of votes against ~15k CVEs: one sorted array, binary search). */
struct sha_set {
	char (*v)[41];
	size_t n, alloc;
};

static int collect_sha(const struct cve_entry *e, void *ctx)
{
	struct sha_set *set = ctx;
	char *path = tree_cve_path(e, ".sha1");
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) == 0) {
		for (char *line = strtok(sb.buf ? sb.buf : (char *)"", "\n\r\t "); line;
		     line = strtok(NULL, "\n\r\t ")) {
			if (strlen(line) != 40)
				continue;
			XGROW(set->v, set->n + 1, set->alloc);
			memcpy(set->v[set->n], line, 41);
			sha_lower(set->v[set->n++]);
		}
	}
	sb_release(&sb);
	free(path);
	return 0;
}

static int cmp_sha(const void *a, const void *b)
{
	return strcmp(a, b);
}

static bool sha_set_has_prefix(const struct sha_set *set, const char *prefix)
{
	size_t n = strlen(prefix), lo = 0, hi = set->n;
	if (n < 7)
		return false;
	while (lo < hi) { /* first entry >= prefix */
		size_t mid = lo + (hi - lo) / 2;
		if (strncmp(set->v[mid], prefix, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < set->n && strncmp(set->v[lo], prefix, n) == 0;
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

static void score_file(struct cve_tree *tree, struct history *h, const struct sha_set *set,
		       const char *path, const char *base, struct score_report *out)
{
	struct votefile vf = {0};
	if (!votefile_split_name(base, &vf)) { /* e.g. an early "v6.7.1" file: nobody's name */
		vf.tag = xstrdup(base);
		vf.reviewer = xstrdup("(unnamed)");
	}
	if (vf.annotated || votefile_load(path, &vf) < 0) {
		votefile_release(&vf);
		return;
	}
	out->files_parsed++;
	out->notes += vf.notes;
	struct reviewer_score *s = reviewer(out, vf.reviewer);
	s->files++;
	for (size_t i = 0; i < vf.n; i++) {
		s->votes++;
		if (sha_set_has_prefix(set, vf.v[i].sha))
			s->hits++;
	}
	if (h)
		score_missed(tree, h, &vf, s);
	votefile_release(&vf);
}

static void walk(struct cve_tree *tree, struct history *h, const struct sha_set *set,
		 const char *dir, int depth, struct score_report *out)
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
				walk(tree, h, set, p, depth + 1, out);
		} else {
			score_file(tree, h, set, p, names[i], out);
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
	struct sha_set set = {0};
	tree_foreach(tree, CVE_PUBLISHED | CVE_REJECTED, collect_sha, &set);
	qsort(set.v, set.n, sizeof(*set.v), cmp_sha);
	walk(tree, h, &set, review_dir, 0, out);
	free(set.v);
	return 0;
}

void score_report_release(struct score_report *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
