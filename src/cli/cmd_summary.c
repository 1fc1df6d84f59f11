/* kcve summary: per-year counts of the tree like the CNA's scripts/summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_store.h"
#include "store/summary.h"
#include "core/kjson.h"

static void sum_into(struct summary_row *tot, const struct summary_row *r)
{
	tot->reserved += r->reserved;
	tot->assigned += r->assigned;
	tot->rejected += r->rejected;
	tot->returned += r->returned;
}

/* One row's counts; with its year first unless year is 0 (the totals). */
static json_t *counts_json(const struct summary_row *r, int year)
{
	json_t *o = json_object();
	if (year)
		json_object_set_new(o, "year", json_integer(year));
	size_t ar = r->assigned + r->rejected;
	json_object_set_new(o, "reserved", json_integer((json_int_t)r->reserved));
	json_object_set_new(o, "assigned", json_integer((json_int_t)r->assigned));
	json_object_set_new(o, "rejected", json_integer((json_int_t)r->rejected));
	json_object_set_new(o, "returned", json_integer((json_int_t)r->returned));
	json_object_set_new(o, "total", json_integer((json_int_t)(ar + r->reserved + r->returned)));
	return o;
}

int cmd_summary(int argc, char **argv, struct kcve_global *g)
{
	struct summary_args {
		bool json;
	} a = {0};
	static const struct cli_option opts[] = {
		CLI_OPT_FLAG("json", struct summary_args, json,
			     "{\"years\": [{\"year\", \"reserved\", \"assigned\", \"rejected\",\n"
			     "\"returned\", \"total\"}...], \"total\": {the same without year}}"),
		CLI_OPT_END};
	static const struct cli_command cmd = {
		"summary", "[--json]",
		"Per year: Reserved (placeholder files), Assigned (published .sha1), Rejected\n"
		"(rejected .sha1), A+R, Returned (files), Total; then the totals.\n",
		opts, false};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	bool json = a.json;
	cli_done(&p, NULL, 0, 0, "");
	struct cve_tree *t = cli_open_tree(g);
	struct summary_row *rows;
	size_t n = store_summary(t, &rows);
	struct summary_row tot = {0};
	if (json) {
		json_t *years = json_array();
		for (size_t i = 0; i < n; i++) {
			json_array_append_new(years, counts_json(&rows[i], rows[i].year));
			sum_into(&tot, &rows[i]);
		}
		free(rows);
		tree_close(t);
		return cli_json_print(kj_pack("{s:o, s:o}", "years", years, "total",
						counts_json(&tot, 0)));
	}
	printf("%-6s %9s %9s %9s %9s %9s %9s\n", "Year", "Reserved", "Assigned", "Rejected", "A+R",
	       "Returned", "Total");
	for (size_t i = 0; i < n; i++) {
		const struct summary_row *r = &rows[i];
		size_t ar = r->assigned + r->rejected;
		printf("%-6d %9zu %9zu %9zu %9zu %9zu %9zu\n", r->year, r->reserved, r->assigned,
		       r->rejected, ar, r->returned, ar + r->reserved + r->returned);
		sum_into(&tot, r);
	}
	size_t ar = tot.assigned + tot.rejected;
	printf("%-6s %9zu %9zu %9zu %9zu %9zu %9zu\n", "Total", tot.reserved, tot.assigned,
	       tot.rejected, ar, tot.returned, ar + tot.reserved + tot.returned);
	free(rows);
	tree_close(t);
	return 0;
}
