/* kcve review: go through the commits of a stable release and vote on CVE candidates.
 *   kcve review RANGE [--auto [--vote]] [--reviewer NAME]
 *   kcve review --score [--review-dir DIR]
 *   kcve review --classify [--json] FILE...   (one commit message per file; quality measurement)
 * Scores come from the learned model (review/model.h): the built-in one, or --model FILE. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_json.h"
#include "cli_report.h"
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
	const char *reviewer, *review_dir, *model, *threshold;
	bool autom, vote, score, classify, json;
};
#define A struct review_args
static const struct cli_option opts[] = {
	CLI_OPT_FLAG("auto", A, autom, "no questions: rank every commit by the learned classifier's score"),
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
		     "\"cve\" (null: none yet)}], highest score first; with --classify:\n"
		     "[{\"path\", \"score\", \"candidate\", \"reasons\", \"features\"}]"),
	CLI_OPT_STRING("threshold", A, threshold, "P",
		       "with --auto/--classify: candidate when the score (a probability) is at\n"
		       "least P, 0 < P < 1 (default: the model's, chosen for recall 0.85+)"),
	CLI_OPT_STRING("model", A, model, "FILE",
		       "score with this model file (tools/review-model.py) instead of the built-in one"),
	CLI_OPT_END};
#undef A
static const struct cli_command review_cmd = {
	"review",
	"RANGE [--auto [--vote] [--json]] [--threshold P] [--model FILE] [--reviewer NAME]\n"
	"--score [--review-dir DIR]\n"
	"--classify [--json] [--threshold P] [--model FILE] FILE...",
	"  RANGE        stable release range, e.g. v6.1.74..v6.1.75\n",
	opts, false};

static const char *reviewer_name(const char *opt)
{
	if (opt && *opt)
		return opt;
	const char *u = getenv("USER");
	return u && *u ? u : "unknown";
}

/* Print text with the words the model weighs for a CVE in red, against in green (terminal). */
static void print_highlighted(FILE *out, const struct review_model *m, const char *text, bool color)
{
	const char *line = text;
	for (const char *p = text; *p;) {
		if (*p == '\n') {
			fputc('\n', out);
			line = ++p;
			continue;
		}
		size_t n;
		int sign = 0;
		if (color && (n = classify_weighty_word_at(m, p, line, 0.3, &sign))) {
			fprintf(out, "\033[1;%dm%.*s\033[0m", sign > 0 ? 31 : 32, (int)n, p);
			p += n;
		} else {
			fputc(*p++, out);
		}
	}
	fputc('\n', out);
}

static void load_model(const char *path, struct review_model *m)
{
	struct kcve_err err = {0};
	if (path ? review_model_load(path, m, &err) : review_model_builtin(m, &err))
		kcve_die(err.code, "%s", err.msg);
}

static json_t *hits_json(const struct classify_result *r)
{
	json_t *a = json_array();
	for (size_t i = 0; i < r->nhits; i++)
		json_array_append_new(a, kj_pack("{s:s, s:f}", "feature", r->hits[i].feature,
						   "weight", r->hits[i].weight));
	return a;
}

static int do_classify(const struct review_model *m, double thr, bool json, int argc, char **argv)
{
	size_t flagged = 0, total = 0;
	json_t *out = json ? json_array() : NULL;
	for (int i = 0; i < argc; i++) {
		struct strbuf sb = STRBUF_INIT;
		if (read_file(argv[i], &sb) < 0) {
			int e = errno;
			sb_release(&sb);
			char *f = safe_printable(argv[i]);
			kcve_die(KCVE_E_IO, "cannot read %s (%s); give files holding one commit message each",
				 f, read_file_reason(e));
		}
		struct classify_input in = {sb_str(&sb), NULL, 0, 0, sb.len};
		struct classify_result r;
		classify_commit(m, thr, &in, &r);
		if (out) {
			json_array_append_new(out, kj_pack("{s:o, s:f, s:b, s:s, s:o}", "path",
				cli_json_text(argv[i]), "score", r.score, "candidate", r.candidate,
				"reasons", sb_str(&r.reasons), "features", hits_json(&r)));
		} else {
			char *f = safe_printable(argv[i]);
			printf("%s\t%.3f\t%s\t%s\n", f, r.score, r.candidate ? "candidate" : "no",
			       sb_str(&r.reasons));
			free(f);
		}
		total++;
		flagged += r.candidate;
		classify_result_release(&r);
		sb_release(&sb);
	}
	char *src = safe_printable(m->source); /* a --model path: no control bytes to the terminal */
	fprintf(stderr, "kcve review: %zu of %zu messages flagged as candidates (threshold %.4f, %s model)\n",
		flagged, total, thr > 0 ? thr : m->threshold, src);
	free(src);
	return out ? cli_json_print(out) : 0;
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
				       NULL, NULL, &err) != 0)
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
	double score;
	bool candidate;
	char *reasons;
};

static int cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? 1 : -1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int do_auto(const struct review_model *m, double thr, struct review_range *r,
		   struct cve_tree *tree, struct review_session *s, bool vote, bool json)
{
	json_t *out = json ? json_array() : NULL;
	struct ranked *rk = xcalloc(r->n ? r->n : 1, sizeof(*rk));
	for (size_t i = 0; i < r->n; i++) {
		struct classify_input in = {r->v[i].message, (const char *const *)r->v[i].paths,
					    r->v[i].npaths, r->v[i].nparents, 0};
		struct classify_result res;
		classify_commit(m, thr, &in, &res);
		rk[i].idx = i;
		rk[i].score = res.score;
		rk[i].candidate = res.candidate;
		rk[i].reasons = sb_detach(&res.reasons);
		classify_result_release(&res);
	}
	qsort(rk, r->n, sizeof(*rk), cmp_ranked);
	size_t cands = 0;
	struct kcve_err err = {0};
	for (size_t i = 0; i < r->n; i++) {
		struct range_commit *c = &r->v[rk[i].idx];
		struct cve_entry e;
		bool has = tree_find_sha(tree, c->upstream, &e) == 0;
		bool cand = rk[i].candidate;
		cands += cand;
		if (out)
			json_array_append_new(out, kj_pack(
				"{s:f, s:b, s:s, s:s, s:s, s:o}", "score", rk[i].score, "candidate",
				cand, "upstream", c->upstream, "subject", c->subject ? c->subject : "",
				"reasons", rk[i].reasons ? rk[i].reasons : "", "cve",
				has ? kj_str(e.id) : json_null()));
		else
			printf("%.3f %-9s %.12s %s\n    %s%s%s\n", rk[i].score,
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

static int do_interactive(const struct review_model *m, struct review_range *r,
			  struct cve_tree *tree, struct review_session *s)
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
		print_highlighted(stdout, m, c->message, color);
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
	double thr = 0;
	if (a.threshold) {
		char *end;
		errno = 0;
		thr = strtod(a.threshold, &end);
		if (errno || end == a.threshold || *end || !(thr > 0 && thr < 1))
			cli_usage_error(&p, "--threshold takes a probability between 0 and 1, such as 0.2");
	}
	if ((a.threshold || a.model) && !(classify || autom))
		cli_usage_error(&p, "--threshold and --model only go with --classify or --auto");
	if (classify) {
		if (!nops)
			cli_usage_error(&p, "--classify needs files holding commit messages");
		struct review_model m;
		load_model(a.model, &m);
		int rc = do_classify(&m, thr, json, nops, ops);
		review_model_release(&m);
		return rc;
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
	struct review_model m;
	load_model(a.model, &m);
	struct review_session s;
	bool need_session = !autom || vote;
	if (need_session && session_open(&s, tree_root(tree), r.top, reviewer_name(who), &err))
		kcve_die(err.code, "%s", err.msg);
	int rc = autom ? do_auto(&m, thr, &r, tree, need_session ? &s : NULL, vote, json)
		       : do_interactive(&m, &r, tree, &s);
	review_model_release(&m);
	if (need_session)
		session_close(&s);
	review_range_release(&r);
	history_close(h);
	tree_close(tree);
	return rc;
}
