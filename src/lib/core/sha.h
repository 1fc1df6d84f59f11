/* Helpers for git object ids written as hex text. */
#ifndef KCVE_CORE_SHA_H
#define KCVE_CORE_SHA_H

#include <stdbool.h>
#include <stddef.h>

#define SHA_HEX 40
/* The commit the kernel CNA uses for "vulnerable since the beginning of git history". */
#define KCVE_SHA_BEGINNING "1da177e4c3f41524e886b7f1b8a0c1fc7321cac2"

bool is_hex_char(int c);
/* True if s[0..n) are all hex digits. */
bool is_hex_n(const char *s, size_t n);
/* True if s is a full 40-hex id (lower or upper case). */
bool is_full_sha(const char *s);
/* Length of the run of hex digits starting at s. */
size_t hex_run(const char *s);
/* Lower-case a hex string in place. */
void sha_lower(char *s);

#endif
