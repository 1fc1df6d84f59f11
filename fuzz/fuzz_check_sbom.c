/* libFuzzer target: finding the kernel component of an SBOM (check/inputs/sbom.c: CycloneDX JSON or
 * SPDX 2.3 JSON) for kcve check --sbom. Input: the SBOM text. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/sbom.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_sbom sb;
	struct kcve_err e = {0};
	int rc = ck_sbom_parse(&sb, (const char *)data, size, "fuzz", &e);
	if (rc == 0) {
		/* a bound CycloneDX component always has what the BOM-Link needs */
		if (sb.cyclonedx && (!sb.serial || strncmp(sb.serial, "urn:uuid:", 9) || !sb.ref))
			abort();
		ck_sbom_release(&sb);
	} else if (rc != KCVE_E_PARSE && rc != KCVE_E_NOTFOUND) {
		abort();
	}
	return 0;
}
