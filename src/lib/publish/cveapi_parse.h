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
/* Any JSON object: checks it parses. */
int cveapi_parse_object(const char *body, size_t len, struct kcve_err *err);
/* The success answer of a record write, {"message": …, KEY: record} with KEY "created" (POST)
 * or "updated" (PUT): 0 only if that record's cveMetadata.cveId is cve and, when want_state
 * is given, its cveMetadata.state is want_state. A 2xx whose body is anything else (an error
 * object, another CVE, the wrong state) is KCVE_E_NET: success means the body says so. */
int cveapi_parse_written(const char *body, size_t len, const char *key, const char *cve,
			 const char *want_state, struct kcve_err *err);
/* An id object ({"cve_id", "state", …}), bare (GET cve-id/{id}) or under "updated" (PUT
 * cve-id/{id}, key "updated"): its state (sanitised) once its cve_id is checked to be cve. */
int cveapi_parse_id_state(const char *body, size_t len, const char *key, const char *cve,
			  char state[16], struct kcve_err *err);
/* Does a full record (GET cve/{id}) already hold what the request body {"cnaContainer": …}
 * asks for, in state want_state? The server sets containers.cna.providerMetadata itself and
 * trims blanks around strings, so both are ignored. 1 yes, 0 no, -1 unparsable. */
int cveapi_record_holds(const char *record, size_t rlen, const char *request, size_t qlen,
			const char *want_state);
/* From a full CVE JSON 5 record (our .json) build the request body
 * {"cnaContainer": containers.cna} (compact, keys in record order). */
int cveapi_cna_body(const char *record, size_t len, const char *cve, struct strbuf *out,
		    struct kcve_err *err);
/* Copy at most n-1 bytes of printable text (control bytes become '?'). */
void cveapi_sanitize(char *dst, size_t n, const char *src, size_t srclen);

#endif
