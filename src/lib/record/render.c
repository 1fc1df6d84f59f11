/* JSON record and mbox rendering (see render.h). */
#include "record/render.h"

#include <string.h>

#include "record/affected.h"
#include "record/description.h"
#include "record/json_writer.h"
#include "record/utf8.h"

static const char *generator(const struct record_model *m)
{
	return m->generator ? m->generator : RECORD_DEFAULT_GENERATOR;
}

static void write_product(struct json_writer *w, const struct record_model *m,
			  const char *default_status, const struct vrange_list *versions)
{
	jw_begin_object(w);
	jw_kv_string(w, "product", "Linux");
	jw_kv_string(w, "vendor", "Linux");
	jw_kv_string(w, "defaultStatus", default_status);
	jw_kv_string(w, "repo", RECORD_REPO_URL);
	jw_key(w, "programFiles");
	jw_begin_array(w);
	for (size_t i = 0; i < m->nfiles; i++)
		jw_string(w, m->files[i]);
	jw_end_array(w);
	if (versions->n > 0) {
		jw_key(w, "versions");
		jw_begin_array(w);
		for (size_t i = 0; i < versions->n; i++) {
			const struct vrange *r = &versions->v[i];
			jw_begin_object(w);
			jw_kv_string(w, "version", r->version);
			if (r->less_than)
				jw_kv_string(w, "lessThan", r->less_than);
			if (r->less_than_or_equal)
				jw_kv_string(w, "lessThanOrEqual", r->less_than_or_equal);
			jw_kv_string(w, "status", r->status);
			if (r->version_type)
				jw_kv_string(w, "versionType", r->version_type);
			jw_end_object(w);
		}
		jw_end_array(w);
	}
	jw_end_object(w);
}

static void write_metrics(struct json_writer *w, const struct cvss_file *f)
{
	struct strbuf scen = STRBUF_INIT;
	char vec[CVSS_VECTOR_MAX];
	if (f->rat.kind != CVSS_RAT_NONE)
		cvss_rationale_scenario(&f->rat, &scen);
	jw_key(w, "metrics");
	jw_begin_array(w);
	for (size_t i = 0; i < f->nhdr; i++) {
		double score = cvss_score(&f->hdr[i].vec);
		cvss_vector_format(&f->hdr[i].vec, vec);
		jw_begin_object(w);
		jw_key(w, "cvssV3_1");
		jw_begin_object(w);
		jw_kv_string(w, "version", "3.1");
		jw_kv_string(w, "vectorString", vec);
		jw_key(w, "baseScore");
		jw_double(w, score);
		jw_kv_string(w, "baseSeverity", cvss_severity(score));
		jw_end_object(w);
		if (f->rat.kind != CVSS_RAT_NONE) {
			jw_key(w, "scenarios");
			jw_begin_array(w);
			jw_begin_object(w);
			jw_kv_string(w, "lang", "en");
			jw_key(w, "value");
			jw_string_n(w, scen.buf, scen.len);
			jw_end_object(w);
			jw_end_array(w);
		}
		jw_end_object(w);
	}
	jw_end_array(w);
	sb_release(&scen);
}

/* cpeApplicability: one OR node whose matches are the computed CPE ranges (docs/spec/record.md
 * "cpeApplicability"); present even when it has no match. */
static void write_cpe_applicability(struct json_writer *w, const struct affected *a)
{
	jw_key(w, "cpeApplicability");
	jw_begin_array(w);
	jw_begin_object(w);
	jw_key(w, "nodes");
	jw_begin_array(w);
	jw_begin_object(w);
	jw_kv_string(w, "operator", "OR");
	jw_key(w, "negate");
	jw_bool(w, false);
	jw_key(w, "cpeMatch");
	jw_begin_array(w);
	for (size_t i = 0; i < a->ncpe; i++) {
		jw_begin_object(w);
		jw_key(w, "vulnerable");
		jw_bool(w, true);
		jw_kv_string(w, "criteria", "cpe:2.3:o:linux:linux_kernel:*:*:*:*:*:*:*:*");
		if (a->cpe[i].start)
			jw_kv_string(w, "versionStartIncluding", a->cpe[i].start);
		if (a->cpe[i].end)
			jw_kv_string(w, "versionEndExcluding", a->cpe[i].end);
		jw_end_object(w);
	}
	jw_end_array(w);
	jw_end_object(w);
	jw_end_array(w);
	jw_end_object(w);
	jw_end_array(w);
}

void record_render_json(const struct record_model *m, struct strbuf *out)
{
	struct affected a;
	struct url_list refs = {0};
	struct strbuf desc = STRBUF_INIT;
	struct json_writer w;

	affected_compute(m->pairs, &a);
	affected_json_refs(m->pairs, m->refs, m->nrefs, m->main_sha, &refs);
	description_truncate(m->description, strlen(m->description), &desc);

	jw_init(&w, out);
	jw_begin_object(&w);
	jw_key(&w, "containers");
	jw_begin_object(&w);
	jw_key(&w, "cna");
	jw_begin_object(&w);

	jw_key(&w, "providerMetadata");
	jw_begin_object(&w);
	jw_kv_string(&w, "orgId", m->org_uuid);
	jw_end_object(&w);

	jw_key(&w, "descriptions");
	jw_begin_array(&w);
	jw_begin_object(&w);
	jw_kv_string(&w, "lang", "en");
	jw_key(&w, "value");
	jw_string_n(&w, desc.buf ? desc.buf : "", desc.len);
	jw_end_object(&w);
	jw_end_array(&w);

	if (m->cvss && m->cvss->nhdr > 0)
		write_metrics(&w, m->cvss);

	jw_key(&w, "affected");
	jw_begin_array(&w);
	write_product(&w, m, "unaffected", &a.git);
	write_product(&w, m, a.default_status, &a.semver);
	jw_end_array(&w);

	write_cpe_applicability(&w, &a);

	jw_key(&w, "references");
	jw_begin_array(&w);
	for (size_t i = 0; i < refs.n; i++) {
		jw_begin_object(&w);
		jw_kv_string(&w, "url", refs.v[i]);
		jw_end_object(&w);
	}
	jw_end_array(&w);

	jw_kv_string(&w, "title", m->subject);
	jw_key(&w, "x_generator");
	jw_begin_object(&w);
	jw_kv_string(&w, "engine", generator(m));
	jw_end_object(&w);

	jw_end_object(&w); /* cna */
	jw_end_object(&w); /* containers */

	jw_key(&w, "cveMetadata");
	jw_begin_object(&w);
	jw_kv_string(&w, "assignerOrgId", m->org_uuid);
	jw_kv_string(&w, "cveId", m->cve);
	jw_kv_string(&w, "state", "PUBLISHED");
	jw_end_object(&w);
	jw_kv_string(&w, "dataType", "CVE_RECORD");
	jw_kv_string(&w, "dataVersion", "5.1.1");
	jw_end_object(&w);
	jw_finish(&w);

	sb_release(&desc);
	url_list_release(&refs);
	affected_release(&a);
}

void record_render_mbox(const struct record_model *m, struct strbuf *out)
{
	struct url_list links = {0};
	const char *d = m->description;
	size_t dl = strlen(d);
	dl -= utf8_rspace(d, dl); /* the anchor right-trims the full text */

	sb_addf(out, "From %s Mon Sep 17 00:00:00 2001\n", generator(m));
	sb_addf(out, "From: %s <%s>\n", m->from->name, m->from->email);
	sb_adds(out, "To: <linux-cve-announce@vger.kernel.org>\n"
		     "Reply-to: <cve@kernel.org>, <linux-kernel@vger.kernel.org>\n");
	sb_addf(out, "Subject: %s: %s\n\n", m->cve, m->subject);
	sb_adds(out, "Description\n===========\n\n");
	sb_add(out, d, dl);
	sb_addf(out, "\n\nThe Linux kernel CVE team has assigned %s to this issue.\n\n\n", m->cve);

	if (m->cvss && m->cvss->nhdr > 0) {
		sb_adds(out, "Severity\n========\n\n");
		for (size_t i = 0; i < m->cvss->nhdr; i++) {
			char vec[CVSS_VECTOR_MAX], score[16];
			double s = cvss_score(&m->cvss->hdr[i].vec);
			cvss_vector_format(&m->cvss->hdr[i].vec, vec);
			cvss_score_display(s, score);
			sb_addf(out, "  CVSS v3.1: %s %s\n  Vector:    %s\n\n", score, cvss_severity(s),
				vec);
		}
		sb_addc(out, '\n');
	}

	sb_adds(out, "Affected and fixed versions\n===========================\n\n");
	for (size_t i = 0; i < m->pairs->n; i++) {
		const struct dyad_pair *p = &m->pairs->v[i];
		if (strcmp(p->fsha, "0") == 0)
			sb_addf(out, "\tIssue introduced in %s with commit %s\n", p->vver, p->vsha);
		else if (affected_same_version(p))
			continue;
		else if (strcmp(p->vver, "0") == 0)
			sb_addf(out, "\tFixed in %s with commit %s\n", p->fver, p->fsha);
		else
			sb_addf(out, "\tIssue introduced in %s with commit %s and fixed in %s with commit %s\n",
				p->vver, p->vsha, p->fver, p->fsha);
	}
	sb_addf(out, "\n"
		     "Please see https://www.kernel.org for a full list of currently supported\n"
		     "kernel versions by the kernel community.\n"
		     "\n"
		     "Unaffected versions might change over time as fixes are backported to\n"
		     "older supported kernel versions.  The official CVE entry at\n"
		     "\thttps://cve.org/CVERecord/?id=%s\n"
		     "will be updated if fixes are backported, please check that for the most\n"
		     "up to date information about this issue.\n"
		     "\n"
		     "\n"
		     "Affected files\n"
		     "==============\n"
		     "\n"
		     "The file(s) affected by this issue are:\n",
		m->cve);
	for (size_t i = 0; i < m->nfiles; i++)
		sb_addf(out, "\t%s\n", m->files[i]);
	sb_adds(out, "\n\nMitigation\n"
		     "==========\n"
		     "\n"
		     "The Linux kernel CVE team recommends that you update to the latest\n"
		     "stable kernel version for this, and many other bugfixes.  Individual\n"
		     "changes are never tested alone, but rather are part of a larger kernel\n"
		     "release.  Cherry-picking individual commits is not recommended or\n"
		     "supported by the Linux kernel community at all.  If however, updating to\n"
		     "the latest release is impossible, the individual changes to resolve this\n"
		     "issue can be found at these commits:\n");
	affected_mbox_refs(m->pairs, m->refs, m->nrefs, m->main_sha, &links);
	for (size_t i = 0; i < links.n; i++)
		sb_addf(out, "\t%s\n", links.v[i]);
	url_list_release(&links);
}
