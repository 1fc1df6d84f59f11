/* Warnings and notes: the library's one way to tell its caller something that is not an error.
 *
 * The library never writes to stdout or stderr and never exits: errors travel back as a
 * struct kcve_err (core/error.h), and anything else it has to say goes to a struct kcve_diag
 * that its caller hands in (the object or options of the call: a history handle, a record
 * tree, a record set, publish options, ...). kcve's command line uses the default sink; the
 * public API hands warnings to its own caller (kcve_records_open_warn in include/kcve/kcve.h);
 * tests collect them.
 *
 * A NULL sink, or a NULL member, means the default: kcve_diag_stderr, which prints
 *   kcve: warning: <msg>        for a warning,
 *   kcve: <msg>                 for a note,
 * one line each on stderr. This file and the terminal progress of core/progress.c are the
 * only places under src/lib that write to stderr (`meta-quiet` checks it); diag_fatal() is
 * the last word before abort() of a failed assertion or of running out of memory.
 *
 * Every message is one line that cannot drive a terminal, whatever input it quotes: the text
 * is formatted and its control characters neutralised (text_neutralise) before a sink sees
 * it, so a sink may print it as it is. */
#ifndef KCVE_CORE_DIAG_H
#define KCVE_CORE_DIAG_H

#include <stdarg.h>

struct kcve_diag {
	/* One warning, without the "kcve: warning: " prefix and without a newline. */
	void (*warn)(void *ctx, const char *msg);
	/* What a long operation is doing ("building the history index X"), without the
	 * "kcve: " prefix; NULL: the default (stderr). */
	void (*note)(void *ctx, const char *msg);
	void *ctx;
};

/* The default sinks: stderr, as described above. */
extern const struct kcve_diag kcve_diag_stderr;

/* A warning / a note to d (NULL: kcve_diag_stderr). */
void diag_warn(const struct kcve_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_vwarn(const struct kcve_diag *d, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void diag_note(const struct kcve_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The formatted message as one neutralised line (malloc'd; the caller frees it). */
char *diag_vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* "kcve: <msg>" on stderr whatever the sink: only right before abort(). */
void diag_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
