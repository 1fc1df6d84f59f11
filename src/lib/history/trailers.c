#include "history/trailers.h"

#include <string.h>

#include "core/sha.h"

static inline char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
}

const char *memcasemem(const char *s, size_t n, const char *needle, size_t nlen)
{
	if (nlen == 0)
		return s;
	if (n < nlen)
		return NULL;
	const char first = needle[0];
	for (size_t i = 0; i + nlen <= n; i++) {
		if (lower(s[i]) != first)
			continue;
		size_t k = 1;
		while (k < nlen && lower(s[i + k]) == needle[k])
			k++;
		if (k == nlen)
			return s + i;
	}
	return NULL;
}

static bool casepfx(const char *s, const char *word, size_t n)
{
	for (size_t k = 1; k < n; k++) /* word[0] was matched by the caller */
		if (lower(s[k]) != word[k])
			return false;
	return true;
}

/* The first "upstream", "reverts" and "fixes:" (any case) on a line, NULL where absent: one
 * pass over the line instead of one search per keyword (the indexer parses every commit). */
static void find_keywords(const char *s, size_t n, const char **up, const char **rv,
			  const char **fx)
{
	*up = *rv = *fx = NULL;
	for (size_t i = 0; i < n; i++) {
		char c = lower(s[i]);
		size_t left = n - i;
		if (c == 'u' && !*up && left >= 8 && casepfx(s + i, "upstream", 8))
			*up = s + i;
		else if (c == 'r' && !*rv && left >= 7 && casepfx(s + i, "reverts", 7))
			*rv = s + i;
		else if (c == 'f' && !*fx && left >= 6 && casepfx(s + i, "fixes:", 6))
			*fx = s + i;
	}
}

/* First maximal run of at least min hex digits in s[0..n) (the leftmost regex match of
 * [0-9a-f]{min,}); returns its start and sets *rl, or NULL. */
static const char *find_hex_run(const char *s, size_t n, size_t min, size_t *rl)
{
	size_t i = 0;
	while (i < n) {
		if (!is_hex_char((unsigned char)s[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && is_hex_char((unsigned char)s[j]))
			j++;
		if (j - i >= min) {
			*rl = j - i;
			return s + i;
		}
		i = j;
	}
	return NULL;
}

/* Store the first 40 digits of a >= 40-hex run found on the line, lower-cased. */
static void take_full_id(const char *line, size_t n, char out[41])
{
	size_t rl;
	const char *r = find_hex_run(line, n, 40, &rl);
	if (!r)
		return;
	for (size_t i = 0; i < 40; i++)
		out[i] = lower(r[i]);
	out[40] = '\0';
}

void trailers_parse(const char *msg, size_t len, bool want_upstream, struct trailers *out)
{
	out->upstream[0] = out->reverts[0] = '\0';
	out->nfixes = 0;
	bool seen_upstream = !want_upstream, seen_reverts = false;
	const char *end = msg + len;
	for (const char *line = msg; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		/* Cheap pre-filter: all three keywords contain an 's' or 'S'. */
		if (memchr(line, 's', n) || memchr(line, 'S', n)) {
			/* the subject "net: phy: clean the sfp upstream if ..." mentions upstream
			 * without an id: keep looking for the `[ Upstream commit <sha> ]` line */
			const char *u, *rv, *f;
			find_keywords(line, n, &u, &rv, &f);
			if (!seen_upstream && u) {
				take_full_id(line, n, out->upstream);
				seen_upstream = out->upstream[0] != '\0';
			}
			if (!seen_reverts && rv) {
				seen_reverts = true;
				take_full_id(line, n, out->reverts);
			}
			if (f && out->nfixes < TRAILERS_MAX_FIXES) {
				const char *after = f + 6;
				size_t rl;
				const char *r = find_hex_run(after, (size_t)(line + n - after), 7, &rl);
				if (r) {
					out->fixes[out->nfixes].p = r;
					out->fixes[out->nfixes].len = rl;
					out->nfixes++;
				}
			}
		}
		line += n + 1;
	}
}
