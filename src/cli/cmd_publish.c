/* kcve publish: send changed records to CVE Services and announcements to the list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/xalloc.h"
#include "publish/config.h"
#include "publish/publish.h"
#include "store/tree.h"
#include "core/kjson.h"

struct publish_args {
	const char *config;
	bool dry_run, baseline, json;
};
static const struct cli_option opts[] = {
	CLI_OPT_FLAG("dry-run", struct publish_args, dry_run,
		     "send and write nothing; print what would be sent (with the\n"
		     "global -v: the full request bodies and mails)"),
	CLI_OPT_FLAG("baseline", struct publish_args, baseline,
		     "record the tree as already published and announced (adopting an\n"
		     "existing tree), send nothing"),
	CLI_OPT_STRING("config", struct publish_args, config, "FILE",
		       "'key = value' settings: cve_api.url/org/user/key/timeout/attempts/\n"
		       "backoff_ms/backoff_cap_ms, smtp.url/user/password/tls/from/to/\n"
		       "msgid_host/timeout/archive/archive_settle_ms (env KCVE_CVE_API_*,\n"
		       "KCVE_SMTP_* override)"),
	CLI_OPT_FLAG("json", struct publish_args, json,
		     "the counts on stdout: {\"dry_run\", \"baseline\", \"published\",\n"
		     "\"updated\", \"rejected\", \"returned\", \"mails\", \"unchanged\",\n"
		     "\"failed\"}; the per-CVE lines go to stderr"),
	CLI_OPT_END};
static const struct cli_command publish_cmd = {
	"publish", "[--dry-run] [--baseline] [--config FILE] [--json] [CVE-ID...]",
	"Publish every record of the tree that changed since it was last published to CVE\n"
	"Services (create, or update when the record exists), mail the announcement of new\n"
	"CVEs and the rejection reply of rejected ones, reject returned ids. Progress is kept\n"
	"per CVE in cve/.published/, unsent mail in cve/.outbox/: rerun after any failure.\n",
	opts, false};

int cmd_publish(int argc, char **argv, struct kcve_global *g)
{
	struct publish_opts o = {.out = stdout};
	struct publish_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &publish_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	o.dry_run = a.dry_run;
	o.baseline = a.baseline;
	const char *config = a.config;
	bool json = a.json;
	if (json)
		o.out = stderr;
	o.show = g->verbose;
	char **ops;
	int nops = cli_done(&p, &ops, 0, -1, "");
	const char **cves = xcalloc((size_t)nops + 1, sizeof(*cves));
	size_t n = 0;
	for (int i = 0; i < nops; i++) {
		if (!cve_id_valid(ops[i]))
			cli_usage_error(&p, "'%s' is not a CVE id, expected CVE-YYYY-NNNNN", ops[i]);
		cves[n++] = ops[i];
	}
	o.cves = cves;
	o.ncves = n;
	struct kcve_err err = {0};
	struct publish_config cfg;
	struct cve_tree *t = NULL;
	int rc = publish_config_load(&cfg, config, NULL, &err);
	if (!rc)
		rc = tree_open(&t, g->tree, &err);
	if (!rc) {
		struct publish_summary sum;
		rc = publish_run(t, &cfg, &o, &sum, &err);
		fflush(stdout);
		if (json) {
			int jrc = cli_json_print(kj_pack(
				"{s:b, s:b, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "dry_run", o.dry_run,
				"baseline", o.baseline, "published", (int)sum.published, "updated",
				(int)sum.updated, "rejected", (int)sum.rejected, "returned",
				(int)sum.returned, "mails", (int)sum.mails, "unchanged",
				(int)sum.unchanged, "failed", (int)sum.failed));
			if (jrc && !rc) {
				tree_close(t);
				publish_config_release(&cfg);
				free(cves);
				return jrc;
			}
		}
	}
	if (rc) {
		publish_config_scrub(&cfg, err.msg, sizeof(err.msg));
		kcve_error("%s", err.msg);
	}
	tree_close(t);
	publish_config_release(&cfg);
	free(cves);
	return rc;
}
