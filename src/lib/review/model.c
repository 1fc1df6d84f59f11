#include "review/model.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/fileio.h"
#include "core/xalloc.h"

/* ------------------------------------------------------------------------------------------
 * Model file: "version\t1", header lines, "weights\tN", N lines "name\tweight" sorted by name,
 * "end". See tools/review-model.py (write_model) for the writer. */

static int perr(struct kcve_err *err, const char *source, size_t line, const char *what)
{
	if (line)
		return kcve_err_set(err, KCVE_E_PARSE, "review model %s: line %zu: %s", source, line, what);
	return kcve_err_set(err, KCVE_E_PARSE, "review model %s: %s", source, what);
}

/* A decimal number filling the whole field: optional '-', digits, optional '.' digits. */
static bool parse_number(const char *s, double *out)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p || p - s > 40)
		return false;
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (end != p || errno || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static bool valid_name(const char *s)
{
	size_t n = 0;
	bool colon = false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++) {
		if (*p < 0x21 || *p > 0x7e)
			return false;
		colon |= *p == ':';
	}
	return n > 0 && n <= REVIEW_FEATURE_MAX && colon;
}

/* Split line (NUL-terminated, modifiable) at tabs into at most max fields; returns the count
 * (max + 1 when there are more). */
static size_t split_tabs(char *line, char **f, size_t max)
{
	size_t n = 0;
	for (char *p = line;;) {
		if (n == max)
			return max + 1;
		f[n++] = p;
		char *t = strchr(p, '\t');
		if (!t)
			return n;
		*t = '\0';
		p = t + 1;
	}
}

enum parse_state { S_VERSION, S_HEADER, S_WEIGHTS, S_END };

struct parser {
	struct review_model *m;
	enum parse_state st;
	bool have_fv, have_bias, have_thr;
	size_t want;
	size_t len;       /* of the whole file */
	const char *what; /* the error of the current line */
};

static bool is_version(const char *field, int want)
{
	char buf[16];
	snprintf(buf, sizeof buf, "%d", want);
	return strcmp(field, buf) == 0;
}

/* One header line (after "version"), split into nf fields f. */
static bool header_line(struct parser *ps, char **f, size_t nf)
{
	double v;
	if (strcmp(f[0], "meta") == 0) {
		ps->what = "expected 'meta<TAB>KEY<TAB>VALUE'";
		return nf == 3;
	}
	if (strcmp(f[0], "features-version") == 0) {
		ps->what = "features-version differs from this kcve's: retrain with its tools/review-model.py";
		return ps->have_fv = nf == 2 && is_version(f[1], REVIEW_FEATURES_VERSION);
	}
	if (strcmp(f[0], "bias") == 0) {
		ps->what = "bias is not a number within +-1000";
		if (nf != 2 || !parse_number(f[1], &v) || fabs(v) > 1000)
			return false;
		ps->m->bias = v;
		return ps->have_bias = true;
	}
	if (strcmp(f[0], "threshold") == 0) {
		ps->what = "threshold is not a probability between 0 and 1";
		if (nf != 2 || !parse_number(f[1], &v) || !(v > 0 && v < 1))
			return false;
		ps->m->threshold = v;
		return ps->have_thr = true;
	}
	if (strcmp(f[0], "weights") == 0) {
		ps->what = "expected 'weights<TAB>COUNT'";
		if (nf != 2 || !parse_number(f[1], &v) || v < 0 || v > 5e6 || v != floor(v))
			return false;
		ps->what = "'features-version', 'bias' and 'threshold' must come before 'weights'";
		if (!ps->have_fv || !ps->have_bias || !ps->have_thr)
			return false;
		/* every weight line has at least 4 bytes: never trust the count further */
		ps->what = "more weights announced than the file can hold: truncated file";
		if ((size_t)v > ps->len / 4)
			return false;
		ps->want = (size_t)v;
		ps->m->v = xcalloc(ps->want ? ps->want : 1, sizeof(*ps->m->v));
		ps->st = S_WEIGHTS;
		return true;
	}
	ps->what = "unknown header line";
	return false;
}

static bool weight_line(struct parser *ps, char **f, size_t nf)
{
	struct review_model *m = ps->m;
	double v;
	ps->what = "expected 'FEATURE<TAB>WEIGHT' (a feature is printable ASCII with a ':')";
	if (nf != 2 || !valid_name(f[0]))
		return false;
	ps->what = "weight is not a number within +-1000";
	if (!parse_number(f[1], &v) || fabs(v) > 1000)
		return false;
	ps->what = "features are not sorted or repeat one";
	if (m->n && strcmp(m->v[m->n - 1].name, f[0]) >= 0)
		return false;
	m->v[m->n].name = f[0];
	m->v[m->n++].w = v;
	return true;
}

static bool one_line(struct parser *ps, char *line)
{
	for (const unsigned char *c = (const unsigned char *)line; *c; c++)
		if ((*c < 0x20 && *c != '\t') || *c == 0x7f) {
			ps->what = "control character";
			return false;
		}
	if (ps->st == S_END) {
		ps->what = "text after the 'end' line";
		return false;
	}
	if (ps->st == S_WEIGHTS && ps->m->n == ps->want) {
		ps->what = "expected 'end' after the weights";
		if (strcmp(line, "end") != 0)
			return false;
		ps->st = S_END;
		return true;
	}
	if (ps->st != S_WEIGHTS && (line[0] == '#' || line[0] == '\0'))
		return true;
	char *f[4];
	size_t nf = split_tabs(line, f, 3);
	if (ps->st == S_VERSION) {
		ps->what = "expected 'version<TAB>1' first: not a review model of this kcve";
		if (nf != 2 || strcmp(f[0], "version") != 0 || !is_version(f[1], REVIEW_MODEL_VERSION))
			return false;
		ps->st = S_HEADER;
		return true;
	}
	return ps->st == S_HEADER ? header_line(ps, f, nf) : weight_line(ps, f, nf);
}

int review_model_parse(const char *text, size_t len, const char *source, struct review_model *m,
		       struct kcve_err *err)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->source, sizeof m->source, "%s", source ? source : "(model)");
	if (len > REVIEW_MODEL_MAX_BYTES)
		return perr(err, m->source, 0, "larger than the 64 MiB a model may have");
	if (memchr(text, '\0', len))
		return perr(err, m->source, 0, "NUL byte: not a text model file");
	m->text = xmalloc(len + 1);
	memcpy(m->text, text, len);
	m->text[len] = '\0';
	struct parser ps = {m, S_VERSION, false, false, false, 0, len, NULL};
	size_t lineno = 0;
	int rc = 0;
	for (char *p = m->text, *end = m->text + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		lineno++;
		if (!nl) {
			/* the writer ends every line, "end" included, with a newline */
			rc = perr(err, m->source, lineno, "no newline at the end: truncated file");
			goto fail;
		}
		*nl = '\0';
		if (!one_line(&ps, p)) {
			rc = perr(err, m->source, lineno, ps.what);
			goto fail;
		}
		p = nl + 1;
	}
	if (ps.st != S_END) {
		char what[128];
		if (ps.st == S_WEIGHTS)
			snprintf(what, sizeof what, "truncated: %zu of %zu weights, no 'end' line", m->n,
				 ps.want);
		else
			snprintf(what, sizeof what, "truncated: no 'weights' line");
		rc = perr(err, m->source, 0, what);
		goto fail;
	}
	return 0;
fail:
	review_model_release(m);
	return rc;
}

int review_model_load(const char *path, struct review_model *m, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	memset(m, 0, sizeof(*m));
	if (read_file_capped(path, &sb, REVIEW_MODEL_MAX_BYTES) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_IO, "cannot read review model %s (%s)", path,
				    read_file_reason(e));
	}
	int rc = review_model_parse(sb.buf ? sb.buf : "", sb.len, path, m, err);
	sb_release(&sb);
	return rc;
}

extern const char review_model_builtin_text[];
extern const size_t review_model_builtin_len;

int review_model_builtin(struct review_model *m, struct kcve_err *err)
{
	return review_model_parse(review_model_builtin_text, review_model_builtin_len, "built-in",
				  m, err);
}

void review_model_release(struct review_model *m)
{
	free(m->text);
	free(m->v);
	m->text = NULL;
	m->v = NULL;
	m->n = 0;
}

double review_model_weight(const struct review_model *m, const char *name, bool *found)
{
	size_t lo = 0, hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(m->v[mid].name, name);
		if (c == 0) {
			if (found)
				*found = true;
			return m->v[mid].w;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (found)
		*found = false;
	return 0;
}

double review_sigmoid(double z)
{
	if (z >= 0)
		return 1.0 / (1.0 + exp(-z));
	double e = exp(z);
	return e / (1.0 + e);
}

/* ------------------------------------------------------------------------------------------
 * Features. Bytes throughout; only ASCII letters are lowercased; bytes >= 0x80 separate words.
 * Mirror of features() in tools/review-model.py. */

#define MAX_TOKEN 40
#define MAX_SEG 40
#define MAX_SEGS 3

static unsigned char lc(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static bool word_char(unsigned char c)
{
	c = lc(c);
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

static bool prefix_char(unsigned char c)
{
	return word_char(c) || c == '.' || c == '/' || c == '+' || c == '-';
}

static bool hex_char(unsigned char c)
{
	c = lc(c);
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

static void add_feature(struct review_features *f, const char *kind, const char *a, size_t alen,
			const char *b, size_t blen)
{
	size_t k = strlen(kind);
	char *s = xmalloc(k + alen + (b ? 1 + blen : 0) + 1);
	memcpy(s, kind, k);
	for (size_t i = 0; i < alen; i++)
		s[k + i] = (char)lc((unsigned char)a[i]);
	size_t n = k + alen;
	if (b) {
		s[n++] = '+';
		for (size_t i = 0; i < blen; i++)
			s[n++] = (char)lc((unsigned char)b[i]);
	}
	s[n] = '\0';
	XGROW(f->v, f->n + 1, f->alloc);
	f->v[f->n++] = s;
}

struct tok {
	const char *s;
	size_t n;
};

/* Next kept token of [*p, end): maximal run of word characters that is at most MAX_TOKEN long,
 * does not start with "0x" and is not a hex string of 8 or more characters. */
static bool next_token(const char **p, const char *end, struct tok *t)
{
	const char *s = *p;
	while (s < end) {
		if (!word_char((unsigned char)*s)) {
			s++;
			continue;
		}
		const char *e = s;
		bool allhex = true;
		while (e < end && word_char((unsigned char)*e)) {
			allhex &= hex_char((unsigned char)*e);
			e++;
		}
		size_t n = (size_t)(e - s);
		const char *start = s;
		s = e;
		if (n > MAX_TOKEN || (n >= 2 && start[0] == '0' && lc((unsigned char)start[1]) == 'x'))
			continue;
		if (n >= 8 && allhex)
			continue;
		t->s = start;
		t->n = n;
		*p = s;
		return true;
	}
	*p = end;
	return false;
}

static bool starts_ci(const char *s, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(end - s) < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (lc((unsigned char)s[i]) != (unsigned char)lit[i])
			return false;
	return true;
}

static const char *find_ci(const char *s, const char *end, const char *lit)
{
	for (const char *p = s; p < end; p++)
		if (starts_ci(p, end, lit))
			return p;
	return NULL;
}

/* Trailer and upstream-commit lines: every stable commit carries them, so they weigh nothing. */
static bool dropped_line(const char *s, const char *end)
{
	static const char *const tags[] = {"fixes:", "cc:", "link:", "closes:", "message-id:",
					   "stable-dep-of:", "change-id:", "patchwork-id:"};
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
		if (starts_ci(s, end, tags[i]))
			return true;
	const char *colon = find_ci(s, end, ": ");
	if (colon && colon - s > 3 && starts_ci(colon - 3, end, "-by") &&
	    !memchr(s, ' ', (size_t)(colon - s)))
		return true;
	if (starts_ci(s, end, "commit ") && find_ci(s, end, " upstream"))
		return true;
	return starts_ci(s, end, "[ upstream commit") || starts_ci(s, end, "(cherry picked from commit");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void subject_features(const char *s, const char *end, struct review_features *f)
{
	const char *pos = s;
	const char *segs[MAX_SEGS];
	size_t seglen[MAX_SEGS], nsegs = 0;
	while (nsegs < MAX_SEGS) {
		const char *j = find_ci(pos, end, ": ");
		if (!j)
			break;
		size_t n = (size_t)(j - pos);
		bool ok = n > 0 && n <= MAX_SEG;
		for (size_t i = 0; ok && i < n; i++)
			ok = prefix_char((unsigned char)pos[i]);
		if (!ok)
			break;
		segs[nsegs] = pos;
		seglen[nsegs++] = n;
		pos = j + 2;
	}
	if (nsegs) {
		const char *slash = memchr(segs[0], '/', seglen[0]);
		size_t topn = slash ? (size_t)(slash - segs[0]) : seglen[0];
		add_feature(f, "p:", segs[0], topn, NULL, 0);
		if (nsegs > 1 || topn != seglen[0]) {
			/* "pp:" + the segments joined by '/' */
			struct strbuf sb = STRBUF_INIT;
			for (size_t i = 0; i < nsegs; i++) {
				if (i)
					sb_addc(&sb, '/');
				sb_add(&sb, segs[i], seglen[i]);
			}
			add_feature(f, "pp:", sb.buf, sb.len, NULL, 0);
			sb_release(&sb);
		}
	}
	struct tok prev = {NULL, 0}, t;
	bool first = true;
	const char *p = pos;
	while (next_token(&p, end, &t)) {
		if (first)
			add_feature(f, "f:", t.s, t.n, NULL, 0);
		first = false;
		add_feature(f, "w:", t.s, t.n, NULL, 0);
		if (prev.s)
			add_feature(f, "ww:", prev.s, prev.n, t.s, t.n);
		prev = t;
	}
}

static void path_features(const char *const *paths, size_t npaths, struct review_features *f)
{
	bool alldoc = true;
	for (size_t i = 0; i < npaths; i++) {
		const char *s = paths[i] ? paths[i] : "";
		const char *end = s + strlen(s);
		const char *s1 = strchr(s, '/');
		if (s1)
			add_feature(f, "d:", s, (size_t)(s1 - s), NULL, 0);
		else
			add_feature(f, "d:", "/", 1, NULL, 0);
		const char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
		if (s2)
			add_feature(f, "dd:", s, (size_t)(s2 - s), NULL, 0);
		if (starts_ci(s, end, "documentation/devicetree/bindings/"))
			add_feature(f, "k:dt-bindings", "", 0, NULL, 0);
		else if (starts_ci(s, end, "documentation/"))
			add_feature(f, "k:doc", "", 0, NULL, 0);
		if (starts_ci(s, end, "tools/testing/"))
			add_feature(f, "k:selftests", "", 0, NULL, 0);
		if (end - s >= 2 && end[-2] == '.' && lc((unsigned char)end[-1]) == 'h')
			add_feature(f, "k:header", "", 0, NULL, 0);
		if (!starts_ci(s, end, "documentation/") && !starts_ci(s, end, "tools/") &&
		    !starts_ci(s, end, "samples/"))
			alldoc = false;
	}
	if (alldoc)
		add_feature(f, "k:only-doc-tools", "", 0, NULL, 0);
}

void review_features_extract(const char *msg, size_t len, const char *const *paths,
			     size_t npaths, struct review_features *out)
{
	memset(out, 0, sizeof(*out));
	const char *s = msg ? msg : "", *end = s + (msg ? len : 0);
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	const char *subj_end = nl ? nl : end;
	const char *body = nl ? nl + 1 : end;
	while (subj_end > s && (subj_end[-1] == ' ' || subj_end[-1] == '\t' || subj_end[-1] == '\r'))
		subj_end--;
	subject_features(s, subj_end, out);
	for (const char *line = body; line < end;) {
		const char *e = memchr(line, '\n', (size_t)(end - line));
		const char *le = e ? e : end;
		if (!dropped_line(line, le)) {
			struct tok t;
			const char *p = line;
			while (next_token(&p, le, &t))
				add_feature(out, "b:", t.s, t.n, NULL, 0);
		}
		line = e ? e + 1 : end;
	}
	if (paths && npaths)
		path_features(paths, npaths, out);
	if (out->n > 1)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	size_t k = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (k && strcmp(out->v[k - 1], out->v[i]) == 0) {
			free(out->v[i]);
			continue;
		}
		out->v[k++] = out->v[i];
	}
	out->n = k;
}

void review_features_release(struct review_features *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	memset(f, 0, sizeof(*f));
}
