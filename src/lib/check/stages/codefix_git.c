/* Fix fingerprints from a kernel repository (`kcve db build --repo LINUX.git`): each record's
 * mainline fix (its .sha1 lines) and every stable backport of it (the history index's upstream
 * ids), each as its own version of the fix, labelled "mainline" or with its branch ("6.1"), so
 * that a tree of a branch is read with that branch's own version of the code.  The functions
 * each hunk changes come from scans of the file before and after the commit
 * (check/stages/funclevel.h's text form). */
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/stages/codestage.h"
#include "check/stages/funclevel.h"
#include "codefix/fprint.h"
#include "codefix/patch.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "core/text.h"

/* "6.1.52" → "6.1"; "6.8" or "6.9-rc3" → "mainline". */
static void branch_label(const char *release, char *out, size_t n)
{
	const char *dot = release ? strchr(release, '.') : NULL;
	const char *second = dot ? strchr(dot + 1, '.') : NULL;
	if (!second) {
		text_snprintf(out, n, "mainline");
		return;
	}
	text_snprintf(out, n, "%.*s", (int)(second - release), release);
}

/* The commit's diff against its first parent as unified diff text. */
static int commit_patch(git_repository *repo, git_commit *c, git_tree **ptree, git_tree **tree,
			struct strbuf *out)
{
	git_commit *parent = NULL;
	git_diff *diff = NULL;
	git_buf buf = {0};
	git_diff_options o;
	git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
	int rc = git_commit_parentcount(c) == 1 ? 0 : -1; /* merges and roots carry no one fix */
	if (!rc)
		rc = git_commit_parent(&parent, c, 0);
	if (!rc)
		rc = git_commit_tree(ptree, parent);
	if (!rc)
		rc = git_commit_tree(tree, c);
	if (!rc)
		rc = git_diff_tree_to_tree(&diff, repo, *ptree, *tree, &o);
	if (!rc)
		rc = git_diff_to_buf(&buf, diff, GIT_DIFF_FORMAT_PATCH);
	if (!rc)
		sb_add(out, buf.ptr, buf.size);
	git_buf_dispose(&buf);
	git_diff_free(diff);
	git_commit_free(parent);
	return rc;
}

/* The text of path in tree (NULL when absent or too large); *blob to free. */
static const char *blob_text(git_repository *repo, git_tree *tree, const char *path,
			     git_blob **blob, size_t *len)
{
	git_tree_entry *te = NULL;
	*blob = NULL;
	*len = 0;
	if (tree && git_tree_entry_bypath(&te, tree, path) == 0 &&
	    git_blob_lookup(blob, repo, git_tree_entry_id(te)) == 0 &&
	    git_blob_rawsize(*blob) <= (git_object_size_t)CF_PATCH_MAX)
		*len = (size_t)git_blob_rawsize(*blob);
	git_tree_entry_free(te);
	return *len || (*blob && git_blob_rawsize(*blob) == 0) ? git_blob_rawcontent(*blob) : NULL;
}

/* The runs of non-blank removed (want '-', old line numbers) or added ('+', new numbers) lines
 * of a patch hunk. */
static size_t changed_runs(const struct cf_phunk *h, char want, struct fl_range *out, size_t max)
{
	size_t n = 0;
	unsigned line = (unsigned)(want == '-' ? h->old_start : h->new_start);
	bool open = false;
	for (size_t i = 0; i < h->n; i++) {
		char t = h->l[i].type;
		if (t != ' ' && t != want)
			continue; /* the other side's line: no number on this side */
		bool blank = true;
		for (size_t k = 0; k < h->l[i].len && blank; k++)
			blank = h->l[i].text[k] == ' ' || h->l[i].text[k] == '\t';
		if (t == want && !blank) {
			if (open && out[n - 1].last + 1 == line)
				out[n - 1].last = line;
			else if (n < max)
				out[n++] = (struct fl_range){line, line};
			open = true;
		} else {
			open = false;
		}
		line++;
	}
	return n;
}

/* Each C-file hunk's functions, from the file before (ptree) and after (tree) the commit. */
static void hunk_functions(struct cf_set *fs, git_repository *repo, git_tree *ptree,
			   git_tree *tree)
{
	struct cf_fp *fp = &fs->v[fs->n - 1];
	for (uint32_t j = 0; j < fp->n; j++) {
		const char *path = fp->f[j].path;
		size_t l = strlen(path), oldlen, newlen;
		if (l < 2 || path[l - 2] != '.' || (path[l - 1] != 'c' && path[l - 1] != 'h'))
			continue;
		git_blob *ob, *nb;
		const char *old = blob_text(repo, ptree, path, &ob, &oldlen);
		const char *new_ = blob_text(repo, tree, path, &nb, &newlen);
		for (uint32_t k = 0; k < fp->f[j].n; k++) {
			const struct cf_phunk *ph = fp->f[j].h[k].src;
			struct fl_range del[64], add[64];
			if (!ph)
				continue;
			size_t nd = changed_runs(ph, '-', del, 64), na = changed_runs(ph, '+', add, 64);
			struct strbuf sb = STRBUF_INIT;
			fl_hunk_funcs(&sb, old, oldlen, del, nd, new_, newlen, add, na);
			free(fp->f[j].h[k].funcs);
			fp->f[j].h[k].funcs = sb_detach(&sb);
		}
		git_blob_free(ob);
		git_blob_free(nb);
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
	git_tree *tree = NULL, *ptree = NULL;
	struct strbuf text = STRBUF_INIT;
	int added = 0;
	if (git_oid_fromstr(&oid, sha40) == 0 && git_commit_lookup(&c, repo, &oid) == 0 &&
	    commit_patch(repo, c, &ptree, &tree, &text) == 0 && text.len) {
		struct cf_patch p;
		char name[64];
		text_snprintf(name, sizeof name, "commit %.12s", sha40);
		if (cf_patch_parse(&p, text.buf, text.len, name, err) != 0) {
			added = -1;
		} else if (cf_set_add_patch(fs, cve, label, &p) > 0) {
			hunk_functions(fs, repo, ptree, tree);
			added = 1;
		}
		cf_patch_release(&p);
	}
	sb_release(&text);
	git_tree_free(tree);
	git_tree_free(ptree);
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
