/* Regenerating a published CVE's .dyad/.json/.mbox after new releases (docs/spec/workflow.md "Update").
 *
 * A file is rewritten only when something other than generator-version, header or
 * sender-address lines changed, otherwise every refresh would rewrite all records (a new tool
 * version or another sender would touch 15,000 files and resend nothing of value). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "core/fileio.h"
#include "history/dyad.h"
#include "core/xalloc.h"
#include "record/identity.h"
#include "record/record.h"
#include "store/ops.h"
#include "store/store_internal.h"
#include "store/tree_internal.h"
#include "store/txn.h"
#include "core/kjson.h"

static bool line_ignorable(enum store_file_kind kind, const char *l, size_t n)
{
	/* memmem-like tests on a line that is not NUL-terminated */
	char buf[512];
	size_t m = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
	memcpy(buf, l, m);
	buf[m] = '\0';
	switch (kind) {
	case STORE_DYAD:
		return buf[0] == '#';
	case STORE_JSON:
		return strstr(buf, "bippy") || strstr(buf, "\"engine\"") ||
		       strstr(buf, "@kernel.org") || strstr(buf, "@linuxfoundation.org");
	case STORE_MBOX:
		return !strncmp(buf, "From ", 5) || !strncmp(buf, "From:", 5) ||
		       strstr(buf, "bippy-") || strstr(buf, "@kernel.org") ||
		       strstr(buf, "@linuxfoundation.org");
	}
	return false;
}

/* Next line not ignorable, as (start, len); false at the end. */
static bool next_line(enum store_file_kind kind, const char **pp, const char **s, size_t *n)
{
	const char *p = *pp;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *start = p;
		p += len + (e ? 1 : 0);
		if (kind == STORE_DYAD && len == 0)
			continue; /* dyad readers skip blank lines */
		if (!line_ignorable(kind, start, len)) {
			*pp = p;
			*s = start;
			*n = len;
			return true;
		}
	}
	*pp = p;
	return false;
}

bool store_meaningful_change(enum store_file_kind kind, const char *old, const char *new_)
{
	const char *a = old ? old : "", *b = new_ ? new_ : "";
	for (;;) {
		const char *sa = NULL, *sb = NULL;
		size_t na = 0, nb = 0;
		bool ha = next_line(kind, &a, &sa, &na), hb = next_line(kind, &b, &sb, &nb);
		if (!ha || !hb)
			return ha != hb;
		if (na != nb || memcmp(sa, sb, na) != 0)
			return true;
	}
}

struct strvec {
	char **v;
	size_t n, alloc;
};

static void sv_push_line(const char *line, size_t len, void *ctx)
{
	struct strvec *sv = ctx;
	XGROW(sv->v, sv->n + 1, sv->alloc);
	sv->v[sv->n++] = xstrndup(line, len);
}

/* Whitespace-separated tokens (update_dyad splits .vulnerable on any whitespace). */
static void sv_push_tokens(struct strvec *sv, const char *text)
{
	const char *p = text;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		size_t n = strcspn(p, " \t\r\n");
		if (n)
			sv_push_line(p, n, sv);
		p += n;
	}
}

static void sv_free(struct strvec *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
}

static char *optional_path(const struct cve_entry *e, const char *ext)
{
	char *p = tree_cve_path(e, ext);
	if (path_exists(p))
		return p;
	free(p);
	return NULL;
}

/* Modification time of a file in ns; -1 if missing. */
static long long mtime_ns(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

/* True when no input of the record (the CVE's own input files, scripts/tags,
 * scripts/linux.uuid) is newer than its .json: then only the pairs can have changed. */
static bool inputs_older_than_json(struct cve_tree *t, const struct cve_entry *e)
{
	char *jp = tree_cve_path(e, ".json");
	long long json_t = mtime_ns(jp);
	free(jp);
	if (json_t < 0)
		return false;
	static const char *const exts[] = {"", ".sha1", ".vulnerable", ".message", ".reference",
					   ".cvss", ".dyad", ".mbox", ".not_affected", NULL};
	for (int i = 0; exts[i]; i++) {
		char *p = tree_cve_path(e, exts[i]);
		long long m = mtime_ns(p);
		free(p);
		if (m >= json_t && i != 6 && i != 7)
			return false;
		if ((i == 6 || i == 7) && m < 0)
			return false;
	}
	static const char *const cfg[] = {"scripts/tags", "scripts/linux.uuid", NULL};
	for (int i = 0; cfg[i]; i++) {
		char *p = path_join(tree_root(t), cfg[i]);
		long long m = mtime_ns(p);
		free(p);
		if (m >= json_t)
			return false;
	}
	return true;
}

/* Fast path of a refresh: recompute only the pairs; true if they equal the stored .dyad's
 * (then .json and .mbox, functions of the pairs and of unchanged inputs, cannot change). */
static bool pairs_unchanged(struct history *h, const struct strvec *shas,
			    const struct strvec *vulns, const struct strvec *nas,
			    const char *old_dyad)
{
	struct dyad_request req = {(const char *const *)shas->v, shas->n,
				   (const char *const *)vulns->v, vulns->n};
	struct dyad_list pairs;
	dyad_list_init(&pairs);
	struct strbuf text = STRBUF_INIT;
	struct kcve_err err = {0};
	bool same = false;
	if (dyad_compute(h, &req, &pairs, NULL, &err) == 0) {
		record_drop_not_affected(&pairs, (const char *const *)nas->v, nas->n);
		dyad_format_pairs(&pairs, &text);
		same = !store_meaningful_change(STORE_DYAD, old_dyad, sb_str(&text));
	}
	sb_release(&text);
	dyad_list_release(&pairs);
	return same;
}

struct store_batch {
	struct cve_tree *t;
	struct txn x;
	size_t ncves;
	bool broken; /* a staging write failed: the batch can only be aborted */
};

int store_batch_begin(struct store_batch **out, struct cve_tree *t, struct kcve_err *err)
{
	*out = NULL;
	int rc = tree_lock(t, err);
	if (rc)
		return rc;
	struct store_batch *b = xcalloc(1, sizeof(*b));
	b->t = t;
	rc = txn_begin(&b->x, t, err);
	if (rc) {
		tree_unlock(t);
		free(b);
		return rc;
	}
	b->x.bulk = true;
	*out = b;
	return 0;
}

size_t store_batch_cves(const struct store_batch *b)
{
	return b->ncves;
}

int store_batch_commit(struct store_batch *b, struct kcve_err *err)
{
	int rc;
	if (b->broken) {
		txn_abort(&b->x);
		rc = kcve_err_set(err, KCVE_E_IO, "a batch of %zu updates was dropped after a failed "
				  "staging write, %s, fix the file system and rerun", b->ncves,
				  tree_root(b->t));
	} else {
		rc = b->x.nops ? txn_commit(&b->x, err) : (txn_abort(&b->x), 0);
	}
	tree_unlock(b->t);
	free(b);
	return rc;
}

void store_batch_abort(struct store_batch *b)
{
	if (!b)
		return;
	txn_abort(&b->x);
	tree_unlock(b->t);
	free(b);
}

/* The files update regenerates, in the order of record_output's dyad/json/mbox. */
static const char *const generated_exts[3] = {".dyad", ".json", ".mbox"};

static bool json_is_object_text(const struct strbuf *sb)
{
	json_t *j = sb->len ? kj_loadb(sb->buf, sb->len, 0, NULL) : NULL;
	bool ok = json_is_object(j);
	json_decref(j);
	return ok;
}

/* Stage the rewritten files of one CVE (write[i]) into x and name them in what. */
static int put_generated(struct txn *x, const char *cve, int year, const struct strbuf *nw[3],
			 const bool write[3], const bool present[3], struct strbuf *what,
			 struct kcve_err *err)
{
	int rc = 0;
	for (int i = 0; i < 3 && !rc; i++) {
		if (!write[i])
			continue;
		struct strbuf nm = STRBUF_INIT;
		sb_addf(&nm, "%s%s", cve, generated_exts[i]);
		char *rel = store_rel(CVE_PUBLISHED, year, nm.buf);
		rc = txn_put(x, rel, nw[i]->buf ? nw[i]->buf : "", nw[i]->len, err);
		free(rel);
		sb_release(&nm);
		if (what && !rc)
			sb_addf(what, "%s%s%s", what->len ? " " : "", generated_exts[i] + 1,
				present[i] ? "" : "(new)");
	}
	return rc;
}

/* Write the changed generated files: into the caller's batch transaction, or in a transaction
 * of their own under the tree lock. *changed tells whether anything was written. */
static int write_generated(struct cve_tree *t, const char *cve, int year, const struct strbuf *nw[3],
			   const bool write[3], const bool present[3], struct strbuf *what,
			   struct store_batch *batch, bool *changed, struct kcve_err *err)
{
	int rc;
	if (batch) {
		rc = put_generated(&batch->x, cve, year, nw, write, present, what, err);
		if (rc) {
			batch->broken = true;
		} else {
			batch->ncves++;
			*changed = true;
		}
		return rc;
	}
	rc = tree_lock(t, err);
	if (rc)
		return rc;
	struct txn x;
	rc = txn_begin(&x, t, err);
	if (!rc)
		rc = put_generated(&x, cve, year, nw, write, present, what, err);
	rc = rc ? (txn_abort(&x), rc) : txn_commit(&x, err);
	tree_unlock(t);
	if (!rc)
		*changed = true;
	return rc;
}

/* The sender of the regenerated mail: who when given, else the sender of the existing
 * announcement (a refresh by another team member is no change), else the configured one
 * ($KCVE_FROM, git config); NULL when there is none. */
static const struct kcve_identity *mail_sender(const struct kcve_identity *who,
					       const char *old_mbox, struct kcve_identity *buf)
{
	memset(buf, 0, sizeof(*buf));
	if (who)
		return who;
	struct kcve_err ignored;
	if (old_mbox) {
		char *f = mail_header(old_mbox, "From");
		bool ok = f && identity_parse(buf, f, &ignored) == 0;
		free(f);
		if (ok)
			return buf;
	}
	return identity_resolve(buf, NULL, NULL, &ignored) == 0 ? buf : NULL;
}

int store_update_one_ex(struct cve_tree *t, struct history *h, const char *cve,
			const struct kcve_identity *who, unsigned flags, struct strbuf *what,
			bool *changed, struct store_batch *batch, struct kcve_err *err)
{
	*changed = false;
	struct cve_entry e;
	if (tree_find_cve(t, cve, &e))
		return kcve_err_set(err, KCVE_E_NOTFOUND, "no such CVE in the tree, %s, check the id "
				    "with 'kcve search'", cve);
	if (e.state != CVE_PUBLISHED) {
		int rc = kcve_err_set(err, KCVE_E_POLICY, "only published CVEs are regenerated (this "
				      "one is %s), %s, nothing to do", cve_state_dir(e.state), cve);
		cve_entry_release(&e);
		return rc;
	}
	struct strbuf sha1 = STRBUF_INIT, vuln = STRBUF_INIT, old[3] = {STRBUF_INIT, STRBUF_INIT,
									   STRBUF_INIT};
	struct strbuf na = STRBUF_INIT;
	struct strvec shas = {0}, vulns = {0}, nas = {0};
	struct record_output out;
	memset(&out, 0, sizeof(out));
	bool built = false;
	int rc = 0;
	char *ref = NULL, *msg = NULL, *cvss = NULL;
	if (store_read_cve_file(&e, ".sha1", &sha1) < 0) {
		rc = kcve_err_set(err, KCVE_E_TREE, "published CVE without a .sha1 file, %s, restore "
				  "it from git or reject the id", cve);
		goto out;
	}
	text_foreach_line(sb_str(&sha1), sv_push_line, &shas);
	if (!shas.n) {
		rc = kcve_err_set(err, KCVE_E_TREE, "empty .sha1 file, %s, restore it from git",
				  cve);
		goto out;
	}
	if (store_read_cve_file(&e, ".vulnerable", &vuln) == 0)
		sv_push_tokens(&vulns, sb_str(&vuln));
	/* branches the maintainers declared not affected (kcve dispute --not-affected) */
	if (store_read_cve_file(&e, ".not_affected", &na) == 0)
		sv_push_tokens(&nas, sb_str(&na));
	bool present[3];
	for (int i = 0; i < 3; i++)
		present[i] = store_read_cve_file(&e, generated_exts[i], &old[i]) == 0;
	/* keep the sender of the existing announcement unless told otherwise, so a refresh by
	 * another team member does not count as a change */
	bool explicit_who = who != NULL;
	/* a damaged .json (or one that is not a JSON object) is regenerated like a missing one,
	 * whatever the dates say */
	bool corrupt_json = present[1] && !json_is_object_text(&old[1]);
	if (!(flags & STORE_UPDATE_FULL) && !explicit_who && !corrupt_json && present[0] &&
	    present[1] && present[2] && inputs_older_than_json(t, &e) &&
	    pairs_unchanged(h, &shas, &vulns, &nas, sb_str(&old[0])))
		goto out;
	struct kcve_identity from;
	who = mail_sender(who, present[2] ? sb_str(&old[2]) : NULL, &from);
	ref = optional_path(&e, ".reference");
	msg = optional_path(&e, ".message");
	cvss = optional_path(&e, ".cvss");
	struct record_input in = {
		.cve = cve,
		.shas = (const char *const *)shas.v, .nshas = shas.n,
		.vulnerable = (const char *const *)vulns.v, .nvulnerable = vulns.n,
		.reference_path = ref, .message_path = msg, .cvss_path = cvss,
		.vulns_tree = tree_root(t),
		.from = who,
		.not_affected = (const char *const *)nas.v, .nnot_affected = nas.n,
	};
	rc = record_build(h, &in, &out, err);
	if (rc)
		goto out;
	built = true;
	const struct strbuf *nw[3] = {&out.dyad, &out.json, &out.mbox};
	static const enum store_file_kind kinds[3] = {STORE_DYAD, STORE_JSON, STORE_MBOX};
	bool write[3];
	bool any = false;
	for (int i = 0; i < 3; i++) {
		write[i] = !present[i] || (i == 1 && corrupt_json) ||
			   store_meaningful_change(kinds[i], sb_str(&old[i]), sb_str(nw[i]));
		any |= write[i];
	}
	if (!any)
		goto out;
	rc = write_generated(t, cve, e.year, nw, write, present, what, batch, changed, err);
out:
	if (built)
		record_output_release(&out);
	free(ref);
	free(msg);
	free(cvss);
	sv_free(&shas);
	sv_free(&vulns);
	sv_free(&nas);
	sb_release(&sha1);
	sb_release(&vuln);
	sb_release(&na);
	for (int i = 0; i < 3; i++)
		sb_release(&old[i]);
	cve_entry_release(&e);
	return rc;
}

int store_update_one(struct cve_tree *t, struct history *h, const char *cve, bool *changed,
		     struct kcve_err *err)
{
	return store_update_one_ex(t, h, cve, NULL, 0, NULL, changed, NULL, err);
}
