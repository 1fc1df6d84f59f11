/* Perl-compatible regular expressions for the MAINTAINERS matcher.
 *
 * get_maintainer.pl turns F:/X: globs into Perl regexes and uses N:/K: values (and its RFC 822
 * address grammar) as Perl regexes verbatim. Using PCRE2 with the same pattern text is the only
 * way to match its behaviour exactly, including the odd corners (a '+' or '[' in an F: line is a
 * regex operator there, too). Patterns are byte-oriented (no UTF mode), as in the Perl script,
 * which reads MAINTAINERS and source files without an encoding layer. */
#ifndef KCVE_MAINTAINERS_PERLRE_H
#define KCVE_MAINTAINERS_PERLRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perlre;

#define PERLRE_EXTENDED 1u   /* Perl /x */
#define PERLRE_DOTALL 2u     /* Perl /s */
#define PERLRE_CASELESS 4u   /* Perl /i */
#define PERLRE_ANCHORED 8u   /* pattern must match at the start offset */

/* Compile; NULL on error with a message in errbuf ("<reason> at offset N"). */
struct perlre *perlre_compile(const char *pattern, unsigned flags, char *errbuf, size_t errlen);
void perlre_free(struct perlre *re);
/* Search s[0..len) from start. Returns true on a match; ovec (if not NULL) receives up to
 * novec/2 (start, end) pairs, unset groups as (SIZE_MAX, SIZE_MAX). A match that exceeds the
 * backtracking limit counts as no match (Perl would hang instead; we never do). */
bool perlre_search(const struct perlre *re, const char *s, size_t len, size_t start, size_t *ovec,
                   size_t novec);

#endif
