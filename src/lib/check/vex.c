/* OpenVEX and CycloneDX documents of a check result (see vex.h, docs/check.md "VEX"). */
#include "check/vex.h"
#include "check/codestage.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/sha256.h"
#include "core/strbuf.h"

static bool listed(const struct ck_entry *e, const struct ck_vex_opts *o)
{
	return o->all || (e->outcome != CK_OUT_FIXED && e->outcome != CK_OUT_NOT_INTRODUCED);
}

static void timestamp(char *out, size_t n)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The kernel's identity for one result: purl, CPE 2.3 and the CycloneDX affects ref. */
struct ident {
	char purl[256], cpe[256], ref[512];
};

static void identity(const struct ck_result *R, const struct ck_vex_opts *o, struct ident *id)
{
	const struct ck_sbom *sb = o->sbom;
	const char *rel = R->release[0] ? R->release : NULL;
	const char *base = o->product ? o->product : CK_VEX_DEFAULT_PURL;
	if (sb && sb->purl)
		snprintf(id->purl, sizeof id->purl, "%s", sb->purl);
	else if (strchr(base, '@') || !rel)
		snprintf(id->purl, sizeof id->purl, "%s", base);
	else
		snprintf(id->purl, sizeof id->purl, "%s@%s", base, rel);
	const char *cbase = o->cpe ? o->cpe : CK_VEX_DEFAULT_CPE;
	size_t colons = 0;
	for (const char *p = cbase; *p; p++)
		colons += *p == ':';
	if (sb && sb->cpe)
		snprintf(id->cpe, sizeof id->cpe, "%s", sb->cpe);
	else if (colons >= 12) /* a complete CPE 2.3 name */
		snprintf(id->cpe, sizeof id->cpe, "%s", cbase);
	else
		snprintf(id->cpe, sizeof id->cpe, "%s:%s:*:*:*:*:*:*:*", cbase, rel ? rel : "*");
	if (sb && sb->cyclonedx) /* BOM-Link: urn:cdx:serial/version#bom-ref */
		snprintf(id->ref, sizeof id->ref, "urn:cdx:%s/%ld#%s", sb->serial + 9, sb->version,
			 sb->ref);
	else
		snprintf(id->ref, sizeof id->ref, "%s", id->purl);
}

/* A content-derived RFC 4122 id: SHA-256 of the document without its id and timestamp, laid
 * out as a name-based (version 5 layout) UUID. The same inputs give the same id. */
static void content_uuid(json_t *doc, char out[46])
{
	char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	char h[65];
	sha256_hex(text ? text : "", text ? strlen(text) : 0, h);
	free(text);
	h[12] = '5';
	static const char variant[] = "89ab";
	h[16] = variant[(h[16] >= 'a' ? h[16] - 'a' + 10 : h[16] - '0') & 3];
	snprintf(out, 46, "urn:uuid:%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16, h + 20);
}

static const char *author_of(const struct ck_vex_opts *o)
{
	if (o->author && *o->author)
		return o->author;
	fprintf(stderr, "kcve: warning: the VEX author is a placeholder; pass --author "
			"'Organisation <contact>' (or set KCVE_VEX_AUTHOR) before publishing it\n");
	return CK_VEX_AUTHOR_PLACEHOLDER;
}

static int dump(FILE *f, json_t *doc)
{
	int rc = json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(doc);
	return rc;
}

static json_t *cve_org(const char *id)
{
	char url[96];
	snprintf(url, sizeof url, "https://www.cve.org/CVERecord?id=%s", id);
	return json_string(url);
}

int ck_print_openvex(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		     const struct ck_vex_opts *o)
{
	json_t *stmts = json_array();
	for (size_t k = 0; k < nres; k++) {
		const struct ck_result *R = &res[k];
		struct ident id;
		identity(R, o, &id);
		for (size_t i = 0; i < R->n; i++) {
			const struct ck_entry *e = &R->e[i];
			if (!listed(e, o))
				continue;
			const char *cve = s->v[e->rec].id;
			json_t *st = json_object();
			json_object_set_new(st, "vulnerability", json_pack("{s:o, s:s}", "@id",
									   cve_org(cve), "name", cve));
			json_object_set_new(st, "products", json_pack("[{s:s, s:{s:s, s:s}}]", "@id",
								      id.purl, "identifiers", "purl",
								      id.purl, "@cpe23", id.cpe));
			char rb[256];
			const char *reason = ck_entry_reason(s, R, e, rb, sizeof rb);
			const char *status = "under_investigation";
			switch ((enum ck_outcome)e->outcome) {
			case CK_OUT_AFFECTED: status = "affected"; break;
			case CK_OUT_UNKNOWN:
			case CK_OUT_NO_DATA: status = "under_investigation"; break;
			case CK_OUT_NOT_COMPILED:
			case CK_OUT_NOT_INTRODUCED: status = "not_affected"; break;
			case CK_OUT_FIXED: status = "fixed"; break;
			}
			bool code_fixed = ck_code_fixed(R, i);
			if (code_fixed)
				status = "not_affected";
			json_object_set_new(st, "status", json_string(status));
			if (code_fixed)
				json_object_set_new(st, "justification",
						    json_string("vulnerable_code_not_present"));
			/* kcve's reason (version range, files not compiled, readings that
			 * disagree) in status_notes; a not_affected statement carries it as its
			 * impact_statement too (the schema allows that or a justification, not
			 * both) */
			json_object_set_new(st, "status_notes", json_string(reason));
			if (e->outcome == CK_OUT_NOT_COMPILED || e->outcome == CK_OUT_NOT_INTRODUCED)
				json_object_set_new(st, "impact_statement", json_string(reason));
			if (e->outcome == CK_OUT_AFFECTED) {
				char act[192];
				if (e->fixed_in[0])
					snprintf(act, sizeof act, "update to %s or later", e->fixed_in);
				else
					snprintf(act, sizeof act, "apply the upstream fix of %s", cve);
				json_object_set_new(st, "action_statement", json_string(act));
			}
			json_array_append_new(stmts, st);
		}
	}
	json_t *doc = json_object();
	json_object_set_new(doc, "@context", json_string("https://openvex.dev/ns/v0.2.0"));
	json_object_set_new(doc, "author", json_string(author_of(o)));
	if (o->role && *o->role)
		json_object_set_new(doc, "role", json_string(o->role));
	json_object_set_new(doc, "version", json_integer(1));
	json_object_set_new(doc, "tooling", json_string("kcve " KCVE_VERSION));
	json_object_set_new(doc, "statements", stmts);
	char uuid[46], ts[32];
	content_uuid(doc, uuid);
	timestamp(ts, sizeof ts);
	/* the id and timestamp first, as in the spec's examples */
	json_t *out = json_pack("{s:O, s:s}", "@context", json_object_get(doc, "@context"), "@id",
				uuid);
	json_object_update(out, doc);
	json_object_set_new(out, "timestamp", json_string(ts));
	json_decref(doc);
	return dump(f, out);
}

static const char *affects_status(const struct ck_entry *e)
{
	switch ((enum ck_outcome)e->outcome) {
	case CK_OUT_AFFECTED: return "affected";
	case CK_OUT_UNKNOWN:
	case CK_OUT_NO_DATA: return "unknown";
	default: return "unaffected";
	}
}

/* One CycloneDX vulnerability for a record, with every checked kernel it is listed for. */
static json_t *cdx_vuln(const struct ck_set *s, struct ck_result *res, size_t nres, size_t rec,
			const struct ck_vex_opts *o)
{
	const struct ck_record *r = &s->v[rec];
	json_t *aff = json_array();
	struct strbuf detail = STRBUF_INIT;
	bool any_aff = false, any_unknown = false, all_fixed = true;
	for (size_t k = 0; k < nres; k++) {
		const struct ck_result *R = &res[k];
		const struct ck_entry *e = &R->e[rec];
		if (rec >= R->n || !listed(e, o))
			continue;
		struct ident id;
		identity(R, o, &id);
		json_t *a = json_pack("{s:s}", "ref", id.ref);
		if (R->release[0])
			json_object_set_new(a, "versions", json_pack("[{s:s, s:s}]", "version",
								     R->release, "status",
								     affects_status(e)));
		json_array_append_new(aff, a);
		any_aff |= e->outcome == CK_OUT_AFFECTED;
		any_unknown |= e->outcome == CK_OUT_UNKNOWN || e->outcome == CK_OUT_NO_DATA;
		all_fixed &= e->outcome == CK_OUT_FIXED && !ck_code_fixed(R, rec);
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
	json_t *an = json_pack("{s:s}", "state", state);
	if (!strcmp(state, "not_affected"))
		json_object_set_new(an, "justification", json_string("code_not_present"));
	json_object_set_new(an, "detail", json_string(sb_str(&detail)));
	sb_release(&detail);
	json_t *v = json_pack("{s:s, s:s, s:{s:s, s:o}}", "bom-ref", r->id, "id", r->id, "source",
			      "name", "kernel.org CNA", "url", cve_org(r->id));
	char nvd[96];
	snprintf(nvd, sizeof nvd, "https://nvd.nist.gov/vuln/detail/%s", r->id);
	json_object_set_new(v, "references", json_pack("[{s:s, s:{s:s, s:s}}]", "id", r->id,
						       "source", "name", "NVD", "url", nvd));
	if (r->severity && *r->severity && r->score10) {
		char sev[16];
		size_t n = 0;
		for (; r->severity[n] && n + 1 < sizeof sev; n++)
			sev[n] = (char)tolower((unsigned char)r->severity[n]);
		sev[n] = '\0';
		json_object_set_new(v, "ratings", json_pack("[{s:{s:s}, s:f, s:s, s:s}]", "source",
							    "name", "kernel.org CNA", "score",
							    r->score10 / 10.0, "severity", sev,
							    "method", "CVSSv31"));
	}
	json_t *adv = json_pack("[{s:s, s:o}]", "title", "CVE record", "url", cve_org(r->id));
	for (size_t i = 0; i < r->nfixes; i++) {
		char url[128], title[64];
		snprintf(url, sizeof url, "https://git.kernel.org/stable/c/%s", r->fixes[i]);
		snprintf(title, sizeof title, "fix %.12s", r->fixes[i]);
		json_array_append_new(adv, json_pack("{s:s, s:s}", "title", title, "url", url));
	}
	json_object_set_new(v, "advisories", adv);
	json_object_set_new(v, "analysis", an);
	json_object_set_new(v, "affects", aff);
	return v;
}

int ck_print_cyclonedx(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		       const struct ck_vex_opts *o)
{
	json_t *comps = json_array(), *vulns = json_array();
	/* with an SBOM the VEX points into it (BOM-Link); else it names the kernels itself */
	for (size_t k = 0; k < nres && !(o->sbom && o->sbom->cyclonedx); k++) {
		struct ident id;
		identity(&res[k], o, &id);
		json_t *c = json_pack("{s:s, s:s, s:s}", "type", "operating-system", "bom-ref",
				      id.ref, "name", "linux-kernel");
		if (res[k].release[0])
			json_object_set_new(c, "version", json_string(res[k].release));
		json_object_set_new(c, "cpe", json_string(id.cpe));
		json_object_set_new(c, "purl", json_string(id.purl));
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
	json_t *meta = json_pack("{s:{s:[{s:s, s:s, s:s}]}, s:[{s:s}]}", "tools", "components",
				 "type", "application", "name", "kcve", "version", KCVE_VERSION,
				 "authors", "name", author_of(o));
	json_t *doc = json_pack("{s:s, s:s, s:i}", "bomFormat", "CycloneDX", "specVersion", "1.5",
				"version", 1);
	json_object_set_new(doc, "metadata", meta);
	if (json_array_size(comps))
		json_object_set_new(doc, "components", comps);
	else
		json_decref(comps);
	json_object_set_new(doc, "vulnerabilities", vulns);
	char uuid[46], ts[32];
	content_uuid(doc, uuid);
	timestamp(ts, sizeof ts);
	json_t *out = json_pack("{s:s, s:s, s:s, s:i}", "bomFormat", "CycloneDX", "specVersion",
				"1.5", "serialNumber", uuid, "version", 1);
	json_object_update(out, doc);
	json_object_set_new(json_object_get(out, "metadata"), "timestamp", json_string(ts));
	json_decref(doc);
	return dump(f, out);
}
