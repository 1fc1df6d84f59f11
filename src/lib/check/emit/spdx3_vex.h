/* SPDX 3.0.1 VEX of a check result (kcve check --spdx3; docs/check.md "SPDX 3"): the kernel as
 * a software_Package (or, with an SPDX 3 --sbom, the SBOM's own element, imported through an
 * ExternalMap), one security_Vulnerability per CVE with its cve externalIdentifier, and per
 * CVE and kernel one VEX relationship from the vulnerability to the kernel:
 *   affected             security_VexAffectedVulnAssessmentRelationship, affects, with the
 *                        action statement (the fixing release);
 *   not affected         security_VexNotAffectedVulnAssessmentRelationship, doesNotAffect, with
 *                        a justification type (vulnerableCodeNotPresent: not compiled, not
 *                        introduced yet, fix found in the code; inlineMitigationsAlreadyExist:
 *                        a modprobe rule) and the evidence as impact statement; a CVE
 *                        rejected since an earlier revision also gets security_withdrawnTime;
 *   fixed                security_VexFixedVulnAssessmentRelationship, fixedIn;
 *   unknown / no data    security_VexUnderInvestigationVulnAssessmentRelationship,
 *                        underInvestigationFor.
 * The statements are exactly the OpenVEX document's (ck_openvex_document: the same records,
 * the same --since revision rules: statements made before are renewed, rejected CVEs
 * withdrawn, unchanged statements keep their time), so --openvex, --csaf and --spdx3 say the
 * same. Element ids derive from that document's id; times from $SOURCE_DATE_EPOCH when set:
 * the same inputs give the same bytes. */
#ifndef KCVE_CHECK_EMIT_SPDX3_VEX_H
#define KCVE_CHECK_EMIT_SPDX3_VEX_H

#include <stdio.h>

#include <jansson.h>

#include "check/emit/vex.h"

#define CK_SPDX3_CONTEXT "https://spdx.org/rdf/3.0.1/spdx-context.jsonld"

/* The SPDX 3 document of an OpenVEX document (as ck_openvex_document makes it). bound: the
 * spdxId of an SPDX 3 SBOM element to state about instead of a package of our own (NULL). */
json_t *ck_spdx3_from_openvex(const json_t *openvex, const char *bound);
int ck_print_spdx3(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		   const struct ck_vex_opts *o);

#endif
