/* A small, defensive RFC 5322 + MIME reader for mails sent to the CVE alias.
 *
 * It keeps exactly what request triage needs: the unfolded headers and one text view of the
 * body (text/plain parts decoded from quoted-printable/base64; HTML parts turned into text,
 * with link targets kept, when there is no plain part). Anything malformed is either skipped
 * (a header line without a colon, an unknown encoding) or reported as KCVE_E_PARSE (no headers
 * at all, limits exceeded); it never reads outside the input. */
#ifndef KCVE_MAINTAINERS_MAIL_H
#define KCVE_MAINTAINERS_MAIL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

#define MAIL_MAX_SIZE (32u << 20)   /* larger inputs are refused */
#define MAIL_MAX_HEADERS 2000
#define MAIL_MAX_DEPTH 8            /* nested multiparts */
#define MAIL_MAX_PARTS 500

struct mail_header {
	char *name;    /* as written */
	char *value;   /* unfolded, CR/LF removed, RFC 2047 encoded-words decoded */
};

struct mail {
	struct mail_header *h;
	size_t nh, alloc;
	char *text;        /* body as text (NUL-terminated; NULs in the input become spaces) */
	size_t text_len;
	bool html;         /* the text came from an HTML part */
	size_t nparts;     /* MIME leaf parts seen */
};

int mail_parse(const char *data, size_t len, struct mail *out, struct kcve_err *err);
void mail_release(struct mail *m);
/* First header of that name (case-insensitive), NULL if none. */
const char *mail_get(const struct mail *m, const char *name);

/* Decoders, exposed for tests. Output is appended to a malloc'd buffer (*out, *outlen). */
void mail_decode_qp(const char *in, size_t len, char **out, size_t *outlen);
void mail_decode_base64(const char *in, size_t len, char **out, size_t *outlen);
void mail_html_to_text(const char *in, size_t len, char **out, size_t *outlen);

#endif
