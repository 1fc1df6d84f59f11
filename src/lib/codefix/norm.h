/* Line normalisation for finding code again after it was reindented or its locals renamed.
 *
 * The strict form drops all whitespace except one space between two identifier characters
 * ("if ( a==b )" and "if (a == b)" are both "if(a==b)").  The loose form (for context lines)
 * also replaces every identifier that looks like a local variable by one placeholder; kept are
 * C keywords, called names (followed by '('), members (after '.' or "->"), names without a
 * lowercase letter (macros, constants) and numbers. */
#ifndef KCVE_CODEFIX_NORM_H
#define KCVE_CODEFIX_NORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CF_NORM_MAX 400 /* longer lines are cut: enough to tell code lines apart */

/* Strict form of s[0..n) into out (CF_NORM_MAX + 1 bytes, NUL-terminated); its length. */
size_t cf_norm(const char *s, size_t n, char *out);
/* 64-bit hashes of a strict form: itself, and its loose form. */
uint64_t cf_hash_strict(const char *norm, size_t n);
uint64_t cf_hash_loose(const char *norm, size_t n);
/* A line too common to tell one place from another ("}", "break;", "return 0;"): it counts
 * little as evidence. */
bool cf_trivial(const char *norm, size_t n);

#endif
