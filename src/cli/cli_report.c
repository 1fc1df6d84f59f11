/* Errors and warnings of the command line (see cli_report.h). */
#include "cli_report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/diag.h"

static void verror(const char *fmt, va_list ap)
{
	char *msg = diag_vformat(fmt, ap);
	fprintf(stderr, "kcve: error: %s\n", msg);
	free(msg);
}

void kcve_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

void kcve_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vwarn(NULL, fmt, ap);
	va_end(ap);
}

void kcve_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	exit(code);
}
