#include "publish/pubstate.h"

#include <errno.h>
#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/text.h"

static char *state_path(const char *root, const char *cve)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/cve/.published%s%s", root, cve ? "/" : "", cve ? cve : "");
	return sb_detach(&sb);
}

static void copy_val(char *dst, size_t n, const char *v)
{
	text_snprintf(dst, n, "%s", v);
}

int pubstate_load(const char *root, const char *cve, struct pubstate *st, struct kcve_err *err)
{
	memset(st, 0, sizeof(*st));
	char *p = state_path(root, cve);
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	if (read_file(p, &sb) < 0) {
		if (errno != ENOENT)
			rc = kcve_err_set(err, KCVE_E_IO, "cannot read %s: %s", p, strerror(errno));
		goto out;
	}
	char *save = NULL;
	for (char *l = strtok_r(sb.buf ? sb.buf : (char *)"", "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(l, '=');
		if (!eq)
			continue;
		*eq = '\0';
		const char *k = l, *v = eq + 1;
		if (!strcmp(k, "remote"))
			copy_val(st->remote, sizeof(st->remote), v);
		else if (!strcmp(k, "hash"))
			copy_val(st->hash, sizeof(st->hash), v);
		else if (!strcmp(k, "announce_id"))
			copy_val(st->announce_id, sizeof(st->announce_id), v);
		else if (!strcmp(k, "announce_date"))
			copy_val(st->announce_date, sizeof(st->announce_date), v);
		else if (!strcmp(k, "announced"))
			st->announced = !strcmp(v, "1");
		else if (!strcmp(k, "reject_id"))
			copy_val(st->reject_id, sizeof(st->reject_id), v);
		else if (!strcmp(k, "reject_date"))
			copy_val(st->reject_date, sizeof(st->reject_date), v);
		else if (!strcmp(k, "reject_mailed"))
			st->reject_mailed = !strcmp(v, "1");
	}
out:
	sb_release(&sb);
	free(p);
	return rc;
}

int pubstate_save(const char *root, const char *cve, const struct pubstate *st,
		  struct kcve_err *err)
{
	char *dir = state_path(root, NULL), *p = state_path(root, cve);
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "remote=%s\nhash=%s\nannounce_id=%s\nannounce_date=%s\nannounced=%d\n"
		     "reject_id=%s\nreject_date=%s\nreject_mailed=%d\n",
		st->remote, st->hash, st->announce_id, st->announce_date, st->announced,
		st->reject_id, st->reject_date, st->reject_mailed);
	int rc = 0;
	if (mkdir_p(dir, 0755) < 0 || atomic_write_file(p, sb.buf, sb.len, 0644) < 0)
		rc = kcve_err_set(err, KCVE_E_IO, "cannot write %s: %s, check the tree's permissions",
				  p, strerror(errno));
	sb_release(&sb);
	free(dir);
	free(p);
	return rc;
}

void pubstate_hash(const char *data, size_t len, char out[41])
{
	static bool ready;
	git_oid oid;
	if (!ready) {   /* once per process: init is costly and the state stays reachable */
		git_libgit2_init();
		ready = true;
	}
	if (git_odb_hash(&oid, data, len, GIT_OBJECT_BLOB) != 0)
		memset(&oid, 0, sizeof(oid));
	git_oid_tostr(out, 41, &oid);
}
