/* kcve request: triage a mail sent to the CVE alias and write the reply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "maintainers/mail.h"
#include "maintainers/request.h"
#include "record/identity.h"
#include "store/tree.h"
#include "core/kjson.h"
#include "core/text.h"

struct request_args {
	const char *output, *from;
	bool json;
};
static const struct cli_option opts[] = {
	{.name = "output", .key = 'o', .arg = true, .type = CLI_STRING,
	 .target = offsetof(struct request_args, output), .meta = "REPLY.mbox",
	 .help = "the reply mail (default: standard output)"},
	CLI_OPT_STRING("from", struct request_args, from, "'Name <addr>'",
		       "the reply's sender (default: $KCVE_FROM)"),
	CLI_OPT_FLAG("json", struct request_args, json,
		     "{\"kind\", \"queued\" (path or null), \"already_queued\", \"commits\": [{\"text\",\n"
		     "\"sha\", \"release\", \"cve\"}], \"reply_file\" (-o FILE or null), \"reply\" (the mbox)}"),
	CLI_OPT_END};
static const struct cli_command request_cmd = {
	"request", "FILE.eml|- [-o REPLY.mbox] [--from 'Name <addr>'] [--json]",
	"Triage a mail sent to the CVE alias: a released fix without a CVE is queued in\n"
	"cve/review/requests/<sha>.json; a request for an id for an unfixed issue is answered\n"
	"with the reservation path; an unfixed security bug is referred to security@kernel.org\n"
	"(nothing of it is stored). The reply mail (mbox) goes to -o FILE or standard output.\n"
	"Mails naming commits need the kernel repository (--repo) and the record tree (--tree).\n",
	opts, false};

struct cli_oracle {
	struct kcve_global *g;
	struct history *h;
	struct cve_tree *t;
	bool opened;
};

static void open_all(struct cli_oracle *c)
{
	if (c->opened)
		return;
	c->opened = true;
	struct kcve_err err = {0};
	int rc = history_open(&c->h, c->g->repo, c->g->index, &err);
	if (rc)
		kcve_die(rc, "%s, kcve request, the mail names commits: pass --repo KERNEL_REPO", err.msg);
	rc = tree_open(&c->t, c->g->tree, &err);
	if (rc)
		kcve_die(rc, "%s, kcve request, pass --tree or set KCVE_TREE", err.msg);
}

static int o_resolve(void *ctx, const char *rev, char out[41])
{
	struct cli_oracle *c = ctx;
	open_all(c);
	struct kcve_err err = {0};
	return history_resolve(c->h, rev, out, &err);
}

static const char *o_release(void *ctx, const char *sha)
{
	struct cli_oracle *c = ctx;
	return history_release(c->h, sha);
}

static int o_find_cve(void *ctx, const char *sha, char cve[32])
{
	struct cli_oracle *c = ctx;
	struct cve_entry e;
	if (tree_find_sha(c->t, sha, &e) != 0)
		return KCVE_E_NOTFOUND;
	text_snprintf(cve, 32, "%s", e.id);
	cve_entry_release(&e);
	return 0;
}

/* Queue the request under cve/review/requests/<sha>.json (one file per fix, named after the
 * first queueable commit; an existing file is kept: *already). Returns the file's path. */
static char *queue_request(struct cve_tree *tree, const struct mail *m,
			   const struct request_triage *t, const char *now, bool want_json,
			   bool *already)
{
	struct kcve_err err = {0};
	int rc;
	/* one file per fix, named after the first queueable commit */
	const char *sha = NULL;
	for (size_t i = 0; i < t->ncommits && !sha; i++)
		if (t->commits[i].sha[0] && t->commits[i].release && !t->commits[i].cve[0])
			sha = t->commits[i].sha;
	if ((rc = tree_lock(tree, &err)))
		kcve_die(rc, "%s, kcve request, retry when the other writer is done", err.msg);
	char *dir = path_join(tree_root(tree), "cve/review/requests");
	struct strbuf name = STRBUF_INIT;
	sb_addf(&name, "%s.json", sha);
	char *queued = path_join(dir, name.buf);
	if (path_exists(queued)) {
		/* already queued by an earlier request: do not overwrite */
		*already = true;
		if (!want_json)
			printf("already queued: %s\n", queued);
	} else {
		char *json = request_queue_json(m, t, now);
		if (mkdir_p(dir, 0755) < 0 || !json ||
		    atomic_write_file(queued, json, strlen(json), 0644) < 0)
			kcve_die(KCVE_E_IO, "cannot write the request, %s, check permissions", queued);
		free(json);
		if (!want_json)
			printf("queued: %s\n", queued);
	}
	tree_unlock(tree);
	sb_release(&name);
	free(dir);
	return queued;
}

int cmd_request(int argc, char **argv, struct kcve_global *g)
{
	struct request_args a = {.from = getenv("KCVE_FROM")};
	bool already = false;
	struct cli_parser p;
	cli_begin(&p, &request_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *outp = a.output, *from = a.from;
	bool want_json = a.json;
	char **ops;
	cli_done(&p, &ops, 1, 1, "one mail: FILE.eml or - for stdin");
	const char *in = ops[0];
	struct kcve_err herr = {0};
	if (from && identity_check_header("the sender (--from / $KCVE_FROM)", from, &herr))
		kcve_die(KCVE_E_USAGE, "%s", herr.msg);
	struct strbuf raw = STRBUF_INIT;
	if (strcmp(in, "-") == 0) {
		char buf[65536];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0) {
			sb_add(&raw, buf, n);
			if (raw.len > MAIL_MAX_SIZE)
				break;
		}
	} else if (read_file(in, &raw) < 0) {
		kcve_die(KCVE_E_NOTFOUND, "cannot read the mail, %s, check the path", in);
	}
	struct mail m;
	struct kcve_err err = {0};
	int rc = mail_parse(raw.buf ? raw.buf : "", raw.len, &m, &err);
	sb_release(&raw);
	if (rc)
		kcve_die(rc, "%s, %s, give an RFC 5322 mail (headers, blank line, body)", err.msg, in);

	struct cli_oracle co = {.g = g};
	struct request_oracle o = {o_resolve, o_release, o_find_cve, &co};
	struct request_triage t;
	request_classify(&m, &o, &t);

	char now[40], date[64];
	time_t tt = (time_t)clock_now();
	struct tm tm;
	gmtime_r(&tt, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strftime(date, sizeof(date), "%a, %d %b %Y %H:%M:%S +0000", &tm);

	char *queued = NULL;
	if (t.kind == REQ_QUEUE)
		queued = queue_request(co.t, &m, &t, now, want_json, &already);
	struct strbuf reply = STRBUF_INIT;
	request_reply(&m, &t, from && *from ? from : "Linux kernel CVE team <cve@kernel.org>", date,
	              &reply);
	rc = 0;
	if (outp && atomic_write_file(outp, reply.buf, reply.len, 0644) < 0)
		kcve_die(KCVE_E_IO, "cannot write the reply, %s, check the path", outp);
	if (want_json) {
		json_t *commits = json_array();
		for (size_t i = 0; i < t.ncommits; i++) {
			const struct request_commit *rc1 = &t.commits[i];
			json_array_append_new(commits, kj_pack(
				"{s:s, s:o, s:o, s:o}", "text", rc1->text, "sha",
				cli_json_str_or_null(rc1->sha), "release", cli_json_text(rc1->release),
				"cve", cli_json_str_or_null(rc1->cve)));
		}
		rc = cli_json_print(kj_pack("{s:s, s:o, s:b, s:o, s:o, s:o}", "kind",
					      request_kind_name(t.kind), "queued", cli_json_text(queued),
					      "already_queued", already, "commits", commits,
					      "reply_file", cli_json_text(outp), "reply",
					      cli_json_text(sb_str(&reply))));
	} else if (outp) {
		printf("%s: reply written to %s\n", request_kind_name(t.kind), outp);
	} else {
		fwrite(reply.buf, 1, reply.len, stdout);
	}
	sb_release(&reply);
	free(queued);
	request_triage_release(&t);
	mail_release(&m);
	if (co.h)
		history_close(co.h);
	if (co.t)
		tree_close(co.t);
	return rc;
}
