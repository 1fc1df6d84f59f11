#include "core/cveid.h"

#include <string.h>

bool cveid_valid(const char *s)
{
	if (strncmp(s, "CVE-", 4) != 0)
		return false;
	s += 4;
	for (int i = 0; i < 4; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	if (s[4] != '-')
		return false;
	size_t n = strspn(s + 5, "0123456789");
	return n >= 4 && n <= 19 && s[5 + n] == '\0';
}
