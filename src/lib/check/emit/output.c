#include "check/emit/output.h"
#include "check/stages/codestage.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/stages/rank.h"
#include "core/cveid.h"
#include "core/safefs.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "core/kjson.h"
#include "core/text.h"

static int sev_rank(const char *s)
{
	if (!s || !*s)
		return 4;
	if (strcasecmp(s, "CRITICAL") == 0)
		return 0;
	if (strcasecmp(s, "HIGH") == 0)
		return 1;
	if (strcasecmp(s, "MEDIUM") == 0)
		return 2;
	if (strcasecmp(s, "LOW") == 0)
		return 3;
	return 4;
}

/* A record without a CVSS severity is "unscored" (not CVSS "None"); null in JSON. */
static const char *const sev_names[5] = {"CRITICAL", "HIGH", "MEDIUM", "LOW", "unscored"};

struct row {
	const struct ck_entry *e;
	const struct ck_record *r;
	char sub[96];
	int sev;
	size_t group; /* size of its subsystem group (for ordering) */
};

static int cmp_sub(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	return strcmp(x->sub, y->sub);
}

static int cmp_row(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->group != y->group)
		return x->group > y->group ? -1 : 1;
	int c = strcmp(x->sub, y->sub);
	if (c)
		return c;
	if (x->sev != y->sev)
		return x->sev - y->sev;
	return cveid_cmp(x->r->id, y->r->id);
}

static void print_stages(FILE *f, const struct ck_result *r)
{
	for (int i = 0; i < r->nstages; i++) {
		const struct ck_stage_count *c = &r->stages[i];
		if (i == 0)
			fprint_display(f, "%zu %s", c->count, c->name);
		else
			fprint_display(f, " → %zu by %s", c->count, c->name);
		if (i > 0 && c->unknown)
			fprint_display(f, " (%zu undecided)", c->unknown);
	}
	fputc('\n', f);
}

/* Records whose JSON and .dyad readings differ for this kernel, both kept and dropped ones:
 * never pick one silently. */
static void print_disagreements(FILE *f, const struct ck_set *s, const struct ck_result *R)
{
	if (!R->ndisagree)
		return;
	fprint_display(f, "≠ %zu record(s) whose JSON and .dyad readings differ for %s (verdict from the %s "
		   "reading; --reading either for the cautious answer, --json for both):\n",
		R->ndisagree, R->label, ck_reading_name((enum ck_reading)R->reading));
	for (size_t i = 0; i < R->n; i++) {
		const struct ck_entry *e = &R->e[i];
		if (!e->disagree)
			continue;
		char jw[256], dw[256];
		ck_readings_explain(s, R, e, jw, dw, sizeof jw);
		fprint_display(f, "  %-16s %-14s %s; %s\n", s->v[e->rec].id, ck_outcome_name(e->outcome), jw,
			dw);
	}
}

/* Markers after a CVE's title: module state, modprobe rules, KEV, EPSS. */
static void print_markers(FILE *f, const struct ck_entry *e)
{
	if (e->module == CK_MOD_LOADED)
		fputs(" [module loaded]", f);
	else if (e->module == CK_MOD_NOT_LOADED)
		fputs(" [module not loaded]", f);
	if (e->mitigation == CK_MIT_BLACKLIST) /* quotes modprobe.d text of the image */
		fprint_display(f, " [blacklisted, still loadable: %s]", e->mitigation_why);
	if (e->fixed_in[0])
		fprint_display(f, " (fixed in %s)", e->fixed_in);
}

/* One CVE line of the table; sub (optional) is printed as a column (ranked list). */
static void print_row(FILE *f, const struct ck_entry *e, const struct ck_record *r,
		      const char *sub, const struct ck_out_opts *o)
{
	char score[24] = "", epss[32] = "";
	if (r->score10)
		text_snprintf(score, sizeof score, "%u.%u", r->score10 / 10, r->score10 % 10);
	if (e->has_epss)
		text_snprintf(epss, sizeof epss, "%.3f/p%.0f", e->epss, e->epss_pct * 100);
	const char *col = "", *end = "";
	if (o->color) {
		col = e->outcome == CK_OUT_AFFECTED ? "\033[31m" : "\033[33m";
		end = "\033[0m";
	}
	/* title and subsystem come from records (or a db from elsewhere): shown as text */
	if (sub) /* the ranked list: KEV and EPSS columns, the subsystem */
		fprint_display(f, "  %-5s %-16s %-8s %4s %-11s %-24s ",
			       e->kev ? e->kev_ransomware ? "KEV+R" : "KEV" : "", r->id,
			       sev_names[sev_rank(r->severity)], score, epss, sub);
	else
		fprint_display(f, "  %-16s %-8s %4s ", r->id, sev_names[sev_rank(r->severity)], score);
	fputs(col, f); /* the colour codes are ours: the one escape the table writes itself */
	fprint_display(f, "%-8s", ck_outcome_name(e->outcome));
	fputs(end, f);
	fprint_display(f, "%s %s", e->disagree ? " ≠" : e->needs_git ? " ?" : "", r->title);
	print_markers(f, e);
	fputc('\n', f);
}

/* --kev / --epss: every kept CVE in the one ranking (check/stages/rank.h). */
static void print_ranked(FILE *f, const struct ck_set *s, const struct ck_result *R,
			 const struct ck_out_opts *o)
{
	size_t *order = xcalloc(R->n + 1, sizeof *order);
	size_t n = ck_rank_order(s, R, order);
	fprint_display(f, "\n== ranked: %sexposure, %sCVSS (KEV = CISA's Known Exploited "
		   "Vulnerabilities, +R = used by ransomware; EPSS probability/percentile) ==\n",
		R->ranked_kev ? "KEV first, then " : "", R->ranked_epss ? "EPSS, " : "");
	for (size_t i = 0; i < n; i++) {
		const struct ck_entry *e = &R->e[order[i]];
		char sub[96];
		print_row(f, e, &s->v[e->rec], ck_record_subsystem(&s->v[e->rec], sub, sizeof sub), o);
	}
	free(order);
}

/* Mitigated CVEs (not in the list) and KEV entries the records do not carry. */
static void print_triage_notes(FILE *f, const struct ck_set *s, const struct ck_result *R)
{
	for (size_t i = 0; i < R->n; i++)
		if (R->e[i].outcome == CK_OUT_MITIGATED)
			fprint_display(f, "mitigated: %s %s\n", s->v[R->e[i].rec].id, R->e[i].reason);
	if (!R->nuntracked_kev)
		return;
	fprint_display(f, "KEV lists %zu Linux kernel CVE(s) that no record here carries (another CNA "
		   "assigned them, or they predate the kernel CNA); the records cannot judge them, "
		   "check them by hand:", R->nuntracked_kev);
	for (size_t i = 0; i < R->nuntracked_kev; i++)
		fprint_display(f, " %s", R->untracked_kev[i]);
	fputc('\n', f);
}

void ck_print_table(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		    const struct ck_out_opts *o)
{
	for (size_t k = 0; k < nres; k++) {
		struct ck_result *R = &res[k];
		if (o->deltas) /* what changed comes first */
			ck_delta_print(f, &o->deltas[k], R->label, o->since);
		fprint_display(f, "Kernel %s: ", R->label);
		print_stages(f, R);
		if (R->code) {
			size_t fp = 0;
			for (size_t i = 0; i < R->n; i++)
				fp += R->code[i].checked;
			fprint_display(f, "Code: %zu of %zu CVEs with a fix fingerprint decided by the code\n",
				R->ncode_decided, fp);
		}
		struct row *rows = xcalloc(R->n + 1, sizeof *rows);
		size_t n = 0;
		for (size_t i = 0; i < R->n; i++) {
			if (!ck_outcome_kept(R->e[i].outcome))
				continue;
			rows[n].e = &R->e[i];
			rows[n].r = &s->v[R->e[i].rec];
			ck_record_subsystem(rows[n].r, rows[n].sub, sizeof rows[n].sub);
			rows[n].sev = sev_rank(rows[n].r->severity);
			n++;
		}
		/* group sizes: sort by name, count runs */
		qsort(rows, n, sizeof *rows, cmp_sub);
		for (size_t i = 0; i < n;) {
			size_t j = i;
			while (j < n && strcmp(rows[j].sub, rows[i].sub) == 0)
				j++;
			for (size_t t = i; t < j; t++)
				rows[t].group = j - i;
			i = j;
		}
		qsort(rows, n, sizeof *rows, cmp_row);
		if (n) {
			fprint_display(f, "\n%-32s %8s %5s %6s %4s %8s %6s\n", "SUBSYSTEM", "CRITICAL", "HIGH",
				"MEDIUM", "LOW", "UNSCORED", "TOTAL");
			size_t tot[5] = {0};
			for (size_t i = 0; i < n;) {
				size_t c[5] = {0}, j = i;
				for (; j < n && strcmp(rows[j].sub, rows[i].sub) == 0; j++)
					c[rows[j].sev]++;
				fprint_display(f, "%-32s %8zu %5zu %6zu %4zu %8zu %6zu\n", rows[i].sub, c[0], c[1],
					c[2], c[3], c[4], j - i);
				for (int t = 0; t < 5; t++)
					tot[t] += c[t];
				i = j;
			}
			fprint_display(f, "%-32s %8zu %5zu %6zu %4zu %8zu %6zu\n", "(all)", tot[0], tot[1],
				tot[2], tot[3], tot[4], n);
			/* --kev / --epss: one ranked list instead of the subsystem groups */
			bool ranked = R->ranked_kev || R->ranked_epss;
			if (ranked)
				print_ranked(f, s, R, o);
			const char *cur = NULL;
			for (size_t i = 0; i < n && !ranked; i++) {
				if (!cur || strcmp(cur, rows[i].sub) != 0) {
					cur = rows[i].sub;
					fprint_display(f, "\n== %s (%zu) ==\n", cur, rows[i].group);
				}
				print_row(f, rows[i].e, rows[i].r, NULL, o);
			}
			fputc('\n', f);
		}
		free(rows);
		print_triage_notes(f, s, R);
		print_disagreements(f, s, R);
		if (R->nneeds_git)
			fprint_display(f, "unknown: %zu CVE(s) marked ? cannot be decided at %s by version: the "
				   "records date their introduction or fix to the final release, which an -rc "
				   "holds only in part; check the tree with --git\n", R->nneeds_git, R->label);
		if (o->fixed_in && R->release[0]) {
			char br[24];
			kver_str_major(R->release, br, sizeof br);
			if (R->fixed_in[0]) {
				fprint_display(f, "fixed-in: %s fixes every CVE found in %s", R->fixed_in, R->release);
				if (R->unfixed_on_branch)
					fprint_display(f, " except %zu without a fix on the %s branch yet",
						R->unfixed_on_branch, br);
				fputc('\n', f);
			} else if (R->unfixed_on_branch) {
				fprint_display(f, "fixed-in: none of the %zu CVEs found has a fix on the %s branch yet\n",
					R->unfixed_on_branch, br);
			} else {
				fprint_display(f, "fixed-in: nothing to fix in %s\n", R->release);
			}
		}
		if (k + 1 < nres)
			fputc('\n', f);
	}
}

void ck_print_ids(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres)
{
	for (size_t k = 0; k < nres; k++) {
		fprint_display(f, "%s:", res[k].label);
		for (size_t i = 0; i < res[k].n; i++)
			if (ck_outcome_kept(res[k].e[i].outcome))
				fprint_display(f, " %s", s->v[res[k].e[i].rec].id);
		fputc('\n', f);
	}
}
