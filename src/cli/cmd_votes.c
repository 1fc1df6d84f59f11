/* kcve votes: tally the reviewers' vote files for a stable release range.
 *   kcve votes RANGE [--min-agree N]     grouped report
 *   kcve votes RANGE --emit [--min-agree N]   agreed upstream ids, for 'kcve create --batch -'
 *   kcve votes RANGE --done              move the range's vote files to cve/review/done/vX.Y/ */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "review/range.h"
#include "review/tally.h"
#include "store/tree.h"
#include "core/kjson.h"
#include "core/text.h"

struct votes_args {
	long min_agree;
	bool emit, done, json;
};
static const struct cli_option opts[] = {
	CLI_OPT_NUMBER("min-agree", struct votes_args, min_agree, "N", 1, 32,
		       "votes needed for a commit to be agreed (default 2)"),
	CLI_OPT_FLAG("emit", struct votes_args, emit,
		     "print the agreed upstream ids without a CVE, one per line"),
	CLI_OPT_FLAG("done", struct votes_args, done,
		     "move the range's vote files to cve/review/done/vX.Y/"),
	CLI_OPT_FLAG("json", struct votes_args, json,
		     "{\"reviewers\": [...], \"min_agree\", \"commits\": [{\"upstream\",\n"
		     "\"subject\", \"cve\" (null: none yet), \"voters\": [...], \"agreed\"}]}\n"
		     "(the commits someone voted for)"),
	CLI_OPT_END};
static const struct cli_command votes_cmd = {
	"votes", "RANGE [--min-agree N] [--emit | --done | --json]",
	"Tally the reviewers' vote files of a stable release range (A..B).\n",
	opts, false};

static void names(const struct tally *t, unsigned long mask, char *out, size_t outsz)
{
	out[0] = '\0';
	size_t len = 0;
	for (size_t i = 0; i < t->nreviewers; i++)
		if (mask & (1UL << i))
			len += (size_t)text_snprintf(out + len, len < outsz ? outsz - len : 0, "%s%s",
						len ? " " : "", t->reviewers[i]);
}

static int cmp_mask(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
	int px = __builtin_popcountl(x), py = __builtin_popcountl(y);
	if (px != py)
		return py - px;
	return x < y ? -1 : x > y;
}

static void report(const struct tally *t, const struct review_range *r, int min_agree)
{
	printf("Reviewers: ");
	for (size_t i = 0; i < t->nreviewers; i++)
		printf("%s%s", i ? " " : "", t->reviewers[i]);
	printf("\n\nAlready assigned a CVE\n");
	for (size_t i = 0; i < r->n; i++)
		if (t->rows[i].cve[0] && t->rows[i].nvoters)
			printf("  %s %.12s %s\n", t->rows[i].cve, r->v[i].upstream, r->v[i].subject);
	/* distinct voter sets, largest first */
	unsigned long *masks = xcalloc(r->n ? r->n : 1, sizeof(*masks));
	size_t nm = 0;
	for (size_t i = 0; i < r->n; i++) {
		unsigned long m = t->rows[i].voters;
		if (!m || t->rows[i].cve[0])
			continue;
		bool seen = false;
		for (size_t k = 0; k < nm && !seen; k++)
			seen = masks[k] == m;
		if (!seen)
			masks[nm++] = m;
	}
	qsort(masks, nm, sizeof(*masks), cmp_mask);
	unsigned long all = t->nreviewers >= 64 ? ~0UL : (1UL << t->nreviewers) - 1;
	for (size_t k = 0; k < nm; k++) {
		char who[1024];
		names(t, masks[k], who, sizeof who);
		int n = __builtin_popcountl(masks[k]);
		if (masks[k] == all && n > 1)
			printf("\nEveryone agrees (%s)%s\n", who, n >= min_agree ? " [agreed]" : "");
		else if (n > 1)
			printf("\n%s agree%s\n", who, n >= min_agree ? " [agreed]" : "");
		else
			printf("\n%s only%s\n", who, n >= min_agree ? " [agreed]" : "");
		for (size_t i = 0; i < r->n; i++)
			if (t->rows[i].voters == masks[k] && !t->rows[i].cve[0])
				printf("  %.12s %s\n", r->v[i].upstream, r->v[i].subject);
	}
	free(masks);
}

static int move_done(struct cve_tree *tree, struct tally *t, const char *tag)
{
	unsigned a, b;
	if (sscanf(tag, "v%u.%u", &a, &b) != 2)
		kcve_die(KCVE_E_USAGE, "cannot tell the branch of tag '%s'; expected vX.Y or vX.Y.Z", tag);
	char sub[64];
	text_snprintf(sub, sizeof sub, "cve/review/done/v%u.%u", a, b);
	char *dir = path_join(tree_root(tree), sub);
	struct kcve_err err = {0};
	if (tree_lock(tree, &err))
		kcve_die(err.code, "%s", err.msg);
	if (mkdir_p(dir, 0755) < 0)
		kcve_die(KCVE_E_IO, "cannot create %s: %s", dir, strerror(errno));
	size_t moved = 0;
	for (size_t i = 0; i < t->nfiles; i++) {
		if (!strstr(t->paths[i], "/cve/review/proposed/"))
			continue;
		const char *base = strrchr(t->paths[i], '/') + 1;
		char *dst = path_join(dir, base);
		if (rename(t->paths[i], dst) < 0)
			kcve_die(KCVE_E_IO, "cannot move %s to %s: %s", t->paths[i], dst, strerror(errno));
		printf("%s -> %s/%s\n", base, sub, base);
		free(dst);
		moved++;
	}
	fsync_parent_dir(t->paths[0]);
	char *probe = path_join(dir, ".");
	fsync_parent_dir(probe);
	free(probe);
	tree_unlock(tree);
	free(dir);
	fprintf(stderr, "kcve votes: %zu vote files marked done\n", moved);
	return 0;
}

int cmd_votes(int argc, char **argv, struct kcve_global *g)
{
	struct votes_args a = {.min_agree = 2};
	struct cli_parser p;
	cli_begin(&p, &votes_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	int min_agree = (int)a.min_agree;
	bool emit = a.emit, done = a.done, json = a.json;
	char **ops;
	cli_done(&p, &ops, 1, 1, "a Git range such as v6.1.74..v6.1.75");
	if ((int)emit + (int)done + (int)json > 1)
		cli_usage_error(&p, "--emit, --done and --json do not go together");
	const char *range = ops[0];
	const char *dots = strstr(range, "..");
	if (!dots || !dots[2])
		cli_usage_error(&p, "Unrecognized argument '%s': expected a range A..B", range);
	struct kcve_err err = {0};
	struct cve_tree *tree = NULL;
	if (tree_open(&tree, g->tree, &err))
		kcve_die(err.code, "%s", err.msg);
	struct tally t;
	if (tally_load(&t, tree_root(tree), dots + 2, false, &err))
		kcve_die(err.code, "%s", err.msg);
	if (done) {
		int rc = move_done(tree, &t, dots + 2);
		tally_release(&t);
		tree_close(tree);
		return rc;
	}
	struct history *h = NULL;
	if (history_open(&h, g->repo, g->index, &err))
		kcve_die(err.code, "%s", err.msg);
	struct review_range r;
	if (review_range_load(h, range, false, &r, &err))
		kcve_die(err.code, "%s", err.msg);
	tally_compute(&t, &r, tree);
	int rc = 0;
	if (emit) {
		for (size_t i = 0; i < r.n; i++)
			if (t.rows[i].nvoters >= min_agree && !t.rows[i].cve[0])
				printf("%s %s\n", r.v[i].upstream, r.v[i].subject);
	} else if (json) {
		json_t *rv = json_array(), *cs = json_array();
		for (size_t i = 0; i < t.nreviewers; i++)
			json_array_append_new(rv, kj_str(t.reviewers[i]));
		for (size_t i = 0; i < r.n; i++) {
			if (!t.rows[i].nvoters)
				continue;
			json_t *who = json_array();
			for (size_t k = 0; k < t.nreviewers; k++)
				if (t.rows[i].voters & (1UL << k))
					json_array_append_new(who, kj_str(t.reviewers[k]));
			json_array_append_new(cs, kj_pack(
				"{s:s, s:s, s:o, s:o, s:b}", "upstream", r.v[i].upstream, "subject",
				r.v[i].subject ? r.v[i].subject : "", "cve", cli_json_str_or_null(t.rows[i].cve), "voters", who,
				"agreed", t.rows[i].nvoters >= min_agree && !t.rows[i].cve[0]));
		}
		rc = cli_json_print(kj_pack("{s:o, s:i, s:o}", "reviewers", rv, "min_agree",
					      min_agree, "commits", cs));
	} else {
		report(&t, &r, min_agree);
	}
	review_range_release(&r);
	tally_release(&t);
	history_close(h);
	tree_close(tree);
	return rc;
}
