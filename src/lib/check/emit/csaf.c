/* CSAF 2.0 VEX document of a check result (see csaf.h, docs/check.md "CSAF"). */
#include "check/emit/csaf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/sha256.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "record/cvss.h"
#include "core/kjson.h"
#include "core/text.h"

/* The entry's statement (check/verdict/statement.h, docs/vex.md) in CSAF's words: the
 * product_status list, and the flag label of a known_not_affected product. */
const char *ck_csaf_status(enum ck_vex_status st)
{
	switch (st) {
	case CK_VEX_AFFECTED: return "known_affected";
	case CK_VEX_UNDER_INVESTIGATION: return "under_investigation";
	case CK_VEX_NOT_AFFECTED: return "known_not_affected";
	case CK_VEX_FIXED: return "fixed";
	}
	return "under_investigation";
}

const char *ck_csaf_flag(enum ck_vex_just j)
{
	switch (j) {
	case CK_VEX_JUST_CODE_NOT_PRESENT: return "vulnerable_code_not_present";
	case CK_VEX_JUST_INLINE_MITIGATION: return "inline_mitigations_already_exist";
	case CK_VEX_JUST_NONE: break;
	}
	return NULL;
}

/* The checked kernels as products: ids[k] is the product id of res[k] (kernels checked twice
 * share one). */
struct products {
	char (*ids)[64];
	size_t n;
};

static json_t *helper_of(const struct ck_result *R, const struct ck_vex_opts *o)
{
	struct ck_vex_ident id;
	ck_vex_identity(R, o, &id);
	json_t *h = kj_pack("{s:s, s:s}", "cpe", id.cpe, "purl", id.purl);
	if (o->sbom && o->sbom->cyclonedx) /* the BOM-Link to the SBOM's kernel component */
		json_object_set_new(h, "sbom_urls", kj_pack("[s]", id.ref));
	return h;
}

static json_t *product_tree(struct ck_result *res, size_t nres, const struct ck_vex_opts *o,
			    struct products *P)
{
	P->ids = xcalloc(nres + 1, sizeof *P->ids);
	P->n = nres;
	json_t *versions = json_array(), *full = json_array();
	for (size_t k = 0; k < nres; k++) {
		const struct ck_result *R = &res[k];
		if (R->release[0])
			text_snprintf(P->ids[k], sizeof P->ids[k], "linux-kernel-%s", R->release);
		else
			text_snprintf(P->ids[k], sizeof P->ids[k], "linux-kernel-input-%zu", k + 1);
		bool dup = false;
		for (size_t j = 0; j < k && !dup; j++)
			dup = !strcmp(P->ids[j], P->ids[k]);
		if (dup)
			continue;
		char name[192];
		text_snprintf(name, sizeof name, "Linux kernel %s", R->release[0] ? R->release : R->label);
		json_t *prod = kj_pack("{s:s, s:s, s:o}", "name", name, "product_id", P->ids[k],
					 "product_identification_helper", helper_of(R, o));
		if (R->release[0])
			json_array_append_new(versions, kj_pack("{s:s, s:s, s:o}", "category",
								  "product_version", "name",
								  R->release, "product", prod));
		else
			json_array_append_new(full, prod);
	}
	json_t *tree = json_object();
	if (json_array_size(versions))
		json_object_set_new(tree, "branches", kj_pack(
			"[{s:s, s:s, s:[{s:s, s:s, s:o}]}]", "category", "vendor", "name", "Linux",
			"branches", "category", "product_name", "name", "Linux kernel", "branches",
			versions));
	else
		json_decref(versions);
	if (json_array_size(full))
		json_object_set_new(tree, "full_product_names", full);
	else
		json_decref(full);
	return tree;
}

/* Append s to the array under key of obj (created on first use), once. */
static void add_unique(json_t *obj, const char *key, const char *s)
{
	json_t *a = json_object_get(obj, key);
	if (!a) {
		a = json_array();
		json_object_set_new(obj, key, a);
	}
	size_t i;
	json_t *x;
	json_array_foreach(a, i, x)
		if (!strcmp(json_string_value(x), s))
			return;
	json_array_append_new(a, kj_str(s));
}

/* Product lists grouped by a label: flags, remediations, threats (label -> product ids). */
static json_t *grouped(json_t *by_label, const char *label_key, const char *extra_key,
		       const char *extra_val)
{
	json_t *out = json_array();
	const char *label;
	json_t *ids;
	json_object_foreach(by_label, label, ids) {
		json_t *g = kj_pack("{s:s, s:O}", label_key, label, "product_ids", ids);
		if (extra_key)
			json_object_set_new(g, extra_key, kj_str(extra_val));
		json_array_append_new(out, g);
	}
	return out;
}

static void remediation(const struct ck_result *R, const struct ck_entry *e, const char *pid,
			json_t *vendor_fix, json_t *none)
{
	char txt[320];
	if (e->fixed_in[0]) {
		text_snprintf(txt, sizeof txt, "Update to Linux %s or later: the first release on the "
			 "branch of %s that fixes it.", e->fixed_in, R->release);
		add_unique(vendor_fix, txt, pid);
	} else {
		text_snprintf(txt, sizeof txt, "No release on the branch of %s fixes it yet: apply the "
			 "upstream fix (see the references) or move to a branch that has it.",
			 R->release[0] ? R->release : R->label);
		add_unique(none, txt, pid);
	}
}

static json_t *references(const struct ck_record *r)
{
	json_t *refs = kj_pack("[{s:s, s:s, s:o}]", "category", "external", "summary",
				 "CVE record", "url", ck_vex_cve_url(r->id));
	for (size_t i = 0; i < r->nfixes; i++) {
		char url[128], sum[64];
		text_snprintf(url, sizeof url, "https://git.kernel.org/stable/c/%s", r->fixes[i]);
		text_snprintf(sum, sizeof sum, "Fix commit %.12s", r->fixes[i]);
		json_array_append_new(refs, kj_pack("{s:s, s:s, s:s}", "category", "external",
						      "summary", sum, "url", url));
	}
	return refs;
}

/* The CNA's CVSS 3.1 vector, in canonical form, with its base score and severity computed
 * from it (record/cvss.h), so that they always match the vector; for the affected products. */
static json_t *score(const struct ck_record *r, json_t *affected)
{
	struct cvss_vector v;
	struct kcve_err err = {0};
	if (!r->cvss31 || !*r->cvss31 || cvss_vector_parse(r->cvss31, &v, &err) != 0 ||
	    !affected || !json_array_size(affected))
		return NULL;
	char canon[CVSS_VECTOR_MAX];
	cvss_vector_format(&v, canon);
	double base = cvss_score(&v);
	return kj_pack("[{s:{s:s, s:s, s:f, s:s}, s:O}]", "cvss_v3", "version", "3.1",
			 "vectorString", canon, "baseScore", base, "baseSeverity",
			 cvss_severity(base), "products", affected);
}

/* The per-kernel statuses of one record: product_status, flags, remediations, verdict notes. */
struct per_kernel {
	json_t *status, *flags, *vendor_fix, *none, *workaround;
	struct strbuf verdicts;
	bool listed;
};

static void collect(const struct ck_set *s, struct ck_result *res, const struct products *P,
		    size_t rec, const struct ck_vex_opts *o, struct per_kernel *pk)
{
	for (size_t k = 0; k < P->n; k++) {
		const struct ck_result *R = &res[k];
		if (rec >= R->n)
			continue;
		const struct ck_entry *e = &R->e[rec];
		struct ck_vex_stmt vs;
		ck_vex_stmt_of(e, o->all, &vs);
		if (!vs.listed) /* a kernel the statement is not about */
			continue;
		pk->listed = true;
		add_unique(pk->status, ck_csaf_status(vs.status), P->ids[k]);
		const char *flag = vs.status == CK_VEX_NOT_AFFECTED ? ck_csaf_flag(vs.just) : NULL;
		if (flag)
			add_unique(pk->flags, flag, P->ids[k]);
		if (vs.status == CK_VEX_AFFECTED)
			remediation(R, e, P->ids[k], pk->vendor_fix, pk->none);
		char rb[256];
		if (vs.just == CK_VEX_JUST_INLINE_MITIGATION) /* the modprobe rule that blocks loading */
			add_unique(pk->workaround, ck_entry_reason(s, R, e, rb, sizeof rb), P->ids[k]);
		sb_addf(&pk->verdicts, "%s%s: %s (%s)", pk->verdicts.len ? "\n" : "", R->label,
			ck_outcome_name(e->outcome), ck_entry_reason(s, R, e, rb, sizeof rb));
	}
}

static json_t *vulnerability(const struct ck_set *s, struct ck_result *res,
			     const struct products *P, size_t rec, const struct ck_vex_opts *o)
{
	const struct ck_record *r = &s->v[rec];
	struct per_kernel pk = {json_object(), json_object(), json_object(), json_object(),
				json_object(), STRBUF_INIT, false};
	collect(s, res, P, rec, o, &pk);
	json_t *v = NULL;
	if (pk.listed) {
		v = kj_pack("{s:s}", "cve", r->id);
		if (r->title[0])
			json_object_set_new(v, "title", kj_str(r->title));
		json_object_set_new(v, "notes", kj_pack(
			"[{s:s, s:s, s:s}, {s:s, s:s, s:s}]", "category", "description", "title",
			"Summary", "text", r->title[0] ? r->title : r->id, "category", "details",
			"title", "kcve verdict per kernel", "text", sb_str(&pk.verdicts)));
		json_object_set_new(v, "product_status", json_incref(pk.status));
		if (json_object_size(pk.flags))
			json_object_set_new(v, "flags", grouped(pk.flags, "label", NULL, NULL));
		json_t *rem = grouped(pk.vendor_fix, "details", "category", "vendor_fix");
		json_t *none = grouped(pk.none, "details", "category", "none_available");
		json_array_extend(rem, none);
		json_decref(none);
		json_t *wa = grouped(pk.workaround, "details", "category", "workaround");
		json_array_extend(rem, wa);
		json_decref(wa);
		if (json_array_size(rem))
			json_object_set_new(v, "remediations", rem);
		else
			json_decref(rem);
		json_t *sc = score(r, json_object_get(pk.status, "known_affected"));
		if (sc)
			json_object_set_new(v, "scores", sc);
		json_object_set_new(v, "references", references(r));
		if (r->published > 0) {
			char d[32];
			ck_vex_time_text(r->published, d, sizeof d);
			json_object_set_new(v, "release_date", kj_str(d));
		}
	}
	json_decref(pk.status);
	json_decref(pk.flags);
	json_decref(pk.vendor_fix);
	json_decref(pk.none);
	json_decref(pk.workaround);
	sb_release(&pk.verdicts);
	return v;
}

/* CVEs the delta says were rejected (or no longer published): one withdrawn vulnerability
 * each, not affected for the kernels it was listed for, saying why. */
struct csaf_w {
	const struct ck_csaf_since *since;
	const struct products *P;
};

static json_t *withdrawn_vuln(void *ctx, const struct ck_delta_entry *e)
{
	const struct csaf_w *w = ctx;
	char note[320];
	text_snprintf(note, sizeof note, "Withdrawn: %s since %s. This statement replaces the "
		      "earlier one about it.", e->why, w->since->label);
	return kj_pack("{s:s, s:[{s:s, s:s, s:s}], s:{s:[]}, s:[{s:s, s:s, s:[]}]}", "cve", e->id,
		       "notes", "category", "general", "title", "Withdrawn", "text", note,
		       "product_status", "known_not_affected", "threats", "category", "impact",
		       "details", note, "product_ids");
}

static void withdrawn_kernel(void *ctx, json_t *v, size_t k)
{
	const struct csaf_w *w = ctx;
	add_unique(json_object_get(v, "product_status"), "known_not_affected", w->P->ids[k]);
	add_unique(json_array_get(json_object_get(v, "threats"), 0), "product_ids", w->P->ids[k]);
}

static void withdrawn(json_t *vulns, const struct ck_csaf_since *since, const struct products *P)
{
	if (!since)
		return;
	struct csaf_w w = {since, P};
	struct ck_withdrawn_ops ops = {withdrawn_vuln, withdrawn_kernel, &w};
	ck_vex_withdrawn_each(since->deltas, P->n, vulns, &ops);
}

/* "Org <contact>" -> publisher; the namespace is the contact's domain when it has one. */
static json_t *publisher(const struct ck_vex_opts *o)
{
	const char *author = ck_vex_author(o);
	const char *lt = strchr(author, '<'), *gt = lt ? strchr(lt, '>') : NULL;
	char name[256], contact[256], ns[300] = "urn:kcve:publisher-unset";
	size_t nl = lt ? (size_t)(lt - author) : strlen(author);
	while (nl && author[nl - 1] == ' ')
		nl--;
	text_snprintf(name, sizeof name, "%.*s", (int)nl, author);
	text_snprintf(contact, sizeof contact, "%.*s", gt ? (int)(gt - lt - 1) : 0, gt ? lt + 1 : "");
	const char *at = strchr(contact, '@');
	if (!strncmp(contact, "https://", 8))
		text_snprintf(ns, sizeof ns, "%s", contact);
	else if (at && at[1] && !strpbrk(at + 1, " /@"))
		text_snprintf(ns, sizeof ns, "https://%s", at + 1);
	static const char *const cats[] = {"coordinator", "discoverer", "other", "translator",
					   "user", "vendor"};
	const char *cat = "other";
	for (size_t i = 0; o->role && i < sizeof cats / sizeof cats[0]; i++)
		if (!strcmp(o->role, cats[i]))
			cat = cats[i];
	json_t *p = kj_pack("{s:s, s:s, s:s}", "category", cat, "name", name[0] ? name : author,
			      "namespace", ns);
	if (contact[0])
		json_object_set_new(p, "contact_details", kj_str(contact));
	return p;
}

/* tracking: the id from the products (the same kernels give the same document id, revision
 * after revision), revision 1, or 1 (OLD) and 2 (now) with --since. */
static json_t *tracking(const struct products *P, const struct ck_csaf_since *since)
{
	struct strbuf key = STRBUF_INIT;
	for (size_t k = 0; k < P->n; k++)
		sb_addf(&key, "%s\n", P->ids[k]);
	char h[65], id[48], now[32], old[32];
	sha256_hex(key.buf ? key.buf : "", key.len, h);
	sb_release(&key);
	text_snprintf(id, sizeof id, "kcve-vex-%.16s", h);
	long long t = ck_vex_now();
	ck_vex_time_text(t, now, sizeof now);
	json_t *hist = json_array();
	if (since) {
		long long ot = since->old_time > 0 && since->old_time < t ? since->old_time : t;
		ck_vex_time_text(ot, old, sizeof old);
		size_t n[3] = {0};
		for (size_t k = 0; since->deltas && k < P->n; k++)
			for (int c = 0; c < 3; c++)
				n[c] += since->deltas[k].count[c];
		char sum[256];
		text_snprintf(sum, sizeof sum, "Statement from the records of %s.", since->label);
		json_array_append_new(hist, kj_pack("{s:s, s:s, s:s}", "date", old, "number", "1",
						      "summary", sum));
		text_snprintf(sum, sizeof sum, "Records updated since %s: %zu added, %zu removed "
			 "(withdrawn or no longer applying), %zu changed.", since->label, n[0], n[1],
			 n[2]);
		json_array_append_new(hist, kj_pack("{s:s, s:s, s:s}", "date", now, "number", "2",
						      "summary", sum));
	} else {
		text_snprintf(old, sizeof old, "%s", now);
		json_array_append_new(hist, kj_pack("{s:s, s:s, s:s}", "date", now, "number", "1",
						      "summary", "Initial statement."));
	}
	return kj_pack("{s:s, s:{s:s, s:{s:s, s:s}}, s:s, s:s, s:o, s:s, s:s}",
			 "current_release_date", now, "generator", "date", now, "engine", "name",
			 "kcve", "version", KCVE_VERSION, "id", id, "initial_release_date", old,
			 "revision_history", hist, "status", "final", "version", since ? "2" : "1");
}

static json_t *document(struct ck_result *res, size_t nres, const struct products *P,
			const struct ck_vex_opts *o, const struct ck_csaf_since *since)
{
	struct strbuf what = STRBUF_INIT, note = STRBUF_INIT;
	for (size_t k = 0; k < nres; k++)
		sb_addf(&what, "%s%s", k ? ", " : "", res[k].label);
	sb_addf(&note, "Which of the Linux kernel CNA's CVE records apply to %s, as kcve decided "
		"them from the inputs it was given (release, configuration, build). known_affected "
		"and under_investigation together list every CVE kcve keeps (kcve check --ids): "
		"under_investigation where kcve could not decide; each vulnerability's details note "
		"gives kcve's reason per kernel.", sb_str(&what));
	char title[256];
	text_snprintf(title, sizeof title, "Linux kernel CVE applicability: %s", sb_str(&what));
	json_t *doc = kj_pack("{s:s, s:s, s:{s:{s:s}}, s:s, s:[{s:s, s:s, s:s}], s:o, s:s, s:o}",
				"category", "csaf_vex", "csaf_version", "2.0", "distribution",
				"tlp", "label", "WHITE", "lang", "en", "notes", "category",
				"summary", "title", "What this document states", "text",
				sb_str(&note), "publisher", publisher(o), "title", title,
				"tracking", tracking(P, since));
	sb_release(&what);
	sb_release(&note);
	return doc;
}

int ck_print_csaf(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		  const struct ck_vex_opts *o, const struct ck_csaf_since *since)
{
	struct ck_vex_opts doc_o; /* nothing listed: every record, as with --all */
	ck_vex_doc_opts(res, nres, o, since ? since->deltas : NULL, &doc_o);
	o = &doc_o;
	struct products P;
	json_t *tree = product_tree(res, nres, o, &P);
	json_t *vulns = json_array();
	for (size_t i = 0; i < s->n; i++) {
		json_t *v = vulnerability(s, res, &P, i, o);
		if (v)
			json_array_append_new(vulns, v);
	}
	withdrawn(vulns, since, &P);
	json_t *out = kj_pack("{s:o, s:o, s:o}", "document", document(res, nres, &P, o, since),
				"product_tree", tree, "vulnerabilities", vulns);
	free(P.ids);
	/* keys in order everywhere (the validator's sorting test), two-space indent */
	int rc = json_dumpf(out, f, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	fputc('\n', f);
	json_decref(out);
	return rc;
}
