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
