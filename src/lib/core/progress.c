/* Terminal progress lines (see progress.h). */
#include "core/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_begin(struct progress *p, const char *what, size_t total)
{
	p->what = what;
	p->total = total;
	p->t0 = p->last = now();
	p->on = isatty(2) != 0;
	p->drawn = false;
}

static void draw(struct progress *p, size_t done, double t)
{
	double el = t - p->t0, rate = el > 0 ? (double)done / el : 0;
	if (p->total) {
		double eta = rate > 0 && done < p->total ? (double)(p->total - done) / rate : 0;
		fprintf(stderr, "\r%s: %zu/%zu (%.0f%%), %.0f/s, ETA %.0f s   ", p->what, done,
			p->total, 100.0 * (double)done / (double)p->total, rate, eta);
	} else {
		fprintf(stderr, "\r%s: %zu, %.0f/s   ", p->what, done, rate);
	}
	fflush(stderr);
	p->drawn = true;
}

void progress_update(struct progress *p, size_t done)
{
	if (!p->on)
		return;
	double t = now();
	if (t - p->t0 < 1.0 || t - p->last < 0.25) /* quiet for short runs */
		return;
	p->last = t;
	draw(p, done, t);
}

void progress_draw(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputc('\r', stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

void progress_newline(void)
{
	fputc('\n', stderr);
}

void progress_end(struct progress *p, size_t done)
{
	if (!p->on || !p->drawn)
		return;
	draw(p, done, now());
	fputc('\n', stderr);
}
