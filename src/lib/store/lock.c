/* The writer lock of a record tree (see lock.h). Taking it replays an interrupted operation's
 * journal (txn.c), which is why it is not in tree.c: the read side never calls into the
 * transactions, and tree.c and txn.c do not depend on each other. */
#include "store/lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/assert.h"
#include "core/clock.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/testhooks.h"
#include "store/tree_internal.h"
#include "store/txn.h"

int tree_lock(struct cve_tree *t, struct kcve_err *err)
{
	if (t->lockdepth > 0) {
		t->lockdepth++;
		return 0;
	}
	char *meta = tree_meta_path(t, NULL);
	int mfd = safe_open_dir(t->rootfd, ".kcve", true, 0755);
	if (mfd < 0) {
		int e = errno;
		kcve_err_set(err, KCVE_E_IO, "cannot open the tree's state directory: %s, %s, it "
			     "must be a directory (not a link); check permissions", safefs_reason(e),
			     meta);
		free(meta);
		return KCVE_E_IO;
	}
	free(meta);
	/* the record tree is a git repository (vulns.git): keep the lock, journals and staging
	 * files out of `git status` without touching the tree's own .gitignore */
	char *gi = tree_meta_path(t, ".gitignore");
	if (!path_exists(gi) && atomic_write_file(gi, "*\n", 2, 0644) < 0)
		diag_warn(t->diag, "cannot write %s (%s): kcve's state files may show in git "
			  "status", gi, strerror(errno));
	free(gi);
	char *lp = tree_meta_path(t, "lock");
	int fd = openat(mfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	int oe = errno;
	close(mfd);
	struct stat lst;
	if (fd >= 0 && (fstat(fd, &lst) < 0 || !S_ISREG(lst.st_mode))) {
		close(fd);
		fd = -1;
		oe = ENODEV;
	}
	if (fd < 0) {
		kcve_err_set(err, KCVE_E_IO, "cannot open the tree lock: %s, %s, check permissions",
			     safefs_reason(oe), lp);
		free(lp);
		return KCVE_E_IO;
	}
	/* Writers queue for a while (two creates in a row are normal), then give up cleanly. */
	const char *ts = getenv(KCVE_HOOK_LOCK_TIMEOUT);
	long timeout_ms = ts && *ts ? atol(ts) * 1000 : 60000;
	if (t->lock_wait)
		timeout_ms = -1;
	int lrc;
	long waited = 0;
	while ((lrc = flock(fd, LOCK_EX | LOCK_NB)) < 0 && errno == EWOULDBLOCK &&
	       (timeout_ms < 0 || waited < timeout_ms)) {
		clock_sleep_ms(20);
		waited += 20;
	}
	if (lrc < 0) {
		int e = errno;
		close(fd);
		if (e == EWOULDBLOCK)
			kcve_err_set(err, KCVE_E_LOCK, "the record tree is locked by another kcve "
				     "process, %s, retry when it has finished (KCVE_LOCK_TIMEOUT "
				     "sets the wait in seconds)", lp);
		else
			kcve_err_set(err, KCVE_E_LOCK, "cannot lock the record tree: %s, %s, retry",
				     strerror(e), lp);
		free(lp);
		return KCVE_E_LOCK;
	}
	free(lp);
	KCVE_ASSERT(t->lockfd < 0); /* not locked: no descriptor to leak */
	t->lockfd = fd;
	t->lockdepth = 1;
	/* A previous writer may have died mid-operation: finish (or drop) its work first. A
	 * reader (verify) takes the lock only to wait for a running writer and never replays. */
	int rc = t->no_replay ? 0 : txn_recover(t, err);
	if (rc) {
		tree_unlock(t);
		return rc;
	}
	tree_invalidate(t);
	return 0;
}

void tree_unlock(struct cve_tree *t)
{
	if (t->lockdepth <= 0)
		return;
	if (--t->lockdepth > 0)
		return;
	KCVE_ASSERT(t->lockfd >= 0); /* depth 1 -> 0: this call owns the descriptor */
	flock(t->lockfd, LOCK_UN);
	close(t->lockfd);
	t->lockfd = -1;
}

void tree_set_replay(struct cve_tree *t, bool replay)
{
	t->no_replay = !replay;
}

void tree_set_lock_wait(struct cve_tree *t, bool wait)
{
	t->lock_wait = wait;
}
