/* Exit codes and the error value every library call fills (the library never prints or exits:
 * the command line reports an error as one line, src/cli/cli_report.h; warnings go to a
 * struct kcve_diag, core/diag.h).
 *
 * Each user-facing failure class has its own exit code so scripts can tell them apart
 * without parsing text. Codes are stable: never renumber, only append. */
#ifndef KCVE_CORE_ERROR_H
#define KCVE_CORE_ERROR_H

#include <stdarg.h>

enum kcve_exit {
	KCVE_OK = 0,
	KCVE_E_GENERIC = 1,      /* internal failure with no better class */
	KCVE_E_USAGE = 2,        /* bad command line */
	KCVE_E_NOREPO = 3,       /* --repo is not a git repository */
	KCVE_E_NOTAGS = 4,       /* repository has no kernel-style release tags */
	KCVE_E_INDEX = 5,        /* index missing, unreadable or corrupt */
	KCVE_E_SCHEMA = 6,       /* index written by another schema version */
	KCVE_E_NOTFOUND = 7,     /* unknown sha / CVE id / file */
	KCVE_E_POLICY = 8,       /* the CNA process forbids this (unfixed, same-release, ...) */
	KCVE_E_IO = 9,           /* read/write failure */
	KCVE_E_TREE = 10,        /* record tree missing or inconsistent */
	KCVE_E_LOCK = 11,        /* record tree locked by another process */
	KCVE_E_NET = 12,         /* network / remote service failure */
	KCVE_E_PARSE = 13,       /* malformed input file */
	KCVE_E_DUPLICATE = 14,   /* commit already has a CVE */
	KCVE_E_EXHAUSTED = 15,   /* no free reserved id */
	KCVE_E_DENIED = 16,      /* not authorised (disputes) */
	KCVE_E_VERIFY = 17,      /* kcve verify found problems */
	KCVE_E_VULNERABLE = 18,  /* kcve check: at least one CVE applies (opt-in exit) */
	KCVE_E_UNFIXED = 19,     /* store: fix is in no released tag (no CVEs for unfixed issues) */
	KCVE_E_UNSUPPORTED = 20, /* store: fix only on branches no longer supported */
	KCVE_E_COVERAGE = 21,    /* kcve check --strict: the records do not cover a checked kernel (newer, nonexistent, unsupported branch, older than --max-age) */
	KCVE_E_ARCH = 22,        /* the architecture given disagrees with the .config's */
	KCVE_E_LIMIT = 23,       /* input beyond a size kcve supports (history over 2^31 commits, merge of over 65,535 parents) */
	KCVE_E_EMPTY = 24,       /* kcve check: a VEX document would state nothing (no record checked, none withdrawn) */
};

/* An error value carried through library calls: code + message, filled by the callee. */
struct kcve_err {
	int code;
	char msg[512];
};
int kcve_err_set(struct kcve_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
