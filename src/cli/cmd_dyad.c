/* kcve dyad: vulnerable:fixed pairs of one CVE's fix commits (the anchor's .dyad output),
 * or of many CVEs in one process with --batch. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "history/dyad.h"
#include "history/history.h"
#include "store/tree.h"
#include "core/fileio.h"
#include "core/kjson.h"

struct dyad_opts {
	const char *batch;
	bool json;
};
static const struct cli_option opts[] = {
	CLI_OPT_LOGIC("vulnerable", 'v', "SHA", "explicit introducing commit (repeatable)"),
	CLI_OPT_LOGIC("sha1", 's', "SHA", "a fix commit (same as a positional SHA)"),
	CLI_OPT_STRING("batch", struct dyad_opts, batch, "FILE",
		       "one CVE per line ('-' = stdin): an optional CVE id, fix\n"
		       "shas, and '-v SHA' for introducing commits; '#' lines\n"
		       "and blank lines are skipped. Each CVE's output starts\n"
		       "with a line '## <CVE id or \"line N\">'; a CVE that\n"
		       "fails is reported on stderr and the run continues\n"
		       "(exit status: the first failure's code)."),
	CLI_OPT_FLAG("json", struct dyad_opts, json,
		     "{\"pairs\": [{\"vulnerable_version\", \"vulnerable_commit\", \"fixed_version\",\n"
		     "\"fixed_commit\"}]} (null: unknown / not fixed)"),
	CLI_OPT_END};
static const struct cli_command dyad_cmd = {
	"dyad", "[--vulnerable SHA]... [--json] SHA...\n--batch FILE",
	"Print the vulnerable:fixed pairs (V:VG:F:FG lines after '#' header lines) of\n"
	"the fix commit(s) SHA (the first is the main fix; short ids accepted).\n"
	"With --tree (or $KCVE_TREE), scripts/not_fixes and scripts/not_reverts of the\n"
	"record tree are honoured.\n",
	opts, false};

struct args {
	const char **fixes, **vulns;
	size_t nfixes, nvulns, afixes, avulns;
};

static void args_add(const char ***v, size_t *n, size_t *alloc, const char *s)
{
	XGROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = s;
}

static json_t *zero_null(const char *s)
{
	return strcmp(s, "0") ? kj_str(s) : json_null();
}

/* The pairs as JSON ("0" = unknown / not fixed becomes null). */
static json_t *pairs_json(const struct dyad_list *l)
{
	json_t *a = json_array();
	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(a, kj_pack("{s:o, s:o, s:o, s:o}", "vulnerable_version",
						   zero_null(l->v[i].vver), "vulnerable_commit",
						   zero_null(l->v[i].vsha), "fixed_version",
						   zero_null(l->v[i].fver), "fixed_commit",
						   zero_null(l->v[i].fsha)));
	return kj_pack("{s:o}", "pairs", a);
}

static int run_one(struct history *h, const struct args *a, struct strbuf *out, json_t **json,
		   struct kcve_err *err)
{
	struct dyad_request req = {a->fixes, a->nfixes, a->vulns, a->nvulns};
	struct dyad_list pairs;
	dyad_list_init(&pairs);
	struct strbuf header = STRBUF_INIT;
	int rc = dyad_compute(h, &req, &pairs, &header, err);
	if (!rc && json) {
		*json = pairs_json(&pairs);
	} else if (!rc) {
		sb_add(out, header.buf ? header.buf : "", header.len);
		dyad_format_pairs(&pairs, out);
	}
	sb_release(&header);
	dyad_list_release(&pairs);
	return rc;
}

static bool is_cve_id(const char *s)
{
	return strncmp(s, "CVE-", 4) == 0;
}

static int run_batch(struct history *h, const char *path)
{
	struct strbuf in = STRBUF_INIT, out = STRBUF_INIT;
	/* the bounded reader: a regular file or standard input ("-"), at most 64 MiB */
	if (read_file(strcmp(path, "-") == 0 ? "/dev/stdin" : path, &in) < 0)
		kcve_die(errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO, "cannot read the batch file %s: %s",
			 path, read_file_reason(errno));
	int first_rc = 0;
	size_t lineno = 0;
	char *next = in.buf ? in.buf : (char[]){""};
	while (*next) {
		char *line = next;
		char *nl = strchr(line, '\n');
		if (nl) {
			*nl = '\0';
			next = nl + 1;
		} else {
			next = line + strlen(line);
		}
		lineno++;
		struct args a = {0};
		const char *label = NULL;
		char *tsave = NULL;
		bool comment = false, want_v = false;
		for (char *tok = strtok_r(line, " \t\r", &tsave); tok; tok = strtok_r(NULL, " \t\r", &tsave)) {
			if (!a.nfixes && !a.nvulns && !label && tok[0] == '#') {
				comment = true;
				break;
			}
			if (want_v) {
				args_add(&a.vulns, &a.nvulns, &a.avulns, tok);
				want_v = false;
			} else if (strcmp(tok, "-v") == 0 || strcmp(tok, "--vulnerable") == 0) {
				want_v = true;
			} else if (!label && !a.nfixes && is_cve_id(tok)) {
				label = tok;
			} else {
				args_add(&a.fixes, &a.nfixes, &a.afixes, tok);
			}
		}
		if (comment || (!a.nfixes && !a.nvulns && !label)) {
			free(a.fixes);
			free(a.vulns);
			continue;
		}
		if (label)
			sb_addf(&out, "## %s\n", label);
		else
			sb_addf(&out, "## line %zu\n", lineno);
		struct kcve_err err = {0};
		int rc = want_v ? kcve_err_set(&err, KCVE_E_USAGE, "'-v' needs a sha") : run_one(h, &a, &out, NULL, &err);
		if (rc) {
			kcve_error("%s: %s", label ? label : "batch line", err.msg);
			if (!first_rc)
				first_rc = rc;
		}
		free(a.fixes);
		free(a.vulns);
		if (out.len > (1u << 20)) {
			fwrite(out.buf, 1, out.len, stdout);
			sb_reset(&out);
		}
	}
	fwrite(out.buf ? out.buf : "", 1, out.len, stdout);
	sb_release(&out);
	sb_release(&in);
	return first_rc;
}

int cmd_dyad(int argc, char **argv, struct kcve_global *g)
{
	struct args a = {0};
	struct dyad_opts o = {0};
	struct cli_parser p;
	cli_begin(&p, &dyad_cmd, argc, argv, g);
	cli_bind(&p, &o);
	for (int c; (c = cli_next(&p)) != -1;) {
		if (c == 'v')
			args_add(&a.vulns, &a.nvulns, &a.avulns, p.arg);
		else if (c == 's')
			args_add(&a.fixes, &a.nfixes, &a.afixes, p.arg);
	}
	const char *batch = o.batch;
	bool json = o.json;
	char **ops;
	int nops = cli_done(&p, &ops, 0, -1, "");
	for (int i = 0; i < nops; i++)
		args_add(&a.fixes, &a.nfixes, &a.afixes, ops[i]);
	const char *bad = !batch && a.nfixes == 0 ? "no fix commit given, pass SHA..."
			  : batch && (a.nfixes || a.nvulns)
				  ? "--batch takes its commits from the file; drop the other arguments"
				  : NULL;
	if (bad) {
		free(a.fixes);
		free(a.vulns);
		cli_usage_error(&p, "%s", bad);
	}

	struct history *h;
	struct kcve_err err = {0};
	if (history_open(&h, g->repo, g->index, &err)) {
		kcve_error("%s", err.msg);
		free(a.fixes);
		free(a.vulns);
		return err.code;
	}
	/* not_fixes / not_reverts come from the record tree: --tree or $KCVE_TREE, else the tree
	 * the current directory is in (like the anchor's vulns-dir discovery), else none */
	struct cve_tree *tree = NULL;
	const char *root = g->tree;
	if (!root) {
		struct kcve_err terr = {0};
		if (tree_open(&tree, NULL, &terr) == 0)
			root = tree_root(tree);
	}
	int lrc = root ? history_load_exclusions(h, root, &err) : 0;
	if (tree)
		tree_close(tree);
	if (lrc) {
		kcve_error("%s", err.msg);
		history_close(h);
		free(a.fixes);
		free(a.vulns);
		return err.code;
	}
	int rc;
	if (batch) {
		rc = run_batch(h, batch);
	} else {
		struct strbuf out = STRBUF_INIT;
		json_t *doc = NULL;
		rc = run_one(h, &a, &out, json ? &doc : NULL, &err);
		if (rc)
			kcve_error("%s", err.msg);
		else if (doc)
			rc = cli_json_print(doc);
		else
			fwrite(out.buf ? out.buf : "", 1, out.len, stdout);
		sb_release(&out);
	}
	free(a.fixes);
	free(a.vulns);
	history_close(h);
	return rc;
}
