/* Text cut between characters and escaped for JSON (text.h). */
#include "core/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"

size_t utf8_seq_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	if (n == 0)
		return 0;
	unsigned c = u[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf; /* the range of the second byte */
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0; /* overlong */
		else if (c == 0xed)
			hi = 0x9f; /* surrogates */
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f; /* past U+10FFFF */
	} else
		return 0;
	if (n < len || u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((u[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

bool utf8_valid(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t l = s[i] ? utf8_seq_len(s + i, n - i) : 0;
		if (l == 0)
			return false;
		i += l;
	}
	return true;
}

size_t utf8_cut(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	/* the character holding byte max starts at most 3 bytes before it */
	size_t p = max;
	while (p > 0 && max - p < 3 && ((unsigned char)s[p] & 0xc0) == 0x80)
		p--;
	size_t l = utf8_seq_len(s + p, n - p);
	return l && p < max && p + l > max ? p : max;
}

void text_cut(char *s, size_t max)
{
	size_t n = strlen(s);
	s[utf8_cut(s, n, max)] = '\0';
}

void text_cut_partial(char *s, size_t len)
{
	size_t p = len;
	while (p > 0 && len - p < 4 && ((unsigned char)s[p - 1] & 0xc0) == 0x80)
		p--;
	if (p == 0)
		return;
	unsigned c = (unsigned char)s[p - 1];
	size_t want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	if (want > 1 && len - (p - 1) < want)
		s[p - 1] = '\0'; /* a lead byte whose sequence the cut ended early */
}

int text_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, size, fmt, ap);
	if (size && n >= 0 && (size_t)n >= size)
		text_cut_partial(buf, size - 1);
	return n;
}

int text_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = text_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

char *utf8_escape(const char *s, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, "", 0); /* "" for empty text: a terminated buffer either way */
	sb_grow(&sb, n);
	for (size_t i = 0; i < n;) {
		size_t l = s[i] ? utf8_seq_len(s + i, n - i) : 0;
		if (l) {
			sb_add(&sb, s + i, l);
			i += l;
		} else {
			sb_addf(&sb, "\\x%02X", (unsigned char)s[i]);
			i++;
		}
	}
	return sb_detach(&sb);
}
