#include "check/emit/report.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/verdict/verdict.h"
#include "core/assert.h"
#include "core/cveid.h"
#include "core/strmap.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "core/text.h"
#include "core/kjson.h"

int ck_mainline_ordinal(const char *ver)
{
	struct kver v;
	kver_parse(&v, ver);
	if (!kver_is_mainline(&v) || v.rc)
		return -1;
	unsigned a = v.comp[0], b = v.comp[1];
	if (a == 2 && b == 6 && v.ncomp == 3 && v.comp[2] >= 12)
		return (int)v.comp[2] - 12;
	if (v.ncomp != 2)
		return -1;
	switch (a) {
	case 3: return 28 + (int)b;
	case 4: return 48 + (int)b;
	case 5: return 69 + (int)b;
	case 6: return 89 + (int)b;
	case 7: return 109 + (int)b;
	}
	return -1;
}

static void esc(struct strbuf *o, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': sb_adds(o, "&lt;"); break;
		case '>': sb_adds(o, "&gt;"); break;
		case '&': sb_adds(o, "&amp;"); break;
		case '"': sb_adds(o, "&quot;"); break;
		default: sb_addc(o, *s);
		}
	}
}

struct kv {
	char *key;
	size_t n;
	long long order;
};

/* Count key: ix maps each key to its index + 1 in v (one hashed lookup per call; a scan of v
 * per call was quadratic in the number of distinct keys, which a hostile tree chooses). */
static struct kv *kv_bump(struct kv **v, size_t *n, size_t *alloc, struct strmap *ix, const char *key,
			  long long order)
{
	size_t at = (size_t)(uintptr_t)strmap_get(ix, key);
	if (at) {
		KCVE_ASSERT(at <= *n && strcmp((*v)[at - 1].key, key) == 0);
		(*v)[at - 1].n++;
		return &(*v)[at - 1];
	}
	strmap_put(ix, key, (void *)(uintptr_t)(*n + 1));
	XGROW(*v, *n + 1, *alloc);
	(*v)[*n] = (struct kv){xstrdup(key), 1, order};
	return &(*v)[(*n)++];
}

static int by_count(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int by_order(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	return x->order < y->order ? -1 : x->order > y->order;
}

static void kv_free(struct kv *v, size_t n, struct strmap *ix)
{
	strmap_free(ix, NULL);
	for (size_t i = 0; i < n; i++)
		free(v[i].key);
	free(v);
}

/* Horizontal bar chart: one row per item. */
/* Horizontal bars with the label left of each bar (as wide as the longest label, so nothing is
 * clipped) and the count right of it. */
static void hbars(struct strbuf *o, const char *title, const struct kv *v, size_t n, const char *color)
{
	size_t max = 1, longest = 4;
	for (size_t i = 0; i < n; i++) {
		if (v[i].n > max)
			max = v[i].n;
		if (strlen(v[i].key) > longest)
			longest = strlen(v[i].key);
	}
	int rowh = 20, lab = 12 + 7 * (int)(longest > 48 ? 48 : longest), w = lab + 560;
	int h = (int)n * rowh + 16;
	sb_addf(o, "<h2>%s</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		   "width=\"%d\" role=\"img\" aria-label=\"", title, w, h, w);
	esc(o, title);
	sb_adds(o, "\">\n");
	for (size_t i = 0; i < n; i++) {
		int y = 8 + (int)i * rowh;
		int bw = (int)((double)(w - lab - 70) * (double)v[i].n / (double)max);
		sb_addf(o, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"l\">", lab - 6, y + 13);
		esc(o, v[i].key);
		sb_addf(o, "</text><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"%d\" class=\"l\">%zu</text>\n",
			lab, y, bw > 0 ? bw : 1, rowh - 5, color, lab + (bw > 0 ? bw : 1) + 5, y + 13,
			v[i].n);
	}
	sb_adds(o, "</svg>\n");
}

/* Vertical bars over an ordered axis (weeks): a labelled count axis with grid lines, a date
 * label every label_every bars (slanted, with room below), the count of each bar as its
 * tooltip and, when bars are wide enough, above it. */
static void vbars(struct strbuf *o, const char *title, const struct kv *v, size_t n, const char *color,
		  int label_every)
{
	size_t max = 1;
	for (size_t i = 0; i < n; i++)
		if (v[i].n > max)
			max = v[i].n;
	int w = 1000, h = 300, left = 56, top = 20, bottom = 86;
	int plotw = w - left - 16, ploth = h - top - bottom;
	double bw = n ? (double)plotw / (double)n : plotw;
	sb_addf(o, "<h2>%s</h2>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		   "width=\"%d\" role=\"img\" aria-label=\"", title, w, h, w);
	esc(o, title);
	sb_adds(o, "\">\n");
	for (int t = 0; t <= 4; t++) { /* count axis: 0, max/4, ..., max */
		size_t val = (max * (size_t)t + 2) / 4;
		int y = top + ploth - (int)((double)ploth * (double)val / (double)max);
		sb_addf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"g\"/>"
			   "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" class=\"s\">%zu</text>\n",
			left, y, left + plotw, y, left - 5, y + 4, val);
	}
	sb_addf(o, "<text x=\"14\" y=\"%d\" class=\"s\" transform=\"rotate(-90 14 %d)\" "
		   "text-anchor=\"middle\">CVEs</text>\n", top + ploth / 2, top + ploth / 2);
	for (size_t i = 0; i < n; i++) {
		int bh = (int)((double)ploth * (double)v[i].n / (double)max);
		double x = left + bw * (double)i;
		sb_addf(o, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>",
			x, top + ploth - bh, bw > 2 ? bw - 1 : bw, bh, color);
		esc(o, v[i].key);
		sb_addf(o, ": %zu</title></rect>\n", v[i].n);
		if (bw >= 22 && v[i].n)
			sb_addf(o, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" class=\"s\">%zu</text>\n",
				x + bw / 2, top + ploth - bh - 3, v[i].n);
		if (label_every > 0 && i % (size_t)label_every == 0) {
			double lx = x + bw / 2;
			int ly = top + ploth + 14;
			sb_addf(o, "<text x=\"%.1f\" y=\"%d\" class=\"s\" text-anchor=\"end\" "
				   "transform=\"rotate(-40 %.1f %d)\">", lx, ly, lx, ly);
			esc(o, v[i].key);
			sb_adds(o, "</text>\n");
		}
	}
	sb_addf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"ax\"/>\n", left, top + ploth,
		left + plotw, top + ploth);
	sb_adds(o, "</svg>\n");
}

struct id_rec {
	const char *id;
	const struct ck_record *r;
};

static int cmp_id_rec(const void *a, const void *b)
{
	return cveid_cmp(((const struct id_rec *)a)->id, ((const struct id_rec *)b)->id);
}

static int sev_key(const char *sev)
{
	static const char *const order[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"};
	for (int i = 0; sev && i < 4; i++)
		if (!strcmp(sev, order[i]))
			return i;
	return 4;
}

/* Sorting (click a column head; again to reverse) and filtering (the box above the table) of
 * the applicable-CVE tables; data-k holds a cell's sort key when its text is not one. */
static const char table_script[] =
	"<script>\n"
	"document.querySelectorAll('table.cves').forEach(function(t){\n"
	" var b=t.tBodies[0],q=t.previousElementSibling;\n"
	" q.oninput=function(){var v=q.value.toLowerCase();for(var r of b.rows)"
	"r.hidden=v!==''&&r.textContent.toLowerCase().indexOf(v)<0;};\n"
	" for(let th of t.tHead.rows[0].cells)th.onclick=function(){var i=th.cellIndex,"
	"d=th.dataset.d=th.dataset.d==='1'?'-1':'1',k=function(r){var c=r.cells[i];"
	"return c.dataset.k||c.textContent;};\n"
	"  Array.from(b.rows).sort(function(x,y){return d*k(x).localeCompare(k(y),undefined,"
	"{numeric:true});}).forEach(function(r){b.appendChild(r);});};\n"
	"});\n</script>\n";

/* One applicable CVE of a check result as a table row: its rank (the check's one ranking,
 * check/stages/rank.h: the JSON lists kept CVEs in that order), exploitation evidence (KEV, EPSS),
 * severity, subsystem, verdict with the module/mitigation state, mainline fix, title. */
static void cve_row(struct strbuf *rows, json_t *c, const char *out, const char *sub,
		    const struct id_rec *idx, size_t nidx)
{
	const char *id = json_string_value(json_object_get(c, "id"));
	struct id_rec key = {id ? id : "", NULL};
	struct id_rec *hit = bsearch(&key, idx, nidx, sizeof *idx, cmp_id_rec);
	json_t *rank = json_object_get(c, "rank");
	sb_addf(rows, "<tr><td data-k=\"%lld\">%lld</td><td>", (long long)json_integer_value(rank),
		(long long)json_integer_value(rank));
	sb_adds(rows, "<a href=\"https://www.cve.org/CVERecord?id=");
	esc(rows, id);
	sb_adds(rows, "\">");
	esc(rows, id);
	sb_adds(rows, "</a></td><td>");
	if (json_is_true(json_object_get(c, "kev")))
		sb_adds(rows, json_is_true(json_object_get(c, "kev_ransomware"))
				      ? "<span class=\"kev\">KEV</span> ransomware "
				      : "<span class=\"kev\">KEV</span> ");
	json_t *epss = json_object_get(c, "epss");
	if (epss)
		sb_addf(rows, "EPSS %.3f (p%.0f)",
			json_number_value(json_object_get(epss, "probability")),
			json_number_value(json_object_get(epss, "percentile")) * 100);
	const char *sev = json_string_value(json_object_get(c, "severity"));
	sb_addf(rows, "</td><td data-k=\"%d\">", sev_key(sev));
	esc(rows, sev ? sev : "unscored");
	sb_adds(rows, "</td><td>");
	esc(rows, sub);
	sb_adds(rows, "</td><td>");
	esc(rows, out);
	json_t *loaded = json_object_get(c, "module_loaded");
	if (json_is_boolean(loaded))
		sb_adds(rows, json_is_true(loaded) ? " (module loaded)" : " (module not loaded)");
	json_t *mit = json_object_get(c, "mitigation");
	if (mit) {
		sb_adds(rows, " <span title=\"");
		esc(rows, json_string_value(json_object_get(mit, "evidence")));
		sb_adds(rows, "\">(");
		esc(rows, json_string_value(json_object_get(mit, "state")));
		sb_adds(rows, ")</span>");
	}
	sb_adds(rows, "</td><td>");
	if (hit && hit->r->nfixes && strlen(hit->r->fixes[0]) == 40 &&
	    strspn(hit->r->fixes[0], "0123456789abcdef") == 40)
		sb_addf(rows, "<a href=\"https://git.kernel.org/linus/%s\">%.12s</a>",
			hit->r->fixes[0], hit->r->fixes[0]);
	sb_adds(rows, "</td><td>");
	esc(rows, json_string_value(json_object_get(c, "title")));
	sb_adds(rows, "</td></tr>\n");
}

/* Below the table: CVEs a modprobe rule mitigates, and KEV entries no record carries. */
static void triage_notes(struct strbuf *o, json_t *r)
{
	size_t j;
	json_t *c;
	json_array_foreach(json_object_get(r, "cves"), j, c) {
		const char *out = json_string_value(json_object_get(c, "outcome"));
		if (!out || strcmp(out, "mitigated"))
			continue;
		sb_adds(o, "<p class=\"note\">Mitigated (not affected): ");
		esc(o, json_string_value(json_object_get(c, "id")));
		sb_adds(o, ": ");
		esc(o, json_string_value(json_object_get(c, "reason")));
		sb_adds(o, "</p>\n");
	}
	json_t *u = json_object_get(r, "untracked_kev");
	if (!json_array_size(u))
		return;
	sb_addf(o, "<p class=\"untracked\"><span class=\"kev\">KEV</span> %zu Linux kernel "
		   "CVE(s) in CISA's catalogue that no record here carries (another CNA assigned "
		   "them, or they predate the kernel CNA); the records cannot judge them: ",
		json_array_size(u));
	json_array_foreach(u, j, c) {
		sb_adds(o, j ? ", " : "");
		esc(o, json_string_value(c));
	}
	sb_adds(o, "</p>\n");
}

/* `check --since OLD` (check/verdict/delta.h): what changed since the older records, first. */
static void delta_section(struct strbuf *o, json_t *delta)
{
	static const char *const kinds[] = {"added", "removed", "changed"};
	if (!json_is_object(delta))
		return;
	size_t n = 0;
	for (int k = 0; k < 3; k++)
		n += json_array_size(json_object_get(delta, kinds[k]));
	sb_adds(o, "<h3>What changed since ");
	esc(o, json_string_value(json_object_get(delta, "since")));
	sb_addf(o, ": %zu CVE(s)</h3>\n", n);
	if (!n)
		return;
	sb_adds(o, "<table class=\"delta\"><thead><tr><th>Change</th><th>CVE</th><th>Why</th>"
		   "</tr></thead><tbody>\n");
	for (int k = 0; k < 3; k++) {
		size_t j;
		json_t *x;
		json_array_foreach(json_object_get(delta, kinds[k]), j, x) {
			sb_addf(o, "<tr class=\"%s\"><td>%s%s</td><td>", kinds[k], kinds[k],
				json_is_true(json_object_get(x, "withdrawn")) ? " (withdrawn)" : "");
			esc(o, json_string_value(json_object_get(x, "id")));
			sb_adds(o, "</td><td>");
			esc(o, json_string_value(json_object_get(x, "why")));
			sb_adds(o, "</td></tr>\n");
		}
	}
	sb_adds(o, "</tbody></table>\n");
}

static void check_section(struct strbuf *o, const struct ck_set *set, const char *check_json,
			  struct kcve_err *err, int *rc)
{
	struct id_rec *idx = xcalloc(set->n + 1, sizeof *idx);
	for (size_t i = 0; i < set->n; i++)
		idx[i] = (struct id_rec){set->v[i].id, &set->v[i]};
	qsort(idx, set->n, sizeof *idx, cmp_id_rec);
	json_error_t je;
	json_t *doc = kj_loadb(check_json, strlen(check_json), 0, &je);
	json_t *results = json_object_get(doc, "results");
	if (!doc || !json_is_array(results)) {
		*rc = kcve_err_set(err, KCVE_E_PARSE,
				   "the --check-json input is not a 'kcve check --json' document (%s); "
				   "regenerate it with kcve check --json",
				   doc ? "no results array" : je.text);
		json_decref(doc);
		free(idx);
		return;
	}
	size_t i;
	json_t *r;
	json_array_foreach(results, i, r) {
		sb_adds(o, "<h2>Check result: ");
		esc(o, json_string_value(json_object_get(r, "kernel")));
		sb_adds(o, "</h2>\n<p class=\"stages\">");
		size_t j;
		json_t *st;
		json_array_foreach(json_object_get(r, "stages"), j, st) {
			if (j)
				sb_adds(o, " &#8594; ");
			sb_addf(o, "%lld ", (long long)json_integer_value(json_object_get(st, "count")));
			sb_adds(o, j ? "by " : "");
			esc(o, json_string_value(json_object_get(st, "name")));
		}
		sb_adds(o, "</p>\n");
		delta_section(o, json_object_get(r, "delta"));
		struct kv *sub = NULL;
		size_t ns = 0, as = 0;
		struct strmap sub_ix = STRMAP_INIT;
		json_t *c;
		struct strbuf rows = STRBUF_INIT;
		json_array_foreach(json_object_get(r, "cves"), j, c) {
			const char *out = json_string_value(json_object_get(c, "outcome"));
			if (!out || (strcmp(out, "affected") && strcmp(out, "unknown") && strcmp(out, "no_data")))
				continue;
			const char *s = json_string_value(json_object_get(c, "subsystem"));
			kv_bump(&sub, &ns, &as, &sub_ix, s ? s : "other", 0);
			cve_row(&rows, c, out, s, idx, set->n);
		}
		if (ns > 1)
			qsort(sub, ns, sizeof *sub, by_count);
		hbars(o, "Applicable CVEs per subsystem (top 20)", sub, ns > 20 ? 20 : ns, "#c0392b");
		sb_adds(o, "<h3>Applicable CVEs, ranked: KEV first, then exposure, EPSS, CVSS "
			   "(click a column to sort)</h3>\n"
			   "<input type=\"search\" placeholder=\"filter: id, subsystem, words of the "
			   "title...\" aria-label=\"filter the table\">\n"
			   "<table class=\"cves\"><thead><tr><th>Rank</th><th>CVE</th>"
			   "<th>Exploited</th><th>Severity</th><th>Subsystem</th><th>Verdict</th>"
			   "<th>Mainline fix</th><th>Title</th></tr></thead><tbody>\n");
		sb_add(o, rows.buf, rows.len);
		sb_adds(o, "</tbody></table>\n");
		triage_notes(o, r);
		sb_release(&rows);
		kv_free(sub, ns, &sub_ix);
	}
	json_decref(doc);
	free(idx);
	sb_adds(o, table_script);
}

/* The page head: light and dark themes (colours are CSS variables, the charts use them too). */
static void report_head(struct strbuf *o)
{
	sb_adds(o, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		   "<meta name=\"color-scheme\" content=\"light dark\">\n"
		   "<title>kcve report</title>\n<style>\n"
		   ":root{--fg:#222;--bg:#fff;--muted:#555;--grid:#d8d8d8;--panel:#fafafa;--link:#0645ad;"
		   "--row:#f2f2f2}\n"
		   "@media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--bg:#16181a;--muted:#a8a8a8;"
		   "--grid:#3a3d40;--panel:#1f2224;--link:#8ab4f8;--row:#24272a}}\n"
		   "body{font-family:sans-serif;margin:1.5em;color:var(--fg);background:var(--bg)}\n"
		   "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:1.5em}h3{font-size:1.05em}\n"
		   "a{color:var(--link)}\n"
		   "svg{display:block;max-width:100%;height:auto;border:1px solid var(--grid);"
		   "background:var(--panel)}\n"
		   ".l{font-size:13px;fill:var(--fg)}.s{font-size:11px;fill:var(--muted)}\n"
		   ".g{stroke:var(--grid)}.ax{stroke:var(--muted)}\n"
		   "input{font-size:14px;padding:4px;margin:4px 0;width:min(40em,100%);"
		   "color:var(--fg);background:var(--panel);border:1px solid var(--grid)}\n"
		   "table{border-collapse:collapse;font-size:12px;display:block;overflow-x:auto}"
		   "td,th{border:1px solid var(--grid);padding:2px 6px;text-align:left}\n"
		   "th{cursor:pointer;background:var(--row)}tbody tr:nth-child(even){background:var(--row)}\n"
		   ".stages{font-size:1.1em;font-weight:bold}\n"
		   "tr.added td:first-child{color:#c0392b;font-weight:bold}"
		   "tr.removed td:first-child{color:#27ae60;font-weight:bold}\n"
		   ".kev{background:#c0392b;color:#fff;font-weight:bold;padding:0 4px;border-radius:3px}\n"
		   "</style></head><body>\n");
}

/* What the records are and how their dates were found. */
static void report_intro(struct strbuf *o, const struct ck_set *s, const char *dates)
{
	sb_adds(o, "<h1>Linux kernel CVE report</h1>\n<p>");
	sb_addf(o, "%zu published records from ", s->n);
	esc(o, s->origin);
	sb_adds(o, ".</p>\n");
	size_t undated = 0;
	for (size_t i = 0; i < s->n; i++)
		undated += s->v[i].published <= 0;
	sb_adds(o, "<p class=\"note\">Publication dates: ");
	esc(o, dates);
	if (undated)
		sb_addf(o, "; %zu record%s without a date %s left out of the weekly chart", undated,
			undated == 1 ? "" : "s", undated == 1 ? "is" : "are");
	sb_adds(o, ".</p>\n");

}

/* One chart's bars: a list of labelled counts, looked up by label. */
struct kvlist {
	struct kv *v;
	size_t n, alloc;
	struct strmap ix;
};
#define KVLIST_INIT { NULL, 0, 0, STRMAP_INIT }

static struct kv *kvlist_bump(struct kvlist *l, const char *key, long long order)
{
	return kv_bump(&l->v, &l->n, &l->alloc, &l->ix, key, order);
}

static void kvlist_free(struct kvlist *l)
{
	kv_free(l->v, l->n, &l->ix);
}

/* Days since the epoch of the Monday of the week holding t. */
static long long week_monday(long long t)
{
	return (t / 86400 + 3) / 7 * 7 - 3;
}

/* Every week between the first and the last publication, empty weeks included (capped at 10
 * years), with the number of records published in it. */
static void tally_weeks(const struct ck_set *s, struct kvlist *wk)
{
	long long minw = -1, maxw = -1;
	for (size_t i = 0; i < s->n; i++) {
		long long t = s->v[i].published;
		if (t <= 0)
			continue;
		long long monday = week_monday(t);
		if (minw < 0 || monday < minw)
			minw = monday;
		if (monday > maxw)
			maxw = monday;
	}
	if (minw < 0)
		return;
	if ((maxw - minw) / 7 > 520)
		minw = maxw - 520 * 7;
	for (long long d = minw; d <= maxw; d += 7) {
		time_t tt = (time_t)(d * 86400);
		struct tm tm;
		gmtime_r(&tt, &tm);
		char key[16];
		strftime(key, sizeof key, "%Y-%m-%d", &tm);
		kvlist_bump(wk, key, d)->n = 0;
	}
	for (size_t i = 0; i < s->n; i++) {
		long long t = s->v[i].published;
		if (t <= 0)
			continue;
		long long monday = week_monday(t);
		if (monday >= minw) {
			size_t w = (size_t)((monday - minw) / 7);
			KCVE_ASSERT(w < wk->n);
			wk->v[w].n++;
		}
	}
}

/* The time-to-fix bucket of a record: mainline releases between its introduction and its fix. */
static const char *ttf_bucket(int intro, int fix, bool unknown_intro, long long *ord)
{
	if (fix < 0) {
		*ord = 100;
		return "no mainline fix";
	}
	if (intro < 0 || unknown_intro) {
		*ord = 99;
		return "introduction unknown";
	}
	int d = fix - intro;
	static const int lim[] = {0, 1, 2, 5, 10, 20, 50, 1000};
	static const char *const name[] = {"same release", "1 release", "2 releases",
					   "3-5 releases", "6-10 releases", "11-20 releases",
					   "21-50 releases", "over 50 releases"};
	int b = 0;
	while (b < 7 && d > lim[b])
		b++;
	*ord = b;
	return name[b];
}

/* One record into the subsystem, branch and time-to-fix charts. */
static void tally_record(const struct ck_record *r, struct kvlist *sub, struct kvlist *br,
			 struct kvlist *ttf)
{
	char sb[96];
	kvlist_bump(sub, ck_record_subsystem(r, sb, sizeof sb), 0);
	/* branches with a fix; time to fix in mainline releases */
	char seen[64][24];
	int nseen = 0;
	int intro = -1, fix = -1;
	bool unknown_intro = false;
	for (size_t k = 0; k < r->pairs.n; k++) {
		const struct ck_pair *p = &r->pairs.v[k];
		if (ck_pair_same_release(p))
			continue;
		if (strcmp(p->vver, "0") == 0)
			unknown_intro = true;
		int vo = ck_mainline_ordinal(p->vver), fo = ck_mainline_ordinal(p->fver);
		if (vo >= 0 && (intro < 0 || vo < intro))
			intro = vo;
		if (fo >= 0 && (fix < 0 || fo < fix))
			fix = fo;
		if (strcmp(p->fver, "0") == 0)
			continue;
		char m[24];
		kver_str_major(p->fver, m, sizeof m);
		bool dup = false;
		for (int q = 0; q < nseen; q++)
			dup |= strcmp(seen[q], m) == 0;
		if (!dup && m[0] && nseen < 64) {
			text_snprintf(seen[nseen++], sizeof seen[0], "%s", m);
			struct kver kv;
			kver_parse(&kv, m);
			long long ord = (long long)kv.comp[0] * 1000000 + kv.comp[1] * 1000 +
					(kv.ncomp > 2 ? kv.comp[2] : 0);
			kvlist_bump(br, m, ord);
		}
	}
	long long ord;
	const char *bucket = ttf_bucket(intro, fix, unknown_intro, &ord);
	kvlist_bump(ttf, bucket, ord);
}

int ck_report_html(const struct ck_set *s, const char *check_json, const char *dates,
		   struct strbuf *o, struct kcve_err *err)
{
	int rc = 0;
	report_head(o);
	report_intro(o, s, dates);
	struct kvlist wk = KVLIST_INIT, sub = KVLIST_INIT, br = KVLIST_INIT, ttf = KVLIST_INIT;
	tally_weeks(s, &wk);
	for (size_t i = 0; i < s->n; i++)
		tally_record(&s->v[i], &sub, &br, &ttf);
	if (wk.n)
		vbars(o, "CVEs per week (week of publication, Monday)", wk.v, wk.n, "#2c7fb8",
		      wk.n > 26 ? (int)((wk.n + 25) / 26) : 1);
	if (sub.n > 1)
		qsort(sub.v, sub.n, sizeof *sub.v, by_count);
	hbars(o, "CVEs per subsystem (top 20)", sub.v, sub.n > 20 ? 20 : sub.n, "#41ab5d");
	if (br.n > 1)
		qsort(br.v, br.n, sizeof *br.v, by_order);
	hbars(o, "CVEs per branch (records with a fix on the branch)", br.v, br.n, "#756bb1");
	if (ttf.n > 1)
		qsort(ttf.v, ttf.n, sizeof *ttf.v, by_order);
	hbars(o, "Time to fix (mainline releases between introduction and fix; ~9-10 weeks each)",
	      ttf.v, ttf.n, "#e6550d");
	if (check_json)
		check_section(o, s, check_json, err, &rc);
	sb_adds(o, "<p class=\"s\">Generated by kcve report.</p>\n</body></html>\n");
	kvlist_free(&wk);
	kvlist_free(&sub);
	kvlist_free(&br);
	kvlist_free(&ttf);
	return rc;
}
