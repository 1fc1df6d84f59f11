/* SHA-256 (FIPS 180-4), for content-derived identifiers (VEX document ids). */
#ifndef KCVE_CORE_SHA256_H
#define KCVE_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t nbuf;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t n);
void sha256_final(struct sha256 *s, unsigned char out[32]);
/* The digest of data as 64 lower-case hex characters and a NUL. */
void sha256_hex(const void *data, size_t n, char out[65]);

#endif
