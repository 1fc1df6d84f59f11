/* kcve foreign: classify kernel CVE records assigned by other CNAs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "maintainers/foreign.h"
#include "policy/branches.h"
#include "store/tree.h"
#include "core/kjson.h"
#include "core/text.h"

struct foreign_args {
	const char *supported, *kernel_org;
	bool json;
};
static const struct cli_option opts[] = {
	CLI_OPT_STRING("supported", struct foreign_args, supported, "6.12,6.6,...",
		       "the supported branches when the record tree has no branch data"),
	CLI_OPT_STRING("kernel-org", struct foreign_args, kernel_org, "UUID",
		       "the assigner id of the kernel CNA (default: kernel.org's)"),
	CLI_OPT_FLAG("json", struct foreign_args, json,
		     "[{\"file\", \"cve\", \"class\", \"assigner\", \"duplicate_of\", \"sha\", \"reason\"}]"),
	CLI_OPT_END};
static const struct cli_command foreign_cmd = {
	"foreign", "FILE.json|DIR... [--supported 6.12,6.6,...] [--kernel-org UUID] [--json]",

	"Classify CVE JSON 5 records of other assigners that name the Linux kernel, one line\n"
	"each: 'CVE<TAB>class<TAB>assigner<TAB>reason' with class duplicate (same fix as a\n"
	"kernel CVE), invalid (upstream kernel, supported branch: CNA remediation), not-ours\n"
	"(distribution kernel or unsupported versions), kernel-cna or not-kernel.\n"
	"Supported branches come from the record tree (kcve branches import), else --supported.\n"
	"Exit 0; a record that cannot be read is reported on stderr and gives exit 13 at the end.\n",
	opts, false};

struct ctx {
	struct cve_tree *t;
};

struct prefix_hit {
	char cve[32];
};

static int prefix_cb(const struct cve_entry *e, const char *sha40, void *ctx)
{
	(void)sha40;
	struct prefix_hit *h = ctx;
	text_snprintf(h->cve, sizeof(h->cve), "%s", e->id);
	return 0;
}

static int find_cve(void *vc, const char *sha, char cve[32])
{
	struct ctx *c = vc;
	if (!c->t)
		return KCVE_E_NOTFOUND;
	struct cve_entry e;
	if (strlen(sha) == 40) {
		if (tree_find_sha(c->t, sha, &e) != 0)
			return KCVE_E_NOTFOUND;
		text_snprintf(cve, 32, "%s", e.id);
		cve_entry_release(&e);
		return 0;
	}
	/* a short id: only an unambiguous prefix counts */
	struct prefix_hit hit = {0};
	if (strlen(sha) >= 12 && tree_find_sha_prefix(c->t, sha, prefix_cb, &hit) == 1) {
		text_snprintf(cve, 32, "%s", hit.cve);
		return 0;
	}
	return KCVE_E_NOTFOUND;
}

static int one(const char *path, const struct foreign_oracle *o, const char *org, json_t *out)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		kcve_error("cannot read the record, %s, check the path", path);
		sb_release(&sb);
		return KCVE_E_NOTFOUND;
	}
	struct foreign_result r;
	struct kcve_err err = {0};
	int rc = foreign_classify(sb.buf ? sb.buf : "", sb.len, org, o, &r, &err);
	sb_release(&sb);
	if (rc) {
		kcve_error("%s, %s, give a CVE JSON 5 record", err.msg, path);
		return rc;
	}
	if (out)
		json_array_append_new(out, kj_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:s}", "file", path,
						     "cve", r.cve, "class", foreign_kind_name(r.kind),
						     "assigner", r.assigner, "duplicate_of",
						     cli_json_str_or_null(r.duplicate_of), "sha",
						     cli_json_str_or_null(r.sha), "reason",
						     sb_str(&r.why)));
	else
		printf("%s\t%s\t%s\t%s\n", r.cve, foreign_kind_name(r.kind), r.assigner,
		       sb_str(&r.why));
	foreign_result_release(&r);
	return 0;
}

int cmd_foreign(int argc, char **argv, struct kcve_global *g)
{
	const char *supported = NULL, *org = KERNEL_CNA_ORG;
	json_t *out = NULL;
	struct cli_parser p;
	cli_begin(&p, &foreign_cmd, argc, argv, g);
	struct foreign_args a = {.kernel_org = KERNEL_CNA_ORG};
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	supported = a.supported;
	org = a.kernel_org;
	if (a.json)
		out = json_array();
	char **inputs;
	size_t nin = (size_t)cli_done(&p, &inputs, 1, -1, "a record: FILE.json or DIR");
	struct ctx c = {0};
	struct kcve_err err = {0};
	if (tree_open(&c.t, g->tree, &err) != 0)
		c.t = NULL;   /* no tree: duplicates cannot be detected, said below */
	char **branches = NULL;
	size_t nb = 0, ab = 0;
	struct branch_policy bp = {0};
	if (c.t && branch_policy_load(&bp, tree_root(c.t), &err) == 0 && bp.has_data && !supported) {
		time_t now = (time_t)clock_now();
		for (size_t i = 0; i < bp.n; i++) {
			if (branch_policy_supported(&bp, bp.v[i].branch, now)) {
				XGROW(branches, nb + 1, ab);
				branches[nb++] = xstrdup(bp.v[i].branch);
			}
		}
	} else if (supported) {
		char *s = xstrdup(supported), *save = NULL;
		for (char *tok = strtok_r(s, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			XGROW(branches, nb + 1, ab);
			branches[nb++] = xstrdup(tok);
		}
		free(s);
	} else {
		kcve_die(KCVE_E_USAGE, "no supported-branch data, kcve foreign, run 'kcve branches import "
		         "releases.json' in the tree or pass --supported 6.12,6.6,...");
	}
	branch_policy_release(&bp);
	if (!c.t)
		kcve_warn("no record tree found: duplicates of kernel CVEs cannot be detected (pass --tree)");
	struct foreign_oracle o = {find_cve, &c, (const char *const *)branches, nb};
	int worst = 0;
	for (size_t i = 0; i < nin; i++) {
		if (is_dir(inputs[i])) {
			DIR *d = opendir(inputs[i]);
			if (!d) {
				kcve_error("cannot open the directory, %s, check the path", inputs[i]);
				worst = KCVE_E_NOTFOUND;
				continue;
			}
			char **names = NULL;
			size_t nn = 0, an = 0;
			struct dirent *de;
			while ((de = readdir(d))) {
				size_t l = strlen(de->d_name);
				if (l > 5 && strcmp(de->d_name + l - 5, ".json") == 0) {
					XGROW(names, nn + 1, an);
					names[nn++] = path_join(inputs[i], de->d_name);
				}
			}
			closedir(d);
			if (nn > 1)
				qsort(names, nn, sizeof(*names), cmp_str);
			for (size_t k = 0; k < nn; k++) {
				int rc = one(names[k], &o, org, out);
				if (rc)
					worst = KCVE_E_PARSE;
				free(names[k]);
			}
			free(names);
		} else if (one(inputs[i], &o, org, out)) {
			worst = KCVE_E_PARSE;
		}
	}
	for (size_t i = 0; i < nb; i++)
		free(branches[i]);
	free(branches);
	if (c.t)
		tree_close(c.t);
	if (out) {
		int jrc = cli_json_print(out);
		if (!worst)
			worst = jrc;
	}
	return worst;
}
