/* Parsing of CVE Services answers. Pure functions over (bytes, length): no I/O, so they are
 * unit-tested and fuzzed directly (fuzz/fuzz_cveapi_parse.c).
 *
 * The server is not trusted to answer well: bodies may be HTML error pages from a proxy,
 * truncated or malformed JSON, carry unexpected or mistyped fields, or be huge. Every parser
 * returns KCVE_E_NET with a short printable description instead of guessing, and every string
 * copied out of a body is bounded and stripped of control characters. */
#ifndef KCVE_PUBLISH_CVEAPI_PARSE_H
#define KCVE_PUBLISH_CVEAPI_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

struct cveapi_id {
	char id[32];      /* CVE-YYYY-NNNN+ */
	char state[16];   /* RESERVED, PUBLISHED, REJECTED */
	int year;
};
struct cveapi_idlist {
	struct cveapi_id *v;
	size_t n, alloc;
};
void cveapi_idlist_release(struct cveapi_idlist *l);

struct cveapi_quota {
	long id_quota, total_reserved, available;
};

/* Error body {"error": "CVE_RECORD_EXISTS", "message": "..."}: code (may be "") and message
 * (may be ""), both sanitised. Returns true if the body was such a JSON object. */
bool cveapi_parse_error(const char *body, size_t len, char *code, size_t codesz, char *msg,
			size_t msgsz);
/* {"cve_ids": [{"cve_id", "state", "cve_year"}...], "meta": {"remaining_quota"},
 *  "nextPage": N|null}: appends ids; remaining/next_page set to -1 when absent. Entries with
 * an invalid id are an error (we would otherwise file garbage into the tree). */
int cveapi_parse_ids(const char *body, size_t len, struct cveapi_idlist *out, long *remaining,
		     long *next_page, struct kcve_err *err);
/* {"id_quota", "total_reserved", "available"} */
int cveapi_parse_quota(const char *body, size_t len, struct cveapi_quota *q,
		       struct kcve_err *err);
/* A full CVE record: cveMetadata.cveId and cveMetadata.state. */
int cveapi_parse_record(const char *body, size_t len, char id[32], char state[16],
			struct kcve_err *err);
/* Any JSON object (success answers of publish/update/reject): checks it parses. */
int cveapi_parse_object(const char *body, size_t len, struct kcve_err *err);
/* From a full CVE JSON 5 record (our .json) build the request body
 * {"cnaContainer": containers.cna} (compact, keys in record order). */
int cveapi_cna_body(const char *record, size_t len, const char *cve, struct strbuf *out,
		    struct kcve_err *err);
/* Copy at most n-1 bytes of printable text (control bytes become '?'). */
void cveapi_sanitize(char *dst, size_t n, const char *src, size_t srclen);

#endif
