#include "check/verdict/upgrade.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/cveid.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "core/kjson.h"
#include "core/text.h"

int ck_previous_release(const char *rel, char *out, size_t outsz, struct kcve_err *err)
{
	struct kver v;
	kver_parse(&v, rel);
	bool old = v.ncomp >= 1 && v.comp[0] == 2;
	int base = old ? 3 : 2; /* components of a mainline release */
	if (v.rc || v.ncomp < base || v.ncomp > base + 1)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "--fixed-by %s: give a release (6.1.50, 6.2, 2.6.32.5), not an -rc", rel);
	if (v.ncomp == base + 1) { /* stable: the previous stable release, or the mainline one */
		unsigned z = v.comp[base];
		if (old && z > 1)
			text_snprintf(out, outsz, "2.%u.%u.%u", v.comp[1], v.comp[2], z - 1);
		else if (old)
			text_snprintf(out, outsz, "2.%u.%u", v.comp[1], v.comp[2]);
		else if (z > 1)
			text_snprintf(out, outsz, "%u.%u.%u", v.comp[0], v.comp[1], z - 1);
		else
			text_snprintf(out, outsz, "%u.%u", v.comp[0], v.comp[1]);
		return 0;
	}
	if (old) {
		if (v.comp[2] <= 12) /* git history starts at 2.6.12 */
			return kcve_err_set(err, KCVE_E_USAGE, "--fixed-by %s: no earlier release in git", rel);
		text_snprintf(out, outsz, "2.6.%u", v.comp[2] - 1);
		return 0;
	}
	if (v.comp[1] > 0) {
		text_snprintf(out, outsz, "%u.%u", v.comp[0], v.comp[1] - 1);
		return 0;
	}
	/* the last release of the previous major: 2.6.39, 3.19, 4.20, 5.19, 6.19 */
	static const char *const last[] = {NULL, NULL, NULL, "2.6.39", "3.19", "4.20", "5.19", "6.19"};
	if (v.comp[0] >= sizeof last / sizeof *last || !last[v.comp[0]])
		return kcve_err_set(err, KCVE_E_USAGE,
				    "--fixed-by %s: the release before it is not known; use --fixed-between", rel);
	text_snprintf(out, outsz, "%s", last[v.comp[0]]);
	return 0;
}

static int sev_rank(const char *s)
{
	static const char *const names[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW"};
	for (int i = 0; i < 4; i++)
		if (s && strcasecmp(s, names[i]) == 0)
			return i;
	return 4;
}

struct fixed_row {
	const struct ck_record *r;
	int sev;
};

static int cmp_row(const void *a, const void *b)
{
	const struct fixed_row *x = a, *y = b;
	if (x->sev != y->sev)
		return x->sev - y->sev;
	return cveid_cmp(x->r->id, y->r->id);
}

int ck_print_fixed_between(FILE *f, struct ck_set *s, const char *v1, const char *v2,
			   enum ck_reading rd, enum ck_fixed_format fmt, struct kcve_err *err)
{
	if (kver_cmp_str(v1, v2) >= 0)
		return kcve_err_set(err, KCVE_E_USAGE,
				    "--fixed-between %s %s: the first release must be the older one", v1, v2);
	struct ck_result a, b;
	ck_run_version(s, v1, rd, &a);
	ck_run_version(s, v2, rd, &b);
	struct fixed_row *rows = xcalloc(s->n + 1, sizeof *rows);
	size_t n = 0, count[5] = {0};
	for (size_t i = 0; i < s->n; i++) {
		if (!ck_outcome_kept(a.e[i].outcome) || ck_outcome_kept(b.e[i].outcome))
			continue;
		rows[n].r = &s->v[i];
		rows[n].sev = sev_rank(s->v[i].severity);
		count[rows[n].sev]++;
		n++;
	}
	qsort(rows, n, sizeof *rows, cmp_row);
	static const char *const sev_names[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW", "NONE"};
	if (fmt == CK_FIXED_IDS) {
		fprintf(f, "%s..%s:", v1, v2);
		for (size_t i = 0; i < n; i++)
			fprintf(f, " %s", rows[i].r->id);
		fputc('\n', f);
	} else if (fmt == CK_FIXED_JSON) {
		json_t *doc = json_object(), *c = json_object(), *l = json_array();
		json_object_set_new(doc, "from", kj_str(v1));
		json_object_set_new(doc, "to", kj_str(v2));
		json_object_set_new(doc, "fixed", json_integer((json_int_t)n));
		for (int k = 0; k < 5; k++)
			json_object_set_new(c, sev_names[k], json_integer((json_int_t)count[k]));
		json_object_set_new(doc, "severity", c);
		for (size_t i = 0; i < n; i++) {
			json_t *o = json_object();
			json_object_set_new(o, "id", kj_str(rows[i].r->id));
			json_object_set_new(o, "title", kj_str(rows[i].r->title));
			json_object_set_new(o, "severity", kj_str(rows[i].r->severity));
			json_object_set_new(o, "score", json_real(rows[i].r->score10 / 10.0));
			json_array_append_new(l, o);
		}
		json_object_set_new(doc, "cves", l);
		json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', f);
		json_decref(doc);
	} else {
		fprintf(f, "%s -> %s fixes %zu CVE(s): %zu critical, %zu high, %zu medium, %zu low, "
			   "%zu without severity\n", v1, v2, n, count[0], count[1], count[2], count[3],
			count[4]);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "  %-16s %-8s %s\n", rows[i].r->id, sev_names[rows[i].sev],
				rows[i].r->title);
	}
	free(rows);
	ck_result_release(&a);
	ck_result_release(&b);
	return 0;
}
