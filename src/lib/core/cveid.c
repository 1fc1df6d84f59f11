#include "core/cveid.h"

#include <string.h>

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

bool cveid_valid_n(const char *s, size_t len)
{
	/* "CVE-" (4) + year (4) + "-" (1) + 4 to 19 digits */
	if (len < 13 || len > 28 || memcmp(s, "CVE-", 4) != 0 || s[8] != '-')
		return false;
	return all_digits(s + 4, 4) && all_digits(s + 9, len - 9);
}

bool cveid_valid(const char *s)
{
	return cveid_valid_n(s, strlen(s));
}
