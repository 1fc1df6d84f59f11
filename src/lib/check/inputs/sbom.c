/* The Linux kernel component of an SBOM (CycloneDX JSON, SPDX 2.3 JSON), for binding VEX
 * statements to it (see sbom.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/sbom.h"
#include "core/kjson.h"
#include "core/strbuf.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/xalloc.h"

#include <errno.h>

static char *dup_or_null(const char *s)
{
	return s && *s ? xstrdup(s) : NULL;
}

static bool kernel_purl(const char *p)
{
	return p && (!strncmp(p, "pkg:generic/linux-kernel@", 25) ||
		     !strncmp(p, "pkg:generic/linux@", 18));
}

static bool kernel_cpe(const char *c)
{
	return c && strstr(c, ":o:linux:linux_kernel:") != NULL;
}

static bool kernel_name(const char *n)
{
	return n && (!strcmp(n, "linux-kernel") || !strcmp(n, "linux") || !strcmp(n, "kernel"));
}

/* Depth-first over a CycloneDX component and its sub-components. */
static json_t *cdx_find(json_t *c)
{
	if (!json_is_object(c))
		return NULL;
	const char *purl = json_string_value(json_object_get(c, "purl"));
	const char *cpe = json_string_value(json_object_get(c, "cpe"));
	const char *type = json_string_value(json_object_get(c, "type"));
	const char *name = json_string_value(json_object_get(c, "name"));
	if (kernel_purl(purl) || kernel_cpe(cpe) ||
	    (type && !strcmp(type, "operating-system") && kernel_name(name)))
		return c;
	size_t i;
	json_t *sub;
	json_array_foreach(json_object_get(c, "components"), i, sub) {
		json_t *hit = cdx_find(sub);
		if (hit)
			return hit;
	}
	return NULL;
}

static int load_cdx(struct ck_sbom *sb, json_t *doc, const char *path, struct kcve_err *err)
{
	sb->cyclonedx = true;
	const char *serial = json_string_value(json_object_get(doc, "serialNumber"));
	json_t *v = json_object_get(doc, "version");
	sb->version = json_is_integer(v) ? (long)json_integer_value(v) : 1;
	json_t *hit = cdx_find(json_object_get(json_object_get(doc, "metadata"), "component"));
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(doc, "components"), i, c) {
		if (!hit)
			hit = cdx_find(c);
	}
	if (!hit)
		return kcve_err_set(err, KCVE_E_NOTFOUND, "no Linux kernel component in %s (looked "
				    "for a purl pkg:generic/linux-kernel@, a CPE "
				    "cpe:2.3:o:linux:linux_kernel, or an operating-system named "
				    "linux-kernel); pass --product/--cpe instead", path);
	const char *ref = json_string_value(json_object_get(hit, "bom-ref"));
	if (!serial || strncmp(serial, "urn:uuid:", 9) || !ref)
		return kcve_err_set(err, KCVE_E_PARSE, "%s has no serialNumber (urn:uuid:...) or its "
				    "kernel component no bom-ref: a BOM-Link needs both; regenerate "
				    "the SBOM with them", path);
	sb->serial = xstrdup(serial);
	sb->ref = xstrdup(ref);
	sb->purl = dup_or_null(json_string_value(json_object_get(hit, "purl")));
	sb->cpe = dup_or_null(json_string_value(json_object_get(hit, "cpe")));
	sb->kversion = dup_or_null(json_string_value(json_object_get(hit, "version")));
	return 0;
}

static int load_spdx(struct ck_sbom *sb, json_t *doc, const char *path, struct kcve_err *err)
{
	size_t i, k;
	json_t *p, *r;
	json_array_foreach(json_object_get(doc, "packages"), i, p) {
		const char *purl = NULL, *cpe = NULL;
		json_array_foreach(json_object_get(p, "externalRefs"), k, r) {
			const char *type = json_string_value(json_object_get(r, "referenceType"));
			const char *loc = json_string_value(json_object_get(r, "referenceLocator"));
			if (type && !strcmp(type, "purl") && kernel_purl(loc))
				purl = loc;
			else if (type && !strcmp(type, "cpe23Type") && kernel_cpe(loc))
				cpe = loc;
		}
		if (!purl && !cpe && !kernel_name(json_string_value(json_object_get(p, "name"))))
			continue;
		sb->ref = dup_or_null(json_string_value(json_object_get(p, "SPDXID")));
		sb->purl = dup_or_null(purl);
		sb->cpe = dup_or_null(cpe);
		sb->kversion = dup_or_null(json_string_value(json_object_get(p, "versionInfo")));
		return 0;
	}
	return kcve_err_set(err, KCVE_E_NOTFOUND, "no Linux kernel package in %s (looked for a "
			    "purl pkg:generic/linux-kernel@, a cpe23Type "
			    "cpe:2.3:o:linux:linux_kernel, or a package named linux-kernel); pass "
			    "--product/--cpe instead", path);
}

static int from_doc(struct ck_sbom *sb, json_t *doc, const char *path, struct kcve_err *err);

const struct kj_limits ck_sbom_limits = {CK_SBOM_MAX, CK_SBOM_VALUES};

#define SBOM_HINT "; give a CycloneDX JSON or SPDX 2.3 JSON file"

int ck_sbom_load(struct ck_sbom *sb, const char *path, struct kcve_err *err)
{
	memset(sb, 0, sizeof(*sb));
	json_t *doc; /* the bounded reader: a FIFO refused at once, the size and values capped */
	if (kj_load_file(path, &ck_sbom_limits, "SBOM", SBOM_HINT, &doc, err) != 0)
		return err->code;
	return from_doc(sb, doc, path, err);
}

int ck_sbom_parse(struct ck_sbom *sb, const char *text, size_t len, const char *name,
		  struct kcve_err *err)
{
	memset(sb, 0, sizeof(*sb));
	json_t *doc;
	struct strbuf what = STRBUF_INIT;
	sb_addf(&what, "the SBOM %s", name);
	int rc = len > CK_SBOM_MAX
		? kcve_err_set(err, KCVE_E_PARSE, "%s is larger than %zu MiB" SBOM_HINT, what.buf,
			       CK_SBOM_MAX >> 20)
		: kj_parse(text, len, &ck_sbom_limits, what.buf, SBOM_HINT, &doc, err) != 0 ? err->code : 0;
	sb_release(&what);
	return rc ? rc : from_doc(sb, doc, name, err);
}

/* Takes the reference to doc. */
static int from_doc(struct ck_sbom *sb, json_t *doc, const char *path, struct kcve_err *err)
{
	const char *fmt = json_string_value(json_object_get(doc, "bomFormat"));
	const char *spdx = json_string_value(json_object_get(doc, "spdxVersion"));
	int rc;
	if (fmt && !strcmp(fmt, "CycloneDX"))
		rc = load_cdx(sb, doc, path, err);
	else if (spdx && !strncmp(spdx, "SPDX-2.", 7))
		rc = load_spdx(sb, doc, path, err);
	else
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s is neither a CycloneDX JSON SBOM (bomFormat) "
				  "nor an SPDX 2.x JSON SBOM (spdxVersion)", path);
	json_decref(doc);
	if (rc)
		ck_sbom_release(sb);
	return rc;
}

/* SPDX 3 JSON-LD: a JSON object with "@context" near its start. */
static bool spdx3_text(const char *t, size_t len)
{
	size_t i = 0;
	while (i < len && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r'))
		i++;
	if (i == len || t[i] != '{')
		return false;
	size_t n = len - i < 4096 ? len - i : 4096;
	return memmem(t + i, n, "\"@context\"", 10) != NULL;
}

int ck_sbom_load_all(struct ck_sbom *sb, char *const *paths, size_t n, struct kcve_err *err)
{
	memset(sb, 0, sizeof(*sb));
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct strbuf text = STRBUF_INIT;
		char *shown = safe_printable(paths[i]);
		if (read_file_capped(paths[i], &text, CK_SPDX3_MAX_BYTES) != 0) {
			int e = errno;
			rc = kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
					  "cannot read the SBOM %s: %s (a regular file of at most %zu MiB)",
					  shown, read_file_reason(e), CK_SPDX3_MAX_BYTES >> 20);
		} else if (spdx3_text(sb_str(&text), text.len)) {
			if (!sb->sp3) {
				sb->sp3 = xcalloc(1, sizeof *sb->sp3);
				ck_spdx3_init(sb->sp3);
			}
			rc = ck_spdx3_add_text(sb->sp3, sb_str(&text), text.len, shown, err);
		} else if (n > 1) {
			rc = kcve_err_set(err, KCVE_E_USAGE, "--sbom %s is not SPDX 3.0 JSON-LD: only SPDX "
					  "3 documents go together (a CycloneDX or SPDX 2.3 SBOM is one "
					  "--sbom alone)", shown);
		} else {
			rc = ck_sbom_parse(sb, sb_str(&text), text.len, shown, err);
		}
		free(shown);
		sb_release(&text);
	}
	if (rc == 0 && sb->sp3 && (rc = ck_spdx3_finish(sb->sp3, err)) == 0) {
		const struct ck_spdx3 *s = sb->sp3;
		sb->spdx3 = true;
		sb->ref = dup_or_null(s->element);
		sb->purl = dup_or_null(s->purl);
		sb->cpe = dup_or_null(s->cpe);
		sb->kversion = dup_or_null(s->kversion);
	}
	if (rc)
		ck_sbom_release(sb);
	return rc;
}

void ck_sbom_release(struct ck_sbom *sb)
{
	if (sb->sp3) {
		ck_spdx3_release(sb->sp3);
		free(sb->sp3);
	}
	free(sb->serial);
	free(sb->ref);
	free(sb->purl);
	free(sb->cpe);
	free(sb->kversion);
	memset(sb, 0, sizeof(*sb));
}
