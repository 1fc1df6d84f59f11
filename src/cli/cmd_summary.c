/* kcve summary: per-year counts of the tree like the CNA's scripts/summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_store.h"
#include "store/summary.h"

int cmd_summary(int argc, char **argv, struct kcve_global *g)
{
	static const struct cli_command cmd = {
		"summary", "",
		"Per year: Reserved (placeholder files), Assigned (published .sha1), Rejected\n"
		"(rejected .sha1), A+R, Returned (files), Total; then the totals.\n",
		NULL, false};
	struct cli_parser p;
	cli_begin(&p, &cmd, argc, argv, g);
	while (cli_next(&p) != -1)
		;
	cli_done(&p, NULL, 0, 0, "");
	struct cve_tree *t = cli_open_tree(g);
	struct summary_row *rows;
	size_t n = store_summary(t, &rows);
	struct summary_row tot = {0};
	printf("%-6s %9s %9s %9s %9s %9s %9s\n", "Year", "Reserved", "Assigned", "Rejected", "A+R",
	       "Returned", "Total");
	for (size_t i = 0; i < n; i++) {
		const struct summary_row *r = &rows[i];
		size_t ar = r->assigned + r->rejected;
		printf("%-6d %9zu %9zu %9zu %9zu %9zu %9zu\n", r->year, r->reserved, r->assigned,
		       r->rejected, ar, r->returned, ar + r->reserved + r->returned);
		tot.reserved += r->reserved;
		tot.assigned += r->assigned;
		tot.rejected += r->rejected;
		tot.returned += r->returned;
	}
	size_t ar = tot.assigned + tot.rejected;
	printf("%-6s %9zu %9zu %9zu %9zu %9zu %9zu\n", "Total", tot.reserved, tot.assigned,
	       tot.rejected, ar, tot.returned, ar + tot.reserved + tot.returned);
	free(rows);
	tree_close(t);
	return 0;
}
