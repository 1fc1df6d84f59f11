/* The public interface's answer for one release, for the cross-path test (cross_path.sh):
 *   api_tool RECORDS VERSION
 * prints one line per record, "ID STATUS FIXED_IN" (FIXED_IN "-" when none), in the order
 * kcve_check_version walks them, and each warning handed to kcve_records_set_warn's function
 * as "kcve: warning: MSG" on stderr; exit 0, or the error number with the message on stderr. */
#include <stdio.h>

#include "kcve/kcve.h"

static int print_cve(const struct kcve_cve *c, void *ctx)
{
	(void)ctx;
	printf("%s %s %s\n", c->id, kcve_status_name(c->status), c->fixed_in[0] ? c->fixed_in : "-");
	return 0;
}

static void print_warning(const char *msg, void *ctx)
{
	(void)ctx;
	fprintf(stderr, "kcve: warning: %s\n", msg);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: api_tool RECORDS VERSION\n");
		return 2;
	}
	char err[512];
	kcve_records *r;
	int rc = kcve_records_open(argv[1], &r, err, sizeof err);
	if (rc == 0) {
		kcve_records_set_warn(r, print_warning, NULL);
		rc = kcve_check_version(r, argv[2], 1, print_cve, NULL, err, sizeof err);
		kcve_records_close(r);
	}
	if (rc)
		fprintf(stderr, "api_tool: %s\n", err);
	return rc;
}
