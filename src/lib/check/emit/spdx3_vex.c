/* SPDX 3.0.1 VEX documents (see check/emit/spdx3_vex.h, docs/check.md "SPDX 3"). */
#include "check/emit/spdx3_vex.h"

#include <stdlib.h>
#include <string.h>

#include "core/cveid.h"
#include "core/kjson.h"
#include "core/sha256.h"
#include "core/strbuf.h"
#include "core/strmap.h"

#define CREATION "_:creationinfo"

static const char *str_of(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* OpenVEX justification -> SPDX 3 security_VexJustificationType */
static const char *justification(const char *j)
{
	static const char *const map[][2] = {
		{"component_not_present", "componentNotPresent"},
		{"vulnerable_code_not_present", "vulnerableCodeNotPresent"},
		{"vulnerable_code_not_in_execute_path", "vulnerableCodeNotInExecutePath"},
		{"vulnerable_code_cannot_be_controlled_by_adversary",
		 "vulnerableCodeCannotBeControlledByAdversary"},
		{"inline_mitigations_already_exist", "inlineMitigationsAlreadyExist"},
	};
	for (size_t i = 0; j && i < sizeof map / sizeof *map; i++)
		if (!strcmp(j, map[i][0]))
			return map[i][1];
	return NULL;
}

/* The id namespace: from the OpenVEX document's id (kept by its revisions). */
static void namespace_of(const json_t *ov, char *out, size_t n)
{
	const char *docid = str_of(ov, "@id");
	char h[65];
	if (docid && !strncmp(docid, "urn:uuid:", 9) && strlen(docid) == 45) {
		snprintf(out, n, "https://spdx.org/spdxdocs/kcve-%s/", docid + 9);
		return;
	}
	sha256_hex(docid ? docid : "", docid ? strlen(docid) : 0, h);
	snprintf(out, n, "https://spdx.org/spdxdocs/kcve-%.32s/", h);
}

static json_t *element(const char *type, const char *id)
{
	return kj_pack("{s:s, s:s, s:s}", "type", type, "spdxId", id, "creationInfo", CREATION);
}

struct writer {
	char ns[128];
	const char *bound;
	json_t *graph;       /* the elements after the document's own */
	json_t *ids;         /* every element id, for SpdxDocument.element */
	struct strmap pkgs;  /* purl -> package id (char *) */
	struct strmap vulns; /* CVE -> json_t * (the package ids that have it, array) */
	json_t *vexes;
	size_t npkg;
	json_t *roots;
};

/* ns + a + b (b: a number, 0 for none) */
static char *idf(const struct writer *w, const char *a, size_t b)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, w->ns);
	sb_adds(&sb, a);
	if (b)
		sb_addf(&sb, "%zu", b);
	return sb_detach(&sb);
}

static char *vuln_id(const struct writer *w, const char *cve)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%svulnerability/%s", w->ns, cve);
	return sb_detach(&sb);
}

/* The kernel a statement is about: the bound SBOM element, or our package for its purl. */
static const char *product(struct writer *w, const json_t *st)
{
	if (w->bound)
		return w->bound;
	const json_t *p = json_array_get(json_object_get(st, "products"), 0);
	const char *purl = str_of(p, "@id");
	if (!purl)
		return NULL;
	const char *have = strmap_get(&w->pkgs, purl);
	if (have)
		return have;
	char *id = idf(w, "package/", ++w->npkg);
	json_t *pkg = element("software_Package", id);
	json_object_set_new(pkg, "name", kj_str("linux-kernel"));
	const char *at = strrchr(purl, '@');
	if (at && at[1])
		json_object_set_new(pkg, "software_packageVersion", kj_str(at + 1));
	json_object_set_new(pkg, "software_packageUrl", kj_str(purl));
	const char *cpe = str_of(json_object_get(p, "identifiers"), "@cpe23");
	if (cpe)
		json_object_set_new(pkg, "externalIdentifier",
				    kj_pack("[{s:s, s:s, s:s}]", "type", "ExternalIdentifier",
					      "externalIdentifierType", "cpe23", "identifier", cpe));
	json_object_set_new(pkg, "software_primaryPurpose", kj_str("operatingSystem"));
	json_array_append_new(w->graph, pkg);
	json_array_append_new(w->ids, kj_str(id));
	json_array_append_new(w->roots, kj_str(id));
	strmap_put(&w->pkgs, purl, id);
	return id;
}

/* The vulnerability element of cve (once), and that pkg has it. */
static void vulnerability(struct writer *w, const char *cve, const char *pkg)
{
	json_t *have = strmap_get(&w->vulns, cve);
	if (!have) {
		char *id = vuln_id(w, cve);
		json_t *v = element("security_Vulnerability", id);
		json_object_set_new(v, "name", kj_str(cve));
		char url[96];
		snprintf(url, sizeof url, "https://www.cve.org/CVERecord?id=%s", cve);
		json_object_set_new(v, "externalIdentifier",
				    kj_pack("[{s:s, s:s, s:s, s:[s]}]", "type", "ExternalIdentifier",
					      "externalIdentifierType", "cve", "identifier", cve,
					      "identifierLocator", url));
		json_array_append_new(w->graph, v);
		json_array_append_new(w->ids, kj_str(id));
		free(id);
		have = json_array();
		strmap_put(&w->vulns, cve, have);
	}
	for (size_t i = 0; i < json_array_size(have); i++)
		if (!strcmp(json_string_value(json_array_get(have, i)), pkg))
			return;
	json_array_append_new(have, kj_str(pkg));
}

/* One OpenVEX statement as an SPDX 3 VEX relationship (NULL when it is not one kcve can
 * state: no CVE id, no product, an unknown status). */
static json_t *vex(struct writer *w, const json_t *st, const char *doc_time, const char *version,
		   size_t seq)
{
	const char *cve = str_of(json_object_get(st, "vulnerability"), "name");
	const char *status = str_of(st, "status");
	if (!cve || !cveid_valid(cve) || !status)
		return NULL;
	const char *type, *rel;
	if (!strcmp(status, "affected")) {
		type = "security_VexAffectedVulnAssessmentRelationship";
		rel = "affects";
	} else if (!strcmp(status, "not_affected")) {
		type = "security_VexNotAffectedVulnAssessmentRelationship";
		rel = "doesNotAffect";
	} else if (!strcmp(status, "fixed")) {
		type = "security_VexFixedVulnAssessmentRelationship";
		rel = "fixedIn";
	} else if (!strcmp(status, "under_investigation")) {
		type = "security_VexUnderInvestigationVulnAssessmentRelationship";
		rel = "underInvestigationFor";
	} else {
		return NULL;
	}
	const char *pkg = product(w, st);
	if (!pkg)
		return NULL;
	vulnerability(w, cve, pkg);
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%svex/%s/%zu", w->ns, cve, seq);
	json_t *r = element(type, sb_str(&sb));
	sb_release(&sb);
	char *vid = vuln_id(w, cve);
	json_object_set_new(r, "from", kj_str(vid));
	free(vid);
	json_object_set_new(r, "relationshipType", kj_str(rel));
	json_object_set_new(r, "to", kj_pack("[s]", pkg));
	const char *when = str_of(st, "timestamp");
	json_object_set_new(r, "security_publishedTime", kj_str(when ? when : doc_time));
	json_object_set_new(r, "security_vexVersion", kj_str(version));
	const char *notes = str_of(st, "status_notes");
	if (notes)
		json_object_set_new(r, "security_statusNotes", kj_str(notes));
	if (!strcmp(rel, "affects")) {
		const char *act = str_of(st, "action_statement");
		json_object_set_new(r, "security_actionStatement",
				    kj_str(act ? act : "apply the upstream fix"));
	} else if (!strcmp(rel, "doesNotAffect")) {
		bool withdrawn = notes && !strncmp(notes, "withdrawn: ", 11);
		const char *j = justification(str_of(st, "justification"));
		/* ck_openvex_document gives every not_affected statement of an entry its
		 * justification (check/verdict/statement.h); one without (not kcve's) reads as
		 * not present */
		if (!j && !withdrawn)
			j = "vulnerableCodeNotPresent";
		if (j)
			json_object_set_new(r, "security_justificationType", kj_str(j));
		const char *imp = str_of(st, "impact_statement");
		if (!imp)
			imp = notes;
		json_object_set_new(r, "security_impactStatement",
				    kj_str(imp ? imp : "the vulnerable code is not present"));
		if (withdrawn)
			json_object_set_new(r, "security_withdrawnTime",
					    kj_str(when ? when : doc_time));
	}
	return r;
}

json_t *ck_spdx3_from_openvex(const json_t *ov, const char *bound)
{
	struct writer w = {.bound = bound, .graph = json_array(), .ids = json_array(),
			   .vexes = json_array(), .roots = json_array()};
	namespace_of(ov, w.ns, sizeof w.ns);
	const char *first = str_of(ov, "timestamp"), *last = str_of(ov, "last_updated");
	const char *doc_time = first ? first : "1970-01-01T00:00:00Z";
	char version[32];
	snprintf(version, sizeof version, "%lld",
		 (long long)json_integer_value(json_object_get(ov, "version")));
	size_t i;
	json_t *st;
	json_array_foreach(json_object_get(ov, "statements"), i, st) {
		json_t *r = vex(&w, st, doc_time, version, i + 1);
		if (r) {
			json_array_append_new(w.ids, kj_str(str_of(r, "spdxId")));
			json_array_append_new(w.vexes, r);
		}
	}
	/* each kernel and its vulnerabilities */
	json_t *assoc = json_array();
	for (size_t p = 0; p < w.pkgs.count + (bound ? 1 : 0); p++) {
		const char *pkg = bound ? bound : strmap_at(&w.pkgs, p)->val;
		json_t *to = json_array();
		for (size_t v = 0; v < w.vulns.count; v++) {
			struct strmap_ent *e = strmap_at(&w.vulns, v);
			for (size_t k = 0; k < json_array_size(e->val); k++)
				if (!strcmp(json_string_value(json_array_get(e->val, k)), pkg)) {
					char *vid = vuln_id(&w, e->key);
					json_array_append_new(to, kj_str(vid));
					free(vid);
				}
		}
		if (!json_array_size(to)) {
			json_decref(to);
			continue;
		}
		char *id = idf(&w, "relationship/vulnerabilities/", p + 1);
		json_t *r = element("Relationship", id);
		json_object_set_new(r, "from", kj_str(pkg));
		json_object_set_new(r, "relationshipType", kj_str("hasAssociatedVulnerability"));
		json_object_set_new(r, "to", to);
		json_array_append_new(assoc, r);
		json_array_append_new(w.ids, kj_str(id));
		free(id);
	}
	/* creation: the author as an Agent, kcve as the Tool */
	char *agent = idf(&w, "agent/author", 0);
	char *tool = idf(&w, "tool/kcve", 0);
	char *docid = idf(&w, "document", 0);
	const char *author = str_of(ov, "author");
	json_t *ci = kj_pack("{s:s, s:s, s:s, s:s, s:[s], s:[s]}", "type", "CreationInfo", "@id",
			       CREATION, "specVersion", "3.0.1", "created", last ? last : doc_time,
			       "createdBy", agent, "createdUsing", tool);
	json_t *ag = element("Agent", agent);
	json_object_set_new(ag, "name", kj_str(author ? author : "unknown"));
	json_t *tl = element("Tool", tool);
	json_object_set_new(tl, "name", kj_str("kcve " KCVE_VERSION));
	json_t *doc = element("SpdxDocument", docid);
	char comment[160];
	snprintf(comment, sizeof comment, "VEX of kcve check, revision %s of %s", version,
		 str_of(ov, "@id") ? str_of(ov, "@id") : "(no id)");
	json_object_set_new(doc, "comment", kj_str(comment));
	json_object_set_new(doc, "profileConformance", kj_pack("[s, s, s]", "core", "software",
								 "security"));
	if (bound) {
		json_object_set_new(doc, "import", kj_pack("[{s:s, s:s}]", "type", "ExternalMap",
							     "externalSpdxId", bound));
		json_array_append_new(w.roots, kj_str(bound));
	}
	if (!json_array_size(w.roots)) /* nothing stated: the document is its own root */
		json_array_append_new(w.roots, kj_str(docid));
	json_object_set_new(doc, "rootElement", w.roots);
	json_t *elems = kj_pack("[s, s]", agent, tool);
	json_array_extend(elems, w.ids);
	json_object_set_new(doc, "element", elems);
	json_t *graph = kj_pack("[o, o, o, o]", ci, ag, tl, doc);
	json_array_extend(graph, w.graph);
	json_array_extend(graph, assoc);
	json_array_extend(graph, w.vexes);
	json_decref(assoc);
	json_decref(w.graph);
	json_decref(w.vexes);
	json_decref(w.ids);
	for (size_t v = 0; v < w.vulns.count; v++)
		json_decref(strmap_at(&w.vulns, v)->val);
	strmap_free(&w.vulns, NULL);
	strmap_free(&w.pkgs, free);
	free(agent);
	free(tool);
	free(docid);
	return kj_pack("{s:s, s:o}", "@context", CK_SPDX3_CONTEXT, "@graph", graph);
}

int ck_print_spdx3(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		   const struct ck_vex_opts *o)
{
	json_t *ov = ck_openvex_document(s, res, nres, o, ck_vex_now());
	const char *bound = o->sbom && o->sbom->spdx3 ? o->sbom->ref : NULL;
	json_t *doc = ck_spdx3_from_openvex(ov, bound);
	json_decref(ov);
	return ck_vex_dump(f, doc);
}
