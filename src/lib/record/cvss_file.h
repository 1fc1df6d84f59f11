/* The .cvss file beside a CVE (docs/spec/tree.md ".cvss files"): header lines "<CNA uuid> <vector>", then an
 * optional rationale after the first blank line, either per metric ("AV:L - why", wrapped at
 * 72 columns with 4-space continuation lines, in vector order) or legacy prose paragraphs.
 * Parsing, validation and rendering follow the CNA's cvss tool so a parsed file re-renders
 * byte-identically and publishes the same scenario text. */
#ifndef KCVE_RECORD_CVSS_FILE_H
#define KCVE_RECORD_CVSS_FILE_H

#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "record/cvss.h"

/* Longest rationale the CVE schema accepts in metrics[].scenarios[].value (code points). */
#define CVSS_SCENARIO_MAX 4096
#define CVSS_WRAP 72
#define CVSS_INDENT "    "

struct cvss_header {
	char *cna_id;
	struct cvss_vector vec;
};

enum cvss_rationale_kind { CVSS_RAT_NONE, CVSS_RAT_PER_METRIC, CVSS_RAT_PROSE };

/* One rationale item: per metric a metric index, its claimed value and the text (whitespace
 * collapsed); for prose one paragraph (whitespace collapsed, metric -1). */
struct cvss_item {
	int metric;
	char value;
	char *text;
};

struct cvss_rationale {
	enum cvss_rationale_kind kind;
	struct cvss_item *items;
	size_t n, alloc;
};

struct cvss_file {
	struct cvss_header *hdr;
	size_t nhdr, ahdr;
	struct cvss_rationale rat;
};

/* Parse a rationale block (what `kcve cvss --rationale` reads). KCVE_E_PARSE on errors. */
int cvss_rationale_parse(const char *text, size_t len, struct cvss_rationale *out,
			 struct kcve_err *err);
void cvss_rationale_release(struct cvss_rationale *r);
/* Per-metric rationale must list the 8 metrics in order with the vector's values. */
int cvss_rationale_check(const struct cvss_rationale *r, const struct cvss_vector *v,
			 struct kcve_err *err);
/* Published form (one line per metric / paragraph, joined by '\n'); appends to out. */
void cvss_rationale_scenario(const struct cvss_rationale *r, struct strbuf *out);
/* Wrapped form as stored in the file, ending with '\n'; appends to out. */
void cvss_rationale_render(const struct cvss_rationale *r, struct strbuf *out);

/* Parse a whole .cvss file (CRLF accepted). KCVE_E_PARSE on malformed input. */
int cvss_file_parse(const char *text, size_t len, struct cvss_file *out, struct kcve_err *err);
/* Read and parse a file: KCVE_E_IO / KCVE_E_NOTFOUND if unreadable, KCVE_E_PARSE if bad. */
int cvss_file_read(const char *path, struct cvss_file *out, struct kcve_err *err);
/* Rationale matches the single vector (skipped with several headers) and fits 4,096. */
int cvss_file_validate(const struct cvss_file *f, struct kcve_err *err);
/* Canonical file text; appends to out. */
void cvss_file_render(const struct cvss_file *f, struct strbuf *out);
void cvss_file_release(struct cvss_file *f);
void cvss_file_add_header(struct cvss_file *f, const char *cna_id, const struct cvss_vector *v);

#endif
