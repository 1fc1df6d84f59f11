/* The command line's one-line reports on stderr: errors ("kcve: error: <msg>", then the exit
 * code for kcve_die) and warnings ("kcve: warning: <msg>", the library's default sink,
 * core/diag.h). Messages are neutralised to one line whatever input they quote. */
#ifndef KCVE_CLI_REPORT_H
#define KCVE_CLI_REPORT_H

void kcve_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kcve_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print an error and exit with the given code. */
_Noreturn void kcve_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
