/* libFuzzer target: the git scan cache loader (check/inputs/scancache.c). Any byte string must load
 * as a valid cache or as an empty one with a reason; every entry of a loaded cache must be
 * readable, and a cache must serialise back to an image that loads with the same count.
 * First byte odd: the rest gets a correct checksum appended, so the fuzzer reaches the entry
 * decoder without having to forge CRCs; even: the rest is the whole file image. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "check/inputs/scancache.h"
#include "core/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf img = STRBUF_INIT;
	if (size && (data[0] & 1)) {
		sb_add(&img, data + 1, size - 1);
		uint32_t crc = (uint32_t)crc32_z(0L, (const unsigned char *)img.buf, img.len);
		sb_add(&img, &crc, 4);
	} else if (size) {
		sb_add(&img, data + 1, size - 1);
	}
	const char *why = NULL;
	struct scan_cache *c = scan_cache_from_bytes(img.buf ? img.buf : "", img.len, &why);
	size_t n = scan_cache_count(c);
	if (why && n)
		abort();
	/* look every 20-byte window of the input up: hits must point inside the cache */
	for (size_t i = 0; i + 20 <= img.len && i < 4096; i++) {
		struct scan_entry e;
		if (scan_cache_get(c, (const unsigned char *)img.buf + i, &e)) {
			volatile unsigned char sink = 0;
			for (size_t k = 0; k < 20 * e.nparents; k++)
				sink ^= e.parents[k];
			for (size_t k = 0; k < 20 * e.nrefs; k++)
				sink ^= e.refs[k];
			for (size_t k = 0; k < 20 * e.nreverts; k++)
				sink ^= e.reverts[k];
			(void)sink;
		}
	}
	struct strbuf out = STRBUF_INIT;
	scan_cache_bytes(c, &out);
	struct scan_cache *d = scan_cache_from_bytes(out.buf, out.len, &why);
	if (why || scan_cache_count(d) != n)
		abort();
	scan_cache_free(d);
	scan_cache_free(c);
	sb_release(&out);
	sb_release(&img);
	return 0;
}
