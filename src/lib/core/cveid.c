#include "core/cveid.h"

#include <stdlib.h>
#include <string.h>

#include "core/safefs.h"
#include "core/strbuf.h"

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

int cveid_cmp(const char *a, const char *b)
{
	bool va = cveid_valid(a), vb = cveid_valid(b);
	if (va != vb)
		return va ? -1 : 1;
	int c = strcmp(a, b);
	if (!va || c == 0)
		return (c > 0) - (c < 0);
	int y = memcmp(a + 4, b + 4, 4); /* four digits each */
	if (y)
		return (y > 0) - (y < 0);
	const char *na = a + 9, *nb = b + 9;
	while (na[0] == '0' && na[1])
		na++;
	while (nb[0] == '0' && nb[1])
		nb++;
	size_t la = strlen(na), lb = strlen(nb);
	if (la != lb)
		return la < lb ? -1 : 1;
	int n = strcmp(na, nb);
	if (n)
		return (n > 0) - (n < 0);
	return (c > 0) - (c < 0);
}

int cveid_check_record(const char *path, const char *got, size_t len, const char *want,
		       struct kcve_err *err)
{
	if (!cveid_valid_n(got, len)) { /* a newline and a forged row must not reach a table */
		struct strbuf q = STRBUF_INIT;
		sb_add_printable(&q, got); /* up to a NUL: enough to show what it is */
		int rc = kcve_err_set(err, KCVE_E_PARSE, "%s: cveMetadata.cveId '%.64s' is not a CVE "
				      "id (CVE-YYYY-NNNN+); fix the record", path, sb_str(&q));
		sb_release(&q);
		return rc;
	}
	if (want && strcmp(got, want)) /* else one CVE could be listed twice, under another id */
		return kcve_err_set(err, KCVE_E_PARSE, "%s names %s in cveMetadata.cveId, not the id "
				    "of its file name; fix the record", path, got);
	return 0;
}
