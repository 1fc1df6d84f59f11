#include "check/check.h"

#include <stdio.h>
#include <string.h>

#include "check/verdict.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

const char *ck_outcome_name(enum ck_outcome o)
{
	switch (o) {
	case CK_OUT_AFFECTED: return "affected";
	case CK_OUT_UNKNOWN: return "unknown";
	case CK_OUT_NOT_COMPILED: return "not_compiled";
	case CK_OUT_FIXED: return "fixed";
	case CK_OUT_NOT_INTRODUCED: return "not_introduced";
	case CK_OUT_NO_DATA: return "no_data";
	}
	return "?";
}

bool ck_outcome_kept(enum ck_outcome o)
{
	return o == CK_OUT_AFFECTED || o == CK_OUT_UNKNOWN || o == CK_OUT_NO_DATA;
}

static void push_stage(struct ck_result *res, const char *name)
{
	if (res->nstages >= (int)(sizeof res->stages / sizeof res->stages[0]))
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

void ck_run_version(struct ck_set *s, const char *release, struct ck_result *out)
{
	memset(out, 0, sizeof *out);
	snprintf(out->label, sizeof out->label, "%s", release);
	snprintf(out->release, sizeof out->release, "%s", release);
	struct kver v;
	ck_kver_parse(&v, release);
	out->e = xcalloc(s->n + 1, sizeof *out->e);
	out->n = s->n;
	out->stages[0].name = "records";
	out->stages[0].count = s->n;
	out->nstages = 1;
	for (size_t i = 0; i < s->n; i++) {
		struct ck_record *r = &s->v[i];
		struct ck_entry *e = &out->e[i];
		e->rec = i;
		e->stage = "version";
		bool introduced = false;
		enum ck_vstatus d = ck_record_dyad_verdict(r, &v, &introduced);
		enum ck_vstatus j = ck_record_semver_verdict(r, &v);
		e->semver = (unsigned char)j;
		if (d == CK_ST_UNKNOWN)
			e->outcome = CK_OUT_NO_DATA;
		else if (d == CK_ST_AFFECTED)
			e->outcome = CK_OUT_AFFECTED;
		else
			e->outcome = introduced ? CK_OUT_FIXED : CK_OUT_NOT_INTRODUCED;
		if (d != CK_ST_UNKNOWN && j != CK_ST_UNKNOWN && d != j) {
			e->disagree = true;
			out->ndisagree++;
		}
		/* e->reason stays NULL: ck_entry_reason() words version verdicts on demand, so that
		 * checking hundreds of releases does not allocate a string per record. */
	}
	push_stage(out, "version");
}

const char *ck_entry_reason(const struct ck_set *s, const struct ck_result *res,
			    const struct ck_entry *e, char *buf, size_t n)
{
	if (e->reason)
		return e->reason;
	const struct ck_record *r = &s->v[e->rec];
	const char *rel = res->release[0] ? res->release : res->label;
	struct kver v;
	ck_kver_parse(&v, rel);
	switch ((enum ck_outcome)e->outcome) {
	case CK_OUT_AFFECTED:
		snprintf(buf, n, "%s is in the vulnerable range", rel);
		break;
	case CK_OUT_FIXED: {
		const char *f = NULL;
		for (size_t k = 0; k < r->pairs.n && !f; k++) {
			const struct dyad_pair *p = &r->pairs.v[k];
			if (!dyad_pair_same_version(p) && strcmp(p->fver, "0") != 0 &&
			    ck_release_in(p->vver, &v) && ck_release_in(p->fver, &v))
				f = p->fver;
		}
		snprintf(buf, n, "fixed in %s", f ? f : "an earlier release");
		break;
	}
	case CK_OUT_NOT_INTRODUCED:
		snprintf(buf, n, "vulnerable code not introduced in %s", rel);
		break;
	case CK_OUT_NO_DATA:
		snprintf(buf, n, "record has no vulnerable:fixed pair");
		break;
	default:
		snprintf(buf, n, "%s", ck_outcome_name(e->outcome));
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
		if (ncomp) {
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
	push_stage(res, name);
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
		if (!ck_branch_fix(&s->v[e->rec], &v, e->fixed_in, sizeof e->fixed_in)) {
			res->unfixed_on_branch++;
			continue;
		}
		struct kver k;
		ck_kver_parse(&k, e->fixed_in);
		if (!res->fixed_in[0] || kver_cmp(&k, &best) > 0) {
			snprintf(res->fixed_in, sizeof res->fixed_in, "%s", e->fixed_in);
			best = k;
		}
	}
}

void ck_result_release(struct ck_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		free(res->e[i].reason);
	free(res->e);
	memset(res, 0, sizeof *res);
}
