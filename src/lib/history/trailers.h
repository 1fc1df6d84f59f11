/* Commit-message trailers the index stores (docs/spec/versions.md "Trailers read from each commit message"), parsed by hand because
 * the indexer runs this on every commit of the history:
 *  - upstream: first line containing "upstream" (any case) that carries a run of >= 40 hex
 *    digits; that run ("commit <sha> upstream." and "[ Upstream commit <sha> ]").  A subject
 *    such as "clean the sfp upstream if phy probing fails" carries none and is passed over;
 *  - reverts: first line containing "reverts"; the first run of >= 40 hex digits on it;
 *  - fixes: every line containing "fixes:" (any case, anywhere on the line); the first run
 *    of >= 7 hex digits after it.
 * Only the first line matching "reverts" is looked at: a later line is never consulted,
 * like the anchor's first-match regex. */
#ifndef KCVE_HISTORY_TRAILERS_H
#define KCVE_HISTORY_TRAILERS_H

#include <stdbool.h>
#include <stddef.h>

#define TRAILERS_MAX_FIXES 64

struct trailer_span {
	const char *p; /* points into the message */
	size_t len;
};

struct trailers {
	char upstream[41]; /* lower-case 40-hex, "" when none */
	char reverts[41];  /* lower-case 40-hex, "" when none */
	struct trailer_span fixes[TRAILERS_MAX_FIXES]; /* raw hex runs, message order */
	size_t nfixes;
};

/* Parse msg[0..len). want_upstream = false skips the upstream rule (mainline commits). */
void trailers_parse(const char *msg, size_t len, bool want_upstream, struct trailers *out);

/* Find needle (lower-case ASCII) in s[0..n) ignoring ASCII case; NULL if absent. */
const char *memcasemem(const char *s, size_t n, const char *needle, size_t nlen);

#endif
