/* kcve record: the CVE JSON 5.1.1 record, the announcement mbox and the .dyad of one CVE,
 * computed in-process from its fix commit(s) (docs/spec/record.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_report.h"
#include "core/cveid.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "record/identity.h"
#include "record/record.h"

enum { O_VULNERABLE = CLI_LONG, O_NOT_AFFECTED };
struct record_args {
	const char *cve, *reference, *message, *cvss, *json, *mbox, *dyad, *from, *generator;
};
#define A struct record_args
static const struct cli_option opts[] = {
	CLI_OPT_STRING("cve", A, cve, "ID", "the CVE id (required)"),
	CLI_OPT_LOGIC("vulnerable", O_VULNERABLE, "SHA",
		      "introducing commit overriding Fixes: tags (repeatable)"),
	CLI_OPT_LOGIC("not-affected", O_NOT_AFFECTED, "BRANCH",
		      "stable branch (like 6.1) declared not affected by the\n"
		      "maintainers: its pairs are dropped (repeatable)"),
	CLI_OPT_STRING("reference", A, reference, "FILE", "extra reference URLs, one per line"),
	CLI_OPT_STRING("message", A, message, "FILE",
		       "replacement description text (blank file: use the commit)"),
	CLI_OPT_STRING("cvss", A, cvss, "FILE", ".cvss file: adds metrics and the mbox Severity block"),
	CLI_OPT_STRING("json", A, json, "OUT",
		       "the record file to write (atomically); with none of --json,\n"
		       "--mbox and --dyad the JSON record is printed on stdout"),
	CLI_OPT_STRING("mbox", A, mbox, "OUT", "the announcement mbox to write (atomically)"),
	CLI_OPT_STRING("dyad", A, dyad, "OUT", "the .dyad file to write (atomically)"),
	CLI_OPT_STRING("from", A, from, "ID",
		       "mbox sender; default $KCVE_FROM, else $CVE_USER + git config\n"
		       "user.name, else git config user.name/user.email"),
	CLI_OPT_STRING("generator", A, generator, "NAME",
		       "generator identity in the mbox separator and x_generator\n"
		       "(default bippy-1.2.0, the anchor's, for byte-compatibility)"),
	CLI_OPT_END};
#undef A
static const struct cli_command record_cmd = {
	"record",
	"--cve CVE-YYYY-NNNNN [--vulnerable SHA]... [--reference FILE] [--message FILE]\n"
	"[--cvss FILE] [--json OUT] [--mbox OUT] [--dyad OUT] [--from \"Name <email>\"]\n"
	"[--generator NAME] [--not-affected BRANCH]... SHA...",
	"Build the CVE record of the fix commit(s) SHA (the first is the main fix: title,\n"
	"description and affected files come from it): vulnerable:fixed pairs computed\n"
	"in-process, the issuance policy applied, then the CVE JSON 5.1.1 record and the\n"
	"announcement mbox rendered exactly as the kernel CNA's bippy does.\n\n"
	"The vulns tree (--tree / $KCVE_TREE), when given, supplies scripts/tags,\n"
	"scripts/linux.uuid and scripts/not_fixes|not_reverts.\n",
	opts, false};

static void push(const char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

struct out_file {
	const char *path;
	const struct strbuf *data;
};

/* The files asked for (each written atomically), or the JSON on stdout when none was. */
static int write_outputs(const char *json, const char *mbox, const char *dyad,
			 const struct record_output *out)
{
	if (!json && !mbox && !dyad) {
		fwrite(out->json.buf, 1, out->json.len, stdout);
		return 0;
	}
	struct out_file files[] = {{json, &out->json}, {mbox, &out->mbox}, {dyad, &out->dyad}};
	for (size_t i = 0; i < 3; i++) {
		if (!files[i].path)
			continue;
		if (atomic_write_file(files[i].path, files[i].data->buf, files[i].data->len, 0644) < 0) {
			kcve_error("cannot write %s (%s), check the directory exists and is writable",
				   files[i].path, strerror(errno));
			return KCVE_E_IO;
		}
	}
	return 0;
}

int cmd_record(int argc, char **argv, struct kcve_global *g)
{
	struct record_input in = {0};
	const char **shas = NULL, **vulns = NULL, **nas = NULL;
	size_t nshas = 0, nvulns = 0, nnas = 0;
	const char *json = NULL, *mbox = NULL, *dyad = NULL, *from = NULL;
	struct record_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &record_cmd, argc, argv, g);
	cli_bind(&p, &a);
	for (int c; (c = cli_next(&p)) != -1;) {
		char major[32];
		switch (c) {
		case O_VULNERABLE: push(&vulns, &nvulns, p.arg); break;
		case O_NOT_AFFECTED:
			if (strcmp(kver_str_major(p.arg, major, sizeof(major)), p.arg) != 0) {
				free(vulns);
				free(nas);
				cli_end(&p);
				cli_usage_error(&p, "not a stable branch: '%s', --not-affected, give a "
						"branch like 6.1 or 2.6.32", p.arg);
			}
			push(&nas, &nnas, p.arg);
			break;
		}
	}
	in.cve = a.cve;
	in.reference_path = a.reference;
	in.message_path = a.message;
	in.cvss_path = a.cvss;
	in.generator = a.generator;
	json = a.json;
	mbox = a.mbox;
	dyad = a.dyad;
	from = a.from;
	char **ops;
	int nops = cli_done(&p, &ops, 0, -1, "");
	for (int i = 0; i < nops; i++)
		if (ops[i][strspn(ops[i], " \t")] != '\0')
			push(&shas, &nshas, ops[i]);
	const char *bad = !in.cve ? "missing required argument --cve; pass the CVE id as --cve "
				    "CVE-YYYY-NNNNN"
			  : !cveid_valid(in.cve) ? "malformed CVE id, expected CVE-YYYY-NNNNN"
			  : nshas == 0 ? "missing required argument: the fix commit SHA"
				       : NULL;
	if (bad) {
		free(shas);
		free(vulns);
		free(nas);
		cli_usage_error(&p, "%s", bad);
	}
	in.shas = shas;
	in.nshas = nshas;
	in.vulnerable = vulns;
	in.nvulnerable = nvulns;
	in.not_affected = nas;
	in.nnot_affected = nnas;
	in.vulns_tree = g->tree;

	struct history *h = NULL;
	struct kcve_err err = {0};
	struct record_output out;
	bool built = false;
	int rc = history_open(&h, g->repo, g->index, &err);
	if (!rc && g->tree)
		rc = history_load_exclusions(h, g->tree, &err);
	struct kcve_identity id;
	if (!rc && identity_resolve(&id, from, history_git(h), &err)) {
		if (mbox || from)
			rc = err.code ? err.code : KCVE_E_GENERIC;
		else
			memset(&id, 0, sizeof(id)); /* no mbox: the sender is not needed */
	}
	in.from = &id;
	if (!rc) {
		rc = record_build(h, &in, &out, &err);
		built = true;
	}
	if (rc)
		kcve_error("%s", err.msg);
	else
		rc = write_outputs(json, mbox, dyad, &out);
	if (built)
		record_output_release(&out);
	if (h)
		history_close(h);
	free(shas);
	free(vulns);
	free(nas);
	return rc;
}
