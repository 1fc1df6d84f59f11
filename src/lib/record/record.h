/* A CVE record: the CVE JSON 5.1.1 document and the announcement mbox the kernel CNA's bippy
 * writes for one CVE (anchor-spec §4), plus the .dyad text of its vulnerable:fixed pairs.
 *
 * record_build() is the whole pipeline: resolve the fix commits, compute pairs in-process with
 * the dyad engine, apply the issuance policy, clean the description and render all outputs
 * byte-compatibly with the anchor tool. */
#ifndef KCVE_RECORD_RECORD_H
#define KCVE_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "history/dyad_text.h"
#include "history/history.h"
#include "record/identity.h"

struct record_input {
	const char *cve;                                  /* CVE-YYYY-NNNNN */
	const char *const *shas; size_t nshas;            /* first = main fix */
	const char *const *vulnerable; size_t nvulnerable;
	const char *reference_path, *message_path, *cvss_path;   /* optional, NULL if none */
	const char *vulns_tree;   /* optional: tree root, for scripts/tags and scripts/linux.uuid */
	const struct kcve_identity *from;
	/* extension: generator identity for the mbox separator and x_generator (NULL: the
	 * anchor's "bippy-1.2.0", keeping records byte-compatible with the CNA's tree) */
	const char *generator;
};

struct record_output {
	struct strbuf json, mbox, dyad;   /* file contents: .json, .mbox, .dyad (header + pairs) */
	struct dyad_list pairs;
	char main_sha[41];
	char *subject;
};

/* Compute pairs in-process, apply the issuance policy (KCVE_E_POLICY with the reason), render. */
int record_build(struct history *h, const struct record_input *in, struct record_output *out,
		 struct kcve_err *err);
void record_output_release(struct record_output *out);

/* True if s is a well-formed CVE id: "CVE-" 4-digit year "-" at least 4 digits. */
bool record_valid_cve_id(const char *s);

#endif
