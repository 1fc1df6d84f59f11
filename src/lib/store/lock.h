/* The writer lock of a record tree: one writer per tree at a time (flock on
 * <root>/.kcve/lock). Taking it completes or drops an interrupted operation's journal
 * (txn.h), unless the tree is opened for reading only (tree_set_replay). */
#ifndef KCVE_STORE_LOCK_H
#define KCVE_STORE_LOCK_H

#include <stdbool.h>

#include "core/error.h"

struct cve_tree;

/* One writer per tree (flock on <root>/.kcve/lock; waits up to $KCVE_LOCK_TIMEOUT seconds,
 * default 60, then KCVE_E_LOCK). Taking the lock replays/rolls back an
 * interrupted operation's journal. Nested calls are counted. */
int tree_lock(struct cve_tree *t, struct kcve_err *err);
void tree_unlock(struct cve_tree *t);
/* Read-only commands: tree_lock() then only waits for a running writer and never replays a
 * journal (the journal is reported by verify; the next writer completes it). */
void tree_set_replay(struct cve_tree *t, bool replay);
/* Wait for the lock as long as it takes (no $KCVE_LOCK_TIMEOUT). */
void tree_set_lock_wait(struct cve_tree *t, bool wait);

#endif
