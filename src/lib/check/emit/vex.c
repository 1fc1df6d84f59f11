/* OpenVEX and CycloneDX documents of a check result (see vex.h, docs/check.md "VEX"). */
#include "check/emit/vex.h"
#include "check/verdict/statement.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/clock.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "core/sha256.h"
#include "core/strbuf.h"
#include "core/kjson.h"
#include "core/text.h"

long long ck_vex_now(void)
{
	return clock_stamp(); /* $SOURCE_DATE_EPOCH (checked: 1970..9999), else now */
}

void ck_vex_time_text(long long secs, char *out, size_t n)
{
	time_t t = (time_t)secs;
	struct tm tm;
	if (!gmtime_r(&t, &tm) || !strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm))
		text_snprintf(out, n, "1970-01-01T00:00:00Z");
}

void ck_vex_timestamp(char *out, size_t n)
{
	ck_vex_time_text(ck_vex_now(), out, n);
}

void ck_vex_identity(const struct ck_result *R, const struct ck_vex_opts *o,
		     struct ck_vex_ident *id)
{
	const struct ck_sbom *sb = o->sbom;
	const char *rel = R->release[0] ? R->release : NULL;
	const char *base = o->product ? o->product : CK_VEX_DEFAULT_PURL;
	if (sb && sb->purl)
		text_snprintf(id->purl, sizeof id->purl, "%s", sb->purl);
	else if (strchr(base, '@') || !rel)
		text_snprintf(id->purl, sizeof id->purl, "%s", base);
	else
		text_snprintf(id->purl, sizeof id->purl, "%s@%s", base, rel);
	const char *cbase = o->cpe ? o->cpe : CK_VEX_DEFAULT_CPE;
	size_t colons = 0;
	for (const char *p = cbase; *p; p++)
		colons += *p == ':';
	if (sb && sb->cpe)
		text_snprintf(id->cpe, sizeof id->cpe, "%s", sb->cpe);
	else if (colons >= 12) /* a complete CPE 2.3 name */
		text_snprintf(id->cpe, sizeof id->cpe, "%s", cbase);
	else
		text_snprintf(id->cpe, sizeof id->cpe, "%s:%s:*:*:*:*:*:*:*", cbase, rel ? rel : "*");
	if (sb && sb->cyclonedx) /* BOM-Link: urn:cdx:serial/version#bom-ref */
		text_snprintf(id->ref, sizeof id->ref, "urn:cdx:%s/%ld#%s", sb->serial + 9, sb->version,
			 sb->ref);
	else
		text_snprintf(id->ref, sizeof id->ref, "%s", id->purl);
}

/* A content-derived RFC 4122 id: SHA-256 of the document without its id and timestamp, laid
 * out as a name-based (version 5 layout) UUID. The same inputs give the same id. */
void ck_vex_content_uuid(json_t *doc, char out[46])
{
	char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	char h[65];
	sha256_hex(text ? text : "", text ? strlen(text) : 0, h);
	free(text);
	h[12] = '5';
	static const char variant[] = "89ab";
	h[16] = variant[(h[16] >= 'a' ? h[16] - 'a' + 10 : h[16] - '0') & 3];
	text_snprintf(out, 46, "urn:uuid:%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16, h + 20);
}

const char *ck_vex_author(const struct ck_vex_opts *o)
{
	if (o->author && *o->author)
		return o->author;
	diag_warn(o->diag, "the VEX author is a placeholder; pass --author 'Organisation "
		  "<contact>' (or set KCVE_VEX_AUTHOR) before publishing it");
	return CK_VEX_AUTHOR_PLACEHOLDER;
}

int ck_vex_dump(FILE *f, json_t *doc)
{
	int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
	return rc;
}

json_t *ck_vex_cve_url(const char *id)
{
	char url[96];
	text_snprintf(url, sizeof url, "https://www.cve.org/CVERecord?id=%s", id);
	return kj_str(url);
}

/* OpenVEX's justification of a not_affected statement (check/verdict/statement.h). */
static const char *openvex_justification(enum ck_vex_just j)
{
	switch (j) {
	case CK_VEX_JUST_CODE_NOT_PRESENT: return "vulnerable_code_not_present";
	case CK_VEX_JUST_INLINE_MITIGATION: return "inline_mitigations_already_exist";
	case CK_VEX_JUST_NONE: break;
	}
	return NULL;
}

/* One OpenVEX statement: the entry's statement (check/verdict/statement.h) with kcve's reason. */
static json_t *statement(const struct ck_set *s, const struct ck_result *R,
			 const struct ck_entry *e, const struct ck_vex_stmt *vs,
			 const struct ck_vex_ident *id)
{
	const char *cve = s->v[e->rec].id;
	json_t *st = json_object();
	json_object_set_new(st, "vulnerability", kj_pack("{s:o, s:s}", "@id", ck_vex_cve_url(cve),
							   "name", cve));
	json_object_set_new(st, "products", kj_pack("[{s:s, s:{s:s, s:s}}]", "@id", id->purl,
						      "identifiers", "purl", id->purl, "@cpe23",
						      id->cpe));
	char rb[256];
	const char *reason = ck_entry_reason(s, R, e, rb, sizeof rb);
	json_object_set_new(st, "status", kj_str(ck_vex_status_name(vs->status)));
	/* the justification (machine-readable) when not affected; kcve's reason (version range,
	 * files not compiled, the code evidence, the modprobe rule, readings that disagree) in
	 * status_notes (the schema takes a justification or an impact statement, not both) */
	const char *just = vs->status == CK_VEX_NOT_AFFECTED ? openvex_justification(vs->just) : NULL;
	if (just)
		json_object_set_new(st, "justification", kj_str(just));
	json_object_set_new(st, "status_notes", kj_str(reason));
	if (vs->status == CK_VEX_NOT_AFFECTED && !just)
		json_object_set_new(st, "impact_statement", kj_str(reason));
	if (vs->status == CK_VEX_AFFECTED) {
		char act[192];
		if (e->fixed_in[0])
			text_snprintf(act, sizeof act, "update to %s or later", e->fixed_in);
		else
			text_snprintf(act, sizeof act, "apply the upstream fix of %s", cve);
		json_object_set_new(st, "action_statement", kj_str(act));
	}
	return st;
}

/* "CVE\npurl": what a statement is about (its vulnerability and first product). */
static void statement_key(json_t *st, char *out, size_t n)
{
	json_t *v = json_object_get(st, "vulnerability");
	json_t *p = json_array_get(json_object_get(st, "products"), 0);
	const char *cve = json_string_value(json_object_get(v, "name"));
	const char *pid = json_string_value(json_object_get(p, "@id"));
	text_snprintf(out, n, "%s\n%s", cve ? cve : "", pid ? pid : "");
}

/* Statements by key (the last one of a key wins). */
static json_t *index_statements_array(json_t *stmts)
{
	json_t *ix = json_object(), *st;
	size_t i;
	json_array_foreach(stmts, i, st) {
		char key[512];
		if (!json_is_object(st))
			continue;
		statement_key(st, key, sizeof key);
		json_object_set(ix, key, st);
	}
	return ix;
}

static json_t *index_statements(json_t *doc)
{
	return index_statements_array(json_object_get(doc, "statements"));
}

/* A statement keeps the previous timestamp when nothing else in it changed. */
static void stamp(json_t *st, json_t *prev_ix, const char *prev_ts, const char *now)
{
	char key[512];
	statement_key(st, key, sizeof key);
	json_t *old = prev_ix ? json_object_get(prev_ix, key) : NULL;
	const char *ts = now;
	if (old) {
		json_t *cmp = json_deep_copy(old);
		json_object_del(cmp, "timestamp");
		json_object_del(cmp, "last_updated");
		if (json_equal(cmp, st)) {
			const char *t = json_string_value(json_object_get(old, "timestamp"));
			ts = t ? t : prev_ts;
		}
		json_decref(cmp);
	}
	json_object_set_new(st, "timestamp", kj_str(ts));
}

/* "withdrawn: WHY (since OLD)": what OpenVEX and CycloneDX say of a CVE rejected since OLD. */
static void withdrawn_text(const struct ck_delta_entry *d, const char *since, char *out, size_t n)
{
	text_snprintf(out, n, "withdrawn: %s (since %s)", d->why, since);
}

/* A CVE rejected (or no longer published) since the previous statement: not_affected, saying
 * it was withdrawn, instead of silently disappearing. */
static json_t *withdrawn_statement(const struct ck_delta_entry *d, const struct ck_vex_ident *id,
				   const char *since)
{
	char why[320];
	withdrawn_text(d, since, why, sizeof why);
	return kj_pack("{s:{s:o, s:s}, s:[{s:s, s:{s:s, s:s}}], s:s, s:s, s:s}",
			 "vulnerability", "@id", ck_vex_cve_url(d->id), "name", d->id, "products",
			 "@id", id->purl, "identifiers", "purl", id->purl, "@cpe23", id->cpe,
			 "status", "not_affected", "status_notes", why, "impact_statement", why);
}

static json_t *openvex_statements(const struct ck_set *s, struct ck_result *res, size_t nres,
				  const struct ck_vex_opts *o)
{
	json_t *stmts = json_array();
	for (size_t k = 0; k < nres; k++) {
		const struct ck_result *R = &res[k];
		struct ck_vex_ident id;
		ck_vex_identity(R, o, &id);
		for (size_t i = 0; i < R->n; i++) {
			const struct ck_entry *e = &R->e[i];
			struct ck_vex_stmt vs;
			ck_vex_stmt_of(e, o->all, &vs);
			if (vs.listed)
				json_array_append_new(stmts, statement(s, R, e, &vs, &id));
		}
		const struct ck_delta *d = o->since && o->since->deltas ? &o->since->deltas[k] : NULL;
		for (size_t i = 0; d && i < d->n; i++)
			if (d->v[i].rejected)
				json_array_append_new(stmts, withdrawn_statement(&d->v[i], &id,
										 o->since->label));
	}
	return stmts;
}

/* A withdrawn statement of the previous document stays (with its time) when nothing states
 * the CVE anew: a rejected CVE does not vanish in the revision after the one that withdrew it. */
static void carry_withdrawn(json_t *stmts, json_t *prev_ix)
{
	json_t *now_ix = index_statements_array(stmts);
	const char *key;
	json_t *st;
	json_object_foreach(prev_ix, key, st) {
		const char *notes = json_string_value(json_object_get(st, "status_notes"));
		/* only a well-formed one (the previous document is input, not kcve's own) */
		if (notes && !strncmp(notes, "withdrawn: ", 11) && !json_object_get(now_ix, key) &&
		    key[0] != '\n' && json_is_string(json_object_get(st, "timestamp")) &&
		    json_is_string(json_object_get(json_array_get(json_object_get(st, "products"), 0),
						   "@id")))
			json_array_append_new(stmts, json_deep_copy(st));
	}
	json_decref(now_ix);
}

void ck_vex_mark_stated(const struct ck_set *s, struct ck_result *res, size_t nres,
			const struct ck_vex_opts *o)
{
	json_t *prev = o->since ? o->since->prev : NULL;
	json_t *prev_ix = prev ? index_statements(prev) : NULL;
	for (size_t k = 0; k < nres; k++) {
		struct ck_vex_ident id;
		ck_vex_identity(&res[k], o, &id);
		for (size_t i = 0; i < res[k].n; i++) {
			struct ck_entry *e = &res[k].e[i];
			char key[512];
			text_snprintf(key, sizeof key, "%s\n%s", s->v[e->rec].id, id.purl);
			e->stated = prev_ix && json_object_get(prev_ix, key);
		}
	}
	json_decref(prev_ix);
}

void ck_vex_doc_opts(const struct ck_result *res, size_t nres, const struct ck_vex_opts *o,
		     const struct ck_delta *deltas, struct ck_vex_opts *out)
{
	*out = *o;
	out->all = ck_vex_doc_all(res, nres, o->all, deltas);
}

/* "6.1.5, 6.6.1": the kernels of a document, for a message. */
static void kernels_text(const struct ck_result *res, size_t nres, struct strbuf *out)
{
	for (size_t k = 0; k < nres; k++)
		sb_addf(out, "%s%s", k ? ", " : "", res[k].label);
	if (!nres)
		sb_addf(out, "no kernel");
}

int ck_vex_scope_announce(const struct ck_result *res, size_t nres, const struct ck_vex_opts *o,
			  struct kcve_err *err)
{
	const struct ck_delta *deltas = o->since ? o->since->deltas : NULL;
	enum ck_vex_scope sc = ck_vex_scope_of(res, nres, o->all, deltas);
	if (sc == CK_VEX_SCOPE_LISTED)
		return 0;
	struct strbuf k = STRBUF_INIT;
	kernels_text(res, nres, &k);
	int rc = 0;
	if (sc == CK_VEX_SCOPE_WIDENED)
		diag_warn(o->diag, "no CVE applies to %s; the VEX document states every record "
			  "checked (as with --all), since a VEX document needs at least one "
			  "statement", sb_str(&k));
	else
		rc = kcve_err_set(err, KCVE_E_EMPTY, "no record was checked for %s (the records are "
				  "empty) and none was withdrawn, so the VEX document would state "
				  "nothing; no document was written", sb_str(&k));
	sb_release(&k);
	return rc;
}

json_t *ck_openvex_document(const struct ck_set *s, struct ck_result *res, size_t nres,
			    const struct ck_vex_opts *o, long long when)
{
	struct ck_vex_opts doc_o; /* nothing listed: every record, as with --all */
	ck_vex_doc_opts(res, nres, o, o->since ? o->since->deltas : NULL, &doc_o);
	o = &doc_o;
	const struct ck_vex_since *since = o->since;
	json_t *prev = since ? since->prev : NULL;
	json_t *prev_ix = prev ? index_statements(prev) : NULL;
	char now[32];
	ck_vex_time_text(when, now, sizeof now);
	const char *prev_ts = prev ? json_string_value(json_object_get(prev, "timestamp")) : NULL;
	json_t *stmts = openvex_statements(s, res, nres, o);
	size_t i;
	json_t *st;
	json_array_foreach(stmts, i, st)
		if (prev)
			stamp(st, prev_ix, prev_ts ? prev_ts : now, now);
	if (prev)
		carry_withdrawn(stmts, prev_ix);
	json_decref(prev_ix);
	json_t *doc = json_object();
	json_object_set_new(doc, "@context", kj_str("https://openvex.dev/ns/v0.2.0"));
	json_object_set_new(doc, "author", kj_str(ck_vex_author(o)));
	if (o->role && *o->role)
		json_object_set_new(doc, "role", kj_str(o->role));
	json_int_t version = prev ? json_integer_value(json_object_get(prev, "version")) + 1 : 1;
	json_object_set_new(doc, "version", json_integer(version));
	json_object_set_new(doc, "tooling", kj_str("kcve " KCVE_VERSION));
	json_object_set_new(doc, "statements", stmts);
	char uuid[46];
	ck_vex_content_uuid(doc, uuid);
	/* a revision keeps the document's id and first timestamp; the id and timestamp come
	 * first, as in the spec's examples */
	const char *pid = prev ? json_string_value(json_object_get(prev, "@id")) : NULL;
	json_t *out = kj_pack("{s:O, s:s}", "@context", json_object_get(doc, "@context"), "@id",
				pid ? pid : uuid);
	json_object_update(out, doc);
	json_object_set_new(out, "timestamp", kj_str(prev_ts ? prev_ts : now));
	if (prev)
		json_object_set_new(out, "last_updated", kj_str(now));
	json_decref(doc);
	return out;
}

int ck_print_openvex(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		     const struct ck_vex_opts *o)
{
	return ck_vex_dump(f, ck_openvex_document(s, res, nres, o, ck_vex_now()));
}

int ck_openvex_parse(const char *text, size_t len, const char *name, json_t **out,
		     struct kcve_err *err)
{
	json_error_t je;
	*out = NULL;
	json_t *doc = kj_loadb(text, len, 0, &je);
	json_t *v = json_object_get(doc, "version");
	if (!json_is_object(doc) || !json_is_array(json_object_get(doc, "statements")) ||
	    !json_is_integer(v) || json_integer_value(v) < 1 ||
	    json_integer_value(v) > 1000000000 || !json_is_string(json_object_get(doc, "@id")) ||
	    !json_is_string(json_object_get(doc, "timestamp"))) {
		json_decref(doc);
		return kcve_err_set(err, KCVE_E_PARSE, "%s is not an OpenVEX document (needs @id, "
				    "timestamp, a version >= 1 and statements); give the file an "
				    "earlier 'kcve check --openvex' wrote", name);
	}
	*out = doc;
	return 0;
}

int ck_openvex_load(const char *path, json_t **out, struct kcve_err *err)
{
	struct stat st;
	struct strbuf sb = STRBUF_INIT;
	*out = NULL;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20) ||
	    read_file(path, &sb) != 0) {
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_IO, "cannot read the previous OpenVEX document %s "
				    "(a regular file of at most 64 MiB); give the file an earlier "
				    "'kcve check --openvex' wrote", path);
	}
	int rc = ck_openvex_parse(sb.buf, sb.len, path, out, err);
	sb_release(&sb);
	return rc;
}

/* CycloneDX affects[].versions[].status of a statement. */
static const char *affects_status(const struct ck_vex_stmt *vs)
{
	switch (vs->status) {
	case CK_VEX_AFFECTED: return "affected";
	case CK_VEX_UNDER_INVESTIGATION: return "unknown";
	case CK_VEX_NOT_AFFECTED:
	case CK_VEX_FIXED: break;
	}
	return "unaffected";
}

/* One CycloneDX vulnerability for a record, with every checked kernel it is listed for. */
static json_t *cdx_vuln(const struct ck_set *s, struct ck_result *res, size_t nres, size_t rec,
			const struct ck_vex_opts *o)
{
	const struct ck_record *r = &s->v[rec];
	json_t *aff = json_array();
	struct strbuf detail = STRBUF_INIT;
	bool any_aff = false, any_unknown = false, all_fixed = true, any_mitigated = false;
	for (size_t k = 0; k < nres; k++) {
		const struct ck_result *R = &res[k];
		if (rec >= R->n)
			continue;
		const struct ck_entry *e = &R->e[rec];
		struct ck_vex_stmt vs;
		ck_vex_stmt_of(e, o->all, &vs);
		if (!vs.listed)
			continue;
		struct ck_vex_ident id;
		ck_vex_identity(R, o, &id);
		json_t *a = kj_pack("{s:s}", "ref", id.ref);
		if (R->release[0])
			json_object_set_new(a, "versions", kj_pack("[{s:s, s:s}]", "version",
								     R->release, "status",
								     affects_status(&vs)));
		json_array_append_new(aff, a);
		any_aff |= vs.status == CK_VEX_AFFECTED;
		any_mitigated |= vs.just == CK_VEX_JUST_INLINE_MITIGATION;
		any_unknown |= vs.status == CK_VEX_UNDER_INVESTIGATION;
		all_fixed &= vs.status == CK_VEX_FIXED;
		char rb[256];
		sb_addf(&detail, "%s%s: %s (%s)", detail.len ? "; " : "", R->label,
			ck_outcome_name(e->outcome), ck_entry_reason(s, R, e, rb, sizeof rb));
	}
	if (!json_array_size(aff)) {
		json_decref(aff);
		sb_release(&detail);
		return NULL;
	}
	const char *state = any_aff ? "exploitable" : any_unknown ? "in_triage"
					: all_fixed ? "resolved" : "not_affected";
	json_t *an = kj_pack("{s:s}", "state", state);
	if (!strcmp(state, "not_affected"))
		json_object_set_new(an, "justification", kj_str(any_mitigated
								      ? "protected_by_mitigating_control"
								      : "code_not_present"));
	json_object_set_new(an, "detail", kj_str(sb_str(&detail)));
	sb_release(&detail);
	json_t *v = kj_pack("{s:s, s:s, s:{s:s, s:o}}", "bom-ref", r->id, "id", r->id, "source",
			      "name", "kernel.org CNA", "url", ck_vex_cve_url(r->id));
	char nvd[96];
	text_snprintf(nvd, sizeof nvd, "https://nvd.nist.gov/vuln/detail/%s", r->id);
	json_object_set_new(v, "references", kj_pack("[{s:s, s:{s:s, s:s}}]", "id", r->id,
						       "source", "name", "NVD", "url", nvd));
	if (r->severity && *r->severity && r->score10) {
		char sev[16];
		size_t n = 0;
		for (; r->severity[n] && n + 1 < sizeof sev; n++)
			sev[n] = (char)tolower((unsigned char)r->severity[n]);
		sev[n] = '\0';
		json_object_set_new(v, "ratings", kj_pack("[{s:{s:s}, s:f, s:s, s:s}]", "source",
							    "name", "kernel.org CNA", "score",
							    r->score10 / 10.0, "severity", sev,
							    "method", "CVSSv31"));
	}
	json_t *adv = kj_pack("[{s:s, s:o}]", "title", "CVE record", "url", ck_vex_cve_url(r->id));
	for (size_t i = 0; i < r->nfixes; i++) {
		char url[128], title[64];
		text_snprintf(url, sizeof url, "https://git.kernel.org/stable/c/%s", r->fixes[i]);
		text_snprintf(title, sizeof title, "fix %.12s", r->fixes[i]);
		json_array_append_new(adv, kj_pack("{s:s, s:s}", "title", title, "url", url));
	}
	json_object_set_new(v, "advisories", adv);
	json_object_set_new(v, "analysis", an);
	json_object_set_new(v, "affects", aff);
	return v;
}

void ck_vex_withdrawn_each(const struct ck_delta *deltas, size_t nres, json_t *vulns,
			   const struct ck_withdrawn_ops *ops)
{
	json_t *seen = json_object(); /* CVE -> its vulnerability */
	for (size_t k = 0; deltas && k < nres; k++) {
		const struct ck_delta *d = &deltas[k];
		for (size_t i = 0; i < d->n; i++) {
			const struct ck_delta_entry *e = &d->v[i];
			if (!e->rejected)
				continue;
			json_t *v = json_object_get(seen, e->id);
			if (!v) {
				v = ops->make(ops->ctx, e);
				json_object_set_new(seen, e->id, v);
				json_array_append(vulns, v);
			}
			ops->add(ops->ctx, v, k);
		}
	}
	json_decref(seen);
}

/* --since: each CVE rejected since OLD, not affected for every kernel OLD kept it for, its
 * detail saying it was withdrawn (CycloneDX has no withdrawn state). */
struct cdx_w {
	struct ck_result *res;
	const struct ck_vex_opts *o;
};

static json_t *cdx_withdrawn_vuln(void *ctx, const struct ck_delta_entry *e)
{
	const struct cdx_w *w = ctx;
	char why[320];
	withdrawn_text(e, w->o->since->label, why, sizeof why);
	return kj_pack("{s:s, s:s, s:{s:s, s:o}, s:{s:s, s:s}, s:[]}", "bom-ref", e->id, "id",
		       e->id, "source", "name", "kernel.org CNA", "url", ck_vex_cve_url(e->id),
		       "analysis", "state", "not_affected", "detail", why, "affects");
}

static void cdx_withdrawn_kernel(void *ctx, json_t *v, size_t k)
{
	const struct cdx_w *w = ctx;
	const struct ck_result *R = &w->res[k];
	struct ck_vex_ident id;
	ck_vex_identity(R, w->o, &id);
	json_t *a = kj_pack("{s:s}", "ref", id.ref);
	if (R->release[0])
		json_object_set_new(a, "versions", kj_pack("[{s:s, s:s}]", "version", R->release,
							     "status", "unaffected"));
	json_array_append_new(json_object_get(v, "affects"), a);
}

int ck_print_cyclonedx(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		       const struct ck_vex_opts *o)
{
	struct ck_vex_opts doc_o; /* nothing listed: every record, as with --all */
	ck_vex_doc_opts(res, nres, o, o->since ? o->since->deltas : NULL, &doc_o);
	o = &doc_o;
	json_t *comps = json_array(), *vulns = json_array();
	/* with an SBOM the VEX points into it (BOM-Link); else it names the kernels itself */
	for (size_t k = 0; k < nres && !(o->sbom && o->sbom->cyclonedx); k++) {
		struct ck_vex_ident id;
		ck_vex_identity(&res[k], o, &id);
		json_t *c = kj_pack("{s:s, s:s, s:s}", "type", "operating-system", "bom-ref",
				      id.ref, "name", "linux-kernel");
		if (res[k].release[0])
			json_object_set_new(c, "version", kj_str(res[k].release));
		json_object_set_new(c, "cpe", kj_str(id.cpe));
		json_object_set_new(c, "purl", kj_str(id.purl));
		bool dup = false;
		for (size_t j = 0; j < json_array_size(comps) && !dup; j++)
			dup = !strcmp(json_string_value(json_object_get(json_array_get(comps, j),
									 "bom-ref")), id.ref);
		if (dup)
			json_decref(c);
		else
			json_array_append_new(comps, c);
	}
	for (size_t i = 0; i < s->n; i++) {
		json_t *v = cdx_vuln(s, res, nres, i, o);
		if (v)
			json_array_append_new(vulns, v);
	}
	if (o->since) {
		struct cdx_w w = {res, o};
		struct ck_withdrawn_ops ops = {cdx_withdrawn_vuln, cdx_withdrawn_kernel, &w};
		ck_vex_withdrawn_each(o->since->deltas, nres, vulns, &ops);
	}
	json_t *meta = kj_pack("{s:{s:[{s:s, s:s, s:s}]}, s:[{s:s}]}", "tools", "components",
				 "type", "application", "name", "kcve", "version", KCVE_VERSION,
				 "authors", "name", ck_vex_author(o));
	json_t *doc = kj_pack("{s:s, s:s, s:i}", "bomFormat", "CycloneDX", "specVersion", "1.5",
				"version", 1);
	json_object_set_new(doc, "metadata", meta);
	if (json_array_size(comps))
		json_object_set_new(doc, "components", comps);
	else
		json_decref(comps);
	json_object_set_new(doc, "vulnerabilities", vulns);
	char uuid[46], ts[32];
	ck_vex_content_uuid(doc, uuid);
	ck_vex_timestamp(ts, sizeof ts);
	json_t *out = kj_pack("{s:s, s:s, s:s, s:i}", "bomFormat", "CycloneDX", "specVersion",
				"1.5", "serialNumber", uuid, "version", 1);
	json_object_update(out, doc);
	json_object_set_new(json_object_get(out, "metadata"), "timestamp", kj_str(ts));
	json_decref(doc);
	return ck_vex_dump(f, out);
}
