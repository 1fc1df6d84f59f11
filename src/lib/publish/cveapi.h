/* Client for the CVE Services REST API (docs/spec/workflow.md "Publish"): the calls cvelib's
 * `cve` tool makes for the kernel CNA, over libcurl.
 *
 * Every request carries CVE-API-ORG/USER/KEY headers. Retries: network errors, 5xx and 429
 * (honouring Retry-After) are retried with exponential backoff up to a cap; other 4xx are
 * final. Requests that are not idempotent (reserving ids) are only retried when the server
 * cannot have acted on them (connection refused, 429). Answers are capped in size and parsed
 * by cveapi_parse.h. */
#ifndef KCVE_PUBLISH_CVEAPI_H
#define KCVE_PUBLISH_CVEAPI_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"
#include "publish/config.h"
#include "publish/cveapi_parse.h"

/* Largest answer body accepted (records are a few KiB; lists are paged). */
#define CVEAPI_MAX_BODY (8u << 20)

struct cveapi;

int cveapi_open(struct cveapi **out, const struct publish_config *cfg, struct kcve_err *err);
void cveapi_close(struct cveapi *api);

/* What a write did: created, updated, or nothing because the service already held it. */
enum cveapi_done { CVEAPI_CREATED = 1, CVEAPI_UPDATED = 2, CVEAPI_ALREADY = 3 };

/* POST cve-id?cve_year&amount&short_name[&batch_type]. */
int cveapi_reserve(struct cveapi *api, int year, int count, bool sequential,
		   struct cveapi_idlist *out, long *remaining, struct kcve_err *err);
/* GET org/{org}/id_quota */
int cveapi_quota(struct cveapi *api, struct cveapi_quota *q, struct kcve_err *err);
/* GET cve-id?cve_id_year&state, every page (year <= 0 / state NULL: no filter). */
int cveapi_list(struct cveapi *api, int year, const char *state, struct cveapi_idlist *out,
		struct kcve_err *err);
/* Writes follow the rules in docs/publish.md ("CVE Services rules"): success only when the
 * answer's body carries the written record (matching cveId, and state); after an uncertain
 * outcome (reset, timeout, 5xx) or a CVE_RECORD_EXISTS / CVE_RECORD_DNE answer, the record is
 * read back (GET) and written only if the service does not already hold the content. */

/* Publish a full record file: POST cve/{id}/cna {"cnaContainer": containers.cna} (PUT first
 * when exists, i.e. it was published before). *done tells which happened. */
int cveapi_publish(struct cveapi *api, const char *cve, const char *record, size_t len,
		   bool exists, enum cveapi_done *done, struct kcve_err *err);
/* The same, update first. */
int cveapi_update(struct cveapi *api, const char *cve, const char *record, size_t len,
		  struct kcve_err *err);
/* Reject: POST cve/{id}/reject (an id without a record); when the service says a record
 * exists, read it: already REJECTED with this reason is done, else PUT cve/{id}/reject. */
int cveapi_reject(struct cveapi *api, const char *cve, const char *reason,
		  enum cveapi_done *done, struct kcve_err *err);
/* Give back a reserved, never-published id: GET cve-id/{id}, and unless it is REJECTED
 * already, PUT cve-id/{id}?state=REJECTED. */
int cveapi_reject_id(struct cveapi *api, const char *cve, enum cveapi_done *done,
		     struct kcve_err *err);
/* GET cve/{id}: the record as the server has it. */
int cveapi_get_record(struct cveapi *api, const char *cve, struct strbuf *out,
		      struct kcve_err *err);

/* Number of HTTP attempts made so far (retries included), for the summary. */
unsigned cveapi_attempts(const struct cveapi *api);

/* The longest wait between two tries, in seconds: a Retry-After (a number or a date) and
 * cve_api.backoff_cap_ms are both clamped to it. */
#define CVEAPI_MAX_WAIT_S 3600L
/* The wait before try number attempt (1 = the first retry): exponential from backoff_ms with
 * jitter, at least Retry-After (retry_after_s, -1 when absent), at most cap_ms and at most
 * CVEAPI_MAX_WAIT_S. */
long cveapi_backoff_ms(long backoff_ms, long cap_ms, int attempt, long retry_after_s);

#endif
