#include "check/records/record.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/cveid.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "core/text.h"
#include "core/kjson.h"

static const char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static unsigned char parse_status(const char *s)
{
	if (!s)
		return CK_ST_NONE;
	if (strcmp(s, "affected") == 0)
		return CK_ST_AFFECTED;
	if (strcmp(s, "unaffected") == 0)
		return CK_ST_UNAFFECTED;
	return CK_ST_UNKNOWN;
}

static unsigned char parse_vtype(const char *s)
{
	if (!s)
		return CK_VT_NONE;
	if (strcmp(s, "semver") == 0)
		return CK_VT_SEMVER;
	if (strcmp(s, "git") == 0)
		return CK_VT_GIT;
	if (strcmp(s, "original_commit_for_fix") == 0)
		return CK_VT_OCFF;
	return CK_VT_OTHER;
}

/* "2024-08-21T10:15:00.000Z" -> UTC seconds; 0 when unparsable. */
static long long parse_iso_date(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	if (!s || sscanf(s, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
			 &tm.tm_min, &tm.tm_sec) < 3)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	return t < 0 ? 0 : (long long)t;
}

/* Append f unless seen already holds it: one hashed lookup per file, not a scan of the list
 * (a record may name 100,000 files; the scan was quadratic). */
static void add_file(struct ck_record *r, size_t *alloc, struct strset *seen, const char *f)
{
	if (!strset_add(seen, f))
		return;
	XGROW(r->files, r->nfiles + 1, *alloc);
	r->files[r->nfiles++] = xstrdup(f);
}

static const char *jstr(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

int ck_record_parse_json(struct ck_record *r, const char *json, size_t len, const char *name,
			 struct kcve_err *err)
{
	memset(r, 0, sizeof *r);
	r->owns_strings = 1;
	dyad_list_init(&r->dyad);
	json_error_t je;
	json_t *root = kj_loadb(json, len, 0, &je);
	if (!root)
		return kcve_err_set(err, KCVE_E_PARSE, "malformed JSON in %s (line %d: %s)", name,
				    je.line, je.text);
	json_t *meta = json_object_get(root, "cveMetadata");
	const char *id = jstr(meta, "cveId");
	json_t *cna = json_object_get(json_object_get(root, "containers"), "cna");
	if (!id || !json_is_object(cna)) {
		json_decref(root);
		return kcve_err_set(err, KCVE_E_PARSE,
				    "%s is not a CVE JSON 5 record (no cveMetadata.cveId or containers.cna)",
				    name);
	}
	int idrc = cveid_check_record(name, id, json_string_length(json_object_get(meta, "cveId")),
				      NULL, err);
	if (idrc) {
		json_decref(root);
		return idrc;
	}
	r->id = xstrdup(id);
	r->published = parse_iso_date(jstr(meta, "datePublished"));
	r->updated = parse_iso_date(jstr(meta, "dateUpdated"));
	/* shown on terminals (the table, report text): no control or bidi character survives */
	const char *title = jstr(cna, "title");
	struct strbuf tb = STRBUF_INIT;
	sb_add_display(&tb, title ? title : "");
	r->title = sb_detach(&tb);
	r->severity = xstrdup("");

	json_t *metrics = json_object_get(cna, "metrics");
	size_t i;
	json_t *m;
	json_array_foreach(metrics, i, m) {
		const char *keys[] = {"cvssV4_0", "cvssV3_1", "cvssV3_0", "cvssV2_0"};
		for (size_t k = 0; k < 4; k++) {
			json_t *c = json_object_get(m, keys[k]);
			if (!json_is_object(c))
				continue;
			json_t *score = json_object_get(c, "baseScore");
			const char *sev = jstr(c, "baseSeverity");
			if (json_is_number(score) && r->score10 == 0) {
				double d = json_number_value(score);
				if (d >= 0 && d <= 10)
					r->score10 = (unsigned)(d * 10 + 0.5);
			}
			const char *vec = jstr(c, "vectorString");
			if (k == 1 && vec && !r->cvss31 && !strncmp(vec, "CVSS:3.1/", 9) &&
			    strlen(vec) < 128)
				r->cvss31 = xstrdup(vec);
			if (sev && !r->severity[0]) {
				free((char *)r->severity);
				r->severity = xstrdup(sev);
			}
		}
	}

	size_t falloc = 0;
	struct strset seen_files = STRSET_INIT;
	json_t *affected = json_object_get(cna, "affected"), *a;
	json_array_foreach(affected, i, a) {
		const char *vendor = jstr(a, "vendor"), *product = jstr(a, "product");
		if (!vendor || !product || strcmp(vendor, "Linux") != 0 || strcmp(product, "Linux") != 0)
			continue;
		size_t j;
		json_t *f;
		json_array_foreach(json_object_get(a, "programFiles"), j, f)
			if (json_is_string(f))
				add_file(r, &falloc, &seen_files, json_string_value(f));
		r->prod = xrealloc(r->prod, (r->nprod + 1) * sizeof *r->prod);
		struct ck_product *p = &r->prod[r->nprod++];
		memset(p, 0, sizeof *p);
		const char *ds = jstr(a, "defaultStatus");
		p->default_status = ds ? parse_status(ds) : CK_ST_UNKNOWN;
		json_t *versions = json_object_get(a, "versions"), *v;
		p->v = xcalloc(json_array_size(versions) + 1, sizeof *p->v);
		json_array_foreach(versions, j, v) {
			struct ck_range *rg = &p->v[p->n];
			rg->version = dup_or_null(jstr(v, "version"));
			if (!rg->version)
				continue;
			rg->less_than = dup_or_null(jstr(v, "lessThan"));
			rg->less_equal = dup_or_null(jstr(v, "lessThanOrEqual"));
			rg->status = parse_status(jstr(v, "status"));
			rg->type = parse_vtype(jstr(v, "versionType"));
			p->n++;
		}
	}
	strset_clear(&seen_files);
	json_decref(root);
	return 0;
}

static void read_fixes(struct ck_record *r, const char *text)
{
	size_t alloc = 0;
	const char *p = text;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		const char *e = p;
		while (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r')
			e++;
		if (e > p) {
			XGROW(r->fixes, r->nfixes + 1, alloc);
			r->fixes[r->nfixes++] = xstrndup(p, (size_t)(e - p));
		}
		p = e;
	}
}

const char *const ck_record_exts[CK_REC_NFILES] = {
	[CK_REC_JSON] = ".json",
	[CK_REC_DYAD] = ".dyad",
	[CK_REC_SHA1] = ".sha1",
};

/* <dir>/<id><ext> of one of the record's files into path (checked to fit by the caller). */
static void record_path(char *path, size_t size, const char *dir, const char *id, int which)
{
	text_snprintf(path, size, "%s/%s%s", dir, id, ck_record_exts[which]);
}

int ck_record_read(struct ck_record *r, const char *dir, const char *id, struct kcve_err *err)
{
	char path[8192];
	struct strbuf sb = STRBUF_INIT;
	if (strlen(dir) + strlen(id) + 8 > sizeof path)
		return kcve_err_set(err, KCVE_E_IO, "path too long: %s/%s", dir, id);
	record_path(path, sizeof path, dir, id, CK_REC_JSON);
	if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_IO, "cannot read %s: %s", path, safefs_reason(e));
	}
	int rc = ck_record_parse_json(r, sb.buf, sb.len, path, err);
	if (!rc && (rc = cveid_check_record(path, r->id, strlen(r->id), id, err)))
		ck_record_release(r);
	if (rc) {
		sb_release(&sb);
		return rc;
	}
	record_path(path, sizeof path, dir, id, CK_REC_DYAD);
	sb_reset(&sb);
	if (read_file(path, &sb) == 0) {
		size_t bad = dyad_parse(sb_str(&sb), &r->dyad);
		ck_record_link_pairs(r);
		if (bad) { /* the caller keeps only records that were read: release this one */
			sb_release(&sb);
			ck_record_release(r);
			return kcve_err_set(err, KCVE_E_PARSE, "malformed line %zu in %s", bad, path);
		}
	}
	record_path(path, sizeof path, dir, id, CK_REC_SHA1);
	sb_reset(&sb);
	if (read_file(path, &sb) == 0)
		read_fixes(r, sb_str(&sb));
	sb_release(&sb);
	return 0;
}

void ck_record_release(struct ck_record *r)
{
	if (r->owns_strings) {
		free((char *)r->id);
		free((char *)r->title);
		free((char *)r->cvss31);
		free((char *)r->severity);
		for (size_t i = 0; i < r->nfiles; i++)
			free((char *)r->files[i]);
		for (size_t i = 0; i < r->nfixes; i++)
			free((char *)r->fixes[i]);
		for (size_t i = 0; i < r->nprod; i++)
			for (size_t j = 0; j < r->prod[i].n; j++) {
				free((char *)r->prod[i].v[j].version);
				free((char *)r->prod[i].v[j].less_than);
				free((char *)r->prod[i].v[j].less_equal);
			}
	}
	if (!r->arena_arrays) {
		for (size_t i = 0; i < r->nprod; i++)
			free(r->prod[i].v);
		free(r->prod);
		free(r->files);
		free(r->fixes);
		free(r->pairs.v);
	}
	dyad_list_release(&r->dyad);
	ck_record_drop_compiled(r);
	memset(r, 0, sizeof *r);
}

void ck_record_drop_compiled(struct ck_record *r)
{
	free(r->cc);
	r->cc = NULL;
}

void ck_record_link_pairs(struct ck_record *r)
{
	free(r->pairs.v);
	r->pairs.n = r->dyad.n;
	r->pairs.v = xcalloc(r->dyad.n + 1, sizeof *r->pairs.v);
	for (size_t i = 0; i < r->dyad.n; i++) {
		const struct dyad_pair *d = &r->dyad.v[i];
		r->pairs.v[i] = (struct ck_pair){d->vver, d->vsha, d->fver, d->fsha};
	}
}

bool ck_pair_same_release(const struct ck_pair *p)
{
	return strcmp(p->vver, "0") != 0 && strcmp(p->fver, "0") != 0 &&
	       strcmp(p->vver, p->fver) == 0;
}

const char *ck_record_subsystem(const struct ck_record *r, char *out, size_t outsz)
{
	if (r->nfiles > 0) {
		const char *f = r->files[0];
		int want = 2;
		if (strncmp(f, "drivers/", 8) == 0 || strncmp(f, "sound/", 6) == 0 ||
		    strncmp(f, "arch/", 5) == 0)
			want = 3;
		/* Count directory components only (never the file name itself). */
		const char *last = strrchr(f, '/');
		if (!last) {
			text_snprintf(out, outsz, "(top)");
			return out;
		}
		const char *p = f;
		int n = 0;
		const char *end = last;
		while (p < last) {
			const char *s = strchr(p, '/');
			if (++n == want) {
				end = s;
				break;
			}
			p = s + 1;
		}
		text_snprintf(out, outsz, "%.*s", (int)(end - f), f);
		return out;
	}
	const char *c = strchr(r->title, ':');
	if (c && c > r->title && (size_t)(c - r->title) < outsz)
		text_snprintf(out, outsz, "%.*s", (int)(c - r->title), r->title);
	else
		text_snprintf(out, outsz, "other");
	return out;
}
