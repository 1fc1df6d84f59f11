#include "core/assert.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#include <stdio.h>
#include <string.h>

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void sb_setlen(struct strbuf *sb, size_t len)
{
	KCVE_ASSERT(len <= sb->len);
	sb->len = len;
	if (sb->buf)
		sb->buf[len] = '\0';
}

void sb_grow(struct strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need <= sb->alloc)
		return;
	size_t n = sb->alloc ? sb->alloc : 64;
	while (n < need)
		n *= 2;
	sb->buf = xrealloc(sb->buf, n);
	sb->alloc = n;
	KCVE_ASSERT(sb->len < sb->alloc);
}

void sb_add(struct strbuf *sb, const void *data, size_t len)
{
	KCVE_ASSERT((sb->buf == NULL) == (sb->alloc == 0) && (sb->alloc == 0 || sb->len < sb->alloc));
	sb_grow(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sb_adds(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_addc(struct strbuf *sb, char c)
{
	sb_add(sb, &c, 1);
}

void sb_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	/* Most formatted pieces are short: format into a stack buffer first, and only format a
	 * second time, straight into the grown buffer, when it did not fit. */
	char tmp[256];
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(tmp, sizeof(tmp), fmt, cp);
	va_end(cp);
	if (n <= 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		sb_add(sb, tmp, (size_t)n);
		return;
	}
	sb_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
	KCVE_ASSERT(sb->len < sb->alloc && sb->buf[sb->len] == '\0');
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sb_rtrim(struct strbuf *sb)
{
	while (sb->len && strchr(" \t\r\n\v\f", sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->buf)
		sb->buf[sb->len] = '\0';
}

char *sb_detach(struct strbuf *sb)
{
	KCVE_ASSERT(!sb->buf || sb->buf[sb->len] == '\0');
	char *r = sb->buf ? sb->buf : xstrdup("");
	sb_init(sb);
	return r;
}

const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
