#include "core/sha.h"

#include <ctype.h>
#include <string.h>

bool is_hex_char(int c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool is_hex_n(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_hex_char((unsigned char)s[i]))
			return false;
	return true;
}

bool is_full_sha(const char *s)
{
	return strlen(s) == SHA_HEX && is_hex_n(s, SHA_HEX);
}

size_t hex_run(const char *s)
{
	size_t n = 0;
	while (is_hex_char((unsigned char)s[n]))
		n++;
	return n;
}

void sha_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}
