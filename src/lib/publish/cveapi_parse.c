#include "publish/cveapi_parse.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "core/text.h"
#include "core/kjson.h"

void cveapi_idlist_release(struct cveapi_idlist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void cveapi_sanitize(char *dst, size_t n, const char *src, size_t srclen)
{
	size_t j = 0;
	if (!n)
		return;
	for (size_t i = 0; i < srclen && src[i] && j + 1 < n; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[j++] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	dst[j] = '\0';
}

/* What a non-JSON body looks like, for the error message. */
static const char *body_kind(const char *body, size_t len)
{
	size_t i = 0;
	while (i < len && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t'))
		i++;
	if (i == len)
		return "an empty body";
	if (body[i] == '<')
		return "an HTML page";
	return "malformed JSON";
}

static json_t *load(const char *body, size_t len, const char *what, struct kcve_err *err)
{
	json_error_t je;
	if (!body || !len) {
		kcve_err_set(err, KCVE_E_NET, "CVE Services sent an empty answer to %s", what);
		return NULL;
	}
	json_t *j = kj_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
	if (!j) {
		kcve_err_set(err, KCVE_E_NET,
			     "CVE Services answered %s with %s (line %d: %.80s)", what,
			     body_kind(body, len), je.line, je.text);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		kcve_err_set(err, KCVE_E_NET, "CVE Services answered %s with JSON that is not an "
			     "object", what);
		return NULL;
	}
	return j;
}

bool cveapi_parse_error(const char *body, size_t len, char *code, size_t codesz, char *msg,
			size_t msgsz)
{
	if (codesz)
		code[0] = '\0';
	if (msgsz)
		msg[0] = '\0';
	if (!body || !len)
		return false;
	json_t *j = kj_loadb(body, len, 0, NULL);
	if (!j)
		return false;
	bool ok = json_is_object(j);
	if (ok) {
		json_t *e = json_object_get(j, "error"), *m = json_object_get(j, "message");
		if (json_is_string(e))
			cveapi_sanitize(code, codesz, json_string_value(e), json_string_length(e));
		if (json_is_string(m))
			cveapi_sanitize(msg, msgsz, json_string_value(m), json_string_length(m));
	}
	json_decref(j);
	return ok;
}

/* A JSON integer, or a decimal string of one (some deployments send strings); -1 if neither. */
static long as_long(json_t *v)
{
	if (json_is_integer(v)) {
		json_int_t n = json_integer_value(v);
		return n < 0 ? -1 : (n > 2000000000 ? 2000000000 : (long)n);
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		long n = strtol(s, &end, 10);
		if (end != s && !*end && n >= 0 && n <= 2000000000)
			return n;
	}
	return -1;
}

static bool valid_id(const char *s)
{
	if (strncmp(s, "CVE-", 4) != 0)
		return false;
	for (int i = 4; i < 8; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	if (s[8] != '-')
		return false;
	size_t n = 0;
	for (const char *p = s + 9; *p; p++, n++)
		if (*p < '0' || *p > '9')
			return false;
	return n >= 4 && n <= 19;
}

int cveapi_parse_ids(const char *body, size_t len, struct cveapi_idlist *out, long *remaining,
		     long *next_page, struct kcve_err *err)
{
	*remaining = -1;
	*next_page = -1;
	json_t *j = load(body, len, "the id request", err);
	if (!j)
		return err->code;
	int rc = 0;
	json_t *ids = json_object_get(j, "cve_ids");
	if (!json_is_array(ids)) {
		rc = kcve_err_set(err, KCVE_E_NET, "CVE Services answer has no \"cve_ids\" list");
		goto out;
	}
	size_t i;
	json_t *e;
	json_array_foreach(ids, i, e) {
		json_t *id = json_object_get(e, "cve_id");
		if (!json_is_string(id) || json_string_length(id) >= 32 ||
		    !valid_id(json_string_value(id))) {
			char shown[64] = "";
			if (json_is_string(id))
				cveapi_sanitize(shown, sizeof(shown), json_string_value(id),
						json_string_length(id));
			rc = kcve_err_set(err, KCVE_E_NET,
					  "CVE Services answer lists an invalid CVE id '%s' (entry %zu)",
					  shown, i);
			goto out;
		}
		XGROW(out->v, out->n + 1, out->alloc);
		struct cveapi_id *d = &out->v[out->n++];
		memset(d, 0, sizeof(*d));
		text_snprintf(d->id, sizeof(d->id), "%s", json_string_value(id));
		d->year = atoi(d->id + 4);
		json_t *st = json_object_get(e, "state");
		if (json_is_string(st))
			cveapi_sanitize(d->state, sizeof(d->state), json_string_value(st),
					json_string_length(st));
	}
	json_t *meta = json_object_get(j, "meta");
	if (json_is_object(meta))
		*remaining = as_long(json_object_get(meta, "remaining_quota"));
	*next_page = as_long(json_object_get(j, "nextPage"));
out:
	json_decref(j);
	return rc;
}

int cveapi_parse_quota(const char *body, size_t len, struct cveapi_quota *q,
		       struct kcve_err *err)
{
	json_t *j = load(body, len, "the quota request", err);
	if (!j)
		return err->code;
	q->id_quota = as_long(json_object_get(j, "id_quota"));
	q->total_reserved = as_long(json_object_get(j, "total_reserved"));
	q->available = as_long(json_object_get(j, "available"));
	json_decref(j);
	if (q->id_quota < 0 || q->total_reserved < 0 || q->available < 0)
		return kcve_err_set(err, KCVE_E_NET, "CVE Services quota answer lacks id_quota, "
				    "total_reserved or available");
	return 0;
}

int cveapi_parse_record(const char *body, size_t len, char id[32], char state[16],
			struct kcve_err *err)
{
	json_t *j = load(body, len, "the record request", err);
	if (!j)
		return err->code;
	json_t *meta = json_object_get(j, "cveMetadata");
	json_t *i = json_object_get(meta, "cveId"), *s = json_object_get(meta, "state");
	int rc = 0;
	if (!json_is_string(i) || !json_is_string(s) || json_string_length(i) >= 32 ||
	    !valid_id(json_string_value(i)))
		rc = kcve_err_set(err, KCVE_E_NET, "CVE Services record lacks a valid "
				  "cveMetadata.cveId/state");
	else {
		text_snprintf(id, 32, "%s", json_string_value(i));
		cveapi_sanitize(state, 16, json_string_value(s), json_string_length(s));
	}
	json_decref(j);
	return rc;
}

int cveapi_parse_object(const char *body, size_t len, struct kcve_err *err)
{
	json_t *j = load(body, len, "the request", err);
	if (!j)
		return err->code;
	json_decref(j);
	return 0;
}

int cveapi_parse_written(const char *body, size_t len, const char *key, const char *cve,
			 const char *want_state, struct kcve_err *err)
{
	json_t *j = load(body, len, "the write", err);
	if (!j)
		return err->code;
	json_t *rec = json_object_get(j, key);
	json_t *meta = json_object_get(rec, "cveMetadata");
	json_t *id = json_object_get(meta, "cveId"), *st = json_object_get(meta, "state");
	char code[64], shown[64];
	int rc = 0;
	if (!json_is_object(rec)) {
		json_t *e = json_object_get(j, "error");
		cveapi_sanitize(code, sizeof(code), json_is_string(e) ? json_string_value(e) : "",
				json_is_string(e) ? json_string_length(e) : 0);
		rc = kcve_err_set(err, KCVE_E_NET, "CVE Services answered 2xx without the %s record%s%s, "
				  "so %s is not marked done", key, code[0] ? " but with error " : "",
				  code, cve);
	} else if (!json_is_string(id) || strcmp(json_string_value(id), cve) != 0) {
		cveapi_sanitize(shown, sizeof(shown), json_is_string(id) ? json_string_value(id) : "",
				json_is_string(id) ? json_string_length(id) : 0);
		rc = kcve_err_set(err, KCVE_E_NET, "CVE Services answered the write of %s with the "
				  "record of '%s'", cve, shown);
	} else if (want_state && (!json_is_string(st) || strcmp(json_string_value(st), want_state))) {
		cveapi_sanitize(shown, sizeof(shown), json_is_string(st) ? json_string_value(st) : "",
				json_is_string(st) ? json_string_length(st) : 0);
		rc = kcve_err_set(err, KCVE_E_NET, "CVE Services answered the write of %s with a "
				  "record in state '%s', not %s", cve, shown, want_state);
	}
	json_decref(j);
	return rc;
}

int cveapi_parse_id_state(const char *body, size_t len, const char *key, const char *cve,
			  char state[16], struct kcve_err *err)
{
	json_t *j = load(body, len, "the id request", err);
	if (!j)
		return err->code;
	json_t *o = key ? json_object_get(j, key) : j;
	json_t *id = json_object_get(o, "cve_id"), *st = json_object_get(o, "state");
	int rc = 0;
	if (!json_is_string(id) || strcmp(json_string_value(id), cve) != 0 || !json_is_string(st))
		rc = kcve_err_set(err, KCVE_E_NET, "CVE Services answer about %s lacks its %scve_id "
				  "and state", cve, key ? "updated " : "");
	else
		cveapi_sanitize(state, 16, json_string_value(st), json_string_length(st));
	json_decref(j);
	return rc;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static void trim_span(const char **s, size_t *n)
{
	while (*n && blank(**s))
		(*s)++, (*n)--;
	while (*n && blank((*s)[*n - 1]))
		(*n)--;
}

/* json_equal, except that strings compare with surrounding blanks trimmed (the service's
 * trimJSONWhitespace middleware) and, at the top (skip_pm), providerMetadata is ignored. */
static bool same_trimmed(json_t *a, json_t *b, bool skip_pm)
{
	if (json_is_string(a) && json_is_string(b)) {
		const char *x = json_string_value(a), *y = json_string_value(b);
		size_t xl = json_string_length(a), yl = json_string_length(b);
		trim_span(&x, &xl);
		trim_span(&y, &yl);
		return xl == yl && !memcmp(x, y, xl);
	}
	if (json_is_array(a) && json_is_array(b)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!same_trimmed(json_array_get(a, i), json_array_get(b, i), false))
				return false;
		return true;
	}
	if (json_is_object(a) && json_is_object(b)) {
		const char *k;
		json_t *v;
		size_t na = 0, nb = 0;
		json_object_foreach(a, k, v) {
			if (skip_pm && !strcmp(k, "providerMetadata"))
				continue;
			na++;
			json_t *w = json_object_get(b, k);
			if (!w || !same_trimmed(v, w, false))
				return false;
		}
		json_object_foreach(b, k, v)
			nb += !(skip_pm && !strcmp(k, "providerMetadata"));
		return na == nb;
	}
	return json_equal(a, b);
}

int cveapi_record_holds(const char *record, size_t rlen, const char *request, size_t qlen,
			const char *want_state)
{
	json_t *r = kj_loadb(record, rlen, 0, NULL), *q = kj_loadb(request, qlen, 0, NULL);
	int rc = -1;
	json_t *cna = json_object_get(json_object_get(r, "containers"), "cna");
	json_t *st = json_object_get(json_object_get(r, "cveMetadata"), "state");
	json_t *want = json_object_get(q, "cnaContainer");
	if (json_is_object(cna) && json_is_object(want) && json_is_string(st))
		rc = !strcmp(json_string_value(st), want_state) && same_trimmed(want, cna, true);
	json_decref(r);
	json_decref(q);
	return rc;
}

int cveapi_cna_body(const char *record, size_t len, const char *cve, struct strbuf *out,
		    struct kcve_err *err)
{
	json_error_t je;
	json_t *j = kj_loadb(record, len, JSON_REJECT_DUPLICATES, &je);
	if (!j)
		return kcve_err_set(err, KCVE_E_PARSE, "%s.json is not valid JSON (line %d: %s), "
				    "regenerate it with kcve update", cve, je.line, je.text);
	int rc = 0;
	json_t *cna = json_object_get(json_object_get(j, "containers"), "cna");
	json_t *id = json_object_get(json_object_get(j, "cveMetadata"), "cveId");
	if (!json_is_object(cna))
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s.json has no containers.cna object, "
				  "regenerate it with kcve update", cve);
	else if (json_is_string(id) && strcmp(json_string_value(id), cve) != 0)
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s.json describes %.40s, fix the file", cve,
				  json_string_value(id));
	else {
		json_t *wrap = json_object();
		json_object_set(wrap, "cnaContainer", cna);
		char *s = json_dumps(wrap, JSON_COMPACT | JSON_ENSURE_ASCII);
		json_decref(wrap);
		if (!s)
			rc = kcve_err_set(err, KCVE_E_GENERIC, "cannot serialise %s", cve);
		else {
			sb_adds(out, s);
			free(s);
		}
	}
	json_decref(j);
	return rc;
}
