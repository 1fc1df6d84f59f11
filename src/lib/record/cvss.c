/* CVSS v3.1 vector handling and base score (see cvss.h). */
#include "record/cvss.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/utf8.h"
#include "core/text.h"

static const char *const keys[CVSS_NMETRICS] = {"AV", "AC", "PR", "UI", "S", "C", "I", "A"};
static const char *const alphabet[CVSS_NMETRICS] = {"NALP", "LH", "NLH", "NR", "UC", "HLN", "HLN", "HLN"};

const char *cvss_metric_key(enum cvss_metric m)
{
	return keys[m];
}

int cvss_metric_from_key(const char *key, size_t len)
{
	for (int i = 0; i < CVSS_NMETRICS; i++)
		if (strlen(keys[i]) == len && memcmp(keys[i], key, len) == 0)
			return i;
	return -1;
}

int cvss_vector_parse(const char *s, struct cvss_vector *out, struct kcve_err *err)
{
	size_t n = strlen(s);
	size_t l = utf8_lspace(s, n);
	s += l, n -= l;
	n -= utf8_rspace(s, n);
	if (n == 0)
		return kcve_err_set(err, KCVE_E_PARSE, "empty CVSS vector");
	if (n < strlen(CVSS_PREFIX) || memcmp(s, CVSS_PREFIX, strlen(CVSS_PREFIX)) != 0)
		return kcve_err_set(err, KCVE_E_PARSE, "CVSS vector must start with '%s', got '%.*s'",
				    CVSS_PREFIX, (int)(n > 80 ? 80 : n), s);
	const char *p = s + strlen(CVSS_PREFIX);
	const char *end = s + n;
	size_t parts = 1;
	for (const char *q = p; q < end; q++)
		parts += *q == '/';
	if (parts != CVSS_NMETRICS)
		return kcve_err_set(err, KCVE_E_PARSE, "expected %d metrics in the CVSS vector, got %zu%s",
				    CVSS_NMETRICS, parts, parts > CVSS_NMETRICS ? " (extra fields)" : "");
	memset(out->v, 0, sizeof(out->v));
	while (p <= end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		const char *pe = slash ? slash : end;
		const char *colon = memchr(p, ':', (size_t)(pe - p));
		if (!colon)
			return kcve_err_set(err, KCVE_E_PARSE, "invalid CVSS metric '%.*s'", (int)(pe - p), p);
		int m = cvss_metric_from_key(p, (size_t)(colon - p));
		if (m < 0)
			return kcve_err_set(err, KCVE_E_PARSE, "unknown CVSS metric '%.*s'", (int)(colon - p), p);
		if (out->v[m])
			return kcve_err_set(err, KCVE_E_PARSE, "duplicate CVSS metric %s", keys[m]);
		size_t vl = (size_t)(pe - colon - 1);
		if (vl != 1 || !strchr(alphabet[m], colon[1]) || colon[1] == '\0')
			return kcve_err_set(err, KCVE_E_PARSE, "invalid value '%.*s' for CVSS metric %s",
					    (int)vl, colon + 1, keys[m]);
		out->v[m] = colon[1];
		if (!slash)
			break;
		p = slash + 1;
	}
	for (int m = 0; m < CVSS_NMETRICS; m++)
		if (!out->v[m])
			return kcve_err_set(err, KCVE_E_PARSE, "missing CVSS metric %s", keys[m]);
	return 0;
}

void cvss_vector_format(const struct cvss_vector *v, char out[CVSS_VECTOR_MAX])
{
	text_snprintf(out, CVSS_VECTOR_MAX, CVSS_PREFIX "AV:%c/AC:%c/PR:%c/UI:%c/S:%c/C:%c/I:%c/A:%c",
		 v->v[0], v->v[1], v->v[2], v->v[3], v->v[4], v->v[5], v->v[6], v->v[7]);
}

double cvss_roundup(double x)
{
	/* CVSS v3.1 specification, Appendix A: work on an integer to avoid 4.000000001 -> 4.1 */
	long long i = llround(x * 100000.0);
	if (i % 10000 == 0)
		return (double)i / 100000.0;
	return (double)(i / 10000 + 1) / 10.0;
}

static double cia(char c)
{
	return c == 'H' ? 0.56 : c == 'L' ? 0.22 : 0.0;
}

double cvss_score(const struct cvss_vector *v)
{
	bool changed = v->v[CVSS_S] == 'C';
	double av = 0, ac, pr = 0, ui;
	switch (v->v[CVSS_AV]) {
	case 'N': av = 0.85; break;
	case 'A': av = 0.62; break;
	case 'L': av = 0.55; break;
	case 'P': av = 0.20; break;
	}
	ac = v->v[CVSS_AC] == 'L' ? 0.77 : 0.44;
	switch (v->v[CVSS_PR]) {
	case 'N': pr = 0.85; break;
	case 'L': pr = changed ? 0.68 : 0.62; break;
	case 'H': pr = changed ? 0.50 : 0.27; break;
	}
	ui = v->v[CVSS_UI] == 'N' ? 0.85 : 0.62;
	double iss = 1.0 - (1.0 - cia(v->v[CVSS_C])) * (1.0 - cia(v->v[CVSS_I])) *
				   (1.0 - cia(v->v[CVSS_A]));
	double impact = changed ? 7.52 * (iss - 0.029) - 3.25 * pow(iss - 0.02, 15) : 6.42 * iss;
	double expl = 8.22 * av * ac * pr * ui;
	if (impact <= 0)
		return 0.0;
	double base = changed ? 1.08 * (impact + expl) : impact + expl;
	return cvss_roundup(base < 10.0 ? base : 10.0);
}

const char *cvss_severity(double s)
{
	if (s == 0.0)
		return "NONE";
	if (s <= 3.9)
		return "LOW";
	if (s <= 6.9)
		return "MEDIUM";
	if (s <= 8.9)
		return "HIGH";
	return "CRITICAL";
}

void cvss_score_display(double score, char out[16])
{
	if (score == floor(score))
		text_snprintf(out, 16, "%.0f", score);
	else
		text_snprintf(out, 16, "%.1f", score);
}
