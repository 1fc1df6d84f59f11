/* Disputes: authority check, application through store ops, audit log (see dispute.h). */
#include "maintainers/dispute.h"

#include <errno.h>
#include <fcntl.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/sha.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "maintainers/authority.h"
#include "maintainers/email.h"
#include "record/identity.h"
#include "store/ops.h"
#include "store/tree.h"
#include "core/kjson.h"
#include "core/text.h"

void dispute_result_release(struct dispute_result *r)
{
	sb_release(&r->why);
	sb_release(&r->deciders);
	sb_release(&r->report);
}

int cve_json_program_files(const char *text, size_t len, char ***files, size_t *n,
                           struct kcve_err *err)
{
	json_error_t je;
	json_t *root = kj_loadb(text, len, 0, &je);
	*files = NULL;
	*n = 0;
	if (!root)
		return kcve_err_set(err, KCVE_E_PARSE, "CVE record is not valid JSON (line %d: %s)",
		                    je.line, je.text);
	size_t alloc = 0;
	json_t *aff = json_object_get(json_object_get(json_object_get(root, "containers"), "cna"),
	                              "affected");
	size_t i, k;
	json_t *a, *f;
	json_array_foreach(aff, i, a) {
		json_array_foreach(json_object_get(a, "programFiles"), k, f) {
			const char *s = json_string_value(f);
			if (!s || !*s)
				continue;
			bool dup = false;
			for (size_t j = 0; j < *n && !dup; j++)
				dup = strcmp((*files)[j], s) == 0;
			if (dup)
				continue;
			XGROW(*files, *n + 1, alloc);
			(*files)[(*n)++] = xstrdup(s);
		}
	}
	json_decref(root);
	if (*n == 0)
		return kcve_err_set(err, KCVE_E_PARSE, "CVE record names no programFiles");
	return 0;
}

struct git_dir_ctx {
	git_tree *tree;
};

static bool git_isdir(void *ctx, const char *rel)
{
	struct git_dir_ctx *g = ctx;
	git_tree_entry *e = NULL;
	if (git_tree_entry_bypath(&e, g->tree, rel) != 0)
		return false;
	bool r = git_tree_entry_type(e) == GIT_OBJECT_TREE;
	git_tree_entry_free(e);
	return r;
}

int maintainers_from_repo(struct maintainers **out, const char *repo_path, struct kcve_err *err)
{
	git_libgit2_init();
	git_repository *repo = NULL;
	int rc;
	if (git_repository_open_ext(&repo, repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
		git_libgit2_shutdown();
		return kcve_err_set(err, KCVE_E_NOREPO, "not a git repository: %s", repo_path);
	}
	const char *wd = git_repository_workdir(repo);
	char *wpath = wd ? path_join(wd, "MAINTAINERS") : NULL;
	if (wpath && path_exists(wpath)) {
		rc = maintainers_load(out, wpath, wd, err);
	} else {
		git_object *blob = NULL, *tree = NULL;
		if (git_revparse_single(&blob, repo, "HEAD:MAINTAINERS") != 0 ||
		    git_object_type(blob) != GIT_OBJECT_BLOB ||
		    git_revparse_single(&tree, repo, "HEAD^{tree}") != 0) {
			rc = kcve_err_set(err, KCVE_E_NOTFOUND, "no MAINTAINERS in %s (working tree or "
			                  "HEAD)", repo_path);
		} else {
			struct git_dir_ctx g = {(git_tree *)tree};
			rc = maintainers_parse(out, git_blob_rawcontent((git_blob *)blob),
			                       (size_t)git_blob_rawsize((git_blob *)blob), git_isdir, &g,
			                       err);
		}
		git_object_free(blob);
		git_object_free(tree);
	}
	free(wpath);
	git_repository_free(repo);
	git_libgit2_shutdown();
	return rc;
}

static const char *action_name(enum dispute_action a)
{
	return a == DISPUTE_REJECT ? "reject" : a == DISPUTE_VULNERABLE ? "vulnerable" : "not-affected";
}

/* One JSON object per line; a single write() so concurrent readers never see half a line. */
static int audit_append(struct cve_tree *t, const struct dispute_request *rq,
                        const char *const *files, size_t nfiles, const struct dispute_result *res,
                        const char *outcome, struct kcve_err *err)
{
	char when[32];
	time_t now = (time_t)clock_now();
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_t *o = json_object();
	json_object_set_new(o, "time", kj_str(when));
	json_object_set_new(o, "cve", kj_str(rq->cve));
	json_t *by = json_array();
	for (size_t i = 0; i < rq->nby; i++)
		json_array_append_new(by, kj_str(rq->by[i]));
	json_object_set_new(o, "by", by);
	json_object_set_new(o, "action", kj_str(action_name(rq->action)));
	json_t *args = json_array();
	for (size_t i = 0; i < rq->nargs; i++)
		json_array_append_new(args, kj_str(rq->args[i]));
	json_object_set_new(o, "args", args);
	json_object_set_new(o, "reason", kj_str(rq->reason ? rq->reason : ""));
	json_object_set_new(o, "decision", kj_str(res->allowed ? "allowed" : "refused"));
	json_object_set_new(o, "why", kj_str(sb_str(&res->why)));
	json_object_set_new(o, "deciders", kj_str(sb_str(&res->deciders)));
	json_t *fv = json_array();
	for (size_t i = 0; i < nfiles; i++)
		json_array_append_new(fv, kj_str(files[i]));
	json_object_set_new(o, "files", fv);
	json_object_set_new(o, "outcome", kj_str(outcome));
	if (rq->sender && rq->sender->email[0])
		json_object_set_new(o, "recorded_by", kj_str(rq->sender->email));
	char *line = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!line)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot encode the audit entry");
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s\n", line);
	free(line);
	char *dir = path_join(tree_root(t), "cve");
	char *path = path_join(dir, "disputes.log");
	int rc = 0;
	/* the log is in the (hostile) tree: never appended through a link or to a FIFO */
	int fd = file_open_append(path, 0644);
	if (fd < 0 || write(fd, sb.buf, sb.len) != (ssize_t)sb.len || fsync(fd) != 0)
		rc = kcve_err_set(err, KCVE_E_IO, "cannot append to %s: %s", path,
				  safefs_reason(errno));
	if (fd >= 0)
		close(fd);
	sb_release(&sb);
	free(dir);
	free(path);
	return rc;
}

/* A stable branch name: "X.Y", or "2.6.N" in the 2.6 era. */
static bool is_branch(const char *s)
{
	int parts = 0;
	const char *p = s;
	for (;;) {
		size_t n = strspn(p, "0123456789");
		if (n == 0 || n > 4)
			return false;
		parts++;
		p += n;
		if (*p == '\0')
			break;
		if (*p++ != '.')
			return false;
	}
	return parts == 2 || (parts == 3 && strncmp(s, "2.6.", 4) == 0);
}

static int validate_args(const struct dispute_request *rq, struct strbuf *data,
                         struct kcve_err *err)
{
	if (rq->action == DISPUTE_REJECT)
		return 0;
	if (rq->nargs == 0)
		return kcve_err_set(err, KCVE_E_USAGE, "--%s needs at least one value",
		                    action_name(rq->action));
	for (size_t i = 0; i < rq->nargs; i++) {
		const char *a = rq->args[i];
		if (rq->action == DISPUTE_VULNERABLE) {
			char full[41];
			size_t n = strlen(a);
			if (n < 12 || n > 40 || !is_hex_n(a, n))
				return kcve_err_set(err, KCVE_E_USAGE, "not a commit id (12 to 40 hex "
				                    "digits): %s", a);
			text_snprintf(full, sizeof(full), "%s", a);
			if (rq->history) {
				struct kcve_err e2 = {0};
				if (history_resolve(rq->history, a, full, &e2))
					return kcve_err_set(err, KCVE_E_NOTFOUND, "unknown commit %s in the "
					                    "kernel repository", a);
			}
			sha_lower(full);
			sb_addf(data, "%s\n", full);
		} else {
			if (!is_branch(a))
				return kcve_err_set(err, KCVE_E_USAGE, "not a stable branch (like 6.1): %s",
				                    a);
			/* merge with branches already recorded, without duplicates */
			struct strbuf needle = STRBUF_INIT;
			sb_addf(&needle, "%s\n", a);
			bool dup = strstr(sb_str(data), needle.buf) != NULL;
			sb_release(&needle);
			if (!dup)
				sb_addf(data, "%s\n", a);
		}
	}
	return 0;
}

/* Who may decide for these files (MAINTAINERS authority), whether rq's disputers are among
 * them, and the per-file report of sections and people. */
static void decide(const struct maintainers *m, const char *const *files, size_t nfiles,
		   const struct dispute_request *rq, struct dispute_result *res)
{
	struct authority a;
	authority_compute(m, files, nfiles, &a);
	res->allowed = authority_decide(&a, rq->by, rq->nby, &res->why, &res->deciders);
	for (size_t i = 0; i < a.nfiles; i++) {
		const struct authority_file *f = &a.files[i];
		sb_addf(&res->report, "%s: ", f->file);
		if (!f->nsections) {
			sb_addf(&res->report, "no dispute authority (%s)\n", f->why_none);
			continue;
		}
		sb_addf(&res->report, "%s\n", f->section_desc);
		for (size_t k = 0; k < f->npeople; k++)
			sb_addf(&res->report, "  %c: %s\n", f->people[k].role, f->people[k].display);
	}
	authority_release(&a);
}

/* Carry out an allowed dispute (reject, or write .vulnerable/.not_affected and regenerate the
 * record); oc gets the outcome text for the audit log. The tree lock is held. */
static int apply_outcome(struct cve_tree *t, const struct dispute_request *rq,
			 const struct strbuf *data, struct dispute_result *res, struct strbuf *oc,
			 struct kcve_err *aerr)
{
	int arc = 0;
	if (rq->action == DISPUTE_REJECT) {
		struct strbuf reason = STRBUF_INIT;
		sb_addf(&reason, "disputed by %s: %s", rq->by[0], rq->reason);
		arc = store_reject(t, rq->cve, reason.buf, rq->sender, aerr);
		sb_release(&reason);
	} else {
		const char *ext = rq->action == DISPUTE_VULNERABLE ? ".vulnerable" : ".not_affected";
		arc = store_write_file(t, rq->cve, ext, data->buf ? data->buf : "", data->len, aerr);
		if (!arc && rq->history) {
			bool changed = false;
			arc = store_update_one(t, rq->history, rq->cve, &changed, aerr);
			res->regenerated = !arc;
		}
	}
	if (arc)
		sb_addf(oc, "failed: %s", aerr->msg);
	else if (rq->action == DISPUTE_REJECT)
		sb_adds(oc, "rejected");
	else
		sb_addf(oc, "%s written%s", rq->action == DISPUTE_VULNERABLE ? ".vulnerable" :
		                             ".not_affected",
		        res->regenerated ? ", record regenerated" : ", record not regenerated");
	return arc;
}

int dispute_run(struct cve_tree *t, const struct maintainers *m, const struct dispute_request *rq,
                struct dispute_result *res, struct kcve_err *err)
{
	struct cve_entry e;
	if (!cve_id_valid(rq->cve))
		return kcve_err_set(err, KCVE_E_USAGE, "not a CVE id: %s", rq->cve);
	if (tree_find_cve(t, rq->cve, &e))
		return kcve_err_set(err, KCVE_E_NOTFOUND, "no such CVE in the tree: %s", rq->cve);
	if (e.state != CVE_PUBLISHED) {
		int rc = kcve_err_set(err, KCVE_E_POLICY, "%s is %s; only published CVEs can be "
		                      "disputed", rq->cve, cve_state_dir(e.state));
		cve_entry_release(&e);
		return rc;
	}
	char *jpath = tree_cve_path(&e, ".json");
	struct strbuf js = STRBUF_INIT;
	int rc = tree_record_id_check(&e, err); /* a record of another id is not disputed */
	if (!rc && read_file(jpath, &js) < 0)
		rc = kcve_err_set(err, KCVE_E_TREE, "cannot read %s", jpath);
	char **files = NULL;
	size_t nfiles = 0;
	if (!rc && (rc = cve_json_program_files(js.buf, js.len, &files, &nfiles, err)) &&
	    rc == KCVE_E_PARSE) {
		char msg[sizeof(err->msg)];
		text_snprintf(msg, sizeof(msg), "%s", err->msg);
		kcve_err_set(err, rc, "%s (%s)", msg, jpath);
	}
	sb_release(&js);
	free(jpath);
	/* the new file contents are validated before anything is decided or written */
	struct strbuf data = STRBUF_INIT;
	if (!rc && rq->action == DISPUTE_NOT_AFFECTED) {
		char *p = tree_cve_path(&e, ".not_affected");
		read_file(p, &data);
		free(p);
		if (data.len && data.buf[data.len - 1] != '\n')
			sb_addc(&data, '\n');
	}
	if (!rc)
		rc = validate_args(rq, &data, err);
	cve_entry_release(&e);
	if (rc) {
		mnt_free_strv(files, nfiles);
		sb_release(&data);
		return rc;
	}

	decide(m, (const char *const *)files, nfiles, rq, res);

	rc = tree_lock(t, err);
	if (rc) {
		mnt_free_strv(files, nfiles);
		sb_release(&data);
		return rc;
	}
	const char *outcome = "nothing changed";
	struct strbuf oc = STRBUF_INIT;
	int arc = 0;
	struct kcve_err aerr = {0};
	if (res->allowed) {
		arc = apply_outcome(t, rq, &data, res, &oc, &aerr);
		outcome = oc.buf;
	}
	rc = audit_append(t, rq, (const char *const *)files, nfiles, res, outcome, err);
	tree_unlock(t);
	sb_release(&oc);
	sb_release(&data);
	mnt_free_strv(files, nfiles);
	if (rc)
		return rc;
	if (arc)
		return kcve_err_set(err, aerr.code ? aerr.code : KCVE_E_GENERIC, "%s", aerr.msg);
	if (!res->allowed)
		return kcve_err_set(err, KCVE_E_DENIED, "%s", sb_str(&res->why));
	return 0;
}
