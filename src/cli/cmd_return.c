/* kcve return: give an unused reserved id back (reserved -> returned). */
#include <stdio.h>
#include <stdlib.h>

#include "cli_json.h"
#include "cli_store.h"
#include "core/strbuf.h"
#include "store/ops.h"
#include "core/kjson.h"

struct return_args {
	bool json;
};
static const struct cli_option opts[] = {
	CLI_OPT_FLAG("json", struct return_args, json, "{\"cve\", \"state\": \"returned\", \"commands\": [...]}"),
	CLI_OPT_END};

int cmd_return(int argc, char **argv, struct kcve_global *g)
{
	static const struct cli_command cmd = {
		"return", "CVE-ID [--json]",
		"Move an unused reserved id to cve/returned/YEAR/ and print the cve.org command that\n"
		"rejects it there.\n",
		opts, false};
	struct return_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	bool json = a.json;
	char **ops;
	cli_done(&p, &ops, 1, 1, "one CVE-ID");
	const char *id = ops[0];
	struct cve_tree *t = cli_open_tree(g);
	struct kcve_err err = {0};
	int rc = store_return(t, id, &err);
	if (rc) {
		cli_fail(&err);
	} else {
		struct strbuf reject = STRBUF_INIT;
		sb_addf(&reject, "cve -o Linux reject %s -j '{\"rejectedReasons\": [{\"lang\": \"en\", "
			"\"value\": \"** REJECT ** DO NOT USE THIS CANDIDATE NUMBER. Reason: This "
			"candidate was in a CNA pool that was not assigned to any issues during "
			"%d.\"}]}'", id, cve_id_year(id));
		if (json)
			rc = cli_json_print(kj_pack("{s:s, s:s, s:[s]}", "cve", id, "state",
						      "returned", "commands", reject.buf));
		else
			printf("%s returned\n%s\n", id, reject.buf);
		sb_release(&reject);
	}
	tree_close(t);
	return rc;
}
