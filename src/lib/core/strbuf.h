/* Growable byte buffer, always NUL-terminated.
 *
 * Invariants (checked by KCVE_ASSERT in strbuf.c):
 * - buf == NULL exactly when alloc == 0 (STRBUF_INIT, sb_init, after sb_release/sb_detach); then
 *   len == 0. Readers never see that NULL: sb_str() and sb_detach() give "" for it, so there is
 *   no need to "allocate" a buffer by adding an empty string first.
 * - Otherwise len < alloc and buf[len] == '\0'; the bytes may include NULs (sb_add).
 * - The struct owns buf; sb_detach() hands it to the caller (who frees it) and leaves sb empty.
 * - Pointers into buf are invalidated by any call that adds to sb (it may move). */
#ifndef KCVE_CORE_STRBUF_H
#define KCVE_CORE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { NULL, 0, 0 }

void sb_init(struct strbuf *sb);
void sb_release(struct strbuf *sb);
void sb_reset(struct strbuf *sb);
/* Cut back to the first len bytes (len <= sb->len), also on a buffer never allocated. */
void sb_setlen(struct strbuf *sb, size_t len);
void sb_grow(struct strbuf *sb, size_t extra);
void sb_add(struct strbuf *sb, const void *data, size_t len);
void sb_adds(struct strbuf *sb, const char *s);
void sb_addc(struct strbuf *sb, char c);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
/* Remove trailing whitespace (space, tab, CR, LF, VT, FF). */
void sb_rtrim(struct strbuf *sb);
/* Hand the buffer to the caller (never NULL); sb is reset. */
char *sb_detach(struct strbuf *sb);
/* Current contents as a C string (never NULL). */
const char *sb_str(const struct strbuf *sb);

#endif
