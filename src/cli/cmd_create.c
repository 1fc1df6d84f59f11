/* kcve create: assign a reserved CVE id to a fix commit (or many, with --batch). */
#include <stdio.h>
#include <string.h>

#include "cli_store.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "record/identity.h"
#include "store/create.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: kcve create [options] SHA [CVE-ID]\n"
		"       kcve create [options] --batch FILE|-\n\n"
		"Assign the first free reserved id of the fix's year (committer date, UTC), or the\n"
		"given reserved/held CVE-ID, and write .sha1 .dyad .json .mbox in cve/published/.\n"
		"Refused: fixes in no release (exit %d), commits that already have a CVE (%d),\n"
		"fixes whose pairs are all same-release (%d), fixes only on unsupported branches\n"
		"(%d), no free id (%d).\n\n"
		"  --batch FILE     one commit per line (first token of >= 7 hex); blank, '-' and\n"
		"                   '#' lines skipped; continues after failures\n"
		"  --vulnerable SHA introducing commit (repeatable), kept in .vulnerable\n"
		"  --force --reason TEXT  override the supported-branch rule / a rejected CVE of the\n"
		"                   same commit (the reason is recorded in the id's file)\n"
		"  --from 'Name <email>'  sender of the announcement (else $KCVE_FROM, $CVE_USER, git)\n"
		"  --dry-run        check and render, write nothing\n",
		KCVE_E_UNFIXED, KCVE_E_DUPLICATE, KCVE_E_POLICY, KCVE_E_UNSUPPORTED,
		KCVE_E_EXHAUSTED);
}

static int create_one(struct cve_tree *t, struct history *h, struct store_create_opts *o)
{
	struct store_create_result res;
	struct kcve_err err = {0};
	int rc = store_create(t, h, o, &res, &err);
	if (rc)
		return cli_fail(&err);
	printf("%s %s for commit %.12s (\"%s\")%s\n", res.cve,
	       o->dry_run ? "would be allocated" : "is now allocated", res.sha, res.subject,
	       res.was_held ? " [held id bound]" : "");
	fflush(stdout);
	return 0;
}

int cmd_create(int argc, char **argv, struct kcve_global *g)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	struct store_create_opts o = {0};
	const char *batch = NULL, *from = NULL, *pos[2] = {NULL, NULL}, *v;
	const char **vulns = NULL;
	size_t nvulns = 0, avulns = 0;
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		if ((v = cli_optval(argc, argv, &i, "--batch", argv[0])))
			batch = v;
		else if ((v = cli_optval(argc, argv, &i, "--vulnerable", argv[0]))) {
			XGROW(vulns, nvulns + 1, avulns);
			vulns[nvulns++] = v;
		} else if ((v = cli_optval(argc, argv, &i, "--reason", argv[0])))
			o.reason = v;
		else if ((v = cli_optval(argc, argv, &i, "--from", argv[0])))
			from = v;
		else if (!strcmp(argv[i], "--force"))
			o.force = true;
		else if (!strcmp(argv[i], "--dry-run"))
			o.dry_run = true;
		else if (argv[i][0] != '-' && npos < 2)
			pos[npos++] = argv[i];
		else
			kcve_die(KCVE_E_USAGE, "unknown argument, %s, see 'kcve create --help'",
				 argv[i]);
	}
	if ((!batch && npos < 1) || (batch && npos)) {
		usage(stderr);
		free(vulns);
		return KCVE_E_USAGE;
	}
	if (o.force && (!o.reason || !*o.reason))
		kcve_die(KCVE_E_USAGE, "--force needs --reason TEXT (it is recorded in the tree), "
			 "create, add a reason");
	o.vulnerable = vulns;
	o.nvulnerable = nvulns;
	struct cve_tree *t = cli_open_tree(g);
	struct history *h = cli_open_history(g);
	struct kcve_identity who;
	struct kcve_err err = {0};
	if (identity_resolve(&who, from, history_git(h), &err)) {
		history_close(h);
		tree_close(t);
		free(vulns);
		return cli_fail(&err);
	}
	o.who = &who;
	struct kcve_err lerr = {0};
	history_load_exclusions(h, tree_root(t), &lerr);
	int rc = 0;
	if (!batch) {
		o.sha = pos[0];
		o.cve = pos[1];
		rc = create_one(t, h, &o);
	} else {
		struct strbuf in = STRBUF_INIT;
		if (read_file(!strcmp(batch, "-") ? "/dev/stdin" : batch, &in) < 0) {
			kcve_error("cannot read the batch file, %s, check the path", batch);
			rc = KCVE_E_IO;
		}
		size_t ok = 0, failed = 0;
		char *save = NULL;
		for (char *line = rc ? NULL : strtok_r(in.buf ? in.buf : (char *)"", "\n", &save);
		     line; line = strtok_r(NULL, "\n", &save)) {
			char sha[41];
			if (!store_batch_sha(line, sha))
				continue;
			o.sha = sha;
			int r = create_one(t, h, &o);
			if (r) {
				failed++;
				if (!rc)
					rc = r;
			} else {
				ok++;
			}
		}
		if (!in.buf || rc != KCVE_E_IO)
			fprintf(stderr, "%zu created, %zu failed\n", ok, failed);
		sb_release(&in);
	}
	history_close(h);
	tree_close(t);
	free(vulns);
	return rc;
}
