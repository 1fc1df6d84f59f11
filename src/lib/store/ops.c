/* State transitions of CVE ids: reserve, publish, reject, return, and single-file writes.
 * Each operation takes the tree lock and runs as one journaled transaction (txn.h). */
#include "store/ops.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "core/assert.h"
#include "core/clock.h"
#include "core/fileio.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "record/identity.h"
#include "store/store_internal.h"
#include "store/tree_internal.h"
#include "store/txn.h"

char *store_rel(enum cve_state s, int year, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "cve/%s/%d/%s", cve_state_dir(s), year, name);
	return sb_detach(&sb);
}

/* File names (not paths) of one CVE in its directory, sorted. */
size_t store_cve_files(const struct cve_entry *e, char ***out)
{
	*out = NULL;
	DIR *d = dir_open(e->dir);
	if (!d)
		return 0;
	size_t idl = strlen(e->id), n = 0, alloc = 0;
	char **v = NULL;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, e->id, idl) != 0 || tree_is_temp_name(de->d_name))
			continue;
		if (de->d_name[idl] != '\0' && de->d_name[idl] != '.')
			continue;
		XGROW(v, n + 1, alloc);
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	for (size_t i = 1; i < n; i++) /* insertion sort: a handful of names */
		for (size_t k = i; k > 0 && strcmp(v[k - 1], v[k]) > 0; k--) {
			char *tmp = v[k];
			v[k] = v[k - 1];
			v[k - 1] = tmp;
		}
	KCVE_ASSERT(kcve_is_sorted(v, n, sizeof *v, cmp_str));
	*out = v;
	return n;
}

void store_free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int store_read_cve_file(const struct cve_entry *e, const char *ext, struct strbuf *sb)
{
	char *p = tree_cve_path(e, ext);
	int rc = read_file(p, sb);
	free(p);
	return rc;
}

/* Every operation on an existing id starts the same way: take the lock, find the id, and
 * fail with one error (lock released) when it is not in the tree. */
static int lock_existing(struct cve_tree *t, const char *cve, struct cve_entry *e,
			 struct kcve_err *err)
{
	int rc = tree_lock(t, err);
	if (rc)
		return rc;
	if (tree_find_cve(t, cve, e)) {
		tree_unlock(t);
		return kcve_err_set(err, KCVE_E_NOTFOUND, "no such CVE in the tree, %s, check the id "
				    "with 'kcve search'", cve);
	}
	return 0;
}

/* Stage "<cve><ext>" in the id's directory under state s: every file an operation writes is
 * named this way, so the path is built in one place. */
static int stage_file(struct txn *x, enum cve_state s, int year, const char *cve, const char *ext,
		      const char *data, size_t len, struct kcve_err *err)
{
	struct strbuf name = STRBUF_INIT;
	sb_addf(&name, "%s%s", cve, ext);
	char *rel = store_rel(s, year, name.buf);
	int rc = txn_put(x, rel, data, len, err);
	free(rel);
	sb_release(&name);
	return rc;
}

/* A single-file write is still a journaled transaction, so a crash never leaves it half
 * written; the caller holds the lock. */
static int write_one(struct cve_tree *t, enum cve_state s, int year, const char *cve,
		     const char *ext, const char *data, size_t len, struct kcve_err *err)
{
	KCVE_ASSERT(t->lockdepth > 0); /* the caller holds the lock */
	struct txn x;
	int rc = txn_begin(&x, t, err);
	if (!rc) {
		rc = stage_file(&x, s, year, cve, ext, data, len, err);
		rc = rc ? (txn_abort(&x), rc) : txn_commit(&x, err);
	}
	return rc;
}

int store_write_file(struct cve_tree *t, const char *cve, const char *ext, const char *data,
		     size_t len, struct kcve_err *err)
{
	struct cve_entry e;
	int rc = lock_existing(t, cve, &e, err);
	if (rc)
		return rc;
	rc = write_one(t, e.state, e.year, cve, ext ? ext : "", data, len, err);
	cve_entry_release(&e);
	tree_unlock(t);
	return rc;
}

int store_reserve(struct cve_tree *t, const char *cve, struct kcve_err *err)
{
	if (!cve_id_valid(cve))
		return kcve_err_set(err, KCVE_E_USAGE, "not a CVE id, %s, use CVE-YYYY-NNNNN", cve);
	int rc = tree_lock(t, err);
	if (rc)
		return rc;
	struct cve_entry e;
	if (tree_find_cve(t, cve, &e) == 0) {
		rc = kcve_err_set(err, KCVE_E_DUPLICATE, "id already in the tree (%s), %s, nothing "
				  "to do", cve_state_dir(e.state), cve);
		cve_entry_release(&e);
		tree_unlock(t);
		return rc;
	}
	rc = write_one(t, CVE_RESERVED, cve_id_year(cve), cve, "", "", 0, err);
	tree_unlock(t);
	return rc;
}

/* Empty reserved placeholders of a year, sorted by path (= the anchor's "first free id"). */
int store_pick_reserved(struct cve_tree *t, int year, char out[32], struct kcve_err *err)
{
	return store_pick_reserved_except(t, year, NULL, 0, out, err);
}

static bool listed(const char *id, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], id))
			return true;
	return false;
}

int store_pick_reserved_except(struct cve_tree *t, int year, const char *const *except,
			       size_t nexcept, char out[32], struct kcve_err *err)
{
	out[0] = '\0';
	char *dir = tree_state_year_dir(t, CVE_RESERVED, year);
	DIR *d = dir_open(dir);
	if (!d) {
		kcve_err_set(err, KCVE_E_EXHAUSTED, "no reserved ids for %d (no directory "
			     "cve/reserved/%d), %s, allocate more ids at cve.org and run 'kcve "
			     "reserve add'", year, year, t->root);
		free(dir);
		return KCVE_E_EXHAUSTED;
	}
	char best[64] = "";
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!cve_id_valid(de->d_name) || cve_id_year(de->d_name) != year)
			continue;
		if ((best[0] && strcmp(de->d_name, best) >= 0) || listed(de->d_name, except, nexcept))
			continue;
		char *p = path_join(dir, de->d_name);
		struct stat st;
		bool empty = file_stat(p, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0;
		free(p);
		size_t nl = strlen(de->d_name);
		if (empty && nl < sizeof(best))
			memcpy(best, de->d_name, nl + 1);
	}
	closedir(d);
	free(dir);
	if (!best[0])
		return kcve_err_set(err, KCVE_E_EXHAUSTED, "no free reserved id left for %d, "
				    "cve/reserved/%d, allocate more ids at cve.org and run 'kcve "
				    "reserve add'", year, year);
	memcpy(out, best, strlen(best) + 1); /* a valid id is at most 18 chars */
	return 0;
}

int store_publish(struct cve_tree *t, const char *cve, const struct store_file *files,
		  size_t nfiles, struct kcve_err *err)
{
	int rc = tree_lock(t, err);
	if (rc)
		return rc;
	struct cve_entry e;
	if (tree_find_cve(t, cve, &e) || e.state != CVE_RESERVED) {
		rc = kcve_err_set(err, e.dir ? KCVE_E_DUPLICATE : KCVE_E_NOTFOUND,
				  "id is not reserved (%s), %s, pick a reserved id ('kcve reserve "
				  "list')", e.dir ? cve_state_dir(e.state) : "not in the tree", cve);
		cve_entry_release(&e);
		tree_unlock(t);
		return rc;
	}
	struct txn x;
	rc = txn_begin(&x, t, err);
	bool base_given = false;
	for (size_t i = 0; !rc && i < nfiles; i++) {
		rc = stage_file(&x, CVE_PUBLISHED, e.year, cve, files[i].ext, files[i].data,
				files[i].len, err);
		if (!files[i].ext[0])
			base_given = true;
	}
	if (!rc) {
		/* the placeholder moves last: until then the id still counts as reserved */
		char *src = store_rel(CVE_RESERVED, e.year, cve);
		char *dst = store_rel(CVE_PUBLISHED, e.year, cve);
		if (base_given)
			txn_del(&x, src);
		else
			txn_move(&x, src, dst);
		free(src);
		free(dst);
		rc = txn_commit(&x, err);
	} else {
		txn_abort(&x);
	}
	cve_entry_release(&e);
	tree_unlock(t);
	return rc;
}

/* Value of a header (case-insensitive name) in the header block of a mail, or NULL. */
char *mail_header(const char *mail, const char *name)
{
	size_t nl = strlen(name);
	const char *p = mail;
	while (*p && *p != '\n') {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len > nl && strncasecmp(p, name, nl) == 0 && p[nl] == ':') {
			const char *v = p + nl + 1;
			return xstrndup(v, len - nl - 1);
		}
		p += len + (e ? 1 : 0);
	}
	return NULL;
}

static void trim_in_place(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	size_t k = 0;
	while (s[k] == ' ' || s[k] == '\t')
		k++;
	memmove(s, s + k, n - k + 1);
}

/* The .mbox.rejected reply (docs/spec/workflow.md "Reject"). */
void store_render_rejection(const char *cve, const char *orig_mbox, const struct kcve_identity *who,
			    struct strbuf *out)
{
	char *subj = orig_mbox ? mail_header(orig_mbox, "Subject") : NULL;
	char *msgid = orig_mbox ? mail_header(orig_mbox, "Message-Id") : NULL;
	if (msgid)
		trim_in_place(msgid);
	sb_addf(out, "From cve_reject-kcve-%s Mon Sep 17 00:00:00 2001\n", KCVE_VERSION);
	if (who && who->email[0])
		sb_addf(out, "From: %s <%s>\n", who->name, who->email);
	else
		sb_adds(out, "From: <cve@kernel.org>\n");
	sb_adds(out, "To: <linux-cve-announce@vger.kernel.org>\n");
	sb_adds(out, "Reply-to: <cve@kernel.org>, <linux-kernel@vger.kernel.org>\n");
	/* the original value keeps its leading space: "REJECTED: CVE-...: subject" */
	sb_addf(out, "Subject: REJECTED:%s\n", subj ? subj : " ");
	sb_addf(out, "In-Reply-To: %s\n", msgid ? msgid : "");
	sb_addf(out, "\n\n%s has now been rejected and is no longer a valid CVE.\n\n", cve);
	free(subj);
	free(msgid);
}

static void utc_date(char out[32])
{
	time_t now = (time_t)clock_now();
	struct tm tm;
	gmtime_r(&now, &tm);
	strftime(out, 32, "%Y-%m-%d", &tm);
}

int store_reject(struct cve_tree *t, const char *cve, const char *reason,
		 const struct kcve_identity *who, struct kcve_err *err)
{
	if (!reason || !*reason)
		return kcve_err_set(err, KCVE_E_USAGE, "a rejection needs a reason, %s, pass "
				    "--reason TEXT", cve);
	struct cve_entry e;
	int rc = lock_existing(t, cve, &e, err);
	if (rc)
		return rc;
	if (e.state != CVE_PUBLISHED && e.state != CVE_RESERVED) {
		rc = kcve_err_set(err, KCVE_E_POLICY, "only published or reserved ids can be "
				  "rejected (this one is %s), %s, nothing to do",
				  cve_state_dir(e.state), cve);
		cve_entry_release(&e);
		tree_unlock(t);
		return rc;
	}
	/* the reason is kept in the id's own file ("the text in the identifier should explain
	 * the reasons", cve/README), after any notes it already holds */
	struct strbuf base = STRBUF_INIT, mbox = STRBUF_INIT, rej = STRBUF_INIT;
	store_read_cve_file(&e, "", &base);
	if (base.len && base.buf[base.len - 1] != '\n')
		sb_addc(&base, '\n');
	char date[32];
	utc_date(date);
	sb_addf(&base, "Rejected %s: %s\n", date, reason);
	struct txn x;
	rc = txn_begin(&x, t, err);
	char **names = NULL;
	size_t n = 0;
	if (!rc && e.state == CVE_PUBLISHED) {
		store_read_cve_file(&e, ".mbox", &mbox);
		store_render_rejection(cve, mbox.len ? mbox.buf : NULL, who, &rej);
		rc = stage_file(&x, CVE_REJECTED, e.year, cve, ".mbox.rejected", rej.buf, rej.len,
				err);
	}
	if (!rc)
		rc = stage_file(&x, CVE_REJECTED, e.year, cve, "", base.buf ? base.buf : "", base.len,
				err);
	if (!rc) {
		n = store_cve_files(&e, &names);
		for (size_t i = 0; i < n; i++) {
			char *src = store_rel(e.state, e.year, names[i]);
			if (!strcmp(names[i], cve)) {
				txn_del(&x, src); /* replaced by the staged copy with the reason */
			} else {
				char *dst = store_rel(CVE_REJECTED, e.year, names[i]);
				txn_move(&x, src, dst);
				free(dst);
			}
			free(src);
		}
		rc = txn_commit(&x, err);
	} else {
		txn_abort(&x);
	}
	store_free_names(names, n);
	sb_release(&base);
	sb_release(&mbox);
	sb_release(&rej);
	cve_entry_release(&e);
	tree_unlock(t);
	return rc;
}

int store_return(struct cve_tree *t, const char *cve, struct kcve_err *err)
{
	struct cve_entry e;
	int rc = lock_existing(t, cve, &e, err);
	if (rc)
		return rc;
	char **names = NULL;
	size_t n = store_cve_files(&e, &names);
	if (e.state != CVE_RESERVED || n != 1) {
		rc = kcve_err_set(err, KCVE_E_POLICY, "only an unused reserved id can be returned "
				  "(this one is %s%s), %s, reject published ids instead",
				  cve_state_dir(e.state),
				  e.state == CVE_RESERVED && n != 1 ? ", with extra files" : "", cve);
	} else {
		struct txn x;
		rc = txn_begin(&x, t, err);
		if (!rc) {
			char *src = store_rel(CVE_RESERVED, e.year, cve);
			char *dst = store_rel(CVE_RETURNED, e.year, cve);
			txn_move(&x, src, dst);
			free(src);
			free(dst);
			rc = txn_commit(&x, err);
		}
	}
	store_free_names(names, n);
	cve_entry_release(&e);
	tree_unlock(t);
	return rc;
}

int store_hold(struct cve_tree *t, int year, const char *requester, const char *summary,
	       char out[32], struct kcve_err *err)
{
	int rc = tree_lock(t, err);
	if (rc)
		return rc;
	rc = store_pick_reserved(t, year, out, err);
	if (!rc) {
		char date[32];
		utc_date(date);
		struct strbuf note = STRBUF_INIT;
		sb_addf(&note, "Held for: %s\nDate: %s\nSummary: %s\n", requester, date, summary);
		rc = store_write_file(t, out, "", note.buf, note.len, err);
		sb_release(&note);
	}
	tree_unlock(t);
	return rc;
}
