/* The operation journal's text format (written by txn.c, replayed after a crash).
 *
 *   kcve-journal 2
 *   put .kcve/txn.N/K cve/<path>      rename a staged file over cve/<path>
 *   move cve/<path> cve/<path>        rename
 *   del cve/<path>                    remove
 *   end
 *   sum <16 hex digits>               FNV-1a 64 of every byte before this line
 *
 * The record tree is hostile input and a journal in it may have been planted, so a journal
 * is parsed and validated as a whole before anything is applied: every name is a tree
 * relative path of safe components (safefs.h: no control characters, no "..", no '/' at
 * either end), staged sources lie in a staging directory .kcve/txn.N/, destinations under
 * cve/; the checksum must match. Any deviation refuses the whole journal. */
#ifndef KCVE_STORE_JOURNAL_H
#define KCVE_STORE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

#define JOURNAL_MAGIC "kcve-journal 2\n"

enum journal_op { JOURNAL_PUT, JOURNAL_MOVE, JOURNAL_DEL };

struct journal_step {
	enum journal_op op;
	char *a, *b; /* b is NULL for del */
};

struct journal {
	struct journal_step *v;
	size_t n, alloc;
};

/* A name a step may carry: under cve/ (any op), or a staged file .kcve/txn.N/K (put source). */
bool journal_tree_name_ok(const char *rel);
bool journal_staged_name_ok(const char *rel);
/* Append "end" and the checksum line to a body that starts with JOURNAL_MAGIC. */
void journal_seal(struct strbuf *body);
/* Parse text[0..len); 0, or KCVE_E_TREE with err saying what is wrong (origin names the
 * file in the message). Free with journal_free either way. */
int journal_parse(const char *text, size_t len, const char *origin, struct journal *j,
		  struct kcve_err *err);
void journal_free(struct journal *j);

#endif
