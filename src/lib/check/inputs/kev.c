/* CISA KEV catalogue reader (see kev.h). */
#include "check/inputs/kev.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/cveid.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "core/text.h"
#include "core/kjson.h"

static int entry_cmp(const void *x, const void *y)
{
	return cveid_cmp(((const struct ck_kev_entry *)x)->id, ((const struct ck_kev_entry *)y)->id);
}

static const char *const required[] = {"vendorProject", "product", "vulnerabilityName",
				       "dateAdded", "shortDescription", "requiredAction",
				       "dueDate"};

/* One vulnerability object into e (validated); 0 or KCVE_E_PARSE. */
static int parse_entry(json_t *o, size_t i, struct ck_kev_entry *e, const char *name,
		       struct kcve_err *err)
{
	if (!json_is_object(o))
		return kcve_err_set(err, KCVE_E_PARSE, "%s: vulnerabilities[%zu] is not an object; "
				    "give CISA's known_exploited_vulnerabilities.json", name, i);
	json_t *id = json_object_get(o, "cveID");
	if (!json_is_string(id) || !cveid_valid_n(json_string_value(id), json_string_length(id)))
		return kcve_err_set(err, KCVE_E_PARSE, "%s: vulnerabilities[%zu].cveID is missing or "
				    "not CVE-YYYY-NNNN; give CISA's known_exploited_vulnerabilities.json",
				    name, i);
	for (size_t f = 0; f < sizeof required / sizeof *required; f++)
		if (!json_is_string(json_object_get(o, required[f])))
			return kcve_err_set(err, KCVE_E_PARSE, "%s: vulnerabilities[%zu] (%s) has no "
					    "string \"%s\", which the KEV schema requires", name, i,
					    json_string_value(id), required[f]);
	const char *opt[] = {"knownRansomwareCampaignUse", "notes"};
	for (size_t f = 0; f < 2; f++) {
		json_t *v = json_object_get(o, opt[f]);
		if (v && !json_is_string(v))
			return kcve_err_set(err, KCVE_E_PARSE, "%s: vulnerabilities[%zu] (%s): \"%s\" "
					    "is not a string", name, i, json_string_value(id), opt[f]);
	}
	json_t *cwes = json_object_get(o, "cwes"), *c;
	size_t k;
	if (cwes && !json_is_array(cwes))
		return kcve_err_set(err, KCVE_E_PARSE, "%s: vulnerabilities[%zu] (%s): \"cwes\" is "
				    "not an array", name, i, json_string_value(id));
	json_array_foreach(cwes, k, c) {
		if (!json_is_string(c))
			return kcve_err_set(err, KCVE_E_PARSE, "%s: vulnerabilities[%zu] (%s): cwes[%zu] "
					    "is not a string", name, i, json_string_value(id), k);
	}
	memcpy(e->id, json_string_value(id), json_string_length(id) + 1);
	text_snprintf(e->date_added, sizeof e->date_added, "%s",
		 json_string_value(json_object_get(o, "dateAdded")));
	const char *ran = json_string_value(json_object_get(o, "knownRansomwareCampaignUse"));
	e->ransomware = ran && !strcasecmp(ran, "Known");
	const char *vendor = json_string_value(json_object_get(o, "vendorProject"));
	const char *product = json_string_value(json_object_get(o, "product"));
	e->linux_kernel = (!strcasecmp(vendor, "Linux") && !strcasecmp(product, "Kernel")) ||
			  !strcasecmp(product, "Linux Kernel");
	e->name = xstrdup(json_string_value(json_object_get(o, "vulnerabilityName")));
	return 0;
}

static int parse_doc(struct ck_kev *k, json_t *doc, const char *name, struct kcve_err *err)
{
	if (!json_is_object(doc))
		return kcve_err_set(err, KCVE_E_PARSE, "%s is not a JSON object; give CISA's "
				    "known_exploited_vulnerabilities.json", name);
	json_t *ver = json_object_get(doc, "catalogVersion");
	json_t *vulns = json_object_get(doc, "vulnerabilities");
	if (!json_is_string(ver) || !json_is_string(json_object_get(doc, "dateReleased")) ||
	    !json_is_integer(json_object_get(doc, "count")) || !json_is_array(vulns))
		return kcve_err_set(err, KCVE_E_PARSE, "%s is not a KEV catalogue (catalogVersion, "
				    "dateReleased, count and a vulnerabilities array are required); "
				    "give CISA's known_exploited_vulnerabilities.json", name);
	text_snprintf(k->version, sizeof k->version, "%s", json_string_value(ver));
	size_t n = json_array_size(vulns);
	k->v = n ? xcalloc(n, sizeof *k->v) : NULL;
	for (size_t i = 0; i < n; i++) {
		if (parse_entry(json_array_get(vulns, i), i, &k->v[k->n], name, err) != 0)
			return err->code;
		k->n++;
	}
	if (k->n)
		qsort(k->v, k->n, sizeof *k->v, entry_cmp);
	/* one entry per id: CISA never repeats one, a hostile file may (the first kept) */
	size_t w = 0;
	for (size_t i = 0; i < k->n; i++) {
		if (w && !strcmp(k->v[w - 1].id, k->v[i].id)) {
			free(k->v[i].name);
			continue;
		}
		k->v[w++] = k->v[i];
	}
	k->n = w;
	for (size_t i = 0; i < k->n; i++)
		k->nkernel += k->v[i].linux_kernel;
	return 0;
}

int ck_kev_parse(struct ck_kev *k, const char *text, size_t len, const char *name,
		 struct kcve_err *err)
{
	memset(k, 0, sizeof *k);
	json_error_t je;
	/* JSON_REJECT_DUPLICATES: a key given twice is a forged or broken document */
	json_t *doc = kj_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!doc)
		return kcve_err_set(err, KCVE_E_PARSE, "%s: not valid JSON (line %d: %s); give CISA's "
				    "known_exploited_vulnerabilities.json", name, je.line, je.text);
	int rc = parse_doc(k, doc, name, err);
	json_decref(doc);
	if (rc)
		ck_kev_release(k);
	return rc;
}

int ck_kev_load(struct ck_kev *k, const char *path, struct kcve_err *err)
{
	memset(k, 0, sizeof *k);
	struct strbuf sb = STRBUF_INIT;
	char *shown = safe_printable(path);
	int rc = 0;
	if (read_file_capped(path, &sb, CK_KEV_MAX) != 0)
		rc = kcve_err_set(err, errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				  "cannot read the KEV catalogue %s: %s (a regular file of at most "
				  "%zu MiB); download known_exploited_vulnerabilities.json from CISA",
				  shown, read_file_reason(errno), CK_KEV_MAX >> 20);
	else
		rc = ck_kev_parse(k, sb.buf, sb.len, shown, err);
	free(shown);
	sb_release(&sb);
	return rc;
}

const struct ck_kev_entry *ck_kev_find(const struct ck_kev *k, const char *id)
{
	if (!k || !k->n || !cveid_valid_n(id, strlen(id)))
		return NULL;
	struct ck_kev_entry key;
	text_snprintf(key.id, sizeof key.id, "%s", id);
	return bsearch(&key, k->v, k->n, sizeof *k->v, entry_cmp);
}

void ck_kev_release(struct ck_kev *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof *k);
}
