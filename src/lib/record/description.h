/* The CVE description text (docs/spec/record.md "Description"): a fixed prefix line, the fix commit's subject
 * and body with every trailer line ("Signed-off-by:", "Fixes:", "Link:", ... from the CNA's
 * trailer-tag list) removed, or the contents of a .message file; and the truncated copy the
 * JSON record carries (3,982 bytes + "---truncated---"). */
#ifndef KCVE_RECORD_DESCRIPTION_H
#define KCVE_RECORD_DESCRIPTION_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "core/strbuf.h"

#define DESCRIPTION_PREFIX "In the Linux kernel, the following vulnerability has been resolved:"
/* CVE Services' limit on a description, in bytes (the anchor's MAX_DESCRIPTION_LENGTH). */
#define DESCRIPTION_MAX 3982
#define DESCRIPTION_TRUNCATED "---truncated---"

/* A trailer-tag list: lower-cased tag names without the colon. */
struct tag_list {
	char **v;
	size_t n, alloc;
};

extern const char *const description_builtin_tags[];
extern const size_t description_builtin_tags_n;

/* The built-in copy of the CNA's scripts/tags. */
void tags_builtin(struct tag_list *t);
/* Parse a tags file: one tag per line, trimmed; blank lines and '#' lines ignored. */
void tags_parse(struct tag_list *t, const char *text, size_t len);
/* Load <path>; KCVE_E_IO if unreadable. */
int tags_load_file(struct tag_list *t, const char *path, struct kcve_err *err);
void tags_release(struct tag_list *t);
/* True if line (any indentation) starts with "<tag>:" for a tag of the list, ignoring case. */
bool tags_is_trailer(const struct tag_list *t, const char *line, size_t len);

/* Description from a commit message (appends to out; always ends with exactly one '\n'). */
void description_from_commit(const char *msg, size_t len, const struct tag_list *tags,
			     struct strbuf *out);
/* Description from a .message file's text. False (nothing appended) when the text is blank,
 * in which case the caller falls back to the commit. */
bool description_from_message(const char *text, size_t len, struct strbuf *out);
/* The JSON copy: right-trimmed when within DESCRIPTION_MAX bytes, else cut at the limit
 * (never inside a UTF-8 sequence) and marked "---truncated---". Appends to out. */
void description_truncate(const char *desc, size_t len, struct strbuf *out);

#endif
