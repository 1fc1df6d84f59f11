/* kcve stats: CVEs per subsystem, per stable branch, and the time-to-fix histogram
 * (docs/spec/workflow.md "Summary and statistics") of the published records. */
#include <errno.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_report.h"
#include "cli_store.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/dyad_text.h"
#include "store/tree_internal.h"
#include "core/kjson.h"
#include "core/text.h"

struct stats_args {
	long top;
	bool no_ttf, json;
};
static const struct cli_option opts[] = {
	CLI_OPT_NUMBER("top", struct stats_args, top, "N", 1, 1000000,
		       "list the N biggest subsystems (default 20)"),
	CLI_OPT_FLAG("no-ttf", struct stats_args, no_ttf, "leave out the time to fix (no --repo reads)"),
	CLI_OPT_FLAG("json", struct stats_args, json,
		     "{\"published\", \"subsystems\": [{\"name\", \"cves\"}], \"subsystems2\": [...],\n"
		     "\"branches\": [{\"branch\", \"cves\", \"pairs\"}], \"time_to_fix\": null or\n"
		     "{\"buckets\": [{\"days\", \"cves\"}], \"mean\", \"median\", \"cves\"}}"),
	CLI_OPT_END};
static const struct cli_command stats_cmd = {
	"stats", "[--top N] [--no-ttf] [--json]",
	"Published CVEs per subsystem (first changed file's first one and two path\n"
	"components, from the record's programFiles), per branch a fix landed on (from\n"
	".dyad), and the time to fix: author-date distance between the introducing and\n"
	"the fixing commit of the first pair with a positive distance, bucketed <=30,\n"
	"31-90, 91-180, 181-365, >365 days, with mean and median (needs --repo).\n",
	opts, false};

struct count {
	char *key;
	size_t n, lines;
};

struct counter {
	struct count *v;
	size_t n, alloc;
};

static struct count *bump(struct counter *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].key, key)) {
			c->v[i].n++;
			return &c->v[i];
		}
	XGROW(c->v, c->n + 1, c->alloc);
	c->v[c->n] = (struct count){xstrdup(key), 1, 0};
	return &c->v[c->n++];
}

static int by_count(const void *a, const void *b)
{
	const struct count *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

static int by_version(const void *a, const void *b)
{
	return kver_cmp_str(((const struct count *)a)->key, ((const struct count *)b)->key);
}

static void counter_free(struct counter *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->v[i].key);
	free(c->v);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return (x > y) - (x < y);
}

static long long author_time(git_repository *r, const char *sha)
{
	git_oid oid;
	git_commit *c;
	if (!r || git_oid_fromstr(&oid, sha) || git_commit_lookup(&c, r, &oid))
		return -1;
	long long t = (long long)git_commit_author(c)->when.time;
	git_commit_free(c);
	return t;
}

struct stats_ctx {
	struct counter sub1, sub2, branch;
	long long *days;
	size_t ndays, adays;
	git_repository *repo;
	size_t cves;
	struct kcve_err err; /* a refused record */
};

/* The record's subsystem from its first program file. A record that is no CVE JSON record of
 * its own id is refused as check refuses it (one line naming the file, err set). */
static int subsystem(struct stats_ctx *s, const struct cve_entry *e, struct kcve_err *err)
{
	char *p = tree_cve_path(e, ".json");
	struct strbuf js = STRBUF_INIT;
	json_t *root = NULL;
	int rc = 0;
	if (read_file(p, &js) == 0) {
		root = kj_loadb(js.buf, js.len, 0, NULL);
		rc = tree_record_root_check(e, p, root, err);
	} else if (errno != ENOENT) {
		rc = kcve_err_set(err, KCVE_E_IO, "cannot read %s: %s", p, safefs_reason(errno));
	}
	sb_release(&js);
	free(p);
	if (rc) {
		json_decref(root);
		return rc;
	}
	const char *file = NULL;
	json_t *aff = json_object_get(json_object_get(json_object_get(root, "containers"), "cna"),
				      "affected");
	if (json_array_size(aff))
		file = json_string_value(
			json_array_get(json_object_get(json_array_get(aff, 0), "programFiles"), 0));
	if (file) {
		const char *s1 = strchr(file, '/');
		char *k1 = s1 ? xstrndup(file, (size_t)(s1 - file)) : xstrdup(file);
		bump(&s->sub1, k1);
		const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
		char *k2 = s2 ? xstrndup(file, (size_t)(s2 - file)) : xstrdup(file);
		bump(&s->sub2, k2);
		free(k1);
		free(k2);
	} else {
		bump(&s->sub1, "(unknown)");
		bump(&s->sub2, "(unknown)");
	}
	json_decref(root);
	return 0;
}

static void branches_ttf(struct stats_ctx *s, const struct cve_entry *e)
{
	char *p = tree_cve_path(e, ".dyad");
	struct strbuf sb = STRBUF_INIT;
	struct dyad_list l;
	dyad_list_init(&l);
	if (read_file(p, &sb) == 0)
		dyad_parse(sb_str(&sb), &l);
	free(p);
	char seen[4096] = " ";
	bool ttf_done = !s->repo;
	for (size_t i = 0; i < l.n; i++) {
		const struct dyad_pair *d = &l.v[i];
		if (!dyad_pair_unfixed(d) && !dyad_pair_same_version(d)) {
			char major[32], key[40];
			kver_str_major(d->fver, major, sizeof(major));
			text_snprintf(key, sizeof(key), " %s ", major);
			if (major[0]) {
				if (!strstr(seen, key)) {
					bump(&s->branch, major)->lines++;
					if (strlen(seen) + strlen(major) + 2 < sizeof(seen))
						strcat(strcat(seen, major), " ");
				} else {
					for (size_t k = 0; k < s->branch.n; k++)
						if (!strcmp(s->branch.v[k].key, major))
							s->branch.v[k].lines++;
				}
			}
		}
		if (!ttf_done && strcmp(d->vsha, "0") && strcmp(d->fsha, "0")) {
			long long a = author_time(s->repo, d->vsha), b = author_time(s->repo, d->fsha);
			if (a >= 0 && b >= 0 && (b - a) / 86400 > 0) {
				XGROW(s->days, s->ndays + 1, s->adays);
				s->days[s->ndays++] = (b - a) / 86400;
				ttf_done = true;
			}
		}
	}
	dyad_list_release(&l);
	sb_release(&sb);
}

static int stats_cb(const struct cve_entry *e, void *vctx)
{
	struct stats_ctx *s = vctx;
	s->cves++;
	if (subsystem(s, e, &s->err))
		return 1;
	branches_ttf(s, e);
	return 0;
}

static void print_top(const char *title, const struct counter *c, size_t top)
{
	printf("%s\n", title);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < c->n && i < top; i++) { /* a file name from a record: no controls */
		sb_reset(&sb);
		sb_add_display(&sb, c->v[i].key);
		printf("  %6zu  %s\n", c->v[i].n, sb_str(&sb));
	}
	sb_release(&sb);
}

/* The time-to-fix histogram: buckets <=30, 31-90, 91-180, 181-365, >365 days. */
static const char *const ttf_label[] = {"<= 30", "31-90", "91-180", "181-365", "> 365"};
struct ttf {
	size_t bucket[5];
	double mean;
	long long median;
};

static struct ttf ttf_summary(struct stats_ctx *s)
{
	static const long long lim[] = {30, 90, 180, 365};
	struct ttf r = {{0}, 0, 0};
	if (!s->ndays)
		return r;
	long double sum = 0;
	for (size_t i = 0; i < s->ndays; i++) {
		int k = 0;
		while (k < 4 && s->days[i] > lim[k])
			k++;
		r.bucket[k]++;
		sum += s->days[i];
	}
	qsort(s->days, s->ndays, sizeof(*s->days), cmp_ll);
	r.median = s->ndays % 2 ? s->days[s->ndays / 2]
				: (s->days[s->ndays / 2 - 1] + s->days[s->ndays / 2]) / 2;
	r.mean = (double)(sum / s->ndays);
	return r;
}

static void print_text(const struct stats_ctx *s, const struct ttf *t, size_t top)
{
	printf("%zu published CVEs\n\n", s->cves);
	print_top("Per subsystem (first path component):", &s->sub1, top);
	printf("\n");
	print_top("Per subsystem (first two path components):", &s->sub2, top);
	printf("\nPer branch a fix landed on (CVEs, pair lines):\n");
	for (size_t i = 0; i < s->branch.n; i++)
		printf("  %-8s %6zu %6zu\n", s->branch.v[i].key, s->branch.v[i].n,
		       s->branch.v[i].lines);
	printf("\nTime to fix (days):\n");
	if (!s->repo) {
		printf("  (no kernel repository: pass --repo DIR)\n");
	} else if (!s->ndays) {
		printf("  (no pair with both commits known)\n");
	} else {
		for (int k = 0; k < 5; k++)
			printf("  %-8s %6zu\n", ttf_label[k], t->bucket[k]);
		printf("  mean %.1f, median %lld, over %zu CVEs\n", t->mean, t->median, s->ndays);
	}
}

static json_t *top_json(const struct counter *c, size_t top)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->n && i < top; i++)
		json_array_append_new(a, kj_pack("{s:s, s:I}", "name", c->v[i].key, "cves",
						   (json_int_t)c->v[i].n));
	return a;
}

static int print_json(const struct stats_ctx *s, const struct ttf *t, size_t top)
{
	json_t *br = json_array();
	for (size_t i = 0; i < s->branch.n; i++)
		json_array_append_new(br, kj_pack("{s:s, s:I, s:I}", "branch", s->branch.v[i].key,
						    "cves", (json_int_t)s->branch.v[i].n, "pairs",
						    (json_int_t)s->branch.v[i].lines));
	json_t *ttf = json_null();
	if (s->ndays) {
		json_t *b = json_array();
		for (int k = 0; k < 5; k++)
			json_array_append_new(b, kj_pack("{s:s, s:I}", "days", ttf_label[k], "cves",
							   (json_int_t)t->bucket[k]));
		ttf = kj_pack("{s:o, s:f, s:I, s:I}", "buckets", b, "mean", t->mean, "median",
				(json_int_t)t->median, "cves", (json_int_t)s->ndays);
	}
	return cli_json_print(kj_pack("{s:I, s:o, s:o, s:o, s:o}", "published",
					(json_int_t)s->cves, "subsystems", top_json(&s->sub1, top),
					"subsystems2", top_json(&s->sub2, top), "branches", br,
					"time_to_fix", ttf));
}

int cmd_stats(int argc, char **argv, struct kcve_global *g)
{
	struct stats_args a = {.top = 20};
	struct cli_parser p;
	cli_begin(&p, &stats_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	size_t top = (size_t)a.top;
	bool ttf = !a.no_ttf, json = a.json;
	cli_done(&p, NULL, 0, 0, "");
	struct cve_tree *t = cli_open_tree(g);
	struct stats_ctx s;
	memset(&s, 0, sizeof(s));
	git_libgit2_init();
	if (ttf && git_repository_open_ext(&s.repo, g->repo, 0, NULL) != 0)
		s.repo = NULL;
	int rc = 0;
	if (tree_foreach(t, CVE_PUBLISHED, stats_cb, &s)) {
		kcve_error("%s", s.err.msg);
		rc = s.err.code;
	} else {
		qsort(s.sub1.v, s.sub1.n, sizeof(*s.sub1.v), by_count);
		qsort(s.sub2.v, s.sub2.n, sizeof(*s.sub2.v), by_count);
		qsort(s.branch.v, s.branch.n, sizeof(*s.branch.v), by_version);
		struct ttf t2 = ttf_summary(&s);
		rc = json ? print_json(&s, &t2, top) : (print_text(&s, &t2, top), 0);
	}
	counter_free(&s.sub1);
	counter_free(&s.sub2);
	counter_free(&s.branch);
	free(s.days);
	if (s.repo)
		git_repository_free(s.repo);
	git_libgit2_shutdown();
	tree_close(t);
	return rc;
}
