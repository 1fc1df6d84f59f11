/* kcve dispute: a subsystem maintainer disputes or corrects an assigned CVE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "maintainers/dispute.h"
#include "record/identity.h"
#include "store/tree.h"
#include "core/kjson.h"
#include "core/text.h"

enum { O_BY = CLI_LONG, O_REJECT, O_VULNERABLE, O_NOT_AFFECTED };
struct dispute_args {
	const char *reason, *maintainers, *from;
	bool no_regenerate, json;
};
#define A struct dispute_args
static const struct cli_option opts[] = {
	CLI_OPT_LOGIC("by", O_BY, "EMAIL", "a maintainer who disputes (repeatable)"),
	CLI_OPT_STRING("reason", A, reason, "TEXT", "why (required)"),
	CLI_OPT_LOGIC("reject", O_REJECT, NULL,
		      "withdraw the CVE (moves it to rejected/, rejection mail)"),
	CLI_OPT_LOGIC("vulnerable", O_VULNERABLE, "SHA...",
		      "the commit(s) that introduced the bug (.vulnerable), record\n"
		      "regenerated from the kernel repository (--repo)"),
	CLI_OPT_LOGIC("not-affected", O_NOT_AFFECTED, "BR...",
		      "stable branches (6.1, 5.15) that never had the bug\n"
		      "(.not_affected), record regenerated"),
	CLI_OPT_STRING("maintainers", A, maintainers, "FILE",
		       "MAINTAINERS to use (default: --repo working tree or HEAD)"),
	CLI_OPT_STRING("from", A, from, "'Name <email>'",
		       "sender of the rejection mail (else $KCVE_FROM)"),
	CLI_OPT_FLAG("no-regenerate", A, no_regenerate,
		     "do not regenerate the record (no kernel repository needed)"),
	CLI_OPT_FLAG("json", A, json,
		     "{\"cve\", \"action\", \"allowed\", \"why\", \"deciders\",\n"
		     "\"regenerated\", \"report\"} (also when refused, exit 16)"),
	CLI_OPT_END};
#undef A
static const struct cli_command dispute_cmd = {
	"dispute",
	"CVE-ID --by EMAIL [--by EMAIL...] --reason TEXT\n"
	"(--reject | --vulnerable SHA... | --not-affected BRANCH...)\n"
	"[--maintainers FILE] [--from 'Name <email>'] [--no-regenerate] [--json]",
	"Only maintainers (M:) of the most specific MAINTAINERS section of the CVE's files may\n"
	"dispute; with several files in several subsystems, a maintainer of each must join\n"
	"(repeat --by). THE REST, orphaned sections and reviewers (R:) give no authority.\n"
	"Every decision is appended to cve/disputes.log; a refused dispute changes nothing else.\n",
	opts, false};

/* "Name <email>" or "email" into the contract's identity struct. */
static void parse_sender(struct kcve_identity *id, const char *s)
{
	memset(id, 0, sizeof(*id));
	const char *lt = strchr(s, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	if (lt && gt) {
		size_t n = (size_t)(lt - s);
		while (n && s[n - 1] == ' ')
			n--;
		text_snprintf(id->name, sizeof(id->name), "%.*s", (int)n, s);
		text_snprintf(id->email, sizeof(id->email), "%.*s", (int)(gt - lt - 1), lt + 1);
	} else {
		text_snprintf(id->email, sizeof(id->email), "%s", s);
	}
}

/* The decision: a JSON document, or the report and the decision lines; returns the JSON printer's
 * code. Nothing but the report when the dispute failed before a decision. */
static int print_result(const struct dispute_request *rq, const struct dispute_result *res, int rc,
			bool json)
{
	int jrc = 0;
	if (json && (rc == 0 || rc == KCVE_E_DENIED)) {
		static const char *const actions[] = {"reject", "vulnerable", "not-affected"};
		jrc = cli_json_print(kj_pack(
			"{s:s, s:s, s:b, s:o, s:o, s:b, s:o}", "cve", rq->cve, "action",
			actions[rq->action], "allowed", res->allowed, "why",
			cli_json_text(sb_str(&res->why)), "deciders", cli_json_text(sb_str(&res->deciders)),
			"regenerated", res->regenerated, "report", cli_json_text(sb_str(&res->report))));
	} else if (!json) {
		fputs(sb_str(&res->report), stdout);
		if (rc == 0 || rc == KCVE_E_DENIED) {
			printf("decision: %s: %s\n", res->allowed ? "allowed" : "refused",
			       sb_str(&res->why));
			printf("may decide: %s\n", sb_str(&res->deciders));
		}
	}
	return jrc;
}

int cmd_dispute(int argc, char **argv, struct kcve_global *g)
{
	struct dispute_request rq = {0};
	const char **by = xcalloc((size_t)argc, sizeof(*by));
	const char **args = xcalloc((size_t)argc, sizeof(*args));
	struct dispute_args a = {.from = getenv("KCVE_FROM")};
	int nactions = 0;
	struct cli_parser p;
	cli_begin(&p, &dispute_cmd, argc, argv, g);
	cli_bind(&p, &a);
	for (int c; (c = cli_next(&p)) != -1;) {
		switch (c) {
		case O_BY: by[rq.nby++] = p.arg; break;
		case O_REJECT:
			if (!nactions || rq.action != DISPUTE_REJECT)
				nactions++;
			rq.action = DISPUTE_REJECT;
			break;
		case O_VULNERABLE:
		case O_NOT_AFFECTED: {
			enum dispute_action act = c == O_VULNERABLE ? DISPUTE_VULNERABLE
								    : DISPUTE_NOT_AFFECTED;
			if (!nactions || rq.action != act)
				nactions++;
			rq.action = act;
			args[rq.nargs++] = p.arg;
			break;
		}
		}
	}
	rq.reason = a.reason;
	const char *mfile = a.maintainers, *from = a.from;
	bool regenerate = !a.no_regenerate, json = a.json;
	/* operands: the CVE id, and the further values of --vulnerable/--not-affected
	 * ("--vulnerable A B") */
	char **ops;
	int nops = cli_done(&p, &ops, 0, -1, "");
	for (int i = 0; i < nops; i++) {
		if (!rq.cve && cve_id_valid(ops[i]))
			rq.cve = ops[i];
		else if (rq.nargs && rq.action != DISPUTE_REJECT)
			args[rq.nargs++] = ops[i];
		else
			cli_usage_error(&p, "unexpected argument '%s', give one CVE id", ops[i]);
	}
	if (!rq.cve || !rq.nby || !rq.reason || !*rq.reason || nactions != 1)
		cli_usage_error(&p, "need CVE-ID, --by, --reason and exactly one of --reject, "
				"--vulnerable, --not-affected");
	rq.by = by;
	rq.args = args;
	struct kcve_identity sender;
	if (from && *from) {
		struct kcve_err herr = {0};
		if (identity_check_header("the sender (--from / $KCVE_FROM)", from, &herr))
			kcve_die(KCVE_E_USAGE, "%s", herr.msg);
		parse_sender(&sender, from);
		rq.sender = &sender;
	}

	struct kcve_err err = {0};
	struct maintainers *m = NULL;
	int rc = mfile ? maintainers_load(&m, mfile, NULL, &err)
	               : maintainers_from_repo(&m, g->repo, &err);
	if (rc)
		kcve_die(rc, "%s, kcve dispute, pass --maintainers FILE or --repo KERNEL_REPO", err.msg);
	struct cve_tree *t;
	if ((rc = tree_open(&t, g->tree, &err)))
		kcve_die(rc, "%s, kcve dispute, pass --tree or set KCVE_TREE", err.msg);
	struct history *h = NULL;
	if (regenerate && rq.action != DISPUTE_REJECT) {
		if ((rc = history_open(&h, g->repo, g->index, &err)))
			kcve_die(rc, "%s, kcve dispute, pass --repo KERNEL_REPO or --no-regenerate", err.msg);
		rq.history = h;
	}
	struct dispute_result res = {0};
	rc = dispute_run(t, m, &rq, &res, &err);
	int jrc = print_result(&rq, &res, rc, json);
	fflush(stdout);
	if (rc == KCVE_E_DENIED)
		kcve_error("dispute refused: %s, %s, ask one of: %s", sb_str(&res.why), rq.cve,
		           sb_str(&res.deciders));
	else if (rc)
		kcve_error("%s, %s, nothing was changed unless the audit log says so", err.msg, rq.cve);
	else if (rq.action != DISPUTE_REJECT && !res.regenerated)
		kcve_warn("record of %s not regenerated; run 'kcve update %s' with --repo", rq.cve,
		          rq.cve);
	dispute_result_release(&res);
	if (h)
		history_close(h);
	tree_close(t);
	maintainers_free(m);
	free(by);
	free(args);
	return rc ? rc : jrc;
}
