/* The shape of a CVE id, in core so that every layer checks it the same way without linking
 * the layer that writes records (the static kcve-embedded links check without history). */
#ifndef KCVE_CORE_CVEID_H
#define KCVE_CORE_CVEID_H

#include <stdbool.h>
#include <stddef.h>

/* True if s is a well-formed CVE id: "CVE-", a 4-digit year, "-", then 4 to 19 digits, and
 * nothing else (no newline, no trailing text). */
bool cveid_valid(const char *s);
/* The same for the len bytes at s (a JSON or CSV field, not NUL-terminated). */
bool cveid_valid_n(const char *s, size_t len);

#endif
