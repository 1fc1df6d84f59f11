/* history_descendant_of (generation numbers from the index + a bounded walk, libgit2 as the
 * fallback) must agree with libgit2's git_graph_descendant_of for every ordered pair of
 * indexed commits. Driven by generations.py, which builds a repository with merges, octopus
 * merges and stable branches:  test_ancestry REPO INDEX  (exit 0 = all agree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <sqlite3.h>

#include "history/history.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_ancestry REPO INDEX\n");
		return 2;
	}
	struct history *h;
	struct kcve_err err = {0};
	if (history_open_ex(&h, argv[1], argv[2], HISTORY_NO_UPDATE, NULL, NULL, &err)) {
		fprintf(stderr, "history_open: %s\n", err.msg);
		return 1;
	}
	sqlite3 *db;
	sqlite3_stmt *s;
	if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "SELECT id FROM commits ORDER BY id", -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "cannot read %s\n", argv[2]);
		return 1;
	}
	char (*ids)[41] = NULL;
	size_t n = 0, cap = 0;
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			ids = realloc(ids, cap * sizeof(*ids));
			if (!ids)
				return 1;
		}
		snprintf(ids[n++], 41, "%s", (const char *)sqlite3_column_text(s, 0));
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	git_repository *repo = history_git(h);
	size_t bad = 0, yes = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			git_oid a, b;
			git_oid_fromstr(&a, ids[i]);
			git_oid_fromstr(&b, ids[j]);
			bool want = git_graph_descendant_of(repo, &a, &b) == 1;
			bool got = history_descendant_of(h, ids[i], ids[j]);
			yes += want;
			if (want != got && bad++ < 10)
				fprintf(stderr, "descendant_of(%s, %s): got %d, git says %d\n", ids[i],
					ids[j], got, want);
		}
	printf("%zu commits, %zu pairs, %zu descendant pairs, %zu disagreements\n", n, n * n, yes, bad);
	history_close(h);
	free(ids);
	return bad || n < 2 ? 1 : 0;
}
