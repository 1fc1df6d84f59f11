/* Journaled multi-file changes of the record tree (see txn.h for the protocol). */
#include "store/txn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/assert.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/testhooks.h"
#include "core/xalloc.h"
#include "store/journal.h"
#include "store/tree_internal.h"
#include "core/text.h"


/* Test hook: KCVE_TEST_CRASH_STEP=N kills the process with SIGKILL at the N-th step boundary
 * (staging writes, the commit point and every applied step each count), so the crash test can
 * hit every window deterministically in addition to random kills. */
static long crash_countdown = -2;

static void crash_point(void)
{
	if (crash_countdown == -2) {
		const char *s = getenv(KCVE_HOOK_CRASH_STEP);
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
 * transaction: recreating it each time costs an inode allocation per CVE). The directory is
 * opened without following links, so a planted link never empties another directory. */
static void clear_dir_files(const char *dir)
{
	DIR *d = dir_open(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

int txn_begin(struct txn *x, struct cve_tree *t, struct kcve_err *err)
{
	KCVE_ASSERT(t->lockdepth > 0 && t->lockfd >= 0); /* writers hold the tree lock */
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

/* A step naming a file the journal would refuse (a name with a control character: such a
 * name could even forge steps) fails the transaction at its commit, before anything. */
static bool step_name_ok(struct txn *x, const char *rel)
{
	if (journal_tree_name_ok(rel))
		return true;
	if (!x->bad_name)
		x->bad_name = xstrdup(rel);
	return false;
}

int txn_put(struct txn *x, const char *dest_rel, const void *data, size_t len,
	    struct kcve_err *err)
{
	KCVE_ASSERT(x->stage_dir && x->t->lockdepth > 0); /* begun, not aborted, lock held */
	if (!step_name_ok(x, dest_rel)) {
		char *shown = safe_printable(dest_rel);
		kcve_err_set(err, KCVE_E_TREE, "refusing to write a file whose name has a control "
			     "character, '/' or '..', %s, rename it", shown);
		free(shown);
		return KCVE_E_TREE;
	}
	char name[32];
	text_snprintf(name, sizeof(name), "%d", x->nstaged++);
	char *p = path_join(x->stage_dir, name);
	/* no temp file + rename: nothing reads the staging directory before the journal (the
	 * commit point) names this file, and txn_commit syncs the directory (or, for bulk
	 * transactions, the whole file system) first */
	if (write_file_staged(p, data, len, tree_file_mode(x->t), !x->bulk) < 0) {
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
	KCVE_ASSERT(x->stage_dir && x->t->lockdepth > 0);
	if (!step_name_ok(x, src_rel) || !step_name_ok(x, dest_rel))
		return;
	sb_addf(&x->ops, "move %s %s\n", src_rel, dest_rel);
	x->nops++;
}

void txn_del(struct txn *x, const char *rel)
{
	KCVE_ASSERT(x->stage_dir && x->t->lockdepth > 0);
	if (!step_name_ok(x, rel))
		return;
	sb_addf(&x->ops, "del %s\n", rel);
	x->nops++;
}

void txn_abort(struct txn *x)
{
	if (x->stage_dir) {
		clear_dir_files(x->stage_dir);
		file_rmdir(x->stage_dir); /* no empty .kcve/txn.N/ left behind */
	}
	free(x->stage_dir);
	x->stage_dir = NULL;
	free(x->bad_name);
	x->bad_name = NULL;
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
		fsync_dir(s->v[i]);
		free(s->v[i]);
	}
	free(s->v);
}

/* Apply one validated journal (idempotent: a step whose source is gone was done). Every
 * name is reached relative to the tree's root without following links. */
static int apply_journal(struct cve_tree *t, const struct journal *j, struct kcve_err *err)
{
	struct dirset ds = {0};
	int rc = 0;
	for (size_t i = 0; i < j->n && !rc; i++) {
		const struct journal_step *st = &j->v[i];
		char *pa = abs_path(t, st->a);
		if (st->op == JOURNAL_DEL) {
			if (file_unlink(pa) == 0) {
				dirset_add(&ds, pa);
				crash_point();
			}
		} else {
			char *pb = abs_path(t, st->b);
			if (file_rename(pa, pb, true) == 0) {
				dirset_add(&ds, pb);
				dirset_add(&ds, pa);
				crash_point();
			} else if (errno != ENOENT) {
				int en = errno;
				rc = kcve_err_set(err, KCVE_E_IO, "cannot rename %s to %s: %s, %s, fix "
						  "the file system and rerun", st->a, st->b,
						  safefs_reason(en), t->root);
			}
			free(pb);
		}
		free(pa);
	}
	dirset_sync_free(&ds);
	return rc;
}

int txn_commit(struct txn *x, struct kcve_err *err)
{
	struct cve_tree *t = x->t;
	KCVE_ASSERT(x->stage_dir && t->lockdepth > 0 && t->lockfd >= 0);
	if (x->bad_name) {
		char *shown = safe_printable(x->bad_name);
		kcve_err_set(err, KCVE_E_TREE, "refusing a file name with a control character, '/' "
			     "or '..', %s, rename or remove that file (kcve verify lists such names)",
			     shown);
		free(shown);
		txn_abort(x);
		return KCVE_E_TREE;
	}
	journal_seal(&x->ops);
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
	struct journal j;
	int rc = journal_parse(x->ops.buf, x->ops.len, jp, &j, err);
	if (!rc)
		rc = apply_journal(t, &j, err);
	journal_free(&j);
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

/* A journal or staging entry is trusted only when it is what kcve makes (a regular file or a
 * directory, not a link) and belongs to the tree's owner or to the user running kcve: a file
 * another user planted is never replayed nor used to delete anything. */
static int check_meta_entry(struct cve_tree *t, const char *name, bool dir, struct kcve_err *err)
{
	struct stat st;
	char *rel = path_join(".kcve", name);
	int r = safe_lstat_at(t->rootfd, rel, &st);
	free(rel);
	if (r < 0 && errno == ENOENT)
		return -1; /* gone meanwhile */
	const char *why = NULL;
	if (r < 0)
		why = strerror(errno);
	else if (S_ISLNK(st.st_mode))
		why = "a symbolic link";
	else if (dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))
		why = dir ? "not a directory" : "not a regular file";
	else if (!tree_trusted_owner(t, st.st_uid))
		why = "owned by another user than the tree's owner";
	if (!why)
		return 0;
	return kcve_err_set(err, KCVE_E_TREE, "refusing %s %s/.kcve/%s (%s), %s, inspect and "
			    "remove it by hand", dir ? "the staging directory" : "the operation journal",
			    t->root, name, why, t->root);
}

static bool slot_entry(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix), n = strlen(name);
	if (strncmp(name, prefix, pl) != 0 || n == pl || n - pl > 9)
		return false;
	return strspn(name + pl, "0123456789") == n - pl;
}

/* Validate and replay one committed journal. */
static int replay_journal(struct cve_tree *t, const char *name, struct kcve_err *err)
{
	int rc = check_meta_entry(t, name, false, err);
	if (rc)
		return rc < 0 ? 0 : rc;
	char *rel = path_join(".kcve", name);
	char *origin = path_join(t->root, rel);
	struct strbuf sb = STRBUF_INIT;
	if (safe_read_at(t->rootfd, rel, &sb, SAFEFS_READ_MAX) < 0) {
		int e = errno;
		rc = kcve_err_set(err, KCVE_E_TREE, "cannot read the operation journal: %s, %s, "
				  "inspect and remove it by hand", safefs_reason(e), origin);
	} else {
		struct journal j;
		rc = journal_parse(sb.buf, sb.len, origin, &j, err);
		if (!rc)
			rc = apply_journal(t, &j, err);
		journal_free(&j);
		if (!rc) {
			file_unlink(origin);
			fsync_parent_dir(origin);
		}
	}
	sb_release(&sb);
	free(origin);
	free(rel);
	return rc;
}

int txn_recover(struct cve_tree *t, struct kcve_err *err)
{
	KCVE_ASSERT(t->lockdepth > 0); /* only tree_lock() replays, with the lock taken */
	char *meta = tree_meta_path(t, NULL);
	DIR *d = dir_open(meta);
	if (!d) {
		int e = errno;
		free(meta);
		if (e == ENOENT)
			return 0;
		return kcve_err_set(err, KCVE_E_TREE, "cannot open the tree's state directory: %s, "
				    "%s/.kcve, it must be a directory (not a link); fix or remove it",
				    safefs_reason(e), t->root);
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
		if (tree_is_temp_name(names[i]) && safe_name(names[i])) {
			/* a journal that never reached its commit point: the rename into place is
			 * the commit, so this one was never in effect */
			char *jp = path_join(meta, names[i]);
			file_unlink(jp);
			free(jp);
			continue;
		}
		if (!slot_entry(names[i], "journal."))
			rc = kcve_err_set(err, KCVE_E_TREE, "refusing an unexpected entry in the "
					  "tree's state directory, %s/.kcve, inspect and remove it "
					  "by hand", t->root);
		else
			rc = replay_journal(t, names[i], err);
	}
	for (size_t i = 0; i < n; i++) {
		if (!rc && !strncmp(names[i], "txn.", 4)) {
			if (!slot_entry(names[i], "txn."))
				rc = kcve_err_set(err, KCVE_E_TREE, "refusing an unexpected entry in "
						  "the tree's state directory, %s/.kcve, inspect and "
						  "remove it by hand", t->root);
			else if ((rc = check_meta_entry(t, names[i], true, err)) == 0) {
				char *sp = path_join(meta, names[i]);
				clear_dir_files(sp);
				free(sp);
			} else if (rc < 0) {
				rc = 0;
			}
		}
		free(names[i]);
	}
	free(names);
	free(meta);
	return rc;
}

bool txn_pending(struct cve_tree *t)
{
	char *meta = tree_meta_path(t, NULL);
	DIR *d = dir_open(meta);
	free(meta);
	if (!d)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(d)))
		found = !strncmp(de->d_name, "journal.", 8) && !tree_is_temp_name(de->d_name);
	closedir(d);
	return found;
}
