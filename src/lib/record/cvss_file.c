/* .cvss file parsing, validation and canonical rendering (see cvss_file.h). */
#include "record/cvss_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "record/utf8.h"
#include "core/text.h"

/* ---- line and word helpers (Rust str::lines / split_whitespace semantics) ----------- */

struct span {
	const char *p;
	size_t n;
};

struct spans {
	struct span *v;
	size_t n, alloc;
};

static void spans_push(struct spans *s, const char *p, size_t n)
{
	XGROW(s->v, s->n + 1, s->alloc);
	s->v[s->n].p = p;
	s->v[s->n].n = n;
	s->n++;
}

/* Split on '\n', dropping one '\r' before it; no empty final line after a trailing '\n'. */
static void split_lines(const char *s, size_t len, struct spans *out)
{
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - s) : len;
		size_t n = end - i;
		if (nl && n > 0 && s[end - 1] == '\r')
			n--;
		spans_push(out, s + i, n);
		i = nl ? end + 1 : len;
	}
}

static void split_words(const char *s, size_t len, struct spans *out)
{
	size_t i = 0;
	while (i < len) {
		i += utf8_lspace(s + i, len - i);
		if (i >= len)
			break;
		size_t start = i;
		while (i < len) {
			uint32_t cp;
			size_t l = utf8_decode(s + i, len - i, &cp);
			if (unicode_is_space(cp))
				break;
			i += l;
		}
		spans_push(out, s + start, i - start);
	}
}

static bool blank(const char *s, size_t n)
{
	return utf8_lspace(s, n) == n;
}

/* Words joined by single spaces. */
static char *collapse(const char *s, size_t n)
{
	struct spans w = {0};
	struct strbuf sb = STRBUF_INIT;
	split_words(s, n, &w);
	for (size_t i = 0; i < w.n; i++) {
		if (i)
			sb_addc(&sb, ' ');
		sb_add(&sb, w.v[i].p, w.v[i].n);
	}
	free(w.v);
	return sb_detach(&sb);
}

static bool looks_like_header(const char *s, size_t n);

/* Would a line starting with words w[i], w[i+1] read back as a metric header? */
static bool header_at(const struct spans *w, size_t i)
{
	char buf[256];
	size_t n = 0;
	for (size_t k = i; k < w->n && k < i + 2; k++) {
		if (k > i && n < sizeof(buf))
			buf[n++] = ' ';
		size_t l = w->v[k].n < sizeof(buf) - n ? w->v[k].n : sizeof(buf) - n;
		memcpy(buf + n, w->v[k].p, l);
		n += l;
	}
	return looks_like_header(buf, n);
}

/* Greedy wrap at CVSS_WRAP code points, continuation lines prefixed by indent; a word longer
 * than the width gets a line of its own. */
static void wrap(const char *text, const char *indent, struct strbuf *out)
{
	struct spans w = {0};
	split_words(text, strlen(text), &w);
	size_t indent_w = utf8_count(indent, strlen(indent));
	size_t cur = 0; /* code points on the current line (without indent) */
	bool first_line = true, line_open = false;
	for (size_t i = 0; i < w.n; i++) {
		size_t wl = utf8_count(w.v[i].p, w.v[i].n);
		size_t avail = first_line ? CVSS_WRAP : CVSS_WRAP - indent_w;
		if (line_open) {
			/* prose must not wrap into a line that parses back as a metric header (the
			 * anchor's renderer can; kcve keeps the canonical form a fixed point) */
			if (cur + 1 + wl <= avail || (!*indent && header_at(&w, i))) {
				sb_addc(out, ' ');
				cur += 1;
			} else {
				sb_addc(out, '\n');
				sb_adds(out, indent);
				first_line = false;
				cur = 0;
			}
		}
		sb_add(out, w.v[i].p, w.v[i].n);
		cur += wl;
		line_open = true;
	}
	free(w.v);
}

/* ---- rationale ------------------------------------------------------------------------ */

static void rat_push(struct cvss_rationale *r, int metric, char value, char *text)
{
	XGROW(r->items, r->n + 1, r->alloc);
	r->items[r->n].metric = metric;
	r->items[r->n].value = value;
	r->items[r->n].text = text;
	r->n++;
}

void cvss_rationale_release(struct cvss_rationale *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->items[i].text);
	free(r->items);
	memset(r, 0, sizeof(*r));
}

/* "KEY:V - text" at column 0 with KEY a base metric and V one upper-case letter. On success
 * *rest points after the first '-'. */
static bool metric_header(const char *s, size_t n, int *metric, char *value, const char **rest)
{
	if (n == 0)
		return false;
	uint32_t cp;
	utf8_decode(s, n, &cp);
	if (unicode_is_space(cp))
		return false;
	const char *dash = memchr(s, '-', n);
	if (!dash)
		return false;
	size_t hl = (size_t)(dash - s);
	hl -= utf8_rspace(s, hl);
	const char *colon = memchr(s, ':', hl);
	if (!colon)
		return false;
	int m = cvss_metric_from_key(s, (size_t)(colon - s));
	if (m < 0)
		return false;
	size_t vl = hl - (size_t)(colon - s) - 1;
	if (vl != 1 || colon[1] < 'A' || colon[1] > 'Z')
		return false;
	*metric = m;
	*value = colon[1];
	*rest = dash + 1;
	return true;
}

static bool ascii_alpha(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* The shape of a metric header ("XY:Z -"), anywhere after indentation: a line like this in a
 * block that has no real header means a mistyped key or uneven indentation. */
static bool looks_like_header(const char *s, size_t n)
{
	size_t l = utf8_lspace(s, n);
	s += l, n -= l;
	const char *dash = memchr(s, '-', n);
	if (!dash)
		return false;
	size_t hl = (size_t)(dash - s);
	hl -= utf8_rspace(s, hl);
	const char *colon = memchr(s, ':', hl);
	if (!colon)
		return false;
	size_t kl = (size_t)(colon - s), vl = hl - kl - 1;
	if (kl < 1 || kl > 2 || vl != 1)
		return false;
	for (size_t i = 0; i < kl; i++)
		if (!ascii_alpha(s[i]))
			return false;
	return ascii_alpha(colon[1]);
}

/* Remove the whitespace prefix shared by every non-blank line (compared as text, so tabs and
 * spaces do not mix); lines lacking it are left-trimmed. Result lines joined by '\n'. */
static char *dedent(const char *text, size_t len)
{
	struct spans lines = {0};
	split_lines(text, len, &lines);
	const char *common = NULL;
	size_t clen = 0;
	for (size_t i = 0; i < lines.n; i++) {
		const char *p = lines.v[i].p;
		size_t n = lines.v[i].n;
		if (blank(p, n))
			continue;
		size_t il = utf8_lspace(p, n);
		if (!common) {
			common = p;
			clen = il;
		} else {
			size_t k = 0;
			while (k < clen && k < il && common[k] == p[k])
				k++;
			/* keep the prefix on a character boundary */
			while (k > 0 && k < clen && ((unsigned char)common[k] & 0xc0) == 0x80)
				k--;
			clen = k;
		}
	}
	if (!common || clen == 0) {
		free(lines.v);
		return xstrndup(text, len);
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < lines.n; i++) {
		const char *p = lines.v[i].p;
		size_t n = lines.v[i].n;
		if (i)
			sb_addc(&sb, '\n');
		if (n >= clen && memcmp(p, common, clen) == 0) {
			sb_add(&sb, p + clen, n - clen);
		} else {
			size_t l = utf8_lspace(p, n);
			sb_add(&sb, p + l, n - l);
		}
	}
	free(lines.v);
	return sb_detach(&sb);
}

static int finish_metric(struct cvss_rationale *r, int metric, char value, struct strbuf *text,
			 struct kcve_err *err)
{
	char *t = collapse(text->buf ? text->buf : "", text->len);
	if (!*t) {
		free(t);
		return kcve_err_set(err, KCVE_E_PARSE, "%s:%c has no justification text",
				    cvss_metric_key(metric), value);
	}
	rat_push(r, metric, value, t);
	return 0;
}

static int parse_per_metric(const char *text, struct cvss_rationale *r, struct kcve_err *err)
{
	struct spans lines = {0};
	struct strbuf cur = STRBUF_INIT;
	int cur_metric = -1;
	char cur_value = 0;
	int rc = 0;
	split_lines(text, strlen(text), &lines);
	r->kind = CVSS_RAT_PER_METRIC;
	for (size_t i = 0; i < lines.n && !rc; i++) {
		const char *p = lines.v[i].p, *rest;
		size_t n = lines.v[i].n;
		int m;
		char v;
		if (metric_header(p, n, &m, &v, &rest)) {
			if (cur_metric >= 0)
				rc = finish_metric(r, cur_metric, cur_value, &cur, err);
			sb_reset(&cur);
			sb_add(&cur, rest, n - (size_t)(rest - p));
			cur_metric = m;
			cur_value = v;
		} else if (cur_metric >= 0) {
			sb_addc(&cur, ' ');
			sb_add(&cur, p, n);
		} else if (!blank(p, n)) {
			size_t l = utf8_lspace(p, n);
			rc = kcve_err_set(err, KCVE_E_PARSE, "text before the first metric key: '%.*s'",
					  (int)((n - l) > 80 ? 80 : (n - l)), p + l);
		}
	}
	if (!rc && cur_metric >= 0)
		rc = finish_metric(r, cur_metric, cur_value, &cur, err);
	sb_release(&cur);
	free(lines.v);
	return rc;
}

static void parse_prose(const char *text, struct cvss_rationale *r)
{
	r->kind = CVSS_RAT_PROSE;
	const char *p = text;
	for (;;) {
		const char *sep = strstr(p, "\n\n");
		size_t n = sep ? (size_t)(sep - p) : strlen(p);
		char *para = collapse(p, n);
		if (*para)
			rat_push(r, -1, 0, para);
		else
			free(para);
		if (!sep)
			break;
		p = sep + 2;
	}
}

int cvss_rationale_parse(const char *text, size_t len, struct cvss_rationale *out,
			 struct kcve_err *err)
{
	memset(out, 0, sizeof(*out));
	if (blank(text, len))
		return kcve_err_set(err, KCVE_E_PARSE, "empty rationale");
	char *d = dedent(text, len);
	struct spans lines = {0};
	split_lines(d, strlen(d), &lines);
	bool per_metric = false;
	const struct span *suspicious = NULL;
	for (size_t i = 0; i < lines.n; i++) {
		int m;
		char v;
		const char *rest;
		if (metric_header(lines.v[i].p, lines.v[i].n, &m, &v, &rest)) {
			per_metric = true;
			break;
		}
		if (!suspicious && looks_like_header(lines.v[i].p, lines.v[i].n))
			suspicious = &lines.v[i];
	}
	int rc = 0;
	if (per_metric) {
		rc = parse_per_metric(d, out, err);
	} else if (suspicious) {
		const char *p = suspicious->p;
		size_t n = suspicious->n, l = utf8_lspace(p, n);
		p += l, n -= l;
		n -= utf8_rspace(p, n);
		rc = kcve_err_set(err, KCVE_E_PARSE,
				  "'%.*s' looks like a metric justification but was not read as one; "
				  "check the metric key and that the block is indented evenly",
				  (int)(n > 80 ? 80 : n), p);
	} else {
		parse_prose(d, out);
		/* A paragraph is stored on joined lines: one that starts like "AV:L - text" (its
		 * header was split from its text, as in "AV:L\n - text") would read back as a
		 * per-metric justification, so the file would change meaning when rewritten. */
		for (size_t i = 0; i < out->n && !rc; i++) {
			const char *t = out->items[i].text;
			if (looks_like_header(t, strlen(t)))
				rc = kcve_err_set(err, KCVE_E_PARSE,
						  "'%.40s' looks like a metric justification but was "
						  "not read as one; put the metric and its text on "
						  "one line",
						  t);
		}
	}
	free(lines.v);
	free(d);
	if (rc)
		cvss_rationale_release(out);
	return rc;
}

int cvss_rationale_check(const struct cvss_rationale *r, const struct cvss_vector *v,
			 struct kcve_err *err)
{
	if (r->kind != CVSS_RAT_PER_METRIC)
		return 0;
	if (r->n != CVSS_NMETRICS)
		return kcve_err_set(err, KCVE_E_PARSE, "expected %d metric justifications, got %zu",
				    CVSS_NMETRICS, r->n);
	for (int m = 0; m < CVSS_NMETRICS; m++) {
		const struct cvss_item *it = &r->items[m];
		if (it->metric != m)
			return kcve_err_set(err, KCVE_E_PARSE, "expected justification for %s, got %s",
					    cvss_metric_key(m), cvss_metric_key(it->metric));
		if (it->value != v->v[m])
			return kcve_err_set(err, KCVE_E_PARSE,
					    "%s justification is for %s:%c, but the vector says %s:%c",
					    cvss_metric_key(m), cvss_metric_key(m), it->value,
					    cvss_metric_key(m), v->v[m]);
	}
	return 0;
}

static void item_line(const struct cvss_item *it, struct strbuf *out)
{
	if (it->metric >= 0)
		sb_addf(out, "%s:%c - ", cvss_metric_key(it->metric), it->value);
	sb_adds(out, it->text);
}

void cvss_rationale_scenario(const struct cvss_rationale *r, struct strbuf *out)
{
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			sb_addc(out, '\n');
		item_line(&r->items[i], out);
	}
}

void cvss_rationale_render(const struct cvss_rationale *r, struct strbuf *out)
{
	struct strbuf line = STRBUF_INIT;
	for (size_t i = 0; i < r->n; i++) {
		if (i)
			sb_adds(out, r->kind == CVSS_RAT_PROSE ? "\n\n" : "\n");
		sb_reset(&line);
		item_line(&r->items[i], &line);
		wrap(sb_str(&line), r->kind == CVSS_RAT_PROSE ? "" : CVSS_INDENT, out);
	}
	sb_addc(out, '\n');
	sb_release(&line);
}

/* ---- whole file ----------------------------------------------------------------------- */

void cvss_file_add_header(struct cvss_file *f, const char *cna_id, const struct cvss_vector *v)
{
	XGROW(f->hdr, f->nhdr + 1, f->ahdr);
	f->hdr[f->nhdr].cna_id = xstrdup(cna_id);
	f->hdr[f->nhdr].vec = *v;
	f->nhdr++;
}

void cvss_file_release(struct cvss_file *f)
{
	for (size_t i = 0; i < f->nhdr; i++)
		free(f->hdr[i].cna_id);
	free(f->hdr);
	cvss_rationale_release(&f->rat);
	memset(f, 0, sizeof(*f));
}

int cvss_file_parse(const char *text, size_t len, struct cvss_file *out, struct kcve_err *err)
{
	memset(out, 0, sizeof(*out));
	if (memchr(text, '\0', len))
		return kcve_err_set(err, KCVE_E_PARSE, "CVSS file contains a NUL byte; it is not text");
	struct strbuf norm = STRBUF_INIT;
	/* CRLF files (edited elsewhere) have no literal "\n\n": normalise first */
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')
			continue;
		sb_addc(&norm, text[i]);
	}
	const char *s = norm.buf ? norm.buf : "";
	size_t n = norm.len;
	const char *sep = NULL;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == '\n' && s[i + 1] == '\n') {
			sep = s + i;
			break;
		}
	size_t hlen = sep ? (size_t)(sep - s) : n;
	struct spans lines = {0};
	int rc = 0;
	split_lines(s, hlen, &lines);
	for (size_t i = 0; i < lines.n && !rc; i++) {
		const char *p = lines.v[i].p;
		size_t ln = lines.v[i].n, l = utf8_lspace(p, ln);
		p += l, ln -= l;
		ln -= utf8_rspace(p, ln);
		if (ln == 0 || p[0] == '#')
			continue;
		size_t k = 0;
		uint32_t cp = 0;
		size_t cl = 0;
		while (k < ln) {
			cl = utf8_decode(p + k, ln - k, &cp);
			if (unicode_is_space(cp))
				break;
			k += cl;
		}
		if (k >= ln) {
			rc = kcve_err_set(err, KCVE_E_PARSE, "expected 'CNA_ID VECTOR', got '%.*s'",
					  (int)(ln > 80 ? 80 : ln), p);
			break;
		}
		char *vec = xstrndup(p + k + cl, ln - k - cl);
		struct cvss_vector v;
		rc = cvss_vector_parse(vec, &v, err);
		free(vec);
		if (rc)
			break;
		char *id = xstrndup(p, k);
		cvss_file_add_header(out, id, &v);
		free(id);
	}
	free(lines.v);
	if (!rc && out->nhdr == 0)
		rc = kcve_err_set(err, KCVE_E_PARSE, "no CVSS vector found");
	if (!rc && sep) {
		const char *body = sep + 2;
		size_t blen = n - (size_t)(body - s);
		if (!blank(body, blen))
			rc = cvss_rationale_parse(body, blen, &out->rat, err);
	}
	sb_release(&norm);
	if (rc)
		cvss_file_release(out);
	return rc;
}

int cvss_file_read(const char *path, struct cvss_file *out, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	memset(out, 0, sizeof(*out));
	if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				    "cannot read CVSS file %s (%s); check the path and its permissions",
				    path, strerror(e));
	}
	if (!utf8_valid(sb.buf ? sb.buf : "", sb.len)) {
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_PARSE, "CVSS file %s is not valid UTF-8", path);
	}
	int rc = cvss_file_parse(sb.buf ? sb.buf : "", sb.len, out, err);
	sb_release(&sb);
	if (rc) {
		char msg[sizeof(err->msg)];
		text_snprintf(msg, sizeof(msg), "%s", err->msg);
		kcve_err_set(err, rc, "invalid CVSS file %s: %s", path, msg);
	}
	return rc;
}

int cvss_file_validate(const struct cvss_file *f, struct kcve_err *err)
{
	if (f->rat.kind == CVSS_RAT_NONE)
		return 0;
	if (f->nhdr == 1) {
		int rc = cvss_rationale_check(&f->rat, &f->hdr[0].vec, err);
		if (rc)
			return rc;
	}
	struct strbuf sb = STRBUF_INIT;
	cvss_rationale_scenario(&f->rat, &sb);
	size_t cps = utf8_count(sb_str(&sb), sb.len);
	sb_release(&sb);
	if (cps > CVSS_SCENARIO_MAX)
		return kcve_err_set(err, KCVE_E_PARSE,
				    "rationale is %zu characters, over the %d limit for "
				    "metrics[].scenarios[].value",
				    cps, CVSS_SCENARIO_MAX);
	return 0;
}

void cvss_file_render(const struct cvss_file *f, struct strbuf *out)
{
	char vec[CVSS_VECTOR_MAX];
	for (size_t i = 0; i < f->nhdr; i++) {
		cvss_vector_format(&f->hdr[i].vec, vec);
		sb_addf(out, "%s %s\n", f->hdr[i].cna_id, vec);
	}
	if (f->rat.kind != CVSS_RAT_NONE) {
		sb_addc(out, '\n');
		cvss_rationale_render(&f->rat, out);
	}
}
