#include "core/error.h"
#include "core/assert.h"
#include "core/diag.h"
#include "core/safefs.h"
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>

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
