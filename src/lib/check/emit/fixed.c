/* The output of --fixed-between / --fixed-by (see fixed.h). */
#include "check/emit/fixed.h"

#include <jansson.h>

#include "check/emit/json.h"
#include "core/kjson.h"

void ck_print_fixed(FILE *f, const struct ck_fixed *fx, enum ck_fixed_format fmt)
{
	static const char *const sev_names[] = {"CRITICAL", "HIGH", "MEDIUM", "LOW", "NONE"};
	const char *v1 = fx->from, *v2 = fx->to;
	size_t n = fx->n;
	const size_t *count = fx->count;
	if (fmt == CK_FIXED_IDS) {
		fprintf(f, "%s..%s:", v1, v2);
		for (size_t i = 0; i < n; i++)
			fprintf(f, " %s", fx->rows[i].r->id);
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
			const struct ck_record *r = fx->rows[i].r;
			json_t *o = json_object();
			json_object_set_new(o, "id", kj_str(r->id));
			json_object_set_new(o, "title", kj_str(r->title));
			json_object_set_new(o, "severity", kj_str(r->severity));
			json_object_set_new(o, "score", json_real(r->score10 / 10.0));
			json_array_append_new(l, o);
		}
		json_object_set_new(doc, "cves", l);
		/* each release's warnings, as check --json's "coverage" */
		json_object_set_new(doc, "from_coverage", ck_coverage_json(fx->a));
		json_object_set_new(doc, "to_coverage", ck_coverage_json(fx->b));
		json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		fputc('\n', f);
		json_decref(doc);
	} else {
		fprintf(f, "%s -> %s fixes %zu CVE(s): %zu critical, %zu high, %zu medium, %zu low, "
			   "%zu without severity\n", v1, v2, n, count[0], count[1], count[2], count[3],
			count[4]);
		for (size_t i = 0; i < n; i++)
			fprintf(f, "  %-16s %-8s %s\n", fx->rows[i].r->id, sev_names[fx->rows[i].sev],
				fx->rows[i].r->title);
	}
}
