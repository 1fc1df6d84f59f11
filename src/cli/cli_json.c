/* The --json output of the commands (shapes in docs/cli.md). */
#include "cli_json.h"
#include "cli_report.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/xalloc.h"
#include "core/kjson.h"

int cli_json_print(json_t *v)
{
	int rc = json_dumpf(v, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(v);
	if (rc == 0)
		rc = fputc('\n', stdout) == EOF ? -1 : 0;
	if (rc == 0)
		rc = fflush(stdout);
	if (rc != 0) {
		kcve_error("cannot write the JSON output, standard output, check the destination");
		return KCVE_E_IO;
	}
	return 0;
}

json_t *cli_json_str_or_null(const char *s)
{
	return s && *s ? kj_str(s) : json_null();
}

json_t *cli_json_text(const char *s)
{
	/* not UTF-8: the bytes escaped ("\xE9"), as every JSON string of kcve (core/kjson.h) */
	return s ? kj_str(s) : json_null();
}
