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
/* kcve's one order of CVE ids, used for every sorted list, lookup and output order (record
 * sets, trees, KEV, EPSS, ranks, triage lists):
 *   1. well-formed ids (cveid_valid) before anything else;
 *   2. by year, then by number as a number: leading zeros do not count and the up to 19
 *      digits are compared as digit strings, so nothing overflows ("CVE-2024-9999" before
 *      "CVE-2024-10000", "CVE-2024-01234" before "CVE-2024-9999");
 *   3. equal numbers written differently ("CVE-2024-01234" and "CVE-2024-1234"), and two
 *      malformed strings, by their bytes (strcmp), so that 0 means the same string and the
 *      order is total (sorting, bsearch and de-duplication agree with string equality).
 * <0, 0 or >0 like strcmp. */
int cveid_cmp(const char *a, const char *b);
/* The cveMetadata.cveId of a record (got, len bytes: a NUL inside does not hide a tail) read
 * from path, whose file name says want (NULL: not compared). 0, or KCVE_E_PARSE with one line
 * naming the file: every reader refuses such a record the same way, or one CVE could be
 * listed twice or a forged row printed. */
int cveid_check_record(const char *path, const char *got, size_t len, const char *want,
		       struct kcve_err *err);

#endif
