/* Test driver: the per-file answer of a compact database built with `db build --source KSRC`
 * side by side with the Kbuild evaluation of KSRC, for every path of a list, under one .config.
 * Both go through the file stage `kcve check` uses (check/stages/filestage.h): the conditions are
 * those ck_set_add_conditions() stores in a database (every path of the list counts as a
 * record's programFile), evaluated as `check --db` evaluates them.
 *
 * Usage: export_eval_tool KSRC CONFIG LIST
 * Output, one line per path: path <TAB> source verdict <TAB> db verdict <TAB> db reason, the
 * verdicts as "compiled", "not-compiled", "unknown". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/records/record.h"
#include "check/stages/filestage.h"
#include "core/fileio.h"
#include "core/xalloc.h"

static const char *name(enum ck_filev v)
{
	return v == CK_FILE_COMPILED ? "compiled" : v == CK_FILE_NOT_COMPILED ? "not-compiled" : "unknown";
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: export_eval_tool KSRC CONFIG LIST\n");
		return 2;
	}
	struct strbuf list = STRBUF_INIT;
	if (read_file(argv[3], &list) < 0) {
		fprintf(stderr, "export_eval_tool: cannot read %s\n", argv[3]);
		return 1;
	}
	const char **paths = NULL;
	size_t n = 0, alloc = 0;
	for (char *p = list.buf, *e; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (e)
			*e = '\0';
		if (*p) {
			XGROW(paths, n + 1, alloc);
			paths[n++] = p;
		}
	}
	struct ck_record rec;
	memset(&rec, 0, sizeof rec);
	rec.id = "CVE-0000-0000";
	rec.files = paths;
	rec.nfiles = n;
	struct ck_set s;
	memset(&s, 0, sizeof s);
	s.v = &rec;
	s.n = 1;
	struct kcve_err err = {0};
	struct ck_files *db = NULL, *src = NULL;
	int rc = ck_set_add_conditions(&s, argv[1], &err);
	if (rc == 0)
		rc = ck_files_open_config(&db, argv[2], false, NULL, NULL, &s, &err);
	if (rc == 0)
		rc = ck_files_open_config(&src, argv[2], false, argv[1], NULL, NULL, &err);
	if (rc == 0) {
		for (size_t i = 0; i < n; i++) {
			const char *why = NULL;
			enum ck_filev vs = ck_files_verdict(src, paths[i], NULL);
			enum ck_filev vd = ck_files_verdict(db, paths[i], &why);
			printf("%s\t%s\t%s\t%s\n", paths[i], name(vs), name(vd), why ? why : "");
		}
	} else {
		fprintf(stderr, "export_eval_tool: %s\n", err.msg);
	}
	ck_files_close(db);
	ck_files_close(src);
	for (size_t i = 0; i < s.nconds; i++) {
		free((char *)s.conds[i].path);
		free((char *)s.conds[i].cond);
		free((char *)s.conds[i].module);
	}
	free(s.conds);
	free(paths);
	sb_release(&list);
	return rc ? 1 : 0;
}
