/* Option values shared by the commands that parse their own argv. */
#include <string.h>

#include "cli.h"
#include "core/error.h"

const char *cli_optval(int argc, char **argv, int *i, const char *name, const char *cmd)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n] != '\0')
		return NULL;
	if (*i + 1 >= argc)
		kcve_die(KCVE_E_USAGE, "option %s needs a value, kcve%s%s, see 'kcve%s%s --help'",
			 name, cmd ? " " : "", cmd ? cmd : "", cmd ? " " : "", cmd ? cmd : "");
	return argv[++*i];
}
