#include "core/error.h"
#include "core/assert.h"
#include "core/safefs.h"
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>

/* Every message is one line that cannot drive the terminal, whatever input it quotes (a
 * parser's error text near a control character, a name from a hostile tree). */
static void vreport(const char *what, const char *fmt, va_list ap)
{
	char small[1024], *msg = small;
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	if (n >= (int)sizeof small && (msg = malloc((size_t)n + 1)) != NULL)
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	if (!msg)
		msg = small; /* out of memory: the truncated form */
	if (n < 0)
		snprintf(small, sizeof small, "(message not formatted: %s)", fmt);
	text_neutralise(msg);
	fprintf(stderr, "kcve: %s: %s\n", what, msg);
	if (msg != small)
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
		text_vsnprintf(err->msg, sizeof(err->msg), fmt, ap); /* cut between characters */
		va_end(ap);
		text_neutralise(err->msg);
	}
	return code;
}

_Noreturn void kcve_assert_fail(const char *cond, const char *file, int line, const char *func)
{
	fprintf(stderr, "kcve: internal error: assertion '%s' failed in %s() at %s:%d, please report it\n",
		cond, func, file, line);
	abort();
}
