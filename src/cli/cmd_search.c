/* kcve search: CVE id -> fix commit(s), or (short) sha -> CVE, published and rejected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"
#include "cli_store.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/sha.h"
#include "core/xalloc.h"
#include "store/tree_internal.h"
#include "core/kjson.h"

struct search_args {
	bool json;
};
static const struct cli_option search_opts[] = {
	CLI_OPT_FLAG("json", struct search_args, json,
		     "one array of {\"query\", \"cve\", \"state\", \"sha\" (null: no fix commit)}"),
	CLI_OPT_END};
static const struct cli_command search_cmd = {
	"search", "[--json] SHA|CVE-ID...",
	"For a CVE id print \"<CVE> is assigned to git id <sha>\" per fix commit; for a\n"
	"full or short (>= 4 hex) sha print the CVEs whose .sha1 names it. Rejected ids\n"
	"are marked \"(rejected)\". Exit status 7 when something is not found.\n",
	search_opts, false};

static const char *state_note(enum cve_state s)
{
	switch (s) {
	case CVE_PUBLISHED: return "";
	case CVE_REJECTED: return " (rejected)";
	case CVE_RESERVED: return " (reserved)";
	case CVE_RETURNED: return " (returned)";
	}
	return "";
}

/* One answer: a text line, or with --json an element of out. */
struct hit_ctx {
	json_t *out; /* NULL: text */
	const char *query;
	const struct cve_entry *e;
	int rc; /* a refused record */
};

static void hit(struct hit_ctx *c, const struct cve_entry *e, const char *sha, size_t len)
{
	if (!c->out) {
		if (sha)
			printf("%s is assigned to git id %.*s%s\n", e->id, (int)len, sha,
			       state_note(e->state));
		else
			printf("%s is %s with no fix commit\n", e->id, cve_state_dir(e->state));
		return;
	}
	json_array_append_new(c->out, kj_pack("{s:s, s:s, s:s, s:o}", "query", c->query, "cve",
						e->id, "state", cve_state_dir(e->state), "sha",
						sha ? kj_strn(sha, len) : json_null()));
}

/* A record whose JSON names another CVE (or no CVE id) is refused as check refuses it. */
static bool refused(struct hit_ctx *c, const struct cve_entry *e)
{
	struct kcve_err err = {0};
	if (!tree_record_id_check(e, &err))
		return false;
	kcve_error("%s", err.msg);
	c->rc = err.code;
	return true;
}

static int sha_cb(const struct cve_entry *e, const char *sha40, void *ctx)
{
	if (refused(ctx, e))
		return 1;
	hit(ctx, e, sha40, strlen(sha40));
	return 0;
}

/* A line of a .sha1 file: a git id, else (text a terminal must not see) skipped with a
 * warning; kcve verify names it. */
static void print_line(const char *line, size_t len, void *ctx)
{
	struct hit_ctx *c = ctx;
	if (len == 40 && hex_run(line) >= 40) {
		hit(c, c->e, line, len);
		return;
	}
	char *q = xstrndup(line, len < 64 ? len : 64);
	char *pq = safe_printable(q);
	kcve_warn("%s.sha1: '%s' is not a git id, skipped (run kcve verify)", c->e->id, pq);
	free(pq);
	free(q);
}

static int search_one(struct cve_tree *t, const char *arg, json_t *out)
{
	struct hit_ctx c = {out, arg, NULL, 0};
	if (cve_id_valid(arg)) {
		struct cve_entry e;
		if (tree_find_cve(t, arg, &e)) {
			kcve_error("CVE id not found, %s, check the id (reserved ids are in 'kcve "
				   "reserve list')", arg);
			return KCVE_E_NOTFOUND;
		}
		if (refused(&c, &e)) {
			cve_entry_release(&e);
			return c.rc;
		}
		char *p = tree_cve_path(&e, ".sha1");
		struct strbuf sb = STRBUF_INIT;
		c.e = &e;
		if (read_file(p, &sb) == 0 && sb.len)
			text_foreach_line(sb.buf, print_line, &c);
		else
			hit(&c, &e, NULL, 0);
		sb_release(&sb);
		free(p);
		cve_entry_release(&e);
		return 0;
	}
	size_t n = strlen(arg);
	if (n < 4 || n > 40 || hex_run(arg) != n) {
		kcve_error("not a CVE id or a git sha, %s, pass CVE-YYYY-NNNNN or a hex id", arg);
		return KCVE_E_USAGE;
	}
	int found = tree_find_sha_prefix(t, arg, sha_cb, &c);
	if (c.rc)
		return c.rc;
	if (found <= 0) {
		kcve_error("no CVE is assigned to this commit, %s, not found", arg);
		return KCVE_E_NOTFOUND;
	}
	return 0;
}

int cmd_search(int argc, char **argv, struct kcve_global *g)
{
	struct cli_parser p;
	cli_begin(&p, &search_cmd, argc, argv, g);
	struct search_args a = {0};
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	json_t *out = a.json ? json_array() : NULL;
	char **ops;
	int n = cli_done(&p, &ops, 1, -1, "SHA or CVE-ID");
	struct cve_tree *t = cli_open_tree(g);
	int rc = 0;
	for (int i = 0; i < n; i++) {
		int r = search_one(t, ops[i], out);
		if (r && !rc)
			rc = r;
	}
	tree_close(t);
	if (out) {
		int jrc = cli_json_print(out);
		if (!rc)
			rc = jrc;
	}
	return rc;
}
