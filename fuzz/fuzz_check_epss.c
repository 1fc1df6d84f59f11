/* libFuzzer target: FIRST's EPSS CSV (check/inputs/epss.c) for kcve check --epss.  Input: the CSV
 * text, or gzip data of it (every member read, core/gunzip.c, text capped at 1 MiB here).
 * Invariants: the text of a gzip accepted is within the cap; accepted scores are in [0, 1], ids valid and strictly increasing, the
 * model comment has no control character. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/epss.h"
#include "check/inputs/kev.h"
#include "core/cveid.h"
#include "core/gunzip.h"
#include "core/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_epss p;
	struct kcve_err e = {0};
	struct strbuf text = STRBUF_INIT;
	if (gunzip_magic(data, size)) {
		enum gunzip_result g = gunzip_capped(data, size, 1 << 20, &text);
		if (g == GUNZIP_OK && text.len > (1 << 20))
			abort();
		if (g != GUNZIP_OK) {
			sb_release(&text);
			return 0;
		}
		data = (const uint8_t *)(text.buf ? text.buf : "");
		size = text.len;
	}
	int rc = ck_epss_parse(&p, (const char *)data, size, "fuzz", &e);
	sb_release(&text);
	if (rc != 0) {
		if (rc != KCVE_E_PARSE || strchr(e.msg, '\n') || p.n)
			abort();
		return 0;
	}
	for (const char *c = p.model; *c; c++)
		if ((unsigned char)*c < 0x20)
			abort();
	for (size_t i = 0; i < p.n; i++) {
		const struct ck_epss_entry *x = &p.v[i];
		if (!(x->epss >= 0 && x->epss <= 1 && x->percentile >= 0 && x->percentile <= 1))
			abort();
		if (!cveid_valid_n(x->id, strlen(x->id)) ||
		    (i && cveid_cmp(p.v[i - 1].id, x->id) >= 0) || ck_epss_find(&p, x->id) != x)
			abort();
	}
	ck_epss_release(&p);
	return 0;
}
