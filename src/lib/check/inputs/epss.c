/* FIRST EPSS CSV reader (see epss.h). */
#include "check/inputs/epss.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/kev.h"
#include "core/cveid.h"
#include "core/fileio.h"
#include "core/gunzip.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "core/text.h"

static int entry_cmp(const void *x, const void *y)
{
	return cveid_cmp(((const struct ck_epss_entry *)x)->id,
			 ((const struct ck_epss_entry *)y)->id);
}

/* "0", "1", "0.12345", "1.0": a plain decimal in [0, 1]; strtod alone would take "nan",
 * "1e-3", " 0.5" and hex. */
static bool parse_prob(const char *s, size_t n, double *out)
{
	if (n == 0 || n > 24)
		return false;
	size_t i = 0, digits = 0;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (i < n && s[i] == '.') {
		i++;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (i != n || digits == 0)
		return false;
	char buf[32];
	memcpy(buf, s, n);
	buf[n] = '\0';
	double d = strtod(buf, NULL);
	if (!(d >= 0.0 && d <= 1.0))
		return false;
	*out = d;
	return true;
}

/* One data row "CVE,epss,percentile" (without its line end) into e. */
static bool parse_row(const char *s, size_t n, struct ck_epss_entry *e)
{
	const char *c1 = memchr(s, ',', n);
	if (!c1)
		return false;
	const char *c2 = memchr(c1 + 1, ',', (size_t)(s + n - c1 - 1));
	if (!c2 || memchr(c2 + 1, ',', (size_t)(s + n - c2 - 1)))
		return false;
	size_t idn = (size_t)(c1 - s);
	if (!cveid_valid_n(s, idn))
		return false;
	memcpy(e->id, s, idn);
	e->id[idn] = '\0';
	return parse_prob(c1 + 1, (size_t)(c2 - c1 - 1), &e->epss) &&
	       parse_prob(c2 + 1, (size_t)(s + n - c2 - 1), &e->percentile);
}

int ck_epss_parse(struct ck_epss *e, const char *text, size_t len, const char *name,
		  struct kcve_err *err)
{
	memset(e, 0, sizeof *e);
	size_t alloc = 0, lineno = 0;
	bool header = false;
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *next = nl ? nl + 1 : end;
		lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		if (memchr(p, '\0', n)) {
			ck_epss_release(e);
			return kcve_err_set(err, KCVE_E_PARSE, "%s:%zu: a NUL byte; give FIRST's EPSS "
					    "CSV (cve,epss,percentile)", name, lineno);
		}
		if (!header && n && p[0] == '#') {
			if (!e->model[0])
				text_snprintf(e->model, sizeof e->model, "%.*s", (int)(n - 1 < 127 ? n - 1 : 127),
					 p + 1);
		} else if (!header) {
			if (n != 19 || memcmp(p, "cve,epss,percentile", 19) != 0) {
				ck_epss_release(e);
				return kcve_err_set(err, KCVE_E_PARSE, "%s:%zu: expected the header "
						    "\"cve,epss,percentile\"; give FIRST's EPSS CSV", name,
						    lineno);
			}
			header = true;
		} else if (n || next != end) {
			XGROW(e->v, e->n + 1, alloc);
			if (!parse_row(p, n, &e->v[e->n])) {
				ck_epss_release(e);
				return kcve_err_set(err, KCVE_E_PARSE, "%s:%zu: not \"CVE-YYYY-NNNN,"
						    "probability,percentile\" with numbers in [0,1]; give "
						    "FIRST's EPSS CSV", name, lineno);
			}
			e->n++;
		}
		p = next;
	}
	if (!header) {
		ck_epss_release(e);
		return kcve_err_set(err, KCVE_E_PARSE, "%s: no \"cve,epss,percentile\" header; give "
				    "FIRST's EPSS CSV", name);
	}
	for (char *q = e->model; *q; q++) /* a comment reaches output: no control characters */
		if ((unsigned char)*q < 0x20 || *q == 0x7f)
			*q = '?';
	if (e->n)
		qsort(e->v, e->n, sizeof *e->v, entry_cmp);
	size_t w = 0;
	for (size_t i = 0; i < e->n; i++)
		if (!w || strcmp(e->v[w - 1].id, e->v[i].id))
			e->v[w++] = e->v[i];
	e->n = w;
	return 0;
}

int ck_epss_load(struct ck_epss *e, const char *path, struct kcve_err *err)
{
	memset(e, 0, sizeof *e);
	struct strbuf sb = STRBUF_INIT, plain = STRBUF_INIT;
	char *shown = safe_printable(path);
	int rc;
	if (read_file_capped(path, &sb, CK_EPSS_MAX) != 0) {
		rc = kcve_err_set(err, errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				  "cannot read the EPSS scores %s: %s (a regular file of at most %zu "
				  "MiB); download epss_scores-current.csv.gz from FIRST", shown,
				  read_file_reason(errno), CK_EPSS_MAX >> 20);
	} else if (gunzip_magic(sb.buf, sb.len)) {
		enum gunzip_result g = gunzip_capped(sb.buf, sb.len, CK_EPSS_MAX, &plain);
		if (g != GUNZIP_OK) /* every member read, as gzip does; anything else after them refused */
			rc = g == GUNZIP_TOO_BIG
				? kcve_err_set(err, KCVE_E_PARSE, "%s: decompresses to more than %zu MiB; give "
					       "FIRST's EPSS CSV (plain or gzip)", shown, CK_EPSS_MAX >> 20)
				: kcve_err_set(err, KCVE_E_PARSE, "%s: %s; give FIRST's EPSS CSV (plain or gzip)",
					       shown, gunzip_reason(g));
		else
			rc = ck_epss_parse(e, plain.buf, plain.len, shown, err);
	} else {
		rc = ck_epss_parse(e, sb.buf, sb.len, shown, err);
	}
	free(shown);
	sb_release(&sb);
	sb_release(&plain);
	return rc;
}

const struct ck_epss_entry *ck_epss_find(const struct ck_epss *e, const char *id)
{
	if (!e || !e->n || !cveid_valid_n(id, strlen(id)))
		return NULL;
	struct ck_epss_entry key;
	memcpy(key.id, id, strlen(id) + 1);
	return bsearch(&key, e->v, e->n, sizeof *e->v, entry_cmp);
}

void ck_epss_release(struct ck_epss *e)
{
	free(e->v);
	memset(e, 0, sizeof *e);
}
