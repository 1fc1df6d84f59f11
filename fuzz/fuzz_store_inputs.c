/* Fuzz the store module's parsers of untrusted text: kernel.org releases.json import, batch
 * lines of `kcve create --batch`, and the "meaningful change" comparison of `kcve update`.
 * Invariants: an imported branch list has 4 fields per data line; a batch line yields a
 * 7..40-char lower-case hex id or nothing; a text never differs meaningfully from itself and
 * the comparison is symmetric. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "policy/branches.h"
#include "store/create.h"
#include "store/ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';

	struct strbuf out = STRBUF_INIT;
	struct kcve_err err;
	size_t n;
	if (branches_from_releases_json(s, &out, &n, &err) == 0) {
		size_t lines = 0;
		char *save = NULL;
		for (char *l = strtok_r(out.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (*l == '#')
				continue;
			int fields = 0;
			for (char *p = l; *p;) {
				while (*p == ' ')
					p++;
				if (!*p)
					break;
				fields++;
				while (*p && *p != ' ')
					p++;
			}
			if (fields != 4)
				abort();
			lines++;
		}
		if (lines != n)
			abort();
	}
	sb_release(&out);

	char sha[41];
	const char *r = store_batch_sha(s, sha);
	if (r) {
		size_t l = strlen(r);
		if (l < 7 || l > 40)
			abort();
		for (size_t i = 0; i < l; i++)
			if (!isxdigit((unsigned char)r[i]) || isupper((unsigned char)r[i]))
				abort();
	}

	/* split the input in two texts at the first NUL-free midpoint */
	char *mid = s + strlen(s) / 2;
	char *b = strdup(mid);
	*mid = '\0';
	for (int k = 0; k < 3 && b; k++) {
		enum store_file_kind kind = (enum store_file_kind)k;
		if (store_meaningful_change(kind, s, s) || store_meaningful_change(kind, b, b))
			abort();
		if (store_meaningful_change(kind, s, b) != store_meaningful_change(kind, b, s))
			abort();
	}
	free(b);
	free(s);
	return 0;
}
