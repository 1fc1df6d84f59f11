/* Journaled multi-file changes of the record tree (see txn.h for the protocol). */
#include "store/txn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "store/tree_internal.h"

#define JOURNAL_MAGIC "kcve-journal 1\n"

/* Test hook: KCVE_TEST_CRASH_STEP=N kills the process with SIGKILL at the N-th step boundary
 * (staging writes, the commit point and every applied step each count), so the crash test can
 * hit every window deterministically in addition to random kills. */
static long crash_countdown = -2;

static void crash_point(void)
{
	if (crash_countdown == -2) {
		const char *s = getenv("KCVE_TEST_CRASH_STEP");
		crash_countdown = s && *s ? atol(s) : -1;
	}
	if (crash_countdown < 0)
		return;
	if (crash_countdown-- == 0)
		raise(SIGKILL);
}

static char *slot_name(const char *base, int slot)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s.%d", base, slot);
	return sb_detach(&sb);
}

static char *abs_path(const struct cve_tree *t, const char *rel)
{
	return path_join(t->root, rel);
}

/* Remove the files of a staging directory (the directory itself stays for the next
 * transaction: recreating it each time costs an inode allocation per CVE). */
static void clear_dir_files(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		char *p = path_join(dir, de->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
}

static void remove_dir_files(const char *dir)
{
	clear_dir_files(dir);
	rmdir(dir);
}

int txn_begin(struct txn *x, struct cve_tree *t, struct kcve_err *err)
{
	memset(x, 0, sizeof(*x));
	x->t = t;
	char *name = slot_name("txn", t->txn_slot);
	x->stage_dir = tree_meta_path(t, name);
	free(name);
	clear_dir_files(x->stage_dir); /* leftovers of an uncommitted run */
	if (mkdir_p(x->stage_dir, 0755) < 0) {
		int e = errno;
		kcve_err_set(err, KCVE_E_IO, "cannot create the staging directory: %s, %s, check "
			     "permissions", strerror(e), x->stage_dir);
		free(x->stage_dir);
		x->stage_dir = NULL;
		return KCVE_E_IO;
	}
	sb_init(&x->ops);
	sb_adds(&x->ops, JOURNAL_MAGIC);
	return 0;
}

int txn_put(struct txn *x, const char *dest_rel, const void *data, size_t len,
	    struct kcve_err *err)
{
	char name[32];
	snprintf(name, sizeof(name), "%d", x->nstaged++);
	char *p = path_join(x->stage_dir, name);
	/* no temp file + rename: nothing reads the staging directory before the journal (the
	 * commit point) names this file, and txn_commit syncs the directory (or, for bulk
	 * transactions, the whole file system) first */
	if (write_file_staged(p, data, len, 0644, !x->bulk) < 0) {
		int e = errno;
		kcve_err_set(err, KCVE_E_IO, "cannot write a staged file: %s, %s, check free space",
			     strerror(e), p);
		free(p);
		return KCVE_E_IO;
	}
	free(p);
	/* staged paths are relative to the root too, so the journal is position-independent */
	char *sname = slot_name("txn", x->t->txn_slot);
	sb_addf(&x->ops, "put .kcve/%s/%s %s\n", sname, name, dest_rel);
	free(sname);
	x->nops++;
	crash_point();
	return 0;
}

void txn_move(struct txn *x, const char *src_rel, const char *dest_rel)
{
	sb_addf(&x->ops, "move %s %s\n", src_rel, dest_rel);
	x->nops++;
}

void txn_del(struct txn *x, const char *rel)
{
	sb_addf(&x->ops, "del %s\n", rel);
	x->nops++;
}

void txn_abort(struct txn *x)
{
	if (x->stage_dir)
		clear_dir_files(x->stage_dir);
	free(x->stage_dir);
	x->stage_dir = NULL;
	sb_release(&x->ops);
}

/* Directories whose entries changed, to fsync once at the end. */
struct dirset {
	char **v;
	size_t n, alloc;
};

static void dirset_add(struct dirset *s, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;
	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i]) == len && strncmp(s->v[i], path, len) == 0)
			return;
	XGROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = xstrndup(path, len);
}

static void dirset_sync_free(struct dirset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		int fd = open(s->v[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0) {
			fsync(fd);
			close(fd);
		}
		free(s->v[i]);
	}
	free(s->v);
}

static int ensure_parent(const char *path)
{
	char *d = xstrdup(path);
	char *slash = strrchr(d, '/');
	int rc = 0;
	if (slash) {
		*slash = '\0';
		rc = mkdir_p(d, 0755);
	}
	free(d);
	return rc;
}

/* Apply one journal (idempotent). */
static int apply_journal(struct cve_tree *t, const char *text, struct kcve_err *err)
{
	if (strncmp(text, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) != 0)
		return kcve_err_set(err, KCVE_E_TREE, "unreadable operation journal, %s/.kcve, "
				    "inspect and remove it by hand", t->root);
	struct dirset ds = {0};
	const char *p = text + strlen(JOURNAL_MAGIC);
	int rc = 0;
	while (*p && !rc) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char *line = xstrndup(p, len);
		p += len + (e ? 1 : 0);
		char op[8], a[1024], b[1024];
		int nf = sscanf(line, "%7s %1023s %1023s", op, a, b);
		free(line);
		if (nf < 2)
			continue;
		char *pa = abs_path(t, a);
		char *pb = nf == 3 ? abs_path(t, b) : NULL;
		if ((!strcmp(op, "put") || !strcmp(op, "move")) && pb) {
			if (path_exists(pa)) {
				if (ensure_parent(pb) < 0 || rename(pa, pb) < 0) {
					int en = errno;
					rc = kcve_err_set(err, KCVE_E_IO, "cannot rename %s to %s: %s, "
							  "%s, fix the file system and rerun", a, b,
							  strerror(en), t->root);
				}
				dirset_add(&ds, pb);
				dirset_add(&ds, pa);
				crash_point();
			}
		} else if (!strcmp(op, "del")) {
			if (unlink(pa) == 0) {
				dirset_add(&ds, pa);
				crash_point();
			}
		}
		free(pa);
		free(pb);
	}
	dirset_sync_free(&ds);
	return rc;
}

int txn_commit(struct txn *x, struct kcve_err *err)
{
	struct cve_tree *t = x->t;
	sb_adds(&x->ops, "end\n");
	char *jname = slot_name("journal", t->txn_slot);
	char *jp = tree_meta_path(t, jname);
	free(jname);
	/* the staged files (contents and names) must be durable before the journal that refers
	 * to them: one syncfs() covers a bulk transaction's files in one file-system commit
	 * instead of one per file */
	if (x->nstaged && (x->bulk ? syncfs_of(x->stage_dir) : fsync_dir(x->stage_dir)) < 0) {
		int e = errno;
		kcve_err_set(err, KCVE_E_IO, "cannot sync the staging directory: %s, %s, check the "
			     "file system", strerror(e), x->stage_dir);
		free(jp);
		txn_abort(x);
		return KCVE_E_IO;
	}
	if (atomic_write_file(jp, x->ops.buf, x->ops.len, 0644) < 0) {
		int e = errno;
		kcve_err_set(err, KCVE_E_IO, "cannot write the operation journal: %s, %s, check "
			     "free space", strerror(e), jp);
		free(jp);
		txn_abort(x);
		return KCVE_E_IO;
	}
	crash_point(); /* committed: from here on a crash is completed by the next writer */
	int rc = apply_journal(t, x->ops.buf, err);
	if (!rc) {
		unlink(jp);
		fsync_parent_dir(jp);
		txn_abort(x);
	} else {
		/* keep the journal: the next writer retries it */
		free(x->stage_dir);
		x->stage_dir = NULL;
		sb_release(&x->ops);
	}
	free(jp);
	tree_invalidate(t);
	return rc;
}

int txn_recover(struct cve_tree *t, struct kcve_err *err)
{
	char *meta = tree_meta_path(t, NULL);
	DIR *d = opendir(meta);
	if (!d) {
		free(meta);
		return 0;
	}
	/* first replay every committed journal, then drop every staging directory */
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "journal.", 8) || !strncmp(de->d_name, "txn.", 4)) {
			XGROW(names, n + 1, alloc);
			names[n++] = xstrdup(de->d_name);
		}
	}
	closedir(d);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (strncmp(names[i], "journal.", 8) != 0)
			continue;
		char *jp = path_join(meta, names[i]);
		if (tree_is_temp_name(names[i])) {
			unlink(jp); /* a journal that never reached its commit point */
			free(jp);
			continue;
		}
		struct strbuf sb = STRBUF_INIT;
		if (read_file(jp, &sb) == 0) {
			rc = apply_journal(t, sb_str(&sb), err);
			if (!rc) {
				unlink(jp);
				fsync_parent_dir(jp);
			}
		}
		sb_release(&sb);
		free(jp);
	}
	for (size_t i = 0; i < n; i++) {
		if (!rc && !strncmp(names[i], "txn.", 4)) {
			char *sp = path_join(meta, names[i]);
			remove_dir_files(sp);
			free(sp);
		}
		free(names[i]);
	}
	free(names);
	free(meta);
	return rc;
}
