/* The one JSON writer of a check result (see json.h): `check --json`'s document and the
 * members of a `check --batch` line, from the same pieces. */
#include "check/emit/json.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check/stages/codestage.h"
#include "check/stages/rank.h"
#include "check/verdict/verdict.h"
#include "codefix/match.h"
#include "core/kjson.h"
#include "core/xalloc.h"

/* [{"name", "count", "undecided"}...]: the entries kept after each stage, of which undecided. */
static json_t *stages_json(const struct ck_result *R)
{
	json_t *st = json_array();
	for (int i = 0; i < R->nstages; i++)
		json_array_append_new(st, kj_pack("{s:s, s:I, s:I}", "name", R->stages[i].name,
						    "count", (json_int_t)R->stages[i].count,
						    "undecided", (json_int_t)R->stages[i].unknown));
	return st;
}

json_t *ck_coverage_json(const struct ck_result *R)
{
	json_t *cov = json_array();
	for (size_t i = 0; i < R->ncov; i++)
		json_array_append_new(cov, kj_pack("{s:s, s:o}", "kind", R->cov[i].kind, "message",
						     kj_str(R->cov[i].message)));
	return cov;
}

static const char *vstat_name(unsigned char v)
{
	switch (v) {
	case CK_ST_AFFECTED: return "affected";
	case CK_ST_UNAFFECTED: return "unaffected";
	case CK_ST_UNDECIDED: return "undecided";
	default: return "unknown";
	}
}

static bool listed(const struct ck_entry *e, const struct ck_out_opts *o)
{
	return o->all || (e->outcome != CK_OUT_FIXED && e->outcome != CK_OUT_NOT_INTRODUCED);
}

static int dump(FILE *f, json_t *doc)
{
	int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
	return rc;
}

/* One CVE of a result in --json; rank: its place in the ranking (1 = first), 0 when not kept. */
static json_t *cve_json(const struct ck_set *s, const struct ck_result *R, const struct ck_entry *e,
			size_t rank)
{
	const struct ck_record *r = &s->v[e->rec];
	char sub[96];
	json_t *c = json_object();
	json_object_set_new(c, "id", kj_str(r->id));
	json_object_set_new(c, "title", kj_str(r->title));
	json_object_set_new(c, "subsystem",
			    kj_str(ck_record_subsystem(r, sub, sizeof sub)));
	bool scored = r->severity && *r->severity;
	json_object_set_new(c, "severity", scored ? kj_str(r->severity) : json_null());
	json_object_set_new(c, "score", scored && r->score10 ? json_real(r->score10 / 10.0)
							    : json_null());
	json_object_set_new(c, "outcome", kj_str(ck_outcome_name(e->outcome)));
	json_object_set_new(c, "stage", kj_str(e->stage ? e->stage : ""));
	char rb[256];
	json_object_set_new(c, "reason", kj_str(ck_entry_reason(s, R, e, rb, sizeof rb)));
	json_object_set_new(c, "json", kj_str(vstat_name(e->semver)));
	json_object_set_new(c, "dyad", kj_str(vstat_name(e->dyad)));
	json_object_set_new(c, "disagree", json_boolean(e->disagree));
	if (e->needs_git)
		json_object_set_new(c, "needs_git", json_true());
	if (e->disagree) {
		char jw[256], dw[256];
		ck_readings_explain(s, R, e, jw, dw, sizeof jw);
		json_t *why = json_object();
		json_object_set_new(why, "json", kj_str(jw));
		json_object_set_new(why, "dyad", kj_str(dw));
		json_object_set_new(c, "readings", why);
	}
	if (e->module != CK_MOD_NONE)
		json_object_set_new(c, "module_loaded",
				    json_boolean(e->module == CK_MOD_LOADED));
	if (e->fixed_in[0])
		json_object_set_new(c, "fixed_in", kj_str(e->fixed_in));
	json_t *files = json_array();
	for (size_t j = 0; j < r->nfiles; j++)
		json_array_append_new(files, kj_str(r->files[j]));
	json_object_set_new(c, "files", files);
	if (R->code && R->code[e - R->e].checked)
		json_object_set_new(c, "code", ck_code_json(&R->code[e - R->e]));
	if (rank)
		json_object_set_new(c, "rank", json_integer((json_int_t)rank));
	if (R->ranked_kev) {
		json_object_set_new(c, "kev", json_boolean(e->kev));
		if (e->kev_ransomware)
			json_object_set_new(c, "kev_ransomware", json_true());
	}
	if (e->has_epss)
		json_object_set_new(c, "epss", kj_pack("{s:f, s:f}", "probability", e->epss,
							 "percentile", e->epss_pct));
	if (e->mitigation != CK_MIT_NONE)
		json_object_set_new(c, "mitigation",
				    kj_pack("{s:s, s:s}", "state",
					      e->mitigation == CK_MIT_BLOCKED ? "blocked" : "blacklisted",
					      "evidence", e->mitigation_why ? e->mitigation_why : ""));
	return c;
}

int ck_print_json(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		  const struct ck_out_opts *o)
{
	json_t *doc = json_object();
	json_object_set_new(doc, "tool", kj_str("kcve check"));
	json_object_set_new(doc, "format", json_integer(1));
	json_object_set_new(doc, "source", kj_str(s->origin ? s->origin : ""));
	json_object_set_new(doc, "records", json_integer((json_int_t)s->n));
	json_t *results = json_array();
	for (size_t k = 0; k < nres; k++) {
		struct ck_result *R = &res[k];
		json_t *jr = json_object();
		json_object_set_new(jr, "kernel", kj_str(R->label));
		json_object_set_new(jr, "release", kj_str(R->release));
		json_object_set_new(jr, "stages", stages_json(R));
		json_object_set_new(jr, "reading",
				    kj_str(ck_reading_name((enum ck_reading)R->reading)));
		json_object_set_new(jr, "disagreements", json_integer((json_int_t)R->ndisagree));
		json_object_set_new(jr, "needs_git", json_integer((json_int_t)R->nneeds_git));
		json_object_set_new(jr, "coverage", ck_coverage_json(R));
		if (o->fixed_in) {
			json_object_set_new(jr, "fixed_in", kj_str(R->fixed_in));
			json_object_set_new(jr, "unfixed_on_branch",
					    json_integer((json_int_t)R->unfixed_on_branch));
		}
		/* kept CVEs first, in the one ranking (check/stages/rank.h), then the others */
		size_t *order = xcalloc(2 * R->n + 1, sizeof *order), *rank = order + R->n;
		size_t nk = ck_rank_order(s, R, order);
		for (size_t i = 0; i < nk; i++)
			rank[i] = i + 1;
		for (size_t i = 0, m = nk; i < R->n; i++)
			if (!ck_outcome_kept(R->e[i].outcome)) {
				rank[m] = 0;
				order[m++] = i;
			}
		json_t *cves = json_array();
		for (size_t i = 0; i < R->n; i++) {
			const struct ck_entry *e = &R->e[order[i]];
			if (!listed(e, o) && !e->disagree)
				continue;
			json_array_append_new(cves, cve_json(s, R, e, rank[i]));
		}
		free(order);
		json_object_set_new(jr, "cves", cves);
		if (R->ranked_kev) {
			json_t *u = json_array();
			for (size_t i = 0; i < R->nuntracked_kev; i++)
				json_array_append_new(u, kj_str(R->untracked_kev[i]));
			json_object_set_new(jr, "untracked_kev", u);
		}
		if (o->deltas)
			json_object_set_new(jr, "delta", ck_delta_json(&o->deltas[k], o->since));
		json_array_append_new(results, jr);
	}
	json_object_set_new(doc, "results", results);
	return dump(f, doc);
}

/* The ids of the kept entries in the one ranking (order, n: ck_rank_order) that want() picks. */
enum id_list { IDS_AFFECTED, IDS_UNKNOWN, IDS_KEV };

static json_t *ids_json(const struct ck_set *s, const struct ck_result *R, const size_t *order,
			size_t n, enum id_list which)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct ck_entry *e = &R->e[order[i]];
		bool want = which == IDS_AFFECTED ? e->outcome == CK_OUT_AFFECTED
			    : which == IDS_KEV    ? e->kev
						  : e->outcome != CK_OUT_AFFECTED;
		if (want)
			json_array_append_new(a, kj_str(s->v[e->rec].id));
	}
	return a;
}

/* The code stage's evidence of the CVEs whose outcome it decided (the function level may have
 * decided some of them further): {"decided":N, "cves":[{"id", and check --json's "code"
 * members}...]}. */
static json_t *code_line_json(const struct ck_set *s, const struct ck_result *R)
{
	json_t *cves = json_array();
	for (size_t i = 0; i < R->n; i++) {
		const struct ck_entry *e = &R->e[i];
		/* decided by the code: its stage, or the function level's after it */
		if (!R->code[i].checked || R->code[i].verdict == CF_UNDECIDED || !e->stage ||
		    (strcmp(e->stage, "code") && strcmp(e->stage, "functions")))
			continue;
		json_t *o = kj_pack("{s:s}", "id", s->v[e->rec].id), *c = ck_code_json(&R->code[i]);
		json_object_update(o, c);
		json_decref(c);
		json_array_append_new(cves, o);
	}
	return kj_pack("{s:I, s:o}", "decided", (json_int_t)R->ncode_decided, "cves", cves);
}

/* The function level's evidence: {"decided":N,"cves":[{"id","reason"}...]}, the CVEs it found
 * not affected (their changed code is not in the image). */
static json_t *functions_line_json(const struct ck_set *s, const struct ck_result *R)
{
	json_t *cves = json_array();
	for (size_t i = 0; i < R->n; i++) {
		const struct ck_entry *e = &R->e[i];
		if (e->stage && !strcmp(e->stage, "functions"))
			json_array_append_new(cves, kj_pack("{s:s, s:o}", "id", s->v[e->rec].id,
							      "reason", kj_str(e->reason ? e->reason : "")));
	}
	return kj_pack("{s:I, s:o}", "decided", (json_int_t)json_array_size(cves), "cves", cves);
}

json_t *ck_result_line_json(const struct ck_set *s, const struct ck_result *R, bool funcs)
{
	json_t *o = json_object();
	json_object_set_new(o, "records", json_integer((json_int_t)R->n));
	size_t *order = xcalloc(R->n + 1, sizeof *order);
	size_t n = ck_rank_order(s, R, order);
	json_object_set_new(o, "affected", ids_json(s, R, order, n, IDS_AFFECTED));
	json_object_set_new(o, "unknown", ids_json(s, R, order, n, IDS_UNKNOWN));
	if (R->ranked_kev) {
		json_object_set_new(o, "kev", ids_json(s, R, order, n, IDS_KEV));
		json_t *u = json_array();
		for (size_t i = 0; i < R->nuntracked_kev; i++)
			json_array_append_new(u, kj_str(R->untracked_kev[i]));
		json_object_set_new(o, "untracked_kev", u);
	}
	free(order);
	json_object_set_new(o, "stages", stages_json(R));
	json_object_set_new(o, "fixed_in", R->fixed_in[0] ? kj_str(R->fixed_in) : json_null());
	json_object_set_new(o, "coverage", ck_coverage_json(R));
	if (R->code)
		json_object_set_new(o, "code", code_line_json(s, R));
	if (funcs)
		json_object_set_new(o, "functions", functions_line_json(s, R));
	return o;
}
