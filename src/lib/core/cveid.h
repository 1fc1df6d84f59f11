/* The shape of a CVE id, in core so that every layer checks it the same way without linking
 * the layer that writes records (the static kcve-embedded links check without history). */
#ifndef KCVE_CORE_CVEID_H
#define KCVE_CORE_CVEID_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* True if s is a well-formed CVE id: "CVE-", a 4-digit year, "-", then 4 to 19 digits, and
 * nothing else (no newline, no trailing text). */
bool cveid_valid(const char *s);
/* The same for the len bytes at s (a JSON or CSV field, not NUL-terminated). */
bool cveid_valid_n(const char *s, size_t len);
/* The cveMetadata.cveId of a record (got, len bytes: a NUL inside does not hide a tail) read
 * from path, whose file name says want (NULL: not compared). 0, or KCVE_E_PARSE with one line
 * naming the file: every reader refuses such a record the same way, or one CVE could be
 * listed twice or a forged row printed. */
int cveid_check_record(const char *path, const char *got, size_t len, const char *want,
		       struct kcve_err *err);

#endif
