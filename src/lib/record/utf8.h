/* The few Unicode text rules the anchor tools (written in Rust) apply implicitly: what counts
 * as whitespace for str::trim(), code point counting, and UTF-8 validity. Kept here so the
 * description cleaner and the .cvss parser agree with the original byte for byte. */
#ifndef KCVE_RECORD_UTF8_H
#define KCVE_RECORD_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/text.h"

/* Decode one UTF-8 sequence at s[0..n); returns its length (>= 1) and the code point in *cp.
 * Invalid bytes decode as U+FFFD with length 1. */
size_t utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Rust's char::is_whitespace (Unicode White_Space property). */
bool unicode_is_space(uint32_t cp);
/* Length of leading / trailing whitespace of s[0..n). */
size_t utf8_lspace(const char *s, size_t n);
size_t utf8_rspace(const char *s, size_t n);
/* Number of code points. */
size_t utf8_count(const char *s, size_t n);
/* Validity and cutting between characters: core/text.h (utf8_valid, utf8_cut). */

#endif
