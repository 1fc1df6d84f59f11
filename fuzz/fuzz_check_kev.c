/* libFuzzer target: CISA's KEV catalogue (check/inputs/kev.c) for kcve check --kev.  Input: the JSON
 * text.  Invariants: an accepted catalogue holds valid, strictly increasing ids, and every id
 * is found again. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/kev.h"
#include "core/cveid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_kev k;
	struct kcve_err e = {0};
	int rc = ck_kev_parse(&k, (const char *)data, size, "fuzz", &e);
	if (rc != 0) {
		if (rc != KCVE_E_PARSE || strchr(e.msg, '\n') || k.n)
			abort();
		return 0;
	}
	size_t nk = 0;
	for (size_t i = 0; i < k.n; i++) {
		if (!cveid_valid_n(k.v[i].id, strlen(k.v[i].id)) || !k.v[i].name)
			abort();
		if (i && cveid_cmp(k.v[i - 1].id, k.v[i].id) >= 0)
			abort();
		if (ck_kev_find(&k, k.v[i].id) != &k.v[i])
			abort();
		nk += k.v[i].linux_kernel;
	}
	if (nk != k.nkernel)
		abort();
	ck_kev_release(&k);
	return 0;
}
