/* Every gzip member, capped (gunzip.h). */
#include "core/gunzip.h"

#include <string.h>
#include <zlib.h>

bool gunzip_magic(const void *in, size_t len)
{
	const unsigned char *u = in;
	return len >= 2 && u[0] == 0x1f && u[1] == 0x8b;
}

enum gunzip_result gunzip_capped(const void *in, size_t len, size_t cap, struct strbuf *out)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (!gunzip_magic(in, len) || inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return GUNZIP_CORRUPT;
	const unsigned char *p = in, *end = p + len;
	size_t start = out->len;
	enum gunzip_result r = GUNZIP_OK;
	for (;;) {
		size_t chunk = (size_t)(end - p) > (1u << 30) ? (1u << 30) : (size_t)(end - p);
		z.next_in = (unsigned char *)p;
		z.avail_in = (uInt)chunk;
		sb_grow(out, 1 << 16);
		size_t room = out->alloc - out->len - 1, left = cap - (out->len - start) + 1;
		if (room > left) /* one byte past the cap tells "too big" */
			room = left;
		z.next_out = (unsigned char *)out->buf + out->len;
		z.avail_out = (uInt)(room > (1u << 30) ? (1u << 30) : room);
		uInt had_out = z.avail_out;
		int zr = inflate(&z, Z_NO_FLUSH);
		p += chunk - z.avail_in;
		out->len += had_out - z.avail_out;
		out->buf[out->len] = '\0';
		if (out->len - start > cap) {
			r = GUNZIP_TOO_BIG;
			break;
		}
		if (zr == Z_STREAM_END) {
			if (p == end)
				break;
			if (!gunzip_magic(p, (size_t)(end - p))) {
				r = GUNZIP_TRAILING;
				break;
			}
			inflateReset(&z); /* the next member */
			continue;
		}
		if (zr == Z_BUF_ERROR && p == end && z.avail_out) {
			r = GUNZIP_TRUNCATED;
			break;
		}
		if (zr != Z_OK && zr != Z_BUF_ERROR) {
			r = GUNZIP_CORRUPT;
			break;
		}
	}
	inflateEnd(&z);
	return r;
}

const char *gunzip_reason(enum gunzip_result r)
{
	switch (r) {
	case GUNZIP_OK: return "no error";
	case GUNZIP_TOO_BIG: return "it decompresses to more than the limit for this kind of file";
	case GUNZIP_TRUNCATED: return "truncated gzip data (it ends inside a member)";
	case GUNZIP_CORRUPT: return "corrupt gzip data";
	case GUNZIP_TRAILING: return "bytes after the last gzip member (trailing garbage)";
	}
	return "corrupt gzip data";
}
