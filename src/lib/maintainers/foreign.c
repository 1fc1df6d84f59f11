/* Classification of other CNAs' kernel CVE records (see foreign.h). */
#include "maintainers/foreign.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cveid.h"
#include "core/safefs.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "maintainers/request.h"
#include "core/text.h"
#include "core/kjson.h"

const char *foreign_kind_name(enum foreign_kind k)
{
	static const char *n[] = {"duplicate", "invalid", "not-ours", "kernel-cna", "not-kernel"};
	return (unsigned)k < sizeof(n) / sizeof(n[0]) ? n[k] : "?";
}

void foreign_result_release(struct foreign_result *r)
{
	sb_release(&r->why);
}

static char *lower(const char *s)
{
	char *r = xstrdup(s ? s : "");
	for (char *p = r; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return r;
}

static bool cpe_is_kernel(const char *cpe)
{
	return cpe && strstr(cpe, ":linux:linux_kernel:") != NULL;
}

static bool repo_is_kernel(const char *repo)
{
	if (!repo)
		return false;
	char *r = lower(repo);
	bool k = (strstr(r, "git.kernel.org") && (strstr(r, "torvalds/linux") ||
	                                          strstr(r, "stable/linux"))) ||
	         strstr(r, "github.com/torvalds/linux") || strstr(r, "github.com/gregkh/linux");
	free(r);
	return k;
}

/* 1: the upstream kernel, 2: a distribution/vendor kernel, 0: not a kernel product. */
static int product_kind(json_t *a)
{
	char *v = lower(json_string_value(json_object_get(a, "vendor")));
	char *p = lower(json_string_value(json_object_get(a, "product")));
	char *pkg = lower(json_string_value(json_object_get(a, "packageName")));
	int kind = 0;
	bool names_kernel = strstr(p, "kernel") || strstr(p, "linux") || strstr(pkg, "linux") ||
	                    strstr(pkg, "kernel");
	bool upstream_vendor = strcmp(v, "linux") == 0 || strstr(v, "kernel.org") ||
	                       strcmp(v, "the linux foundation") == 0 || strcmp(v, "torvalds") == 0;
	static const char *const distro[] = {"red hat", "enterprise linux", "rhel", "suse", "ubuntu",
	                                     "canonical", "debian", "android", "oracle", "amazon",
	                                     "azure", "centos", "fedora", "chromeos", "qualcomm",
	                                     "samsung", "mediatek", "huawei", NULL};
	bool distroish = false;
	for (size_t i = 0; distro[i]; i++)
		distroish |= strstr(v, distro[i]) || strstr(p, distro[i]);
	if (names_kernel && upstream_vendor && !distroish &&
	    (strstr(p, "linux") || strstr(p, "kernel")))
		kind = 1;
	else if (names_kernel && (strstr(p, "kernel") || strstr(p, "linux")))
		kind = 2;
	size_t i;
	json_t *c;
	json_array_foreach(json_object_get(a, "cpes"), i, c) {
		if (cpe_is_kernel(json_string_value(c)))
			kind = distroish ? 2 : 1;
	}
	if (repo_is_kernel(json_string_value(json_object_get(a, "repo"))) ||
	    repo_is_kernel(json_string_value(json_object_get(a, "collectionURL"))))
		kind = distroish ? 2 : 1;
	free(v);
	free(p);
	free(pkg);
	return kind;
}

/* Does the affected range touch stable branch b? lt/le: upper bound (exclusive/inclusive) or
 * NULL for a single version. */
static bool range_hits_branch(const char *ver, const char *lt, const char *le, const char *b)
{
	char vm[24];
	bool lower_ok = strcmp(ver, "0") == 0 || kver_cmp_str(ver, b) <= 0 ||
	                strcmp(kver_str_major(ver, vm, sizeof(vm)), b) == 0;
	if (!lt && !le)
		return strcmp(kver_str_major(ver, vm, sizeof(vm)), b) == 0;
	if (!lower_ok)
		return false;
	const char *u = lt ? lt : le;
	if (strcmp(u, "*") == 0)
		return true;
	const char *star = strstr(u, ".*");
	if (star) {
		char *base = xstrndup(u, (size_t)(star - u));
		bool r = kver_cmp_str(base, b) >= 0;
		free(base);
		return r;
	}
	int c = kver_cmp_str(u, b);
	return lt ? c > 0 : c >= 0;
}

static bool version_like(const char *s)
{
	return s && (isdigit((unsigned char)s[0])) && strlen(s) < 32 && strspn(s, "0123456789.-rc") == strlen(s);
}

/* Does a reference of cna name a fix that already has a kernel CVE? Then r is a duplicate of it. */
static bool find_duplicate(json_t *cna, const struct foreign_oracle *o, struct foreign_result *r)
{
	size_t i;
	json_t *a;
	json_array_foreach(json_object_get(cna, "references"), i, a) {
		const char *url = json_string_value(json_object_get(a, "url"));
		if (!url)
			continue;
		char shas[8][41];
		size_t n = request_find_shas(url, shas, 8);
		for (size_t s = 0; s < n; s++) {
			char cve[32] = "";
			if (o->find_cve && o->find_cve(o->ctx, shas[s], cve) == 0) {
				r->kind = FOREIGN_DUPLICATE;
				text_snprintf(r->duplicate_of, sizeof(r->duplicate_of), "%s", cve);
				memcpy(r->sha, shas[s], sizeof(r->sha));
				r->sha[40] = 0;
				return true;
			}
		}
	}
	return false;
}

int foreign_classify(const char *text, size_t len, const char *kernel_org,
                     const struct foreign_oracle *o, struct foreign_result *r,
                     struct kcve_err *err)
{
	memset(r, 0, sizeof(*r));
	json_error_t je;
	json_t *root = kj_loadb(text, len, 0, &je);
	if (!root || !json_is_object(root)) {
		json_decref(root);
		return kcve_err_set(err, KCVE_E_PARSE, "not JSON (line %d: %s)", je.line, je.text);
	}
	json_t *meta = json_object_get(root, "cveMetadata");
	const char *id = json_string_value(json_object_get(meta, "cveId"));
	json_t *cna = json_object_get(json_object_get(root, "containers"), "cna");
	if (!id || !json_is_object(cna)) {
		json_decref(root);
		return kcve_err_set(err, KCVE_E_PARSE, "not a CVE JSON 5 record (no cveMetadata.cveId "
		                    "or containers.cna)");
	}
	json_t *idj = json_object_get(meta, "cveId");
	if (!cveid_valid_n(id, json_string_length(idj))) { /* a forged row must not be printed */
		char *q = safe_printable(id);
		int rc = kcve_err_set(err, KCVE_E_PARSE, "cveMetadata.cveId '%.64s' is not a CVE id "
				      "(CVE-YYYY-NNNN+)", q);
		free(q);
		json_decref(root);
		return rc;
	}
	text_snprintf(r->cve, sizeof(r->cve), "%s", id);
	const char *org = json_string_value(json_object_get(meta, "assignerOrgId"));
	const char *shortname = json_string_value(json_object_get(meta, "assignerShortName"));
	struct strbuf as = STRBUF_INIT; /* shown on a terminal: no control or bidi character */
	sb_add_display(&as, shortname ? shortname : org ? org : "?");
	text_snprintf(r->assigner, sizeof(r->assigner), "%s", sb_str(&as));
	sb_release(&as);
	if (org && kernel_org && strcasecmp(org, kernel_org) == 0) {
		r->kind = FOREIGN_KERNEL_CNA;
		sb_adds(&r->why, "assigned by the kernel CNA itself");
		json_decref(root);
		return 0;
	}
	bool upstream = false, vendor = false, hits_supported = false, known_versions = false;
	bool dup = false;
	char hit_branch[24] = "";
	size_t i, k;
	json_t *a, *v;
	json_array_foreach(json_object_get(cna, "affected"), i, a) {
		int pk = product_kind(a);
		if (pk == 2)
			vendor = true;
		if (pk != 1)
			continue;
		upstream = true;
		json_array_foreach(json_object_get(a, "versions"), k, v) {
			const char *st = json_string_value(json_object_get(v, "status"));
			const char *ver = json_string_value(json_object_get(v, "version"));
			const char *lt = json_string_value(json_object_get(v, "lessThan"));
			const char *le = json_string_value(json_object_get(v, "lessThanOrEqual"));
			if (!st || strcmp(st, "affected") != 0 || !version_like(ver))
				continue;
			if ((lt && !version_like(lt) && strcmp(lt, "*") && !strstr(lt, ".*")) ||
			    (le && !version_like(le) && strcmp(le, "*") && !strstr(le, ".*")))
				continue;
			known_versions = true;
			for (size_t b = 0; b < o->nsupported && !hits_supported; b++) {
				if (range_hits_branch(ver, lt, le, o->supported[b])) {
					hits_supported = true;
					text_snprintf(hit_branch, sizeof(hit_branch), "%s", o->supported[b]);
				}
			}
		}
	}
	/* references naming a fix that already has a kernel CVE */
	if (upstream || vendor)
		dup = find_duplicate(cna, o, r);
	if (dup) {
		sb_addf(&r->why, "references fix %.12s, which is already %s", r->sha, r->duplicate_of);
	} else if (!upstream && !vendor) {
		r->kind = FOREIGN_NOT_KERNEL;
		sb_adds(&r->why, "does not name the Linux kernel (vendor/product, CPE or repository)");
	} else if (!upstream) {
		r->kind = FOREIGN_NOT_OURS;
		sb_adds(&r->why, "names only a distribution or vendor kernel; that vendor assigns it");
	} else if (hits_supported) {
		r->kind = FOREIGN_INVALID;
		sb_addf(&r->why, "assigned by %s for the upstream kernel, affecting supported branch %s: "
		        "remediation through the CNA process", r->assigner, hit_branch);
	} else if (known_versions) {
		r->kind = FOREIGN_NOT_OURS;
		sb_adds(&r->why, "affects only kernel versions that are no longer supported");
	} else {
		r->kind = FOREIGN_INVALID;
		sb_addf(&r->why, "assigned by %s for the upstream kernel without usable version ranges "
		        "(treated as affecting supported branches): remediation through the CNA process",
		        r->assigner);
	}
	json_decref(root);
	return 0;
}
