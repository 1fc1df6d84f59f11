/* Address handling of get_maintainer.pl: parse_email/format_email, its RFC 822 validity
 * checks (used to split "M:" values that list several people), .mailmap rewriting and the
 * extraction of addresses from .yaml files. The Perl regexes are reused verbatim through
 * PCRE2 so that quoting, splitting and rewriting give the same strings. */
#ifndef KCVE_MAINTAINERS_EMAIL_H
#define KCVE_MAINTAINERS_EMAIL_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/* parse_email: split "Name <addr>" (and bare addresses); both outputs malloc'd (may be "").
 * Names with characters outside [\w \-] come back double-quoted, as in Perl. */
void mnt_parse_email(const char *formatted, char **name, char **address);
/* format_email(name, address, usename=1): "Name <addr>" or "addr". Caller frees. */
char *mnt_format_email(const char *name, const char *address);
/* The address part only, lower-cased (for comparisons). Caller frees; "" if none. */
char *mnt_email_address_lc(const char *formatted);

/* rfc822_valid / rfc822_validlist. validlist returns false if invalid; otherwise *items (may
 * be 0) malloc'd strings in *list (free each and the array). */
bool mnt_rfc822_valid(const char *s);
bool mnt_rfc822_validlist(const char *s, char ***list, size_t *items);
/* The individual "Name <addr>" strings of an M:/R: value, as push_email_addresses splits it. */
size_t mnt_split_addresses(const char *value, char ***out);

struct mailmap;
struct mailmap *mailmap_parse(const char *text, size_t len);
void mailmap_free(struct mailmap *mm);
/* mailmap_email(): rewrite a formatted address; mm may be NULL (identity). Caller frees. */
char *mailmap_email(const struct mailmap *mm, const char *formatted);

/* maintainers_in_file() + clean_file_emails() for one file's text: formatted addresses found
 * in it, in order (duplicates kept). Returns count, *out malloc'd. */
size_t mnt_file_emails(const char *text, size_t len, char ***out);

void mnt_free_strv(char **v, size_t n);

#endif
