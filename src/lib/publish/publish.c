#include "publish/publish.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/assert.h"
#include "core/clock.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "publish/cveapi.h"
#include "publish/message.h"
#include "publish/outbox.h"
#include "publish/pubstate.h"
#include "publish/smtp.h"
#include "core/text.h"

/* What cve.org is told when kcve rejects a published record (the wording the kernel CNA
 * uses, docs/spec/workflow.md "Reject"). */
#define REJECT_REASON "This CVE ID has been rejected or withdrawn by its CVE Numbering Authority."

struct run {
	struct cve_tree *t;
	const char *root;
	const struct publish_config *cfg;
	const struct publish_opts *o;
	struct publish_summary *sum;
	struct cveapi *api;
	struct smtp *smtp;
	struct kcve_err first;
	bool fatal;          /* configuration broken: stop trying */
	bool mail_failed;    /* some mail failed this run: leave the outbox for the next one */
};

static void fail(struct run *r, const char *cve, const struct kcve_err *e)
{
	r->sum->failed++;
	fprintf(r->o->out, "failed %s: %s\n", cve, e->msg);
	if (!r->first.code)
		kcve_err_set(&r->first, e->code, "%s: %.480s", cve, e->msg);
}

static int need_api(struct run *r, struct kcve_err *err)
{
	if (r->api)
		return 0;
	int rc = cveapi_open(&r->api, r->cfg, err);
	if (rc)
		r->fatal = true;
	return rc;
}

static const char *how_note(enum outbox_how how)
{
	return how == OUTBOX_ARCHIVE_HAD_IT ? " (an attempt in doubt had delivered it: the list "
					      "archive shows it)" : "";
}

static int need_smtp(struct run *r, struct kcve_err *err)
{
	if (r->smtp)
		return 0;
	int rc = smtp_open(&r->smtp, r->cfg, err);
	if (rc)
		r->fatal = true;
	return rc;
}

static char *cve_file(const struct cve_entry *e, const char *ext, struct strbuf *data)
{
	char *p = tree_cve_path(e, ext);
	if (read_file(p, data) < 0) {
		free(p);
		return NULL;
	}
	return p;
}

/* Message-Id host: configured, else the local part of the sender ("@gregkh", docs/spec/workflow.md "Publish"). */
static void id_host(const struct run *r, const char *mbox, char *out, size_t n)
{
	if (r->cfg->msgid_host) {
		text_snprintf(out, n, "%s", r->cfg->msgid_host);
		return;
	}
	char *from = mail_header_value(mbox, "From");
	char *addr = from ? mail_first_address(from) : NULL;
	text_snprintf(out, n, "%.*s", addr ? (int)strcspn(addr, "@") : 4, addr ? addr : "kcve");
	free(from);
	free(addr);
}

static void show_mail(struct run *r, const char *cve, const char *kind, const char *mbox,
		      const char *irt)
{
	char *subj = mail_header_value(mbox, "Subject");
	char *to = r->cfg->smtp_to ? xstrdup(r->cfg->smtp_to) : mail_recipients(mbox);
	fprintf(r->o->out, "would mail %s %s to %s: %s%s%s\n", cve, kind, to ? to : "(nobody)",
		subj ? subj : "(no subject)", irt && *irt ? " In-Reply-To: " : "", irt ? irt : "");
	free(subj);
	free(to);
}

/* Queue (once) and send one mail of a CVE; flags recorded in st after the 250. */
static int mail_step(struct run *r, const struct cve_entry *e, struct pubstate *st,
		     const char *kind, const char *ext, char *id, size_t idsz, char *date,
		     size_t datesz, bool *done, const char *irt, struct kcve_err *err)
{
	char name[64];
	text_snprintf(name, sizeof(name), "%s.%s", e->id, kind);
	if (outbox_is_sent(r->root, name)) {
		*done = true;
		return pubstate_save(r->root, e->id, st, err);
	}
	struct strbuf mbox = STRBUF_INIT;
	char *path = cve_file(e, ext, &mbox);
	int rc = 0;
	if (!path) {
		sb_release(&mbox);
		return 0;   /* no mail file: nothing to announce */
	}
	size_t bad = message_bad_header_line(mbox.buf, mbox.len);
	if (bad) {
		rc = kcve_err_set(err, KCVE_E_TREE, "%s: header line %zu has a control character "
				  "(CR, LF or other), refusing to mail it; fix the file", path, bad);
		goto out;
	}
	if (!message_value_ok(irt) || !message_value_ok(id)) {
		rc = kcve_err_set(err, KCVE_E_TREE, "cve/.published/%s: a Message-Id has a control "
				  "character, refusing to mail it; fix or remove that file", e->id);
		goto out;
	}
	if (r->o->dry_run) {
		show_mail(r, e->id, kind, mbox.buf, irt);
		if (r->o->show) {
			char date_now[64];
			struct strbuf msg = STRBUF_INIT;
			message_date(date_now, sizeof(date_now), (time_t)clock_real());
			message_build(&msg, mbox.buf, mbox.len, *id ? id : "<minted when sent>",
				      *date ? date : date_now, irt);
			fprintf(r->o->out, "%s\n", msg.buf);
			sb_release(&msg);
		}
		goto out;
	}
	if (!outbox_is_queued(r->root, name)) {
		if (!*id) {
			/* mint the id and record it before the message exists, so a crash can only
			 * ever rebuild this very message, never a second one */
			char host[128];
			time_t now = (time_t)clock_real(); /* ids must be unique: never a fixed clock */
			id_host(r, mbox.buf, host, sizeof(host));
			message_make_id(id, idsz, e->id, now, host);
			message_date(date, datesz, now);
			if ((rc = pubstate_save(r->root, e->id, st, err)))
				goto out;
		}
		/* exactly once: the id is on disk before the message that carries it exists */
		KCVE_ASSERT(*id);
		struct strbuf msg = STRBUF_INIT;
		message_build(&msg, mbox.buf, mbox.len, id, date, irt);
		rc = outbox_queue(r->root, name, msg.buf, msg.len, err);
		sb_release(&msg);
		if (rc)
			goto out;
	}
	if (!*id) {
		/* queued by a run whose state file was lost: take the id from the message */
		char *q = outbox_path(r->root, name, false);
		struct strbuf m = STRBUF_INIT;
		char *v = read_file(q, &m) == 0 ? mail_header_value(m.buf, "Message-Id") : NULL;
		text_snprintf(id, idsz, "%s", v ? v : "");
		free(v);
		free(q);
		sb_release(&m);
	}
	enum outbox_how how;
	if ((rc = need_smtp(r, err)) ||
	    (rc = outbox_send(r->root, name, r->smtp, r->cfg, &how, err))) {
		r->mail_failed = true;
		goto out;
	}
	*done = true;
	r->sum->mails++;
	fprintf(r->o->out, "mailed %s %s %s%s\n", e->id, kind, id, how_note(how));
	rc = pubstate_save(r->root, e->id, st, err);
out:
	sb_release(&mbox);
	free(path);
	return rc;
}

static int do_published(struct run *r, const struct cve_entry *e, struct pubstate *st,
			struct kcve_err *err)
{
	struct strbuf json = STRBUF_INIT;
	char *path = cve_file(e, ".json", &json);
	int rc = 0;
	if (!path) {
		rc = kcve_err_set(err, KCVE_E_TREE, "%s has no .json record, run kcve update %s",
				  e->id, e->id);
		goto out;
	}
	char hash[41];
	pubstate_hash(json.buf, json.len, hash);
	bool known = !strcmp(st->remote, "published");
	if (!known || strcmp(st->hash, hash) != 0) {
		if (r->o->dry_run) {
			struct strbuf body = STRBUF_INIT;
			rc = cveapi_cna_body(json.buf, json.len, e->id, &body, err);
			if (!rc)
				fprintf(r->o->out, "would %s %s (cnaContainer, %zu bytes)\n",
					known ? "update" : "publish", e->id, body.len);
			if (!rc && r->o->show)
				fprintf(r->o->out, "%s\n", body.buf);
			sb_release(&body);
			if (rc)
				goto out;
		} else {
			enum cveapi_done done;
			if ((rc = need_api(r, err)) ||
			    (rc = cveapi_publish(r->api, e->id, json.buf, json.len, known, &done, err)))
				goto out;
			text_snprintf(st->remote, sizeof(st->remote), "published");
			memcpy(st->hash, hash, sizeof(st->hash));
			if ((rc = pubstate_save(r->root, e->id, st, err)))
				goto out;
			fprintf(r->o->out, "%s %s%s\n", known ? "updated" : "published", e->id,
				done == CVEAPI_ALREADY ? " (CVE Services already held it)" : "");
			if (known)
				r->sum->updated++;
			else
				r->sum->published++;
		}
	} else if (st->announced)
		r->sum->unchanged++;
	/* Announce new CVEs only once cve.org has the record the mail links to (a failed
	 * publish jumped past this). */
	if (!st->announced)
		rc = mail_step(r, e, st, "announce", ".mbox", st->announce_id,
			       sizeof(st->announce_id), st->announce_date, sizeof(st->announce_date),
			       &st->announced, NULL, err);
out:
	sb_release(&json);
	free(path);
	return rc;
}

/* Message-Id of a file's header, when it has a non-empty one. */
static bool header_of(const struct cve_entry *e, const char *ext, const char *name, char *out,
		      size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	char *p = cve_file(e, ext, &sb), *v = p ? mail_header_value(sb.buf, name) : NULL;
	bool ok = v && v[strspn(v, " \t")] && strcmp(v, "<>") != 0;
	if (ok)
		text_snprintf(out, n, "%s", v + strspn(v, " \t"));
	free(v);
	free(p);
	sb_release(&sb);
	return ok;
}

/* What the rejection replies to: the announcement kcve sent, else the Message-Id the .mbox
 * itself carries (announced by other tools, imported). Without either, the rejection goes out
 * unthreaded, and says so, unless its .mbox.rejected already names the message. */
static void thread_id(const struct run *r, const struct cve_entry *e, const struct pubstate *st,
		      char *out, size_t n)
{
	char own[256];
	if (st->announce_id[0]) {
		text_snprintf(out, n, "%s", st->announce_id);
		return;
	}
	out[0] = '\0';
	if (header_of(e, ".mbox", "Message-Id", out, n) ||
	    header_of(e, ".mbox.rejected", "In-Reply-To", own, sizeof(own)))
		return;
	diag_warn(r->cfg->diag, "%s: the Message-Id of its announcement is unknown (it was "
		  "announced before kcve published, e.g. --baseline or an imported tree, and its "
		  ".mbox has no Message-Id); the rejection mail goes out unthreaded. Put "
		  "\"In-Reply-To: <id>\" into %s.mbox.rejected to thread it", e->id, e->id);
}

static int do_rejected(struct run *r, const struct cve_entry *e, struct pubstate *st,
		       struct kcve_err *err)
{
	int rc = 0;
	if (strcmp(st->remote, "rejected") != 0) {
		if (r->o->dry_run)
			fprintf(r->o->out, "would reject %s\n", e->id);
		else {
			enum cveapi_done done;
			if ((rc = need_api(r, err)) ||
			    (rc = cveapi_reject(r->api, e->id, REJECT_REASON, &done, err)))
				return rc;
			text_snprintf(st->remote, sizeof(st->remote), "rejected");
			if ((rc = pubstate_save(r->root, e->id, st, err)))
				return rc;
			fprintf(r->o->out, "rejected %s%s\n", e->id,
				done == CVEAPI_ALREADY ? " (CVE Services already had it rejected)" : "");
			r->sum->rejected++;
		}
	} else if (st->reject_mailed)
		r->sum->unchanged++;
	if (!st->reject_mailed) {
		char irt[256];
		thread_id(r, e, st, irt, sizeof(irt));
		rc = mail_step(r, e, st, "reject", ".mbox.rejected", st->reject_id,
			       sizeof(st->reject_id), st->reject_date, sizeof(st->reject_date),
			       &st->reject_mailed, irt, err);
	}
	return rc;
}

static int do_returned(struct run *r, const struct cve_entry *e, struct pubstate *st,
		       struct kcve_err *err)
{
	if (!strcmp(st->remote, "returned")) {
		r->sum->unchanged++;
		return 0;
	}
	if (r->o->dry_run) {
		fprintf(r->o->out, "would return %s (reject the unused id)\n", e->id);
		return 0;
	}
	int rc;
	enum cveapi_done done;
	if ((rc = need_api(r, err)) || (rc = cveapi_reject_id(r->api, e->id, &done, err)))
		return rc;
	text_snprintf(st->remote, sizeof(st->remote), "returned");
	if ((rc = pubstate_save(r->root, e->id, st, err)))
		return rc;
	fprintf(r->o->out, "returned %s%s\n", e->id,
		done == CVEAPI_ALREADY ? " (the id was already rejected)" : "");
	r->sum->returned++;
	return 0;
}

/* --baseline: the tree as it is has already been published and announced. */
static int do_baseline(struct run *r, const struct cve_entry *e, struct pubstate *st,
		       struct kcve_err *err)
{
	struct strbuf json = STRBUF_INIT;
	char *p;
	if (e->state == CVE_PUBLISHED) {
		text_snprintf(st->remote, sizeof(st->remote), "published");
		if ((p = cve_file(e, ".json", &json))) {
			pubstate_hash(json.buf, json.len, st->hash);
			free(p);
		}
		header_of(e, ".mbox", "Message-Id", st->announce_id, sizeof(st->announce_id));
		st->announced = true;
	} else if (e->state == CVE_REJECTED) {
		text_snprintf(st->remote, sizeof(st->remote), "rejected");
		st->announced = st->reject_mailed = true;
	} else
		text_snprintf(st->remote, sizeof(st->remote), "returned");
	sb_release(&json);
	r->sum->unchanged++;
	return r->o->dry_run ? 0 : pubstate_save(r->root, e->id, st, err);
}

static int one(const struct cve_entry *e, void *ctx)
{
	struct run *r = ctx;
	if (r->fatal)
		return 1;
	struct pubstate st;
	struct kcve_err err = {0};
	int rc = pubstate_load(r->root, e->id, &st, &err);
	if (!rc) {
		if (r->o->baseline)
			rc = do_baseline(r, e, &st, &err);
		else if (e->state == CVE_PUBLISHED)
			rc = do_published(r, e, &st, &err);
		else if (e->state == CVE_REJECTED)
			rc = do_rejected(r, e, &st, &err);
		else if (e->state == CVE_RETURNED)
			rc = do_returned(r, e, &st, &err);
	}
	if (rc)
		fail(r, e->id, &err);
	return r->fatal ? 1 : 0;
}

/* Mail queued by an earlier run whose CVE was not visited (e.g. a run limited to some ids
 * that crashed): send it and record it. */
static void sweep(struct run *r)
{
	char **names;
	size_t n;
	struct kcve_err err = {0};
	if (outbox_list(r->root, &names, &n, &err)) {
		fail(r, "outbox", &err);
		return;
	}
	for (size_t i = 0; i < n && !r->fatal; i++) {
		char cve[32];
		const char *dot = strchr(names[i], '.');
		bool reject = dot && !strcmp(dot, ".reject");
		text_snprintf(cve, sizeof(cve), "%.*s", dot ? (int)(dot - names[i]) : 0, names[i]);
		struct pubstate st;
		enum outbox_how how;
		int rc;
		if ((rc = need_smtp(r, &err)) ||
		    (rc = outbox_send(r->root, names[i], r->smtp, r->cfg, &how, &err)) ||
		    (rc = pubstate_load(r->root, cve, &st, &err))) {
			fail(r, names[i], &err);
			continue;
		}
		r->sum->mails++;
		fprintf(r->o->out, "mailed %s (queued earlier)%s\n", names[i], how_note(how));
		if (reject)
			st.reject_mailed = true;
		else
			st.announced = true;
		if (*cve && (rc = pubstate_save(r->root, cve, &st, &err)))
			fail(r, cve, &err);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int publish_run(struct cve_tree *t, const struct publish_config *cfg,
		const struct publish_opts *o, struct publish_summary *sum, struct kcve_err *err)
{
	memset(sum, 0, sizeof(*sum));
	struct run r = {.t = t, .root = tree_root(t), .cfg = cfg, .o = o, .sum = sum};
	int rc;
	bool locked = !o->dry_run;
	if (locked && (rc = tree_lock(t, err)))
		return rc;
	const unsigned mask = CVE_PUBLISHED | CVE_REJECTED | CVE_RETURNED;
	if (o->ncves) {
		for (size_t i = 0; i < o->ncves && !r.fatal; i++) {
			struct cve_entry e;
			struct kcve_err ferr = {0};
			if (tree_find_cve(t, o->cves[i], &e)) {
				kcve_err_set(&ferr, KCVE_E_NOTFOUND, "%s is not in the tree", o->cves[i]);
				fail(&r, o->cves[i], &ferr);
				continue;
			}
			if (e.state & mask)
				one(&e, &r);
			else
				fprintf(o->out, "skipped %s: only reserved\n", e.id);
			cve_entry_release(&e);
		}
	} else {
		tree_foreach(t, mask, one, &r);
		if (!o->dry_run && !o->baseline && !r.fatal && !r.mail_failed)
			sweep(&r);
	}
	cveapi_close(r.api);
	smtp_close(r.smtp);
	if (locked)
		tree_unlock(t);
	fprintf(o->out, "publish%s: %u published, %u updated, %u rejected, %u returned, "
		"%u mails sent, %u unchanged, %u failed\n", o->dry_run ? " (dry run)" : "",
		sum->published, sum->updated, sum->rejected, sum->returned, sum->mails,
		sum->unchanged, sum->failed);
	if (r.first.code) {
		if (r.fatal)
			kcve_err_set(err, r.first.code, "%s", strchr(r.first.msg, ' ') + 1);
		else
			kcve_err_set(err, r.first.code, "%u CVE%s failed to publish (first: %.400s), "
				     "rerun kcve publish once fixed", sum->failed,
				     sum->failed == 1 ? "" : "s", r.first.msg);
		return r.first.code;
	}
	return 0;
}
