/* kcve publish: send changed records to CVE Services and announcements to the list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/error.h"
#include "core/xalloc.h"
#include "publish/config.h"
#include "publish/publish.h"
#include "store/tree.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: kcve publish [--dry-run] [--baseline] [--config FILE] [CVE-ID...]\n\n"
		"Publish every record of the tree that changed since it was last published to CVE\n"
		"Services (create, or update when the record exists), mail the announcement of new\n"
		"CVEs and the rejection reply of rejected ones, reject returned ids. Progress is kept\n"
		"per CVE in cve/.published/, unsent mail in cve/.outbox/: rerun after any failure.\n\n"
		"  --dry-run      send and write nothing; print what would be sent (with the\n"
		"                 global -v: the full request bodies and mails)\n"
		"  --baseline     record the tree as already published and announced (adopting an\n"
		"                 existing tree), send nothing\n"
		"  --config FILE  'key = value' settings: cve_api.url/org/user/key/timeout/attempts/\n"
		"                 backoff_ms/backoff_cap_ms, smtp.url/user/password/tls/from/to/\n"
		"                 msgid_host/timeout (env KCVE_CVE_API_*, KCVE_SMTP_* override)\n");
}

int cmd_publish(int argc, char **argv, struct kcve_global *g)
{
	if (cli_wants_help(argc, argv)) {
		usage(stdout);
		return 0;
	}
	struct publish_opts o = {.out = stdout, .show = g->verbose};
	const char *config = NULL;
	const char **cves = xcalloc((size_t)argc, sizeof(*cves));
	size_t n = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run"))
			o.dry_run = true;
		else if (!strcmp(argv[i], "--baseline"))
			o.baseline = true;
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
		else if (!strncmp(argv[i], "--config=", 9))
			config = argv[i] + 9;
		else if (argv[i][0] == '-')
			kcve_die(KCVE_E_USAGE, "unknown option '%s', see 'kcve publish --help'", argv[i]);
		else if (!cve_id_valid(argv[i]))
			kcve_die(KCVE_E_USAGE, "'%s' is not a CVE id, expected CVE-YYYY-NNNNN", argv[i]);
		else
			cves[n++] = argv[i];
	}
	o.cves = cves;
	o.ncves = n;
	struct kcve_err err = {0};
	struct publish_config cfg;
	struct cve_tree *t = NULL;
	int rc = publish_config_load(&cfg, config, &err);
	if (!rc)
		rc = tree_open(&t, g->tree, &err);
	if (!rc) {
		struct publish_summary sum;
		rc = publish_run(t, &cfg, &o, &sum, &err);
		fflush(stdout);
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
