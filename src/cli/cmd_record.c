/* kcve record: the CVE JSON 5.1.1 record, the announcement mbox and the .dyad of one CVE,
 * computed in-process from its fix commit(s) (anchor-spec §4). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "record/identity.h"
#include "record/record.h"

static void usage(void)
{
	printf("usage: kcve record --cve CVE-YYYY-NNNNN [--vulnerable SHA]... [--reference FILE]\n"
	       "                   [--message FILE] [--cvss FILE] [--json OUT] [--mbox OUT]\n"
	       "                   [--dyad OUT] [--from \"Name <email>\"] [--generator NAME]\n"
	       "                   [--not-affected BRANCH]... SHA...\n\n"
	       "Build the CVE record of the fix commit(s) SHA (the first is the main fix: title,\n"
	       "description and affected files come from it): vulnerable:fixed pairs computed\n"
	       "in-process, the issuance policy applied, then the CVE JSON 5.1.1 record and the\n"
	       "announcement mbox rendered exactly as the kernel CNA's bippy does.\n\n"
	       "  --cve ID          the CVE id (required)\n"
	       "  --vulnerable SHA  introducing commit overriding Fixes: tags (repeatable)\n"
	       "  --not-affected BRANCH  stable branch (like 6.1) declared not affected by the\n"
	       "                    maintainers: its pairs are dropped (repeatable)\n"
	       "  --reference FILE  extra reference URLs, one per line\n"
	       "  --message FILE    replacement description text (blank file: use the commit)\n"
	       "  --cvss FILE       .cvss file: adds metrics and the mbox Severity block\n"
	       "  --json/--mbox/--dyad OUT  files to write (atomically); with none of them the\n"
	       "                    JSON record is printed on stdout\n"
	       "  --from ID         mbox sender; default $KCVE_FROM, else $CVE_USER + git config\n"
	       "                    user.name, else git config user.name/user.email\n"
	       "  --generator NAME  generator identity in the mbox separator and x_generator\n"
	       "                    (default bippy-1.2.0, the anchor's, for byte-compatibility)\n\n"
	       "The vulns tree (--tree / $KCVE_TREE), when given, supplies scripts/tags,\n"
	       "scripts/linux.uuid and scripts/not_fixes|not_reverts.\n");
}

static void push(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

struct out_file {
	const char *path;
	const struct strbuf *data;
};

int cmd_record(int argc, char **argv, struct kcve_global *g)
{
	if (cli_wants_help(argc, argv)) {
		usage();
		return 0;
	}
	struct record_input in = {0};
	const char **shas = NULL, **vulns = NULL, **nas = NULL;
	size_t nshas = 0, nvulns = 0, nnas = 0;
	const char *json = NULL, *mbox = NULL, *dyad = NULL, *from = NULL;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if ((v = cli_optval(argc, argv, &i, "--cve", "record")))
			in.cve = v;
		else if ((v = cli_optval(argc, argv, &i, "--vulnerable", "record")))
			push(&vulns, &nvulns, v);
		else if ((v = cli_optval(argc, argv, &i, "--not-affected", "record"))) {
			char major[32];
			if (strcmp(kver_str_major(v, major, sizeof(major)), v) != 0)
				kcve_die(KCVE_E_USAGE, "not a stable branch: '%s', --not-affected, "
					 "give a branch like 6.1 or 2.6.32", v);
			push(&nas, &nnas, v);
		}
		else if ((v = cli_optval(argc, argv, &i, "--reference", "record")))
			in.reference_path = v;
		else if ((v = cli_optval(argc, argv, &i, "--message", "record")))
			in.message_path = v;
		else if ((v = cli_optval(argc, argv, &i, "--cvss", "record")))
			in.cvss_path = v;
		else if ((v = cli_optval(argc, argv, &i, "--json", "record")))
			json = v;
		else if ((v = cli_optval(argc, argv, &i, "--mbox", "record")))
			mbox = v;
		else if ((v = cli_optval(argc, argv, &i, "--dyad", "record")))
			dyad = v;
		else if ((v = cli_optval(argc, argv, &i, "--from", "record")))
			from = v;
		else if ((v = cli_optval(argc, argv, &i, "--generator", "record")))
			in.generator = v;
		else if (argv[i][0] == '-' && argv[i][1])
			kcve_die(KCVE_E_USAGE, "unknown option '%s' for 'kcve record'; see 'kcve record --help'",
				 argv[i]);
		else if (argv[i][strspn(argv[i], " \t")] != '\0')
			push(&shas, &nshas, argv[i]);
	}
	if (!in.cve)
		kcve_die(KCVE_E_USAGE, "missing required argument --cve; pass the CVE id as --cve CVE-YYYY-NNNNN");
	if (!record_valid_cve_id(in.cve))
		kcve_die(KCVE_E_USAGE, "malformed CVE id '%s', expected CVE-YYYY-NNNNN", in.cve);
	if (nshas == 0)
		kcve_die(KCVE_E_USAGE, "missing required argument: the fix commit SHA; see 'kcve record --help'");
	in.shas = shas;
	in.nshas = nshas;
	in.vulnerable = vulns;
	in.nvulnerable = nvulns;
	in.not_affected = nas;
	in.nnot_affected = nnas;
	in.vulns_tree = g->tree;

	struct history *h;
	struct kcve_err err = {0};
	if (history_open(&h, g->repo, g->index, &err)) {
		kcve_error("%s", err.msg);
		return err.code;
	}
	if (g->tree && history_load_exclusions(h, g->tree, &err)) {
		kcve_error("%s", err.msg);
		history_close(h);
		return err.code;
	}
	struct kcve_identity id;
	if (identity_resolve(&id, from, history_git(h), &err)) {
		if (mbox || from) {
			kcve_error("%s", err.msg);
			history_close(h);
			return err.code;
		}
		memset(&id, 0, sizeof(id)); /* no mbox: the sender is not needed */
	}
	in.from = &id;

	struct record_output out;
	int rc = record_build(h, &in, &out, &err);
	if (rc) {
		kcve_error("%s", err.msg);
	} else if (!json && !mbox && !dyad) {
		fwrite(out.json.buf, 1, out.json.len, stdout);
	} else {
		struct out_file files[] = {{json, &out.json}, {mbox, &out.mbox}, {dyad, &out.dyad}};
		for (size_t i = 0; i < 3 && !rc; i++) {
			if (!files[i].path)
				continue;
			if (atomic_write_file(files[i].path, files[i].data->buf, files[i].data->len, 0644) < 0) {
				kcve_error("cannot write %s (%s), check the directory exists and is writable",
					   files[i].path, strerror(errno));
				rc = KCVE_E_IO;
			}
		}
	}
	record_output_release(&out);
	history_close(h);
	free(shas);
	free(vulns);
	free(nas);
	return rc;
}
