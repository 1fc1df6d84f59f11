#include "publish/outbox.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "publish/smtp.h"

char *outbox_path(const char *root, const char *name, bool sent)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/cve/.outbox/%s%s%s", root, sent ? "sent/" : "", name ? name : "",
		name ? ".eml" : "");
	return sb_detach(&sb);
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

int outbox_send(const char *root, const char *name, struct smtp *s, struct kcve_err *err)
{
	if (outbox_is_sent(root, name)) {
		/* sent, but the run died between rename and cleanup: nothing left to do */
		char *q = outbox_path(root, name, false);
		unlink(q);
		free(q);
		return 0;
	}
	char *q = outbox_path(root, name, false), *d = outbox_path(root, name, true);
	struct strbuf msg = STRBUF_INIT;
	int rc = 0;
	if (read_file(q, &msg) < 0)
		rc = kcve_err_set(err, KCVE_E_IO, "cannot read queued mail %s: %s", q,
				  strerror(errno));
	else if (!(rc = smtp_send(s, msg.buf, msg.len, err))) {
		/* The 250 is in: record it before anything else can fail. */
		if (rename(q, d) < 0 || fsync_parent_dir(d) < 0)
			rc = kcve_err_set(err, KCVE_E_IO,
					  "mail %s was sent but cannot be moved to %s: %s; move it by "
					  "hand or it will be sent again", q, d, strerror(errno));
		else
			fsync_parent_dir(q);
	}
	sb_release(&msg);
	free(q);
	free(d);
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
	DIR *d = opendir(dir);
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
