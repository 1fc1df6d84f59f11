#include "publish/cveapi.h"

#include <curl/curl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/xalloc.h"
#include "core/kjson.h"
#include "core/text.h"

struct cveapi {
	const struct publish_config *cfg;
	CURL *curl;
	struct curl_slist *hdrs;
	unsigned attempts;
	char errbuf[CURL_ERROR_SIZE];
};

struct resp {
	long status;
	struct strbuf body;
	bool too_big;
	bool maybe_sent;      /* a transport error after the request may have reached the server */
	long retry_after_s;   /* -1 when absent */
};

/* Which failures may be retried: a request the server must not execute twice (reserving ids)
 * is only retried when it cannot have reached the application (refused connection, 429). */
enum retry_policy { RETRY_ANY, RETRY_UNSENT };

static size_t on_body(char *p, size_t size, size_t n, void *ctx)
{
	struct resp *r = ctx;
	size_t len = size * n;
	if (r->body.len + len > CVEAPI_MAX_BODY) {
		r->too_big = true;
		return 0;  /* aborts the transfer with CURLE_WRITE_ERROR */
	}
	sb_add(&r->body, p, len);
	return len;
}

static size_t on_header(char *p, size_t size, size_t n, void *ctx)
{
	struct resp *r = ctx;
	size_t len = size * n;
	static const char name[] = "retry-after:";
	if (len > sizeof(name) - 1 && len < 200 && !strncasecmp(p, name, sizeof(name) - 1)) {
		char v[200];
		size_t vl = len - (sizeof(name) - 1);
		memcpy(v, p + sizeof(name) - 1, vl);
		v[vl] = '\0';
		char *s = v + strspn(v, " \t");
		s[strcspn(s, "\r\n")] = '\0';
		char *end;
		/* the server's number is clamped here, once: strtol saturates at LONG_MAX, and
		 * the wait is computed in milliseconds */
		long secs = strtol(s, &end, 10);
		if (end != s && !*end && secs >= 0)
			r->retry_after_s = secs > CVEAPI_MAX_WAIT_S ? CVEAPI_MAX_WAIT_S : secs;
		else {
			time_t t = curl_getdate(s, NULL);
			if (t != (time_t)-1) {
				time_t now = (time_t)clock_real();
				r->retry_after_s = t <= now ? 0
						   : t - now > CVEAPI_MAX_WAIT_S ? CVEAPI_MAX_WAIT_S
										 : (long)(t - now);
			}
		}
	}
	return len;
}

int cveapi_open(struct cveapi **out, const struct publish_config *cfg, struct kcve_err *err)
{
	int rc = publish_config_check_api(cfg, err);
	if (rc)
		return rc;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot initialise libcurl");
	struct cveapi *a = xcalloc(1, sizeof(*a));
	a->cfg = cfg;
	a->curl = curl_easy_init();
	if (!a->curl) {
		free(a);
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot initialise libcurl");
	}
	struct strbuf h = STRBUF_INIT;
	sb_addf(&h, "CVE-API-ORG: %s", cfg->api_org);
	a->hdrs = curl_slist_append(a->hdrs, h.buf);
	sb_reset(&h);
	sb_addf(&h, "CVE-API-USER: %s", cfg->api_user);
	a->hdrs = curl_slist_append(a->hdrs, h.buf);
	sb_reset(&h);
	sb_addf(&h, "CVE-API-KEY: %s", cfg->api_key);
	a->hdrs = curl_slist_append(a->hdrs, h.buf);
	memset(h.buf, 0, h.len);  /* the key lives on only inside curl's list */
	sb_release(&h);
	a->hdrs = curl_slist_append(a->hdrs, "Accept: application/json");
	a->hdrs = curl_slist_append(a->hdrs, "Content-Type: application/json");
	a->hdrs = curl_slist_append(a->hdrs, "Expect:");
	CURL *c = a->curl;
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, a->hdrs);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_VERBOSE, 0L);   /* never: it would print the key header */
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);  /* a redirect would carry the key away */
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "https,http");
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kcve/" KCVE_VERSION);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, cfg->api_timeout_s);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, cfg->api_timeout_s < 10 ? cfg->api_timeout_s : 10L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, a->errbuf);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	*out = a;
	return 0;
}

void cveapi_close(struct cveapi *a)
{
	if (!a)
		return;
	curl_easy_cleanup(a->curl);
	curl_slist_free_all(a->hdrs);
	free(a);
}

unsigned cveapi_attempts(const struct cveapi *a)
{
	return a->attempts;
}

long cveapi_backoff_ms(long backoff_ms, long cap_ms, int attempt, long retry_after_s)
{
	const long max_ms = CVEAPI_MAX_WAIT_S * 1000L;
	/* every wait is at most CVEAPI_MAX_WAIT_S, whatever the configuration or the server says */
	cap_ms = cap_ms < 0 ? 0 : cap_ms > max_ms ? max_ms : cap_ms;
	long d = backoff_ms < 0 ? 0 : backoff_ms > cap_ms ? cap_ms : backoff_ms;
	for (int i = 1; i < attempt && d < cap_ms; i++)
		d *= 2; /* d <= cap_ms <= 3.6e6 before: no overflow */
	d += d > 4 ? rand() % (d / 4) : 0;   /* jitter: parallel clients do not retry in step */
	if (retry_after_s > CVEAPI_MAX_WAIT_S)
		retry_after_s = CVEAPI_MAX_WAIT_S;
	if (retry_after_s >= 0 && retry_after_s * 1000 > d)
		d = retry_after_s * 1000;
	return d > cap_ms ? cap_ms : d;
}

static long backoff(const struct publish_config *cfg, int attempt, long retry_after_s)
{
	return cveapi_backoff_ms(cfg->backoff_ms, cfg->backoff_cap_ms, attempt, retry_after_s);
}

/* Did the request surely not reach the server application? */
static bool unsent(CURLcode cc)
{
	return cc == CURLE_COULDNT_CONNECT || cc == CURLE_COULDNT_RESOLVE_HOST ||
	       cc == CURLE_COULDNT_RESOLVE_PROXY;
}

static bool tls_failure(CURLcode cc)
{
	return cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_SSL_CONNECT_ERROR ||
	       cc == CURLE_SSL_CACERT_BADFILE || cc == CURLE_SSL_CERTPROBLEM;
}

/* One API call with the retry policy. 0 with r->status set for any final HTTP answer (the
 * caller decides what statuses mean); KCVE_E_NET when no usable answer came. */
static int request(struct cveapi *a, const char *method, const char *path, const char *body,
		   size_t blen, enum retry_policy pol, struct resp *r, struct kcve_err *err)
{
	const struct publish_config *cfg = a->cfg;
	struct strbuf url = STRBUF_INIT;
	sb_addf(&url, "%s%s", cfg->api_url, path);
	CURL *c = a->curl;
	curl_easy_setopt(c, CURLOPT_URL, url.buf);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
	/* A write goes out on a fresh connection: on a reused one that dies before the answer,
	 * libcurl silently sends the request again, and a write the server had already
	 * committed would be made twice (a needless version) behind kcve's back. */
	curl_easy_setopt(c, CURLOPT_FRESH_CONNECT, strcmp(method, "GET") ? 1L : 0L);
	if (!strcmp(method, "GET")) {
		curl_easy_setopt(c, CURLOPT_HTTPGET, 1L);
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, NULL);
	} else {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body ? body : "");
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(body ? blen : 0));
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	}
	int rc = 0;
	for (int attempt = 1;; attempt++) {
		sb_reset(&r->body);
		r->status = 0;
		r->too_big = false;
		r->maybe_sent = false;
		r->retry_after_s = -1;
		a->errbuf[0] = '\0';
		a->attempts++;
		CURLcode cc = curl_easy_perform(c);
		bool retry;
		if (cc != CURLE_OK) {
			if (r->too_big) {
				rc = kcve_err_set(err, KCVE_E_NET,
						  "CVE Services answered %s %s with more than %u bytes, "
						  "refusing it; check the server URL", method, path,
						  CVEAPI_MAX_BODY);
				break;
			}
			if (tls_failure(cc)) {
				rc = kcve_err_set(err, KCVE_E_NET,
						  "TLS failure talking to %s: %s, check the server "
						  "certificate (verification cannot be disabled)",
						  cfg->api_url, a->errbuf[0] ? a->errbuf : curl_easy_strerror(cc));
				break;
			}
			retry = pol == RETRY_ANY || unsent(cc);
			r->maybe_sent = !unsent(cc);
			rc = kcve_err_set(err, KCVE_E_NET,
					  "CVE Services %s %s failed after %d attempt%s: %s%s", method,
					  path, attempt, attempt > 1 ? "s" : "",
					  a->errbuf[0] ? a->errbuf : curl_easy_strerror(cc),
					  retry ? "" : "; the server may have acted on it, check with "
						       "'kcve remote list'");
		} else {
			curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
			/* an echoed secret never reaches a parser, a message or a truncation */
			publish_config_scrub_mem(cfg, r->body.buf, &r->body.len);
			if (r->status == 429)
				retry = true;   /* rate limited: the server did nothing */
			else if (r->status >= 500)
				retry = pol == RETRY_ANY;
			else
				retry = false;
			rc = 0;   /* an HTTP answer: the caller reports it with its body */
		}
		if (!retry || attempt >= cfg->api_attempts)
			break;
		clock_sleep_ms(backoff(cfg, attempt, r->retry_after_s));
	}
	if (rc)
		publish_config_scrub(cfg, err->msg, sizeof(err->msg));
	sb_release(&url);
	return rc;
}

/* Final non-success answer -> one error line with the server's code/message. */
static int http_fail(struct cveapi *a, const char *what, const struct resp *r,
		     struct kcve_err *err)
{
	/* Whole strings first, secrets scrubbed, and only then cut to size: cutting first
	 * could leave the tail of a key the server echoed past the cut. */
	size_t n = r->body.len + 1;
	char *code = xmalloc(n), *msg = xmalloc(n);
	if (cveapi_parse_error(r->body.buf, r->body.len, code, n, msg, n)) {
		publish_config_scrub(a->cfg, code, n);
		publish_config_scrub(a->cfg, msg, n);
		publish_err_set(a->cfg, err, KCVE_E_NET, "CVE Services refused to %s: HTTP %ld "
				"%.64s%s%.200s", what, r->status, code[0] ? code : "(no error code)",
				msg[0] ? ": " : "", msg);
	} else
		kcve_err_set(err, KCVE_E_NET, "CVE Services refused to %s: HTTP %ld with %s", what,
			     r->status,
			     r->body.len == 0 ? "an empty body" :
			     (r->body.buf[strspn(r->body.buf, " \r\n\t")] == '<' ? "an HTML page"
										 : "a non-JSON body"));
	free(code);
	free(msg);
	publish_config_scrub(a->cfg, err->msg, sizeof(err->msg));
	if (r->status == 401)
		text_snprintf(err->msg + strlen(err->msg), sizeof(err->msg) - strlen(err->msg), "%s",
			 ", check cve_api.user/key");
	return KCVE_E_NET;
}

static bool ok2xx(const struct resp *r)
{
	return r->status >= 200 && r->status < 300;
}

/* Error names are matched whatever the status: the service has answered the same condition
 * with 400 in one release and 403 in another (see docs/publish.md). */
static bool has_code(const struct resp *r, const char *want)
{
	char code[64], msg[8];
	return cveapi_parse_error(r->body.buf, r->body.len, code, sizeof(code), msg, sizeof(msg)) &&
	       !strcmp(code, want);
}

static int check_id(const char *cve, struct kcve_err *err)
{
	size_t n = strlen(cve);
	bool ok = n >= 13 && n < 32 && !strncmp(cve, "CVE-", 4) && cve[8] == '-';
	for (size_t i = 4; ok && i < n; i++)
		ok = i == 8 || (cve[i] >= '0' && cve[i] <= '9');
	return ok ? 0 : kcve_err_set(err, KCVE_E_USAGE, "invalid CVE id '%.40s'", cve);
}

int cveapi_reserve(struct cveapi *a, int year, int count, bool sequential,
		   struct cveapi_idlist *out, long *remaining, struct kcve_err *err)
{
	if (year < 1999 || year > 9999 || count < 1 || count > 100000)
		return kcve_err_set(err, KCVE_E_USAGE, "invalid year %d or count %d", year, count);
	char path[256];
	text_snprintf(path, sizeof(path), "cve-id?cve_year=%d&amount=%d&short_name=%s%s", year, count,
		 a->cfg->api_org,
		 count > 1 ? (sequential ? "&batch_type=sequential" : "&batch_type=nonsequential") : "");
	struct resp r = {0};
	long next;
	int rc = request(a, "POST", path, NULL, 0, RETRY_UNSENT, &r, err);
	if (!rc)
		rc = ok2xx(&r) ? cveapi_parse_ids(r.body.buf, r.body.len, out, remaining, &next, err)
			       : http_fail(a, "reserve ids", &r, err);
	sb_release(&r.body);
	return rc;
}

int cveapi_quota(struct cveapi *a, struct cveapi_quota *q, struct kcve_err *err)
{
	char path[200];
	text_snprintf(path, sizeof(path), "org/%s/id_quota", a->cfg->api_org);
	struct resp r = {0};
	int rc = request(a, "GET", path, NULL, 0, RETRY_ANY, &r, err);
	if (!rc)
		rc = ok2xx(&r) ? cveapi_parse_quota(r.body.buf, r.body.len, q, err)
			       : http_fail(a, "show the quota", &r, err);
	sb_release(&r.body);
	return rc;
}

int cveapi_list(struct cveapi *a, int year, const char *state, struct cveapi_idlist *out,
		struct kcve_err *err)
{
	long page = 1;
	int rc = 0;
	if (state && strspn(state, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != strlen(state))
		return kcve_err_set(err, KCVE_E_USAGE, "invalid state '%.20s', use RESERVED, "
				    "PUBLISHED or REJECTED", state);
	for (int pages = 0; !rc; pages++) {
		if (pages > 100000)
			return kcve_err_set(err, KCVE_E_NET, "CVE Services keeps sending pages");
		struct strbuf path = STRBUF_INIT;
		sb_adds(&path, "cve-id?");
		if (year > 0)
			sb_addf(&path, "cve_id_year=%d&", year);
		if (state)
			sb_addf(&path, "state=%s&", state);
		sb_addf(&path, "page=%ld", page);
		struct resp r = {0};
		long remaining, next;
		rc = request(a, "GET", path.buf, NULL, 0, RETRY_ANY, &r, err);
		if (!rc)
			rc = ok2xx(&r) ? cveapi_parse_ids(r.body.buf, r.body.len, out, &remaining,
							  &next, err)
				       : http_fail(a, "list ids", &r, err);
		sb_release(&r.body);
		sb_release(&path);
		if (rc || next < 0)
			break;
		if (next <= page)
			return kcve_err_set(err, KCVE_E_NET, "CVE Services sent nextPage %ld after "
					    "page %ld", next, page);
		page = next;
	}
	return rc;
}

/* What one record write must leave at CVE Services. */
struct goal {
	const char *cve;
	const char *what;          /* "publish CVE-…", for messages */
	const char *path;          /* cve/{id}/cna or cve/{id}/reject (POST creates, PUT updates) */
	const struct strbuf *body; /* {"cnaContainer": …} */
	const char *want_state;    /* PUBLISHED or REJECTED */
};

enum held { HELD_NONE, HELD_DIFFERENT, HELD_SAME };

/* Ask the service what it holds for the goal's CVE (GET cve/{id}, a read: retried freely). */
static int ask_record(struct cveapi *a, const struct goal *g, enum held *h, struct kcve_err *err)
{
	char path[96];
	text_snprintf(path, sizeof(path), "cve/%s", g->cve);
	struct resp r = {0};
	int rc = request(a, "GET", path, NULL, 0, RETRY_ANY, &r, err);
	if (!rc) {
		int same;
		char id[32], state[16];
		if (r.status >= 400 && r.status < 500 && has_code(&r, "CVE_RECORD_DNE"))
			*h = HELD_NONE;
		else if (!ok2xx(&r))
			rc = http_fail(a, "show the record before writing it again", &r, err);
		else if ((rc = cveapi_parse_record(r.body.buf, r.body.len, id, state, err)))
			;   /* err says what was wrong with the answer */
		else if (strcmp(id, g->cve) != 0)
			rc = kcve_err_set(err, KCVE_E_NET, "CVE Services answered a request for %s "
					  "with the record of %s; nothing written", g->cve, id);
		else if ((same = cveapi_record_holds(r.body.buf, r.body.len, g->body->buf,
						     g->body->len, g->want_state)) < 0)
			rc = kcve_err_set(err, KCVE_E_NET, "CVE Services sent an unreadable record "
					  "for %s; nothing written", g->cve);
		else
			*h = same ? HELD_SAME : HELD_DIFFERENT;
	}
	sb_release(&r.body);
	return rc;
}

/* One write: retried inside only where the service surely did nothing (429, refused
 * connection). *uncertain tells the caller the service may have acted although no answer
 * says so (reset, timeout, 5xx after the request went out). */
static int write_once(struct cveapi *a, const char *method, const char *path, const char *what,
		      const struct strbuf *body, struct resp *r, bool *uncertain,
		      struct kcve_err *err)
{
	*uncertain = false;
	int rc = request(a, method, path, body ? body->buf : NULL, body ? body->len : 0,
			 RETRY_UNSENT, r, err);
	if (rc)
		*uncertain = r->maybe_sent;
	else if (r->status >= 500) {
		*uncertain = true;
		rc = http_fail(a, what, r, err);
	}
	return rc;
}

/* Bring the service to hold g: POST (create) or PUT (update). Whenever the outcome of a write
 * is uncertain, or the service says a record does (not) exist, ask it first (GET) and write
 * only if it does not already hold the content: a write that commits but whose answer is lost
 * costs no second version. */
static int converge(struct cveapi *a, const struct goal *g, bool exists, enum cveapi_done *done,
		    struct kcve_err *err)
{
	/* An update asks first: the content may be there already, written by a run that died
	 * before it could record it (a restart with unsaved state). */
	bool ask = exists, post = !exists;
	int limit = a->cfg->api_attempts + 2, rc = 0;
	for (int round = 1;; round++) {
		if (round > limit) {
			char m[sizeof(err->msg)];
			text_snprintf(m, sizeof(m), "%s", err->msg);
			return kcve_err_set(err, KCVE_E_NET, "%.400s; gave up after %d rounds, "
					    "rerun kcve publish", m, limit);
		}
		if (ask) {
			enum held h;
			if ((rc = ask_record(a, g, &h, err)))
				return rc;
			if (h == HELD_SAME) {
				*done = CVEAPI_ALREADY;
				return 0;
			}
			post = h == HELD_NONE;
			ask = false;
		}
		struct resp r = {0};
		bool uncertain;
		rc = write_once(a, post ? "POST" : "PUT", g->path, g->what, g->body, &r,
				&uncertain, err);
		if (!rc && ok2xx(&r)) {
			rc = cveapi_parse_written(r.body.buf, r.body.len, post ? "created" : "updated",
						  g->cve, g->want_state, err);
			*done = post ? CVEAPI_CREATED : CVEAPI_UPDATED;
		} else if (!rc && r.status >= 400 && r.status < 500 &&
			   has_code(&r, post ? "CVE_RECORD_EXISTS" : "CVE_RECORD_DNE"))
			ask = true;   /* the other verb applies; the record may already be right */
		else if (!rc)
			rc = http_fail(a, g->what, &r, err);
		long retry_after = r.retry_after_s;
		sb_release(&r.body);
		if (ask)
			continue;
		if (!rc || !uncertain)
			return rc;
		ask = true;
		clock_sleep_ms(backoff(a->cfg, round, retry_after));
	}
}

static int cna_goal(struct cveapi *a, const char *cve, const char *record, size_t len,
		    bool exists, enum cveapi_done *done, struct kcve_err *err)
{
	int rc = check_id(cve, err);
	if (rc)
		return rc;
	struct strbuf body = STRBUF_INIT;
	char path[96], what[96];
	text_snprintf(path, sizeof(path), "cve/%s/cna", cve);
	text_snprintf(what, sizeof(what), "%s %s", exists ? "update" : "publish", cve);
	struct goal g = {cve, what, path, &body, "PUBLISHED"};
	if (!(rc = cveapi_cna_body(record, len, cve, &body, err)))
		rc = converge(a, &g, exists, done, err);
	sb_release(&body);
	return rc;
}

int cveapi_publish(struct cveapi *a, const char *cve, const char *record, size_t len,
		   bool exists, enum cveapi_done *done, struct kcve_err *err)
{
	return cna_goal(a, cve, record, len, exists, done, err);
}

int cveapi_update(struct cveapi *a, const char *cve, const char *record, size_t len,
		  struct kcve_err *err)
{
	enum cveapi_done done;
	return cna_goal(a, cve, record, len, true, &done, err);
}

int cveapi_reject(struct cveapi *a, const char *cve, const char *reason,
		  enum cveapi_done *done, struct kcve_err *err)
{
	int rc = check_id(cve, err);
	if (rc)
		return rc;
	json_t *reasons = json_array();
	json_t *r0 = json_object();
	json_object_set_new(r0, "lang", kj_str("en"));
	json_object_set_new(r0, "value", kj_str(reason));
	json_array_append_new(reasons, r0);
	json_t *cna = json_object();
	json_object_set_new(cna, "rejectedReasons", reasons);
	json_t *wrap = json_object();
	json_object_set_new(wrap, "cnaContainer", cna);
	char *text = json_dumps(wrap, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(wrap);
	if (!text)
		return kcve_err_set(err, KCVE_E_USAGE, "rejection reason is not valid UTF-8");
	struct strbuf body = STRBUF_INIT;
	sb_adds(&body, text);
	free(text);
	char path[96], what[96];
	text_snprintf(path, sizeof(path), "cve/%s/reject", cve);
	text_snprintf(what, sizeof(what), "reject %s", cve);
	struct goal g = {cve, what, path, &body, "REJECTED"};
	/* POST rejects an id without a record; the service answers CVE_RECORD_EXISTS when there
	 * is one (a published record, or our own earlier reject), and converge() asks and PUTs. */
	rc = converge(a, &g, false, done, err);
	sb_release(&body);
	return rc;
}

/* GET cve-id/{id}: its state. */
static int ask_id(struct cveapi *a, const char *cve, char state[16], struct kcve_err *err)
{
	char path[96];
	text_snprintf(path, sizeof(path), "cve-id/%s", cve);
	struct resp r = {0};
	int rc = request(a, "GET", path, NULL, 0, RETRY_ANY, &r, err);
	if (!rc)
		rc = ok2xx(&r) ? cveapi_parse_id_state(r.body.buf, r.body.len, NULL, cve, state, err)
			       : http_fail(a, "show the id state", &r, err);
	sb_release(&r.body);
	return rc;
}

int cveapi_reject_id(struct cveapi *a, const char *cve, enum cveapi_done *done,
		     struct kcve_err *err)
{
	int rc = check_id(cve, err);
	if (rc)
		return rc;
	char path[96], what[96], state[16];
	text_snprintf(path, sizeof(path), "cve-id/%s?state=REJECTED", cve);
	text_snprintf(what, sizeof(what), "reject the id %s", cve);
	for (int round = 1;; round++) {
		/* asked every time: the id may have been rejected by a run that died unrecorded */
		if ((rc = ask_id(a, cve, state, err)))
			return rc;
		if (!strcmp(state, "REJECTED")) {
			*done = CVEAPI_ALREADY;
			return 0;
		}
		struct resp r = {0};
		bool uncertain;
		rc = write_once(a, "PUT", path, what, NULL, &r, &uncertain, err);
		if (!rc && ok2xx(&r)) {
			if (!(rc = cveapi_parse_id_state(r.body.buf, r.body.len, "updated", cve, state,
							 err)) && strcmp(state, "REJECTED"))
				rc = kcve_err_set(err, KCVE_E_NET, "CVE Services left the id %s in state "
						  "'%s' after rejecting it", cve, state);
			*done = CVEAPI_UPDATED;
		} else if (!rc)
			rc = http_fail(a, what, &r, err);
		long retry_after = r.retry_after_s;
		sb_release(&r.body);
		if (!rc || !uncertain || round > a->cfg->api_attempts)
			return rc;
		clock_sleep_ms(backoff(a->cfg, round, retry_after));
	}
}

int cveapi_get_record(struct cveapi *a, const char *cve, struct strbuf *out,
		      struct kcve_err *err)
{
	int rc = check_id(cve, err);
	if (rc)
		return rc;
	char path[96], what[96], id[32], state[16];
	text_snprintf(path, sizeof(path), "cve/%s", cve);
	text_snprintf(what, sizeof(what), "show %s", cve);
	struct resp r = {0};
	rc = request(a, "GET", path, NULL, 0, RETRY_ANY, &r, err);
	if (!rc) {
		if (r.status == 404 && has_code(&r, "CVE_RECORD_DNE"))
			rc = kcve_err_set(err, KCVE_E_NOTFOUND, "CVE Services has no record for %s",
					  cve);
		else if (!ok2xx(&r))
			rc = http_fail(a, what, &r, err);
		else if (!(rc = cveapi_parse_record(r.body.buf, r.body.len, id, state, err)))
			sb_add(out, r.body.buf, r.body.len);
	}
	sb_release(&r.body);
	return rc;
}
