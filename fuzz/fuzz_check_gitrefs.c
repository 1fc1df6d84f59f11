/* Fuzz the commit-message reference parser of `kcve check --git` (check/inputs/gitrefs.h): every id it
 * returns is 20 bytes from a list without duplicates; a resolver that answers for every short id
 * exercises the abbreviated-id paths. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/gitrefs.h"

static bool resolve_any(void *ctx, const char *hex, size_t n, unsigned char out[20])
{
	(void)ctx;
	if (n < 12 || n >= 40)
		abort();
	memset(out, 0, 20);
	memcpy(out, hex, n < 20 ? n : 20);
	return true;
}

static void no_dups(const struct ck_idvec *v)
{
	for (size_t i = 0; i < v->n; i++)
		for (size_t j = i + 1; j < v->n; j++)
			if (!memcmp(v->v[i], v->v[j], 20))
				abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_msgrefs m = {0};
	ck_scan_message(&m, (const char *)data, size, size & 1 ? resolve_any : NULL, NULL);
	no_dups(&m.refs);
	no_dups(&m.reverts);
	ck_msgrefs_free(&m);
	return 0;
}
