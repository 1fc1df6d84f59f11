/* The --json output of the commands: jansson values printed with a 2-space indent, keys in
 * insertion order, one document per run (shapes in docs/cli.md). */
#ifndef KCVE_CLI_JSON_H
#define KCVE_CLI_JSON_H

#include <jansson.h>
#include <stdio.h>

/* Print v on stdout and free it; 0, or KCVE_E_IO after a one-line error. */
int cli_json_print(json_t *v);
/* A JSON string, or null for NULL / "". */
json_t *cli_json_str_or_null(const char *s);
/* A JSON string of text that may not be UTF-8 (commit subjects, mail headers, command-line
 * text): bytes of an invalid sequence become '?'. null for NULL. */
json_t *cli_json_text(const char *s);
/* The exit-code table of 'kcve help exit-codes --json': [{"code", "name", "meaning"}]. */
json_t *cli_exit_codes_json(void);

#endif
