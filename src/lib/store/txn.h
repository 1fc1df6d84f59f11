/* Crash-safe multi-file changes of the record tree (one operation = one transaction).
 *
 * New file contents are first written (fsync'd) into a staging directory <root>/.kcve/txn.N/;
 * the list of steps ("put staged -> dest", "move src -> dest", "del path") is then written
 * atomically as the journal <root>/.kcve/journal.N — that write is the commit point. The steps
 * are applied afterwards and the journal removed. Every step is idempotent, so a process
 * killed at any point is completed by the next writer (tree_lock -> txn_recover): before the
 * commit point nothing in the tree changed (the staging directory is just discarded), after it
 * the operation is replayed to the end. Each CVE is thus always either old or new. */
#ifndef KCVE_STORE_TXN_H
#define KCVE_STORE_TXN_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "store/tree.h"

struct txn {
	struct cve_tree *t;
	char *stage_dir; /* absolute */
	struct strbuf ops; /* journal body */
	int nstaged;
	int nops;
	/* many staged files (batched update): skip the per-file fsync and make the whole staging
	 * area durable with one syncfs() before the commit point */
	bool bulk;
	char *bad_name; /* first refused name of a step (the commit fails) */
};

/* Start a transaction (the caller holds the tree lock). */
int txn_begin(struct txn *x, struct cve_tree *t, struct kcve_err *err);
/* Stage new content for dest (path relative to the tree root). */
int txn_put(struct txn *x, const char *dest_rel, const void *data, size_t len,
	    struct kcve_err *err);
/* Rename src to dest (relative paths) at commit. */
void txn_move(struct txn *x, const char *src_rel, const char *dest_rel);
/* Remove path (relative) at commit. */
void txn_del(struct txn *x, const char *rel);
/* Commit point + apply. On failure before the commit point nothing changed. */
int txn_commit(struct txn *x, struct kcve_err *err);
/* Drop an uncommitted transaction. */
void txn_abort(struct txn *x);
/* True when a committed journal waits to be replayed (read-only commands report it; only a
 * writer, under the lock, replays). */
bool txn_pending(struct cve_tree *t);
/* Finish or drop an interrupted operation (tree_lock calls it with the lock held). */
int txn_recover(struct cve_tree *t, struct kcve_err *err);

#endif
