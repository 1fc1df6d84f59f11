/* kcve reject: withdraw a published (or reserved) id, keeping its files under rejected/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_store.h"
#include "record/identity.h"
#include "store/ops.h"
#include "core/kjson.h"

struct reject_args {
	const char *reason, *from;
	bool json;
};
static const struct cli_option opts[] = {
	CLI_OPT_STRING("reason", struct reject_args, reason, "TEXT", "why the id is rejected (required)"),
	CLI_OPT_STRING("from", struct reject_args, from, "'Name <email>'",
		       "the mail's sender (default: the configured identity)"),
	CLI_OPT_FLAG("json", struct reject_args, json,
		     "{\"cve\", \"state\": \"rejected\", \"reason\", \"mbox\" (null: no mail),\n"
		     "\"commands\": [...]}"),
	CLI_OPT_END};
static const struct cli_command reject_cmd = {
	"reject", "CVE-ID --reason TEXT [--from 'Name <email>'] [--json]",
	"Move the CVE's files to cve/rejected/YEAR/, write CVE-ID.mbox.rejected (a reply\n"
	"to the announcement) and keep the reason in the id's own file. Prints the\n"
	"commands that send the mail and reject the id at cve.org.\n",
	opts, false};

int cmd_reject(int argc, char **argv, struct kcve_global *g)
{
	struct reject_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &reject_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *reason = a.reason, *from = a.from;
	bool json = a.json;
	char **ops;
	cli_done(&p, &ops, 1, 1, "one CVE-ID");
	const char *id = ops[0];
	if (!reason || !*reason)
		cli_usage_error(&p, "a rejection needs a reason, %s, pass --reason TEXT", id);
	struct kcve_identity who;
	struct kcve_err err = {0};
	bool have_who = identity_resolve(&who, from, NULL, &err) == 0;
	if (!have_who && (from || err.code == KCVE_E_USAGE))   /* a malformed or hostile sender */
		return cli_fail(&err);
	struct cve_tree *t = cli_open_tree(g);
	int rc = store_reject(t, id, reason, have_who ? &who : NULL, &err);
	if (rc) {
		cli_fail(&err);
	} else {
		struct cve_entry e;
		char *mbox = NULL;
		if (tree_find_cve(t, id, &e) == 0) {
			mbox = tree_cve_path(&e, ".mbox.rejected");
			cve_entry_release(&e);
		}
		struct strbuf send = STRBUF_INIT, reject = STRBUF_INIT;
		if (mbox)
			sb_addf(&send, "git send-email %s", mbox);
		sb_addf(&reject, "cve -o Linux reject %s -j '{\"rejectedReasons\": [{\"lang\": \"en\", "
			"\"value\": \"This CVE ID has been rejected or withdrawn by its CVE Numbering "
			"Authority.\"}]}'", id);
		if (json) {
			json_t *cmds = json_array();
			if (mbox)
				json_array_append_new(cmds, cli_json_text(send.buf));
			json_array_append_new(cmds, kj_str(reject.buf));
			rc = cli_json_print(kj_pack("{s:s, s:s, s:o, s:o, s:o}", "cve", id, "state",
						      "rejected", "reason", cli_json_text(reason), "mbox",
						      cli_json_str_or_null(mbox), "commands", cmds));
		} else {
			printf("%s rejected: %s\n", id, reason);
			if (mbox)
				printf("%s\n", send.buf);
			printf("%s\n", reject.buf);
		}
		sb_release(&send);
		sb_release(&reject);
		free(mbox);
	}
	tree_close(t);
	return rc;
}
