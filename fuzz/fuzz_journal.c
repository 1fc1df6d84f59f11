/* Fuzz the operation journal parser (store/journal.c): the journal lives in the hostile record
 * tree, so any text must be refused or give steps with safe names only.
 * Invariants: every accepted step names paths under cve/ (staged sources under .kcve/txn.N/)
 * made of safe components (no "..", no control characters); re-sealing the accepted steps
 * gives a journal that parses to the same steps. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/safefs.h"
#include "store/journal.h"

static const char *const op_names[] = {"put", "move", "del"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal j;
	struct kcve_err err;
	if (journal_parse((const char *)data, size, "fuzz", &j, &err) == 0) {
		struct strbuf again = STRBUF_INIT;
		sb_adds(&again, JOURNAL_MAGIC);
		for (size_t i = 0; i < j.n; i++) {
			const struct journal_step *s = &j.v[i];
			bool a_ok = s->op == JOURNAL_PUT ? journal_staged_name_ok(s->a)
							 : journal_tree_name_ok(s->a);
			if (!a_ok || !safe_relpath(s->a) || strstr(s->a, ".."))
				abort();
			if ((s->op == JOURNAL_DEL) != (s->b == NULL))
				abort();
			if (s->b && (!journal_tree_name_ok(s->b) || strstr(s->b, "..")))
				abort();
			sb_addf(&again, "%s %s%s%s\n", op_names[s->op], s->a, s->b ? " " : "",
				s->b ? s->b : "");
		}
		journal_seal(&again);
		struct journal k;
		if (journal_parse(again.buf, again.len, "fuzz", &k, &err) != 0 || k.n != j.n)
			abort();
		for (size_t i = 0; i < k.n; i++)
			if (k.v[i].op != j.v[i].op || strcmp(k.v[i].a, j.v[i].a) ||
			    (k.v[i].b && strcmp(k.v[i].b, j.v[i].b)))
				abort();
		journal_free(&k);
		sb_release(&again);
	}
	journal_free(&j);
	return 0;
}
