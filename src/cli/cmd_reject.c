/* kcve reject: withdraw a published (or reserved) id, keeping its files under rejected/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_store.h"
#include "record/identity.h"
#include "store/ops.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kcve reject CVE-ID --reason TEXT [--from 'Name <email>']\n\n"
		     "Move the CVE's files to cve/rejected/YEAR/, write CVE-ID.mbox.rejected (a reply\n"
		     "to the announcement) and keep the reason in the id's own file. Prints the\n"
		     "commands that send the mail and reject the id at cve.org.\n");
}

int cmd_reject(int argc, char **argv, struct kcve_global *g)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	const char *id = NULL, *reason = NULL, *from = NULL, *v;
	for (int i = 1; i < argc; i++) {
		if ((v = cli_optval(argc, argv, &i, "--reason", argv[0])))
			reason = v;
		else if ((v = cli_optval(argc, argv, &i, "--from", argv[0])))
			from = v;
		else if (argv[i][0] != '-' && !id)
			id = argv[i];
		else
			kcve_die(KCVE_E_USAGE, "unknown argument, %s, see 'kcve reject --help'",
				 argv[i]);
	}
	if (!id) {
		usage(stderr);
		return KCVE_E_USAGE;
	}
	if (!reason || !*reason)
		kcve_die(KCVE_E_USAGE, "a rejection needs a reason, %s, pass --reason TEXT", id);
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
		printf("%s rejected: %s\n", id, reason);
		if (tree_find_cve(t, id, &e) == 0) {
			char *p = tree_cve_path(&e, ".mbox.rejected");
			printf("git send-email %s\n", p);
			free(p);
			cve_entry_release(&e);
		}
		printf("cve -o Linux reject %s -j '{\"rejectedReasons\": [{\"lang\": \"en\", \"value\": "
		       "\"This CVE ID has been rejected or withdrawn by its CVE Numbering "
		       "Authority.\"}]}'\n", id);
	}
	tree_close(t);
	return rc;
}
