#include "publish/outbox.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "publish/archive.h"
#include "publish/smtp.h"
#include "core/text.h"

/* <root>/cve/.outbox/[sent/]<name><ext>, or the directory itself when name is NULL. */
static char *outbox_file(const char *root, const char *name, bool sent, const char *ext)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/cve/.outbox/%s%s%s", root, sent ? "sent/" : "", name ? name : "",
		name ? ext : "");
	return sb_detach(&sb);
}

char *outbox_path(const char *root, const char *name, bool sent)
{
	return outbox_file(root, name, sent, ".eml");
}

bool outbox_is_sent(const char *root, const char *name)
{
	char *p = outbox_path(root, name, true);
	bool r = path_exists(p);
	free(p);
	return r;
}

bool outbox_is_queued(const char *root, const char *name)
{
	char *p = outbox_path(root, name, false);
	bool r = path_exists(p);
	free(p);
	return r;
}

int outbox_queue(const char *root, const char *name, const char *msg, size_t len,
		 struct kcve_err *err)
{
	if (outbox_is_sent(root, name) || outbox_is_queued(root, name))
		return 0;
	char *dir = outbox_path(root, NULL, true);
	char *p = outbox_path(root, name, false);
	int rc = 0;
	if (mkdir_p(dir, 0755) < 0 || atomic_write_file(p, msg, len, 0644) < 0)
		rc = kcve_err_set(err, KCVE_E_IO, "cannot write %s: %s, check the tree's permissions",
				  p, strerror(errno));
	free(dir);
	free(p);
	return rc;
}

/* The doubt marker holds when the attempt began (ms since the epoch); it is written, durably,
 * before any byte of the message can reach the server. */
static int mark_doubt(const char *path, long long t)
{
	char buf[32];
	int n = text_snprintf(buf, sizeof(buf), "%lld\n", t);
	return atomic_write_file(path, buf, (size_t)n, 0644);
}

static long long read_doubt(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	long long t = -1;
	if (read_file(path, &sb) == 0) {
		char *end;
		t = strtoll(sb.buf, &end, 10);
		if (end == sb.buf || t < 0)
			t = 0;   /* unreadable time: treat the attempt as long past */
	}
	sb_release(&sb);
	return t;
}

/* The server answered 250 (or the archive shows the message): record it before anything else
 * can fail, then drop the doubt marker. */
static int mark_sent(const char *q, const char *d, const char *m, struct kcve_err *err)
{
	if (file_rename(q, d, false) < 0 || fsync_parent_dir(d) < 0)
		return kcve_err_set(err, KCVE_E_IO, "mail %s was delivered but cannot be moved to "
				    "%s: %s; move it by hand or it will be sent again", q, d,
				    strerror(errno));
	file_unlink(m);
	fsync_parent_dir(q);
	return 0;
}

/* Was the message of an attempt that ended in doubt delivered? Waits until the archive has
 * had settle_ms since the message can last have reached the server (at). */
static int ask_archive(const struct publish_config *cfg, const char *name, const char *msg,
		       long long at, bool *found, struct kcve_err *err)
{
	long long wait = at + cfg->archive_settle_ms - clock_now_ms();
	if (wait >= 1000)
		diag_note(cfg->diag, "%s: an earlier attempt may have delivered it; asking the list "
			  "archive in %lld s", name, (wait + 999) / 1000);
	clock_sleep_ms(wait);
	char *id = mail_header_value(msg, "Message-Id");
	int rc = archive_has(cfg, id ? id : "", found, err);
	free(id);
	if (rc) {
		char m[sizeof(err->msg)];
		text_snprintf(m, sizeof(m), "%s", err->msg);
		kcve_err_set(err, rc, "%s; %s stays queued: rerun kcve publish, or unset smtp.archive "
			     "to resend it without asking", m, name);
	}
	return rc;
}

int outbox_send(const char *root, const char *name, struct smtp *s,
		const struct publish_config *cfg, enum outbox_how *how, struct kcve_err *err)
{
	char *q = outbox_path(root, name, false), *d = outbox_path(root, name, true);
	char *m = outbox_file(root, name, false, ".doubt");
	struct strbuf msg = STRBUF_INIT;
	int rc = 0;
	*how = OUTBOX_SENT;
	if (path_exists(d)) {
		/* sent, but the run died between rename and cleanup: nothing left to do */
		file_unlink(q);
		file_unlink(m);
		*how = OUTBOX_ALREADY_SENT;
		goto out;
	}
	if (read_file(q, &msg) < 0) {
		rc = kcve_err_set(err, KCVE_E_IO, "cannot read queued mail %s: %s", q,
				  strerror(errno));
		goto out;
	}
	const bool archive = cfg->smtp_archive != NULL;
	/* doubt_at: the latest moment a delivery in doubt can have reached the server */
	long long doubt_at = -1, t;
	if (archive && (t = read_doubt(m)) >= 0) {
		/* left by a run that died or gave up: its link is closed by now, and no attempt
		 * outlives the SMTP timeout */
		long long end = t + cfg->smtp_timeout_s * 1000, now = clock_now_ms();
		doubt_at = end < now ? end : now;
	}
	for (int attempt = 1;; attempt++) {
		if (doubt_at >= 0) {
			bool found;
			if ((rc = ask_archive(cfg, name, msg.buf, doubt_at, &found, err)))
				break;
			if (found) {
				if (!(rc = mark_sent(q, d, m, err)))
					*how = OUTBOX_ARCHIVE_HAD_IT;
				break;
			}
		}
		if (archive && mark_doubt(m, clock_now_ms()) < 0) {
			rc = kcve_err_set(err, KCVE_E_IO, "cannot write %s: %s, check the tree's "
					  "permissions", m, strerror(errno));
			break;
		}
		enum smtp_outcome oc;
		if (!(rc = smtp_send(s, msg.buf, msg.len, &oc, err))) {
			rc = mark_sent(q, d, m, err);
			break;
		}
		if (oc == SMTP_IN_DOUBT && archive) {
			doubt_at = clock_now_ms();
		} else {
			/* surely not delivered (or, without an archive, resent regardless: the copy
			 * carries the same Message-Id, which archives de-duplicate on) */
			doubt_at = -1;
			if (archive)
				file_unlink(m);
		}
		if (oc == SMTP_REFUSED || attempt >= OUTBOX_ATTEMPTS)
			break;
		if (doubt_at < 0)
			clock_sleep_ms(cfg->backoff_ms * attempt);
	}
out:
	sb_release(&msg);
	free(q);
	free(d);
	free(m);
	return rc;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int outbox_list(const char *root, char ***names, size_t *n, struct kcve_err *err)
{
	*names = NULL;
	*n = 0;
	char *dir = outbox_path(root, NULL, false);
	DIR *d = dir_open(dir);
	if (!d) {
		int e = errno;
		free(dir);
		if (e == ENOENT)
			return 0;
		return kcve_err_set(err, KCVE_E_IO, "cannot read the outbox: %s", strerror(e));
	}
	size_t alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || l <= 4 || strcmp(de->d_name + l - 4, ".eml"))
			continue;   /* dot files are atomic_write_file temporaries */
		XGROW(*names, *n + 1, alloc);
		(*names)[(*n)++] = xstrndup(de->d_name, l - 4);
	}
	closedir(d);
	free(dir);
	if (*n)
		qsort(*names, *n, sizeof(**names), cmp);
	return 0;
}
