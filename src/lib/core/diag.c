/* The library's warning sink and its default (see diag.h): with core/progress.c, the only file
 * under src/lib that writes to stderr. */
#include "core/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/safefs.h"
#include "core/text.h"

char *diag_vformat(const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	char small[256];
	int n = vsnprintf(small, sizeof small, fmt, ap);
	char *msg = NULL;
	if (n < 0) {
		text_snprintf(small, sizeof small, "(message not formatted: %s)", fmt);
		n = (int)strlen(small);
		msg = malloc((size_t)n + 1);
		if (msg)
			memcpy(msg, small, (size_t)n + 1);
	} else if ((msg = malloc((size_t)n + 1)) != NULL) {
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	if (!msg) { /* out of memory: the form that fitted the stack buffer */
		diag_fatal("out of memory formatting a message: %s", small);
		abort();
	}
	text_neutralise(msg);
	return msg;
}

static void stderr_warn(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "kcve: warning: %s\n", msg);
}

static void stderr_note(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "kcve: %s\n", msg);
}

const struct kcve_diag kcve_diag_stderr = {stderr_warn, stderr_note, NULL};

void diag_vwarn(const struct kcve_diag *d, const char *fmt, va_list ap)
{
	char *msg = diag_vformat(fmt, ap);
	if (d && d->warn)
		d->warn(d->ctx, msg);
	else
		stderr_warn(NULL, msg);
	free(msg);
}

void diag_warn(const struct kcve_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_vwarn(d, fmt, ap);
	va_end(ap);
}

void diag_note(const struct kcve_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = diag_vformat(fmt, ap);
	va_end(ap);
	if (d && d->note)
		d->note(d->ctx, msg);
	else
		stderr_note(NULL, msg);
	free(msg);
}

void diag_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("kcve: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
