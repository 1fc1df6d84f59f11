/* The Linux kernel component of an SBOM (CycloneDX JSON, SPDX 2.3 JSON): what `check --sbom`
 * reads to check the kernel it names and to bind the VEX statements to it (check/emit/vex.h). */
#ifndef KCVE_CHECK_SBOM_H
#define KCVE_CHECK_SBOM_H

#include <stdbool.h>
#include <stddef.h>

#include "check/inputs/spdx3.h"
#include "core/error.h"
#include "core/kjson.h"

/* The kernel component found in an SBOM. */
struct ck_sbom {
	bool cyclonedx;  /* else SPDX */
	char *serial;    /* CycloneDX serialNumber ("urn:uuid:..."), NULL for SPDX */
	long version;    /* CycloneDX BOM version (default 1) */
	char *ref;       /* CycloneDX bom-ref / SPDX SPDXID of the kernel component */
	char *purl, *cpe; /* its identifiers, NULL when absent */
	char *kversion;  /* its version (as written in the SBOM) */
	bool spdx3;      /* SPDX 3 (check/inputs/spdx3.h): ref is the bound element's spdxId */
	struct ck_spdx3 *sp3; /* SPDX 3: everything read (compiled files, configuration) */
};

/* Find the Linux kernel component of a CycloneDX JSON or SPDX 2.3 JSON SBOM. KCVE_E_PARSE
 * when the file is neither, KCVE_E_NOTFOUND when no component is a Linux kernel. */
int ck_sbom_load(struct ck_sbom *sb, const char *path, struct kcve_err *err);
/* An SBOM is read by the bounded reader (core/kjson.h: a regular file, non-blocking open) within
 * these limits; every SBOM reader uses them. */
#define CK_SBOM_MAX ((size_t)64 << 20)
#define CK_SBOM_VALUES KJ_VALUES_MAX
extern const struct kj_limits ck_sbom_limits;
/* The same from JSON text; name is used in messages. */
int ck_sbom_parse(struct ck_sbom *sb, const char *text, size_t len, const char *name,
		  struct kcve_err *err);
void ck_sbom_release(struct ck_sbom *sb);
/* The SBOM of `check --sbom F...`: one CycloneDX or SPDX 2.3 file, or SPDX 3.0 JSON-LD
 * documents (one or more: the kernel's generator writes three), read by check/inputs/spdx3.h;
 * then spdx3 is set, sp3 holds the reading, ref its element (NULL when none was found). */
int ck_sbom_load_all(struct ck_sbom *sb, char *const *paths, size_t n, struct kcve_err *err);

#endif
