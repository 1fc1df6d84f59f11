/* kcve create: assign a reserved CVE id to a fix commit (or many, with --batch). */
#include <stdio.h>
#include <errno.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"
#include "cli_store.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "record/identity.h"
#include "store/create.h"
#include "core/kjson.h"
#include "core/text.h"

enum { O_VULNERABLE = CLI_LONG };
struct create_args {
	const char *batch, *reason, *from;
	bool force, dry_run, json;
};
#define A struct create_args
static const struct cli_option opts[] = {
	CLI_OPT_STRING("batch", A, batch, "FILE",
		       "one commit per line (first token of >= 7 hex); blank, '-' and\n"
		       "'#' lines skipped; continues after failures"),
	CLI_OPT_LOGIC("vulnerable", O_VULNERABLE, "SHA",
		      "introducing commit (repeatable), kept in .vulnerable"),
	CLI_OPT_STRING("reason", A, reason, "TEXT", "why --force (recorded in the id's file)"),
	CLI_OPT_STRING("from", A, from, "'Name <email>'",
		       "sender of the announcement (else $KCVE_FROM, $CVE_USER, git)"),
	CLI_OPT_FLAG("force", A, force,
		     "override the supported-branch rule / a rejected CVE of the\n"
		     "same commit (needs --reason)"),
	CLI_OPT_FLAG("dry-run", A, dry_run,
		     "check and render, write nothing (a batch gives each commit\n"
		     "the id it would get: ids are not given out twice)"),
	CLI_OPT_FLAG("json", A, json,
		     "{\"dry_run\", \"created\": [{\"cve\", \"sha\", \"subject\", \"held_id_bound\"}],\n"
		     "\"failed\": [{\"sha\", \"exit\", \"error\"}]} (errors also on stderr)"),
	CLI_OPT_END};
#undef A
static const struct cli_command create_cmd = {
	"create", "[options] SHA [CVE-ID]\n[options] --batch FILE|-",
	"Assign the first free reserved id of the fix's year (committer date, UTC), or the\n"
	"given reserved/held CVE-ID, and write .sha1 .dyad .json .mbox in cve/published/.\n"
	"Refused: fixes in no release (exit 19), commits that already have a CVE (14),\n"
	"fixes whose pairs are all same-release (8), fixes only on unsupported branches\n"
	"(20), no free id (15).\n",
	opts, false};

/* With --json, the created and the failed commits (else NULL: one line each on stdout). */
struct created {
	json_t *created, *failed;
};

static int create_one(struct cve_tree *t, struct history *h, struct store_create_opts *o,
		      char got[32], struct created *js)
{
	struct store_create_result res;
	struct kcve_err err = {0};
	int rc = store_create(t, h, o, &res, &err);
	if (rc) {
		rc = cli_fail(&err);
		if (js)
			json_array_append_new(js->failed, kj_pack("{s:o, s:i, s:o}", "sha",
								    cli_json_text(o->sha), "exit", rc,
								    "error", cli_json_text(err.msg)));
		return rc;
	}
	if (js) {
		json_array_append_new(js->created, kj_pack("{s:s, s:s, s:o, s:b}", "cve", res.cve,
							     "sha", res.sha, "subject",
							     cli_json_text(res.subject), "held_id_bound",
							     res.was_held));
	} else {
		printf("%s %s for commit %.12s (\"%s\")%s\n", res.cve,
		       o->dry_run ? "would be allocated" : "is now allocated", res.sha, res.subject,
		       res.was_held ? " [held id bound]" : "");
		fflush(stdout);
	}
	if (got)
		text_snprintf(got, 32, "%s", res.cve);
	return 0;
}

/* create --batch FILE ('-': stdin): one create per commit line (store_batch_sha), going on after
 * a failure; the first failure's code is the result. */
static int create_batch(struct cve_tree *t, struct history *h, struct store_create_opts *o,
			const char *batch, struct created *js)
{
	int rc = 0;
	struct strbuf in = STRBUF_INIT;
	if (read_file(!strcmp(batch, "-") ? "/dev/stdin" : batch, &in) < 0) {
		kcve_error("cannot read the batch file %s: %s", batch, read_file_reason(errno));
		sb_release(&in);
		return KCVE_E_IO; /* one line: no summary of nothing */
	}
	size_t ok = 0, failed = 0, ntaken = 0;
	char **taken = NULL; /* a dry run's ids, each given out once */
	char *save = NULL;
	for (char *line = rc ? NULL : strtok_r(in.buf ? in.buf : (char *)"", "\n", &save);
	     line; line = strtok_r(NULL, "\n", &save)) {
		char sha[41];
		if (!store_batch_sha(line, sha))
			continue;
		o->sha = sha;
		o->taken = (const char *const *)taken;
		o->ntaken = ntaken;
		char got[32] = "";
		int r = create_one(t, h, o, got, js);
		if (!r && o->dry_run) {
			taken = xrealloc(taken, (ntaken + 1) * sizeof(*taken));
			taken[ntaken++] = xstrdup(got);
		}
		if (r) {
			failed++;
			if (!rc)
				rc = r;
		} else {
			ok++;
		}
	}
	fprintf(stderr, "%zu %s, %zu failed\n", ok, o->dry_run ? "would be created" : "created",
			failed);
	sb_release(&in);
	for (size_t k = 0; k < ntaken; k++)
		free(taken[k]);
	free(taken);
	return rc;
}

int cmd_create(int argc, char **argv, struct kcve_global *g)
{
	struct store_create_opts o = {0};
	struct create_args a = {0};
	const char **vulns = NULL;
	size_t nvulns = 0, avulns = 0;
	struct cli_parser p;
	cli_begin(&p, &create_cmd, argc, argv, g);
	cli_bind(&p, &a);
	for (int c; (c = cli_next(&p)) != -1;) {
		if (c == O_VULNERABLE) {
			XGROW(vulns, nvulns + 1, avulns);
			vulns[nvulns++] = p.arg;
		}
	}
	const char *batch = a.batch, *from = a.from;
	bool json = a.json;
	o.reason = a.reason;
	o.force = a.force;
	o.dry_run = a.dry_run;
	char **pos;
	int npos = cli_done(&p, &pos, batch ? 0 : 1, batch ? 0 : 2, "SHA [CVE-ID]");
	if (o.force && (!o.reason || !*o.reason)) {
		free(vulns);
		cli_usage_error(&p, "--force needs --reason TEXT (it is recorded in the tree)");
	}
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
	struct created jsbuf = {json_array(), json_array()}, *js = json ? &jsbuf : NULL;
	if (!batch) {
		o.sha = pos[0];
		o.cve = npos > 1 ? pos[1] : NULL;
		rc = create_one(t, h, &o, NULL, js);
	} else {
		rc = create_batch(t, h, &o, batch, js);
	}
	if (js) {
		int jrc = cli_json_print(kj_pack("{s:b, s:o, s:o}", "dry_run", o.dry_run, "created",
						   jsbuf.created, "failed", jsbuf.failed));
		rc = rc ? rc : jrc;
	} else {
		json_decref(jsbuf.created);
		json_decref(jsbuf.failed);
	}
	history_close(h);
	tree_close(t);
	free(vulns);
	return rc;
}
