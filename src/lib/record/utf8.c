/* Unicode helpers (see utf8.h). */
#include "record/utf8.h"

size_t utf8_decode(const char *str, size_t n, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	if (n == 0) {
		*cp = 0;
		return 0;
	}
	unsigned c = s[0];
	size_t len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (len > n) {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = v;
	return len;
}

bool unicode_is_space(uint32_t c)
{
	return (c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 || c == 0xa0 || c == 0x1680 ||
	       (c >= 0x2000 && c <= 0x200a) || c == 0x2028 || c == 0x2029 || c == 0x202f ||
	       c == 0x205f || c == 0x3000;
}

size_t utf8_lspace(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint32_t cp;
		size_t l = utf8_decode(s + i, n - i, &cp);
		if (!unicode_is_space(cp))
			break;
		i += l;
	}
	return i;
}

size_t utf8_rspace(const char *s, size_t n)
{
	size_t end = n;
	while (end > 0) {
		/* step back to the start of the previous sequence */
		size_t start = end - 1;
		while (start > 0 && end - start < 4 && ((unsigned char)s[start] & 0xc0) == 0x80)
			start--;
		uint32_t cp;
		size_t l = utf8_decode(s + start, end - start, &cp);
		if (l != end - start) { /* not one valid sequence: treat the last byte alone */
			start = end - 1;
			utf8_decode(s + start, 1, &cp);
		}
		if (!unicode_is_space(cp))
			break;
		end = start;
	}
	return n - end;
}

size_t utf8_count(const char *s, size_t n)
{
	size_t i = 0, count = 0;
	while (i < n) {
		uint32_t cp;
		i += utf8_decode(s + i, n - i, &cp);
		count++;
	}
	return count;
}
