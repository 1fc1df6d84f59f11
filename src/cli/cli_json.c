/* The --json output of the commands (shapes in docs/cli.md). */
#include "cli_json.h"
#include "cli_report.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/xalloc.h"

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
	return s && *s ? json_string(s) : json_null();
}

json_t *cli_json_text(const char *s)
{
	if (!s)
		return json_null();
	json_t *v = json_string(s);
	if (v)
		return v;
	/* not UTF-8: keep ASCII, '?' for every other byte */
	size_t n = strlen(s);
	char *c = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++)
		c[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
	c[n] = '\0';
	v = json_string(c);
	free(c);
	return v;
}
