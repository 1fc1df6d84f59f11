/* kcve reserve add|list: record ids reserved at cve.org; show free and held ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_store.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "store/ops.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kcve reserve add CVE-ID...\n"
		     "       kcve reserve list [--year YEAR]\n"
		     "       kcve reserve --remote --year YEAR --count N [--random] [--config FILE]\n\n"
		     "add: create the empty placeholders cve/reserved/YEAR/CVE-ID for ids already\n"
		     "     reserved at cve.org. Ids already reserved are reported and skipped (a\n"
		     "     rerun finishes the job, exit 0); an id published, rejected or returned\n"
		     "     is refused, the other ids are still added.\n"
		     "list: one line per reserved id: \"ID free\" or \"ID held <note>\" (held by\n"
		     "     'kcve reserve-for').\n"
		     "--remote: reserve new ids at CVE Services and add them to cve/reserved/\n"
		     "     (the same as 'kcve remote reserve'; see 'kcve remote --help').\n");
}

struct list_ctx {
	int year;
	size_t nfree, nheld;
};

static int list_cb(const struct cve_entry *e, void *vctx)
{
	struct list_ctx *c = vctx;
	if (c->year && e->year != c->year)
		return 0;
	char *p = tree_cve_path(e, "");
	struct strbuf sb = STRBUF_INIT;
	read_file(p, &sb);
	free(p);
	if (!sb.len) {
		printf("%s free\n", e->id);
		c->nfree++;
	} else {
		/* the note on one line */
		for (size_t i = 0; i < sb.len; i++)
			if (sb.buf[i] == '\n')
				sb.buf[i] = i + 1 < sb.len ? ';' : '\0';
		printf("%s held %s\n", e->id, sb.buf);
		c->nheld++;
	}
	sb_release(&sb);
	return 0;
}

int cmd_reserve(int argc, char **argv, struct kcve_global *g)
{
	if (argc < 2 || cli_wants_help(argc, argv)) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? KCVE_E_USAGE : 0;
	}
	/* kcve reserve --remote ... is kcve remote [--config F] reserve ...: one implementation */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--remote") != 0)
			continue;
		char **rargv = xcalloc((size_t)argc + 2, sizeof(*rargv));
		int n = 0;
		rargv[n++] = (char *)"remote";
		for (int k = 1; k < argc; k++) /* --config goes before the subcommand */
			if (!strcmp(argv[k], "--config") && k + 1 < argc) {
				rargv[n++] = argv[k];
				rargv[n++] = argv[k + 1];
			} else if (!strncmp(argv[k], "--config=", 9)) {
				rargv[n++] = argv[k];
			}
		rargv[n++] = (char *)"reserve";
		for (int k = 1; k < argc; k++) {
			if (k == i)
				continue;
			if (!strcmp(argv[k], "--config") && k + 1 < argc) {
				k++;
				continue;
			}
			if (!strncmp(argv[k], "--config=", 9))
				continue;
			rargv[n++] = argv[k];
		}
		rargv[n] = NULL;
		int rc = cmd_remote(n, rargv, g);
		free(rargv);
		return rc;
	}
	struct cve_tree *t = cli_open_tree(g);
	int rc = 0;
	if (!strcmp(argv[1], "add")) {
		if (argc < 3) {
			tree_close(t);
			kcve_die(KCVE_E_USAGE, "no id given, reserve add, pass CVE-YYYY-NNNNN...");
		}
		for (int i = 2; i < argc && !rc; i++)
			if (!cve_id_valid(argv[i]))
				rc = (kcve_error("not a CVE id, %s, use CVE-YYYY-NNNNN", argv[i]),
				      KCVE_E_USAGE);
		/* a rerun (after a failure or a kill) must converge: ids already reserved are
		 * reported and skipped, every other id is still tried; the exit status is the
		 * first real failure, 0 when every id ends up reserved */
		int first = 0;
		for (int i = 2; i < argc && !rc; i++) {
			struct kcve_err err = {0};
			int r = store_reserve(t, argv[i], &err);
			struct cve_entry e;
			if (!r) {
				printf("%s reserved\n", argv[i]);
			} else if (r == KCVE_E_DUPLICATE && tree_find_cve(t, argv[i], &e) == 0 &&
				   e.state == CVE_RESERVED) {
				printf("%s already reserved\n", argv[i]);
			} else {
				cli_fail(&err);
				first = first ? first : r;
			}
			if (r == KCVE_E_DUPLICATE)
				cve_entry_release(&e);
		}
		rc = rc ? rc : first;
	} else if (!strcmp(argv[1], "list")) {
		struct list_ctx c = {0};
		for (int i = 2; i < argc; i++) {
			const char *v;
			if ((v = cli_optval(argc, argv, &i, "--year", argv[0])))
				c.year = atoi(v);
			else
				kcve_die(KCVE_E_USAGE, "unknown option, %s, see 'kcve reserve --help'",
					 argv[i]);
		}
		tree_foreach(t, CVE_RESERVED, list_cb, &c);
		fprintf(stderr, "%zu free, %zu held\n", c.nfree, c.nheld);
	} else {
		rc = KCVE_E_USAGE;
		kcve_error("unknown reserve action, %s, use 'add' or 'list'", argv[1]);
	}
	tree_close(t);
	return rc;
}
