/* Fix fingerprints from a kernel repository (`kcve db build --repo LINUX.git`): each record's
 * mainline fix (its .sha1 lines) and every stable backport of it (the history index's upstream
 * ids), each as its own version of the fix, labelled "mainline" or with its branch ("6.1"), so
 * that a tree of a branch is read with that branch's own version of the code.  The functions
 * each hunk changes are taken from a scan of the fixed file (csrc/funcscan.h). */
#include <git2.h>
#include <stdio.h>
#include <string.h>

#include "check/codestage.h"
#include "codefix/fprint.h"
#include "codefix/patch.h"
#include "core/xalloc.h"
#include "history/history.h"

/* "6.1.52" → "6.1"; "6.8" or "6.9-rc3" → "mainline". */
static void branch_label(const char *release, char *out, size_t n)
{
	const char *dot = release ? strchr(release, '.') : NULL;
	const char *second = dot ? strchr(dot + 1, '.') : NULL;
	if (!second) {
		snprintf(out, n, "mainline");
		return;
	}
	snprintf(out, n, "%.*s", (int)(second - release), release);
}

/* The commit's diff against its first parent as unified diff text. */
static int commit_patch(git_repository *repo, git_commit *c, git_tree **tree, struct strbuf *out)
{
	git_commit *parent = NULL;
	git_tree *ptree = NULL;
	git_diff *diff = NULL;
	git_buf buf = {0};
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	int rc = git_commit_parentcount(c) == 1 ? 0 : -1; /* merges and roots carry no one fix */
	if (!rc)
		rc = git_commit_parent(&parent, c, 0);
	if (!rc)
		rc = git_commit_tree(&ptree, parent);
	if (!rc)
		rc = git_commit_tree(tree, c);
	if (!rc)
		rc = git_diff_tree_to_tree(&diff, repo, ptree, *tree, &o);
	if (!rc)
		rc = git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH);
	if (!rc)
		sb_add(out, buf.ptr, buf.size);
	git_buf_dispose(&buf);
	git_diff_free(diff);
	git_tree_free(ptree);
	git_commit_free(parent);
	return rc;
}

/* The functions each hunk changes, from the fixed files of C sources. */
static void scan_functions(struct cf_set *fs, const struct cf_patch *p, git_repository *repo,
			   git_tree *tree)
{
	for (size_t i = 0; i < p->n; i++) {
		size_t l = strlen(p->f[i].path);
		if (l < 2 || p->f[i].path[l - 2] != '.' ||
		    (p->f[i].path[l - 1] != 'c' && p->f[i].path[l - 1] != 'h'))
			continue;
		git_tree_entry *te = NULL;
		git_blob *blob = NULL;
		if (git_tree_entry_bypath(&te, tree, p->f[i].path) == 0 &&
		    git_blob_lookup(&blob, repo, git_tree_entry_id(te)) == 0 &&
		    git_blob_rawsize(blob) <= (git_object_size_t)CF_PATCH_MAX)
			cf_set_scan_functions(fs, p, i, git_blob_rawcontent(blob),
					      (size_t)git_blob_rawsize(blob));
		git_blob_free(blob);
		git_tree_entry_free(te);
	}
}

/* Add the fingerprint of commit sha40 for cve; 1 when added, 0 when the commit is not there or
 * changes no code, -1 with err on a patch the reader refuses. */
static int add_commit(struct cf_set *fs, struct history *h, const char *cve, const char *sha40,
		      const char *label, struct kcve_err *err)
{
	git_repository *repo = history_git(h);
	git_oid oid;
	git_commit *c = NULL;
	git_tree *tree = NULL;
	struct strbuf text = STRBUF_INIT;
	int added = 0;
	if (git_oid_fromstr(&oid, sha40) == 0 && git_commit_lookup(&c, repo, &oid) == 0 &&
	    commit_patch(repo, c, &tree, &text) == 0 && text.len) {
		struct cf_patch p;
		char name[64];
		snprintf(name, sizeof name, "commit %.12s", sha40);
		if (cf_patch_parse(&p, text.buf, text.len, name, err) != 0) {
			added = -1;
		} else if (cf_set_add_patch(fs, cve, label, &p) > 0) {
			scan_functions(fs, &p, repo, tree);
			added = 1;
		}
		cf_patch_release(&p);
	}
	sb_release(&text);
	git_tree_free(tree);
	git_commit_free(c);
	return added;
}

int ck_set_add_repo_fixes(struct ck_set *s, const char *repo, size_t *added,
			  struct kcve_err *err)
{
	struct history *h = NULL;
	*added = 0;
	int rc = history_open(&h, repo, NULL, err);
	if (rc)
		return rc;
	if (!s->fprints) {
		s->fprints = xcalloc(1, sizeof *s->fprints);
		cf_set_init(s->fprints);
	}
	struct history_shas bp = {0};
	for (size_t i = 0; rc == 0 && i < s->n; i++) {
		const struct ck_record *r = &s->v[i];
		size_t before = s->fprints->n;
		for (size_t j = 0; rc == 0 && j < r->nfixes; j++) {
			char sha[41];
			if (strlen(r->fixes[j]) != 40 || history_resolve(h, r->fixes[j], sha, NULL))
				continue;
			if (add_commit(s->fprints, h, r->id, sha, "mainline", err) < 0)
				rc = err->code;
			bp.n = 0;
			if (rc == 0 && history_backports(h, sha, &bp) == 0)
				for (size_t k = 0; rc == 0 && k < bp.n; k++) {
					char label[32];
					branch_label(history_release(h, bp.v[k]), label, sizeof label);
					if (add_commit(s->fprints, h, r->id, bp.v[k], label, err) < 0)
						rc = err->code;
				}
		}
		*added += s->fprints->n > before;
	}
	history_shas_release(&bp);
	history_close(h);
	cf_set_sort(s->fprints);
	return rc;
}
