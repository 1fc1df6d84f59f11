#include "check/verdict/check.h"

#include <stdio.h>
#include <string.h>

#include "check/verdict/verdict.h"
#include "codefix/match.h"
#include "core/assert.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "core/text.h"

const char *ck_outcome_name(enum ck_outcome o)
{
	switch (o) {
	case CK_OUT_AFFECTED: return "affected";
	case CK_OUT_UNKNOWN: return "unknown";
	case CK_OUT_NOT_COMPILED: return "not_compiled";
	case CK_OUT_FIXED: return "fixed";
	case CK_OUT_NOT_INTRODUCED: return "not_introduced";
	case CK_OUT_NO_DATA: return "no_data";
	case CK_OUT_MITIGATED: return "mitigated";
	}
	return "?";
}

bool ck_outcome_kept(enum ck_outcome o)
{
	return o == CK_OUT_AFFECTED || o == CK_OUT_UNKNOWN || o == CK_OUT_NO_DATA;
}

void ck_result_push_stage(struct ck_result *res, const char *name)
{
	KCVE_ASSERT(res->nstages < CK_STAGE_COUNTS_MAX);
	if (res->nstages >= CK_STAGE_COUNTS_MAX) /* sized from the stage table: cannot happen */
		return;
	struct ck_stage_count *c = &res->stages[res->nstages++];
	c->name = name;
	c->count = c->unknown = 0;
	for (size_t i = 0; i < res->n; i++) {
		if (ck_outcome_kept(res->e[i].outcome)) {
			c->count++;
			if (res->e[i].outcome != CK_OUT_AFFECTED)
				c->unknown++;
		}
	}
}

void ck_result_copy(struct ck_result *dst, const struct ck_result *src)
{
	KCVE_ASSERT(src->code == NULL);
	for (size_t i = 0; i < src->n; i++)
		KCVE_ASSERT(src->e[i].reason == NULL && src->e[i].mitigation_why == NULL);
	*dst = *src;
	dst->e = xmalloc((src->n + 1) * sizeof *dst->e);
	memcpy(dst->e, src->e, src->n * sizeof *dst->e);
}

void ck_result_init(struct ck_result *res, const struct ck_set *s, const char *label,
		    const char *release)
{
	memset(res, 0, sizeof *res);
	text_snprintf(res->label, sizeof res->label, "%s", label);
	if (release)
		text_snprintf(res->release, sizeof res->release, "%s", release);
	res->e = xcalloc(s->n + 1, sizeof *res->e);
	res->n = s->n;
	res->stages[0].name = "records";
	res->stages[0].count = s->n;
	res->nstages = 1;
}

void ck_run_version(struct ck_set *s, const char *release, enum ck_reading rd,
		    struct ck_result *out)
{
	ck_result_init(out, s, release, release);
	out->reading = (unsigned char)rd;
	struct kver v;
	ck_kver_parse(&v, release);
	for (size_t i = 0; i < s->n; i++) {
		struct ck_entry *e = &out->e[i];
		struct ck_readings rs;
		ck_record_readings(&s->v[i], &v, rd, &rs);
		if (s->compile_once)
			ck_record_drop_compiled(&s->v[i]);
		e->rec = i;
		e->stage = "version";
		e->semver = (unsigned char)rs.json;
		e->dyad = (unsigned char)rs.dyad;
		switch (rs.verdict) {
		case CK_ST_AFFECTED: e->outcome = CK_OUT_AFFECTED; break;
		case CK_ST_UNAFFECTED:
			e->outcome = rs.fixed ? CK_OUT_FIXED : CK_OUT_NOT_INTRODUCED;
			break;
		case CK_ST_UNDECIDED:
			e->outcome = CK_OUT_UNKNOWN;
			e->needs_git = true;
			out->nneeds_git++;
			break;
		default: e->outcome = CK_OUT_NO_DATA; break;
		}
		/* the readings differ where both can decide and one calls the release affected */
		bool jd = rs.json == CK_ST_AFFECTED || rs.json == CK_ST_UNAFFECTED;
		bool dd = rs.dyad == CK_ST_AFFECTED || rs.dyad == CK_ST_UNAFFECTED;
		if (jd && dd && rs.json != rs.dyad) {
			e->disagree = true;
			out->ndisagree++;
		}
		/* e->reason stays NULL: ck_entry_reason() words version verdicts on demand, so that
		 * checking hundreds of releases does not allocate a string per record. */
	}
	ck_result_push_stage(out, "version");
}

static const char *vstatus_word(unsigned char v)
{
	switch (v) {
	case CK_ST_AFFECTED: return "affected";
	case CK_ST_UNAFFECTED: return "unaffected";
	case CK_ST_UNDECIDED: return "unknown (needs --git)";
	default: return "cannot decide";
	}
}

/* The pair that decides the .dyad reading at v, worded. */
static void dyad_why(const struct ck_record *r, const struct kver *v, char *buf, size_t n)
{
	const struct ck_pair *looked = NULL;
	for (size_t k = 0; k < r->pairs.n; k++) {
		const struct ck_pair *p = &r->pairs.v[k];
		if (ck_pair_same_release(p) || !ck_release_in(p->vver, v))
			continue;
		if (strcmp(p->fver, "0") != 0 && ck_release_in(p->fver, v)) {
			text_snprintf(buf, n, "pair %s->%s: the fix %s is in the release", p->vver, p->fver,
				 p->fver);
			return;
		}
		if (!looked)
			looked = p;
	}
	if (looked)
		text_snprintf(buf, n, "pair %s->%s: introduced, no fix of an applicable pair is in the release",
			 looked->vver, strcmp(looked->fver, "0") ? looked->fver : "(unfixed)");
	else if (r->pairs.n)
		text_snprintf(buf, n, "no pair's introduction is in the release");
	else
		text_snprintf(buf, n, "no pairs");
}

void ck_readings_explain(const struct ck_set *s, const struct ck_result *res,
			 const struct ck_entry *e, char *json_why, char *dyad_why_buf, size_t n)
{
	/* the compiled form of a record is a cache filled on first use */
	struct ck_record *r = (struct ck_record *)&s->v[e->rec];
	struct kver v;
	ck_kver_parse(&v, res->release[0] ? res->release : res->label);
	struct ck_json_why w;
	enum ck_vstatus j = ck_record_json_verdict(r, &v, &w);
	char t[160];
	ck_json_why_text(r, &w, t, sizeof t);
	text_snprintf(json_why, n, "JSON %s (%s)", vstatus_word((unsigned char)j), t);
	dyad_why(r, &v, t, sizeof t);
	text_snprintf(dyad_why_buf, n, ".dyad %s (%s)", vstatus_word(e->dyad), t);
}

const char *ck_entry_reason(const struct ck_set *s, const struct ck_result *res,
			    const struct ck_entry *e, char *buf, size_t n)
{
	if (e->reason)
		return e->reason;
	const char *rel = res->release[0] ? res->release : res->label;
	char jw[256], dw[256];
	ck_readings_explain(s, res, e, jw, dw, sizeof jw);
	const char *used = res->reading == CK_READ_DYAD ? dw : jw;
	switch ((enum ck_outcome)e->outcome) {
	case CK_OUT_AFFECTED:
		text_snprintf(buf, n, "%s is in the vulnerable range: %s", rel, used);
		break;
	case CK_OUT_FIXED:
		text_snprintf(buf, n, "fixed: %s", used);
		break;
	case CK_OUT_NOT_INTRODUCED:
		text_snprintf(buf, n, "vulnerable code not introduced in %s: %s", rel, used);
		break;
	case CK_OUT_UNKNOWN:
		if (e->needs_git) {
			text_snprintf(buf, n, "unknown (needs --git): %s holds only part of what the records "
					 "date to its final release; %s", rel, used);
			break;
		}
		/* fall through */
	default:
		text_snprintf(buf, n, "record has no usable JSON version data and no vulnerable:fixed pair");
	}
	return buf;
}

void ck_run_files(struct ck_set *s, struct ck_result *res, const char *name, ck_file_fn fn,
		  void *ctx)
{
	for (size_t i = 0; i < res->n; i++) {
		struct ck_entry *e = &res->e[i];
		if (!ck_outcome_kept(e->outcome) || e->outcome == CK_OUT_NO_DATA)
			continue;
		/* an -rc the records cannot place stays unknown unless nothing is compiled */
		bool undecided = e->needs_git;
		const struct ck_record *r = &s->v[e->rec];
		struct strbuf sb = STRBUF_INIT;
		if (r->nfiles == 0) {
			e->outcome = CK_OUT_UNKNOWN;
			e->stage = name;
			free(e->reason);
			e->reason = xstrdup("record lists no programFiles");
			continue;
		}
		size_t ncomp = 0, nunk = 0;
		const char *first_comp = NULL, *comp_reason = NULL, *unk = NULL, *unk_reason = NULL;
		const char *nc_reason = NULL;
		for (size_t f = 0; f < r->nfiles; f++) {
			const char *why = NULL;
			enum ck_filev v = fn(ctx, r->files[f], &why);
			if (v == CK_FILE_COMPILED) {
				if (!ncomp++) {
					first_comp = r->files[f];
					comp_reason = why;
				}
			} else if (v == CK_FILE_UNKNOWN) {
				if (!nunk++) {
					unk = r->files[f];
					unk_reason = why;
				}
			} else if (!nc_reason) {
				nc_reason = why;
			}
		}
		e->stage = name;
		if (ncomp && undecided) {
			e->outcome = CK_OUT_UNKNOWN;
			sb_addf(&sb, "%s compiled; version unknown (needs --git)", first_comp);
		} else if (ncomp) {
			e->outcome = CK_OUT_AFFECTED;
			sb_addf(&sb, "%s compiled%s%s%s", first_comp, comp_reason ? " (" : "",
				comp_reason ? comp_reason : "", comp_reason ? ")" : "");
		} else if (nunk) {
			e->outcome = CK_OUT_UNKNOWN;
			sb_addf(&sb, "%s: undecided%s%s%s", unk, unk_reason ? " (" : "",
				unk_reason ? unk_reason : "", unk_reason ? ")" : "");
		} else {
			e->outcome = CK_OUT_NOT_COMPILED;
			sb_addf(&sb, "none of the %zu program file(s) is compiled", r->nfiles);
			if (nc_reason)
				sb_addf(&sb, " (%s: %s)", r->files[0], nc_reason);
		}
		free(e->reason);
		e->reason = sb_detach(&sb);
	}
	ck_result_push_stage(res, name);
}

void ck_compute_fixed_in(struct ck_set *s, struct ck_result *res)
{
	if (!res->release[0])
		return;
	struct kver v, best;
	kver_parse(&v, res->release);
	res->fixed_in[0] = '\0';
	res->unfixed_on_branch = 0;
	for (size_t i = 0; i < res->n; i++) {
		struct ck_entry *e = &res->e[i];
		if (e->outcome != CK_OUT_AFFECTED && e->outcome != CK_OUT_UNKNOWN)
			continue;
		if (!ck_branch_fix(&s->v[e->rec], &v, (enum ck_reading)res->reading, e->fixed_in,
				   sizeof e->fixed_in)) {
			res->unfixed_on_branch++;
			continue;
		}
		struct kver k;
		ck_kver_parse(&k, e->fixed_in);
		if (!res->fixed_in[0] || kver_cmp(&k, &best) > 0) {
			text_snprintf(res->fixed_in, sizeof res->fixed_in, "%s", e->fixed_in);
			best = k;
		}
	}
}

void ck_result_release(struct ck_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		free(res->e[i].reason);
		if (res->code && !res->code_shared)
			cf_ev_free(res->code[i].ev, res->code[i].nev);
		free(res->e[i].mitigation_why);
	}
	if (!res->code_shared)
		free(res->code);
	free(res->e);
	memset(res, 0, sizeof *res);
}
