/* Rendering of a record's files from already-computed inputs (no git, no history), so the
 * byte layout can be tested on its own: the CVE JSON 5.1.1 document (docs/spec/record.md "JSON layout",
 * "Serialization") and the announcement mbox ("The announcement mbox"). */
#ifndef KCVE_RECORD_RENDER_H
#define KCVE_RECORD_RENDER_H

#include <stddef.h>

#include "core/strbuf.h"
#include "history/dyad_text.h"
#include "record/cvss_file.h"
#include "record/identity.h"

/* The anchor's generator identity: mbox "From <generator> Mon Sep 17 ..." separator line and
 * JSON x_generator.engine. Kept so records stay byte-compatible with the CNA's tree. */
#define RECORD_DEFAULT_GENERATOR "bippy-1.2.0"
#define RECORD_DEFAULT_ORG_UUID "f4215fc3-5b6b-47ff-a258-f7189bd81038"
#define RECORD_REPO_URL "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git"

struct record_model {
	const char *cve;
	const char *main_sha;
	const char *subject;
	const char *description;              /* full, untruncated (ends with '\n') */
	const struct dyad_list *pairs;
	const char *const *files; size_t nfiles;
	const char *const *refs; size_t nrefs; /* .reference URLs */
	const struct cvss_file *cvss;         /* NULL: no metrics / no Severity block */
	const char *org_uuid;
	const char *generator;                /* NULL: RECORD_DEFAULT_GENERATOR */
	const struct kcve_identity *from;
};

void record_render_json(const struct record_model *m, struct strbuf *out);
void record_render_mbox(const struct record_model *m, struct strbuf *out);

#endif
