#include "core/error.h"
#include "core/assert.h"

#include <stdio.h>
#include <stdlib.h>

static void vreport(const char *what, const char *fmt, va_list ap)
{
	fprintf(stderr, "kcve: %s: ", what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
	vreport("warning", fmt, ap);
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
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

_Noreturn void kcve_assert_fail(const char *cond, const char *file, int line, const char *func)
{
	fprintf(stderr, "kcve: internal error: assertion '%s' failed in %s() at %s:%d, please report it\n",
		cond, func, file, line);
	abort();
}
