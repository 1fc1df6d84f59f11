/* kcve review: go through the commits of a stable release and vote on CVE candidates.
 *   kcve review RANGE [--auto [--vote]] [--reviewer NAME]
 *   kcve review --score [--review-dir DIR]
 *   kcve review --classify FILE...      (one commit message per file; quality measurement) */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_json.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "review/classify.h"
#include "review/range.h"
#include "review/score.h"
#include "review/session.h"
#include "store/tree.h"
#include "core/kjson.h"

struct review_args {
	const char *reviewer, *review_dir;
	bool autom, vote, score, classify, json;
};
#define A struct review_args
static const struct cli_option opts[] = {
	CLI_OPT_FLAG("auto", A, autom, "no questions: rank every commit with the rule-based classifier"),
	CLI_OPT_FLAG("vote", A, vote, "with --auto: write the candidates as this reviewer's votes"),
	CLI_OPT_STRING("reviewer", A, reviewer, "NAME", "name used in the vote file (default: $USER)"),
	CLI_OPT_FLAG("score", A, score,
		     "per reviewer: share of votes that became CVEs, CVE'd commits missed"),
	CLI_OPT_STRING("review-dir", A, review_dir, "DIR",
		       "with --score: the votes to read (default: cve/review/done)"),
	CLI_OPT_FLAG("classify", A, classify,
		     "score commit messages read from files (one message per file)"),
	CLI_OPT_FLAG("json", A, json,
		     "with --auto: [{\"score\", \"candidate\", \"upstream\", \"subject\", \"reasons\",\n"
		     "\"cve\" (null: none yet)}], highest score first"),
	CLI_OPT_END};
#undef A
static const struct cli_command review_cmd = {
	"review",
	"RANGE [--auto [--vote] [--json]] [--reviewer NAME]\n"
	"--score [--review-dir DIR]\n"
	"--classify FILE...",
	"  RANGE        stable release range, e.g. v6.1.74..v6.1.75\n",
	opts, false};

static const char *reviewer_name(const char *opt)
{
	if (opt && *opt)
		return opt;
	const char *u = getenv("USER");
	return u && *u ? u : "unknown";
}

/* Print text with risk words in red and benign words in green (terminal only). */
static void print_highlighted(FILE *out, const char *text, bool color)
{
	const char *line = text;
	for (const char *p = text; *p;) {
		if (*p == '\n') {
			fputc('\n', out);
			line = ++p;
			continue;
		}
		size_t n;
		if (color && (n = classify_risk_word_at(p, line))) {
			fprintf(out, "\033[1;31m%.*s\033[0m", (int)n, p);
			p += n;
		} else if (color && (n = classify_benign_word_at(p, line))) {
			fprintf(out, "\033[1;32m%.*s\033[0m", (int)n, p);
			p += n;
		} else {
			fputc(*p++, out);
		}
	}
	fputc('\n', out);
}

static int do_classify(int argc, char **argv)
{
	size_t flagged = 0, total = 0;
	for (int i = 0; i < argc; i++) {
		struct strbuf sb = STRBUF_INIT;
		if (read_file(argv[i], &sb) < 0) {
			int e = errno;
			sb_release(&sb);
			char *f = safe_printable(argv[i]);
			kcve_die(KCVE_E_IO, "cannot read %s (%s); give files holding one commit message each",
				 f, read_file_reason(e));
		}
		struct classify_input in = {sb_str(&sb), NULL, 0, 0};
		struct classify_result r;
		classify_commit(&in, &r);
		printf("%s\t%d\t%s\t%s\n", argv[i], r.score, r.candidate ? "candidate" : "no",
		       sb_str(&r.reasons));
		total++;
		flagged += r.candidate;
		classify_result_release(&r);
		sb_release(&sb);
	}
	fprintf(stderr, "kcve review: %zu of %zu messages flagged as candidates\n", flagged, total);
	return 0;
}

static int do_score(struct kcve_global *g, const char *review_dir)
{
	struct kcve_err err = {0};
	struct cve_tree *tree = NULL;
	if (tree_open(&tree, g->tree, &err))
		kcve_die(err.code, "%s", err.msg);
	char *dir = review_dir ? xstrdup(review_dir) : path_join(tree_root(tree), "cve/review/done");
	struct history *h = NULL;
	if (g->repo && history_open_ex(&h, g->repo, g->index, HISTORY_NO_UPDATE | HISTORY_QUIET,
				       NULL, &err) != 0)
		h = NULL; /* no repository: hit rates only */
	struct score_report rep;
	int rc = review_score(tree, h, dir, &rep, &err);
	if (rc)
		kcve_die(rc, "%s", err.msg);
	printf("Reviewer Accuracy Report (%s)\n", dir);
	printf("%zu vote files parsed, %zu non-vote lines\n\n", rep.files_parsed, rep.notes);
	printf("%-12s %6s %7s %6s %7s %9s %7s %7s\n", "reviewer", "files", "votes", "hits", "hit%",
	       "releases", "missed", "miss%");
	for (size_t i = 0; i < rep.n; i++) {
		const struct reviewer_score *s = &rep.v[i];
		printf("%-12s %6zu %7zu %6zu %6.1f%% %9zu", s->name, s->files, s->votes, s->hits,
		       s->votes ? 100.0 * (double)s->hits / (double)s->votes : 0.0, s->releases_checked);
		if (s->cve_commits)
			printf(" %7zu %6.1f%%\n", s->missed, 100.0 * (double)s->missed / (double)s->cve_commits);
		else
			printf(" %7s %7s\n", "n/a", "n/a");
	}
	score_report_release(&rep);
	free(dir);
	if (h)
		history_close(h);
	tree_close(tree);
	return 0;
}

struct ranked {
	size_t idx;
	int score;
	char *reasons;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->score != y->score)
		return y->score - x->score;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int do_auto(struct review_range *r, struct cve_tree *tree, struct review_session *s,
		   bool vote, bool json)
{
	json_t *out = json ? json_array() : NULL;
	struct ranked *rk = xcalloc(r->n ? r->n : 1, sizeof(*rk));
	for (size_t i = 0; i < r->n; i++) {
		struct classify_input in = {r->v[i].message, (const char *const *)r->v[i].paths,
					    r->v[i].npaths, r->v[i].nparents};
		struct classify_result res;
		classify_commit(&in, &res);
		rk[i].idx = i;
		rk[i].score = res.score;
		rk[i].reasons = sb_detach(&res.reasons);
	}
	qsort(rk, r->n, sizeof(*rk), cmp_ranked);
	size_t cands = 0;
	struct kcve_err err = {0};
	for (size_t i = 0; i < r->n; i++) {
		struct range_commit *c = &r->v[rk[i].idx];
		struct cve_entry e;
		bool has = tree_find_sha(tree, c->upstream, &e) == 0;
		bool cand = rk[i].score >= CLASSIFY_THRESHOLD;
		cands += cand;
		if (out)
			json_array_append_new(out, kj_pack(
				"{s:i, s:b, s:s, s:s, s:s, s:o}", "score", rk[i].score, "candidate",
				cand, "upstream", c->upstream, "subject", c->subject ? c->subject : "",
				"reasons", rk[i].reasons ? rk[i].reasons : "", "cve",
				has ? kj_str(e.id) : json_null()));
		else
			printf("%3d %-9s %.12s %s\n    %s%s%s\n", rk[i].score,
			       cand ? "candidate" : "-", c->upstream, c->subject, rk[i].reasons,
			       has ? "; already " : "", has ? e.id : "");
		if (has)
			cve_entry_release(&e);
		if (vote && s && (cand || has) &&
		    session_answer(s, c, true, has ? "[auto: cve already created]" : NULL, &err))
			kcve_die(err.code, "%s", err.msg);
		free(rk[i].reasons);
	}
	fprintf(stderr, "kcve review: %zu commits, %zu candidates%s\n", r->n, cands,
		vote && s ? "; votes written to the vote file" : "");
	free(rk);
	return out ? cli_json_print(out) : 0;
}

static int do_interactive(struct review_range *r, struct cve_tree *tree, struct review_session *s)
{
	struct kcve_err err = {0};
	bool color = cli_use_color(stdout);
	size_t asked = 0, skipped = 0;
	for (size_t i = 0; i < r->n; i++) {
		struct range_commit *c = &r->v[i];
		if (session_processed(s, c->id)) {
			skipped++;
			continue;
		}
		struct cve_entry e;
		if (tree_find_sha(tree, c->upstream, &e) == 0) {
			cve_entry_release(&e);
			if (session_answer(s, c, true, "[auto: cve already created]", &err))
				kcve_die(err.code, "%s", err.msg);
			continue;
		}
		printf("\n[%zu/%zu] commit %s (upstream %.12s)\n", i + 1, r->n, c->id, c->upstream);
		print_highlighted(stdout, c->message, color);
		for (size_t k = 0; k < c->npaths && k < 20; k++)
			printf("  %s\n", c->paths[k]);
		for (;;) {
			printf("Assign a CVE? [y/N/q] ");
			fflush(stdout);
			char buf[64];
			if (!fgets(buf, sizeof buf, stdin)) {
				printf("\n");
				return 0; /* EOF: stop like 'q'; progress is saved */
			}
			char a = buf[0];
			if (a == 'q' || a == 'Q') {
				printf("stopped; rerun the same command to resume\n");
				return 0;
			}
			if (a == 'y' || a == 'Y' || a == 'n' || a == 'N' || a == '\n') {
				if (session_answer(s, c, a == 'y' || a == 'Y', NULL, &err))
					kcve_die(err.code, "%s", err.msg);
				asked++;
				break;
			}
		}
	}
	printf("review of %s complete: %zu answered now, %zu done earlier; votes in %s\n", r->top,
	       asked, skipped, s->votes_path);
	return 0;
}

int cmd_review(int argc, char **argv, struct kcve_global *g)
{
	struct review_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &review_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	bool autom = a.autom, vote = a.vote, score = a.score, classify = a.classify, json = a.json;
	const char *who = a.reviewer, *review_dir = a.review_dir;
	char **ops;
	int nops = cli_done(&p, &ops, 0, -1, "");
	if (classify) {
		if (!nops)
			cli_usage_error(&p, "--classify needs files holding commit messages");
		return do_classify(nops, ops);
	}
	if (score) {
		if (nops)
			cli_usage_error(&p, "--score takes no RANGE, drop '%s'", ops[0]);
		return do_score(g, review_dir);
	}
	if (nops != 1)
		cli_usage_error(&p, "review needs exactly one RANGE such as v6.1.74..v6.1.75");
	if ((vote || json) && !autom)
		cli_usage_error(&p, "--vote and --json only go with --auto");
	struct kcve_err err = {0};
	struct cve_tree *tree = NULL;
	if (tree_open(&tree, g->tree, &err))
		kcve_die(err.code, "%s", err.msg);
	struct history *h = NULL;
	if (history_open(&h, g->repo, g->index, &err))
		kcve_die(err.code, "%s", err.msg);
	struct review_range r;
	if (review_range_load(h, ops[0], true, &r, &err))
		kcve_die(err.code, "%s", err.msg);
	struct review_session s;
	bool need_session = !autom || vote;
	if (need_session && session_open(&s, tree_root(tree), r.top, reviewer_name(who), &err))
		kcve_die(err.code, "%s", err.msg);
	int rc = autom ? do_auto(&r, tree, need_session ? &s : NULL, vote, json)
		       : do_interactive(&r, tree, &s);
	if (need_session)
		session_close(&s);
	review_range_release(&r);
	history_close(h);
	tree_close(tree);
	return rc;
}
