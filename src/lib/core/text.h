/* Cutting and carrying text that ends up in JSON or a fixed-size buffer.
 *
 * Text from records is UTF-8; text from paths, patches and images is any bytes. Two rules:
 *  - text is cut only between characters, never inside a UTF-8 sequence (a cut sequence makes
 *    the whole string invalid, and jansson refuses it): every fixed-size buffer that may hold
 *    input text is filled with text_snprintf / text_cut, never a plain snprintf;
 *  - bytes that are not UTF-8 are shown escaped ("\xE9") before they reach JSON (utf8_escape),
 *    so a string is never dropped for its encoding.
 * kjson.h builds every JSON string and object through these rules. */
#ifndef KCVE_CORE_TEXT_H
#define KCVE_CORE_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Length of the longest valid UTF-8 sequence at s (at most n bytes), 0 when the bytes at s do
 * not start one (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, a
 * sequence cut by n). */
size_t utf8_seq_len(const char *s, size_t n);
/* Are the n bytes at s valid UTF-8 without NUL? */
bool utf8_valid(const char *s, size_t n);
/* The largest cut <= max (<= n) that leaves s[0..cut) ending between characters: a UTF-8
 * sequence that would not fit whole is left out. Bytes that are not UTF-8 count one each. */
size_t utf8_cut(const char *s, size_t n, size_t max);
/* Cut the NUL-terminated s in place to at most max bytes, between characters. */
void text_cut(char *s, size_t max);
/* s[0..len) was cut by a byte count (a truncating snprintf): drop an incomplete UTF-8
 * sequence at its end (s is NUL-terminated at the cut afterwards if one was dropped). */
void text_cut_partial(char *s, size_t len);
/* snprintf that, when the text does not fit, cuts it between characters (never inside one).
 * Returns what snprintf returns. */
int text_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int text_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* A malloc'd copy of s[0..n) that is valid UTF-8 without NUL: valid characters kept, every
 * other byte (and NUL) written as the four characters "\xHH". */
char *utf8_escape(const char *s, size_t n);

#endif
