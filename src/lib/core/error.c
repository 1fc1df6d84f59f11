#include "core/error.h"
#include "core/assert.h"
#include "core/diag.h"
#include "core/safefs.h"
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>

/* The command line's reports (they move to src/cli once no library file calls them). Every
 * message is one line that cannot drive the terminal (core/diag.h formats it). */
static void vreport(const char *what, const char *fmt, va_list ap)
{
	char *msg = diag_vformat(fmt, ap);
	fprintf(stderr, "kcve: %s: %s\n", what, msg);
	free(msg);
}

void kcve_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport("error", fmt, ap);
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
	vreport("error", fmt, ap);
	va_end(ap);
	exit(code);
}

int kcve_err_set(struct kcve_err *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		err->code = code;
		va_start(ap, fmt);
		text_vsnprintf(err->msg, sizeof(err->msg), fmt, ap); /* cut between characters */
		va_end(ap);
		text_neutralise(err->msg);
	}
	return code;
}

_Noreturn void kcve_assert_fail(const char *cond, const char *file, int line, const char *func)
{
	diag_fatal("internal error: assertion '%s' failed in %s() at %s:%d, please report it", cond,
		   func, file, line);
	abort();
}
