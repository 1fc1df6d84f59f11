/* libkcve: the public, stable interface of kcve's library.
 *
 * Which published Linux kernel CVEs apply to a kernel release, from a CVE record tree (a
 * checkout of the kernel CNA's vulns repository) or from a compact database written by
 * `kcve db build`.  This header is the whole stable subset: everything else in kcve's sources
 * is internal and may change between releases.  Stability rules (see docs/library.md):
 *   - functions and the members of struct kcve_cve are only ever added, never changed or
 *     removed, within one soname (libkcve.so.0);
 *   - the library allocates every struct it hands out, so new members go at the end;
 *   - status and error numbers keep their values (error numbers are kcve's exit codes).
 * Link with `pkg-config --cflags --libs kcve`.  Thread safety: a kcve_records handle may be used
 * by one thread at a time; distinct handles are independent.  Out of memory aborts the
 * process (as the kcve tool does). */
#ifndef KCVE_KCVE_H
#define KCVE_KCVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this interface; bumped when functions or struct members are added. */
#define KCVE_API_VERSION 2

/* The library's release ("0.1.0"). */
const char *kcve_lib_version(void);

/* Outcome of one CVE for a checked kernel (stable values). */
enum kcve_status {
	KCVE_STATUS_AFFECTED = 1,       /* the vulnerable code is in, the fix is not */
	KCVE_STATUS_UNKNOWN = 2,        /* applies by version, a later stage could not decide */
	KCVE_STATUS_NOT_COMPILED = 3,   /* (file stages only; not produced by this interface) */
	KCVE_STATUS_FIXED = 4,          /* introduced, and the fix is present */
	KCVE_STATUS_NOT_INTRODUCED = 5, /* the vulnerable code was never in this kernel */
	KCVE_STATUS_NO_DATA = 6,        /* the record has no usable version data: look at it */
};

/* One CVE record's answer, valid only during the callback. */
struct kcve_cve {
	const char *id;       /* "CVE-2024-44947" */
	const char *title;    /* "" when the record has none */
	const char *severity; /* "CRITICAL", "HIGH", "MEDIUM", "LOW" or "" (no CVSS) */
	double score;         /* CVSS base score, 0 when none */
	int status;           /* enum kcve_status */
	const char *fixed_in; /* first release of the kernel's branch with the fix, "" if none */
};

/* Return non-zero to stop the walk (kcve_check_version then returns that value). */
typedef int (*kcve_cve_fn)(const struct kcve_cve *cve, void *ctx);

typedef struct kcve_records kcve_records;

/* Open the records at path: a record tree's root (the directory holding cve/published) or a
 * database file from `kcve db build`.  Returns 0 and sets *out, or an error number (kcve's
 * exit codes: 7 not found, 10 not a record tree, 13 malformed, ...) with a one-line message
 * in err (errlen bytes, may be 0). */
int kcve_records_open(const char *path, kcve_records **out, char *err, size_t errlen);
/* Number of published records loaded. */
size_t kcve_records_count(const kcve_records *r);
/* Where the records came from (the path given to kcve_records_open). */
const char *kcve_records_origin(const kcve_records *r);
void kcve_records_close(kcve_records *r);

/* Which records apply to the kernel release `version` ("6.1.107", "v6.6.30", "6.1.192-3"),
 * judged by the records' introduced/fixed pairs like `kcve check --version`.  Calls fn for
 * every record that applies (AFFECTED, UNKNOWN or NO_DATA), or for every record when all is
 * non-zero, in record order (year, then number).  Returns 0, fn's non-zero value, or an error
 * number with a message in err (2: not a kernel release). */
int kcve_check_version(kcve_records *r, const char *version, int all, kcve_cve_fn fn, void *ctx,
		       char *err, size_t errlen);

/* Since KCVE_API_VERSION 2: the warnings of the checks made on r go to fn(msg, ctx), each as
 * one line without a prefix or newline and without control characters, before that check's
 * answers: the release's warnings `kcve check --version` prints for the same release
 * ("kcve: warning: <msg>"), such as a release newer than the records or on a branch they do
 * not cover (the records' age is not judged here).  Without it (or with fn NULL) they are
 * dropped, as in version 1: the library never writes to stderr. */
typedef void (*kcve_warn_fn)(const char *msg, void *ctx);
void kcve_records_set_warn(kcve_records *r, kcve_warn_fn fn, void *ctx);

/* The name of a status: "affected", "unknown", "not_compiled", "fixed", "not_introduced",
 * "no_data" ("?" for other values). */
const char *kcve_status_name(int status);

#ifdef __cplusplus
}
#endif

#endif
