/* CVE JSON record reader (see reader.h). */
#include "record/reader.h"

#include <errno.h>
#include <stdio.h>
#include <jansson.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "core/text.h"
#include "core/kjson.h"

struct ctx {
	struct kcve_err *err;
	int rc;
};

static int bad(struct ctx *c, const char *field, const char *what)
{
	if (!c->rc)
		c->rc = kcve_err_set(c->err, KCVE_E_PARSE, "record field %s %s", field, what);
	return c->rc;
}

/* Optional string member: NULL if absent; error if present with another type. */
static char *opt_str(struct ctx *c, json_t *obj, const char *key, const char *path)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return NULL;
	if (!json_is_string(v)) {
		bad(c, path, "is not a string");
		return NULL;
	}
	return xstrndup(json_string_value(v), json_string_length(v));
}

static char *req_str(struct ctx *c, json_t *obj, const char *key, const char *path)
{
	char *s = opt_str(c, obj, key, path);
	if (!s && !c->rc)
		bad(c, path, "is missing");
	return s;
}

static json_t *opt_type(struct ctx *c, json_t *obj, const char *key, const char *path,
			bool array)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return NULL;
	if (array ? !json_is_array(v) : !json_is_object(v)) {
		bad(c, path, array ? "is not an array" : "is not an object");
		return NULL;
	}
	return v;
}

static const char *intern_status(const char *s)
{
	static const char *const known[] = {"affected", "unaffected", "unknown", "git", "semver",
					    "original_commit_for_fix", "custom", "rpm", "python",
					    "maven"};
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(s, known[i]) == 0)
			return known[i];
	return NULL;
}

static void read_product(struct ctx *c, json_t *p, struct record_product *out)
{
	if (!json_is_object(p)) {
		bad(c, "affected[]", "is not an object");
		return;
	}
	out->vendor = opt_str(c, p, "vendor", "affected[].vendor");
	out->product = opt_str(c, p, "product", "affected[].product");
	out->default_status = opt_str(c, p, "defaultStatus", "affected[].defaultStatus");
	out->repo = opt_str(c, p, "repo", "affected[].repo");
	json_t *files = opt_type(c, p, "programFiles", "affected[].programFiles", true);
	if (files) {
		out->files = xcalloc(json_array_size(files) + 1, sizeof(char *));
		size_t i;
		json_t *f;
		json_array_foreach(files, i, f) {
			if (!json_is_string(f)) {
				bad(c, "affected[].programFiles[]", "is not a string");
				break;
			}
			out->files[out->nfiles++] = xstrdup(json_string_value(f));
		}
	}
	json_t *vers = opt_type(c, p, "versions", "affected[].versions", true);
	if (!vers)
		return;
	size_t i;
	json_t *v;
	json_array_foreach(vers, i, v) {
		if (!json_is_object(v)) {
			bad(c, "affected[].versions[]", "is not an object");
			return;
		}
		XGROW(out->versions.v, out->versions.n + 1, out->versions.alloc);
		struct vrange *r = &out->versions.v[out->versions.n++];
		memset(r, 0, sizeof(*r));
		r->version = req_str(c, v, "version", "affected[].versions[].version");
		r->less_than = opt_str(c, v, "lessThan", "affected[].versions[].lessThan");
		r->less_than_or_equal =
			opt_str(c, v, "lessThanOrEqual", "affected[].versions[].lessThanOrEqual");
		char *st = req_str(c, v, "status", "affected[].versions[].status");
		char *ty = opt_str(c, v, "versionType", "affected[].versions[].versionType");
		if (st && !(r->status = intern_status(st)))
			bad(c, "affected[].versions[].status", "has an unknown value");
		if (ty && !(r->version_type = intern_status(ty)))
			r->version_type = "custom";
		free(st);
		free(ty);
		if (c->rc)
			return;
	}
}

/* cpeApplicability[].nodes[].cpeMatch[]: the start and end of each match. */
static void read_cpe(struct ctx *c, json_t *cna, struct record_json *out)
{
	size_t i, k, m;
	json_t *ca, *node, *match;
	json_t *cpea = opt_type(c, cna, "cpeApplicability", "containers.cna.cpeApplicability", true);
	if (cpea) {
		json_array_foreach(cpea, i, ca) {
			json_t *nodes = json_is_object(ca) ? opt_type(c, ca, "nodes", "cpeApplicability[].nodes", true) : NULL;
			if (!json_is_object(ca))
				bad(c, "cpeApplicability[]", "is not an object");
			if (c->rc)
				return;
			json_array_foreach(nodes, k, node) {
				json_t *cm = json_is_object(node) ? opt_type(c, node, "cpeMatch", "nodes[].cpeMatch", true) : NULL;
				if (!json_is_object(node))
					bad(c, "cpeApplicability[].nodes[]", "is not an object");
				if (c->rc)
					return;
				json_array_foreach(cm, m, match) {
					if (!json_is_object(match)) {
						bad(c, "cpeMatch[]", "is not an object");
						return;
					}
					out->cpe = xrealloc(out->cpe, (out->ncpe + 1) * sizeof(*out->cpe));
					struct record_cpe *e = &out->cpe[out->ncpe++];
					e->start = opt_str(c, match, "versionStartIncluding", "cpeMatch[].versionStartIncluding");
					e->end = opt_str(c, match, "versionEndExcluding", "cpeMatch[].versionEndExcluding");
					char *crit = req_str(c, match, "criteria", "cpeMatch[].criteria");
					free(crit);
					if (c->rc)
						return;
				}
			}
		}
	}
}

/* metrics[]: the CVSS 3.1 vector, severity, score and the first scenario of each. */
static void read_metrics(struct ctx *c, json_t *cna, struct record_json *out)
{
	size_t i;
	json_t *ca;
	json_t *mets = opt_type(c, cna, "metrics", "containers.cna.metrics", true);
	if (mets) {
		out->metrics = xcalloc(json_array_size(mets) + 1, sizeof(*out->metrics));
		json_array_foreach(mets, i, ca) {
			struct record_metric *rm = &out->metrics[out->nmetrics++];
			json_t *v3 = json_is_object(ca) ? opt_type(c, ca, "cvssV3_1", "metrics[].cvssV3_1", false) : NULL;
			if (!json_is_object(ca))
				bad(c, "metrics[]", "is not an object");
			if (c->rc)
				return;
			if (v3) {
				rm->vector = req_str(c, v3, "vectorString", "cvssV3_1.vectorString");
				rm->severity = req_str(c, v3, "baseSeverity", "cvssV3_1.baseSeverity");
				json_t *s = json_object_get(v3, "baseScore");
				if (!json_is_number(s))
					bad(c, "cvssV3_1.baseScore", "is not a number");
				else
					rm->score = json_number_value(s);
			}
			json_t *sc = opt_type(c, ca, "scenarios", "metrics[].scenarios", true);
			if (sc && json_array_size(sc) > 0 && json_is_object(json_array_get(sc, 0)))
				rm->scenario = opt_str(c, json_array_get(sc, 0), "value", "scenarios[].value");
			if (c->rc)
				return;
		}
	}
}

int record_json_parse(const char *text, size_t len, struct record_json *out, struct kcve_err *err)
{
	memset(out, 0, sizeof(*out));
	json_error_t jerr;
	json_t *root = kj_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return kcve_err_set(err, KCVE_E_PARSE, "not valid JSON (line %d: %s)", jerr.line,
				    jerr.text);
	struct ctx c = {err, 0};
	if (!json_is_object(root)) {
		bad(&c, "(top level)", "is not an object");
		goto out;
	}
	out->data_version = req_str(&c, root, "dataVersion", "dataVersion");
	char *dtype = req_str(&c, root, "dataType", "dataType");
	if (dtype && strcmp(dtype, "CVE_RECORD") != 0)
		bad(&c, "dataType", "is not CVE_RECORD");
	free(dtype);
	json_t *meta = opt_type(&c, root, "cveMetadata", "cveMetadata", false);
	if (!meta && !c.rc)
		bad(&c, "cveMetadata", "is missing");
	if (c.rc)
		goto out;
	out->cve_id = opt_str(&c, meta, "cveId", "cveMetadata.cveId");
	if (!out->cve_id && !c.rc) /* the legacy bash tool's 5.0 records spell it "cveID" */
		out->cve_id = req_str(&c, meta, "cveID", "cveMetadata.cveId");
	out->state = req_str(&c, meta, "state", "cveMetadata.state");
	out->org_id = opt_str(&c, meta, "assignerOrgId", "cveMetadata.assignerOrgId");
	json_t *cont = opt_type(&c, root, "containers", "containers", false);
	json_t *cna = cont ? opt_type(&c, cont, "cna", "containers.cna", false) : NULL;
	if (!cna && !c.rc)
		bad(&c, "containers.cna", "is missing");
	if (c.rc)
		goto out;
	out->title = opt_str(&c, cna, "title", "containers.cna.title");
	json_t *gen = opt_type(&c, cna, "x_generator", "containers.cna.x_generator", false);
	if (gen)
		out->generator = opt_str(&c, gen, "engine", "containers.cna.x_generator.engine");
	json_t *descs = opt_type(&c, cna, "descriptions", "containers.cna.descriptions", true);
	if (descs && json_array_size(descs) > 0) {
		json_t *d0 = json_array_get(descs, 0);
		if (!json_is_object(d0))
			bad(&c, "descriptions[0]", "is not an object");
		else
			out->description = req_str(&c, d0, "value", "descriptions[0].value");
	}
	if (c.rc)
		goto out;
	json_t *aff = opt_type(&c, cna, "affected", "containers.cna.affected", true);
	if (aff) {
		out->products = xcalloc(json_array_size(aff) + 1, sizeof(*out->products));
		size_t i;
		json_t *p;
		json_array_foreach(aff, i, p) {
			read_product(&c, p, &out->products[out->nproducts++]);
			if (c.rc)
				goto out;
		}
	}
	read_cpe(&c, cna, out);
	if (c.rc)
		goto out;
	json_t *refs = opt_type(&c, cna, "references", "containers.cna.references", true);
	size_t i;
	json_t *ca;
	if (refs) {
		out->refs = xcalloc(json_array_size(refs) + 1, sizeof(char *));
		json_array_foreach(refs, i, ca) {
			if (!json_is_object(ca)) {
				bad(&c, "references[]", "is not an object");
				goto out;
			}
			char *u = req_str(&c, ca, "url", "references[].url");
			if (u)
				out->refs[out->nrefs++] = u;
			if (c.rc)
				goto out;
		}
	}
	read_metrics(&c, cna, out);
out:
	json_decref(root);
	if (c.rc)
		record_json_release(out);
	return c.rc;
}

int record_json_read(const char *path, struct record_json *out, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	memset(out, 0, sizeof(*out));
	if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO, "cannot read %s (%s)",
				    path, strerror(e));
	}
	int rc = record_json_parse(sb_str(&sb), sb.len, out, err);
	sb_release(&sb);
	if (rc) {
		char msg[sizeof(err->msg)];
		text_snprintf(msg, sizeof(msg), "%s", err->msg);
		kcve_err_set(err, rc, "%s: %s", path, msg);
	}
	return rc;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void record_json_release(struct record_json *r)
{
	free(r->data_version);
	free(r->cve_id);
	free(r->state);
	free(r->org_id);
	free(r->title);
	free(r->description);
	free(r->generator);
	for (size_t i = 0; i < r->nproducts; i++) {
		struct record_product *p = &r->products[i];
		free(p->vendor);
		free(p->product);
		free(p->default_status);
		free(p->repo);
		free_strv(p->files, p->nfiles);
		for (size_t k = 0; k < p->versions.n; k++) {
			free(p->versions.v[k].version);
			free(p->versions.v[k].less_than);
			free(p->versions.v[k].less_than_or_equal);
		}
		free(p->versions.v);
	}
	free(r->products);
	for (size_t i = 0; i < r->ncpe; i++) {
		free(r->cpe[i].start);
		free(r->cpe[i].end);
	}
	free(r->cpe);
	free_strv(r->refs, r->nrefs);
	for (size_t i = 0; i < r->nmetrics; i++) {
		free(r->metrics[i].vector);
		free(r->metrics[i].severity);
		free(r->metrics[i].scenario);
	}
	free(r->metrics);
	memset(r, 0, sizeof(*r));
}
