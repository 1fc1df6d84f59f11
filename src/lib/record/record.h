/* A CVE record: the CVE JSON 5.1.1 document and the announcement mbox the kernel CNA's bippy
 * writes for one CVE (docs/spec/record.md), plus the .dyad text of its vulnerable:fixed pairs.
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
	/* optional: stable branches ("6.1", "2.6.32") the subsystem maintainers declared not
	 * affected (kcve dispute --not-affected, the CVE's .not_affected): their pairs are
	 * dropped before the issuance policy and rendering. NULL/0: none. */
	const char *const *not_affected; size_t nnot_affected;
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

/* Drop, in place and keeping order, every pair whose branch (major of the fixed version, or
 * of the vulnerable version when unfixed) is one of branches[0..n). Returns how many were
 * dropped. */
size_t record_drop_not_affected(struct dyad_list *pairs, const char *const *branches, size_t n);

#endif
