/* gzip files as gzip reads them: every member in turn (`cat a.gz b.gz` is one file of both
 * texts), anything after the last member that is not another member refused (gzip only warns
 * of "trailing garbage"; a reader that stops at the first member's end loses the rest without a
 * word), a stream cut before its end marker refused, the text bounded by a cap. */
#ifndef KCVE_CORE_GUNZIP_H
#define KCVE_CORE_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"

enum gunzip_result {
	GUNZIP_OK = 0,
	GUNZIP_TOO_BIG,   /* the text is larger than the cap */
	GUNZIP_TRUNCATED, /* the data ends inside a member */
	GUNZIP_CORRUPT,   /* not gzip data, or a bad checksum */
	GUNZIP_TRAILING,  /* bytes after the last member */
};

/* Does the data start with the gzip magic? */
bool gunzip_magic(const void *in, size_t len);
/* Append the text of the len bytes of gzip data at in to out, at most cap bytes (the text
 * appended so far is left on error). */
enum gunzip_result gunzip_capped(const void *in, size_t len, size_t cap, struct strbuf *out);
/* A few words for messages ("the data ends inside a gzip member", ...). */
const char *gunzip_reason(enum gunzip_result r);

#endif
