/* Progress of a long loop on stderr: "what: done/total (pct), rate/s, ETA", redrawn at most
 * four times a second, and only when stderr is a terminal (never in pipes, logs or tests).
 * total 0 means unknown: count and rate only. With core/diag.c, the only writer to stderr
 * under src/lib. */
#ifndef KCVE_CORE_PROGRESS_H
#define KCVE_CORE_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

struct progress {
	const char *what;
	size_t total;
	double t0, last;
	bool on, drawn;
};

void progress_begin(struct progress *p, const char *what, size_t total);
void progress_update(struct progress *p, size_t done);
/* The final state and a newline (if anything was drawn). */
void progress_end(struct progress *p, size_t done);

/* A progress line of the caller's own form ("\r<text>", flushed), for loops whose line is not
 * progress_update's; the caller draws only when stderr is a terminal (isatty(2)) and ends the
 * line with progress_newline(). */
void progress_draw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_newline(void);

#endif
