/* Writing and strictly parsing the operation journal (format in journal.h). */
#include "store/journal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/safefs.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "core/text.h"


bool journal_tree_name_ok(const char *rel)
{
	return strncmp(rel, "cve/", 4) == 0 && safe_relpath(rel);
}

static bool all_digits(const char *s, size_t n)
{
	if (n == 0 || n > 9)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

bool journal_staged_name_ok(const char *rel)
{
	if (strncmp(rel, ".kcve/txn.", 10) != 0)
		return false;
	const char *slot = rel + 10, *slash = strchr(slot, '/');
	return slash && all_digits(slot, (size_t)(slash - slot)) &&
	       all_digits(slash + 1, strlen(slash + 1));
}

void journal_seal(struct strbuf *body)
{
	KCVE_ASSERT(body->len >= strlen(JOURNAL_MAGIC) &&
		    memcmp(body->buf, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) == 0);
	sb_adds(body, "end\n");
	sb_addf(body, "sum %016" PRIx64 "\n", (uint64_t)fnv1a64(FNV1A64_INIT, body->buf, body->len));
}

void journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->v[i].a);
		free(j->v[i].b);
	}
	free(j->v);
	memset(j, 0, sizeof(*j));
}

/* Split one step line into its words (single spaces, 2 or 3 words). */
static int split_words(const char *line, size_t len, char *w[3])
{
	int n = 0;
	const char *p = line, *end = line + len;
	while (p <= end && n < 3) {
		const char *sp = memchr(p, ' ', (size_t)(end - p));
		const char *we = sp ? sp : end;
		if (we == p)
			return -1; /* empty word: a double or trailing space */
		w[n++] = xstrndup(p, (size_t)(we - p));
		if (!sp)
			return n;
		p = sp + 1;
	}
	return -1; /* more than 3 words */
}

static int add_step(struct journal *j, const char *line, size_t len)
{
	char *w[3] = {NULL, NULL, NULL};
	int nw = split_words(line, len, w);
	enum journal_op op = JOURNAL_DEL;
	bool ok = nw >= 2;
	if (ok && !strcmp(w[0], "put"))
		op = JOURNAL_PUT, ok = nw == 3 && journal_staged_name_ok(w[1]) &&
				       journal_tree_name_ok(w[2]);
	else if (ok && !strcmp(w[0], "move"))
		op = JOURNAL_MOVE, ok = nw == 3 && journal_tree_name_ok(w[1]) &&
					journal_tree_name_ok(w[2]);
	else if (ok && !strcmp(w[0], "del"))
		op = JOURNAL_DEL, ok = nw == 2 && journal_tree_name_ok(w[1]);
	else
		ok = false;
	if (!ok) {
		for (int i = 0; i < 3; i++)
			free(w[i]);
		return -1;
	}
	free(w[0]);
	XGROW(j->v, j->n + 1, j->alloc);
	j->v[j->n++] = (struct journal_step){op, w[1], w[2]};
	return 0;
}

int journal_parse(const char *text, size_t len, const char *origin, struct journal *j,
		  struct kcve_err *err)
{
	memset(j, 0, sizeof(*j));
	size_t ml = strlen(JOURNAL_MAGIC);
	if (len < ml || memcmp(text, JOURNAL_MAGIC, ml) != 0)
		return kcve_err_set(err, KCVE_E_TREE, "not a kcve operation journal (format 2), %s, "
				    "inspect it and remove it by hand", origin);
	size_t pos = ml, lineno = 1;
	for (;;) {
		lineno++;
		const char *p = text + pos;
		const char *nl = memchr(p, '\n', len - pos);
		if (!nl)
			return kcve_err_set(err, KCVE_E_TREE, "operation journal cut short at line %zu "
					    "(no end), %s, inspect it and remove it by hand", lineno,
					    origin);
		size_t ll = (size_t)(nl - p);
		if (ll == 3 && !memcmp(p, "end", 3))
			break;
		if (memchr(p, '\0', ll) || add_step(j, p, ll) < 0)
			return kcve_err_set(err, KCVE_E_TREE, "invalid step at line %zu of the "
					    "operation journal (a name outside cve/, '..', a control "
					    "character or an unknown step), %s, inspect it and remove "
					    "it by hand", lineno, origin);
		pos += ll + 1;
	}
	size_t body = pos + 4; /* through "end\n" */
	char want[32];
	text_snprintf(want, sizeof(want), "sum %016" PRIx64 "\n", (uint64_t)fnv1a64(FNV1A64_INIT, text, body));
	size_t wl = strlen(want);
	if (len - body != wl || memcmp(text + body, want, wl) != 0)
		return kcve_err_set(err, KCVE_E_TREE, "operation journal checksum mismatch (edited "
				    "or damaged), %s, inspect it and remove it by hand", origin);
	return 0;
}
