/* Description cleaning and truncation (see description.h). */
#include "record/description.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "core/assert.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "record/utf8.h"

static void tags_push(struct tag_list *t, const char *s, size_t n)
{
	XGROW(t->v, t->n + 1, t->alloc);
	char *c = xstrndup(s, n);
	for (char *p = c; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	t->v[t->n++] = c;
}

void tags_builtin(struct tag_list *t)
{
	for (size_t i = 0; i < description_builtin_tags_n; i++)
		tags_push(t, description_builtin_tags[i], strlen(description_builtin_tags[i]));
}

void tags_parse(struct tag_list *t, const char *text, size_t len)
{
	size_t i = 0;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;
		const char *line = text + i;
		size_t n = end - i;
		size_t l = utf8_lspace(line, n);
		line += l, n -= l;
		n -= utf8_rspace(line, n);
		if (n > 0 && line[0] != '#')
			tags_push(t, line, n);
		i = end + 1;
	}
}

int tags_load_file(struct tag_list *t, const char *path, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_IO, "cannot read the trailer-tag list %s (%s)", path,
				    strerror(e));
	}
	tags_parse(t, sb.buf ? sb.buf : "", sb.len);
	sb_release(&sb);
	return 0;
}

void tags_release(struct tag_list *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i]);
	free(t->v);
	t->v = NULL;
	t->n = t->alloc = 0;
}

/* Lower-case the start of a trimmed line the way Rust's str::to_lowercase() does for every
 * character that can take part in matching an ASCII tag: ASCII letters, and the Kelvin sign
 * (U+212A), which lower-cases to an ASCII 'k'. Other characters never match a tag byte
 * (tags are ASCII except for their own non-ASCII bytes, compared verbatim). */
static size_t lower_prefix(const char *s, size_t n, char *out, size_t max)
{
	size_t i = 0, o = 0;
	while (i < n && o < max) {
		uint32_t cp;
		size_t l = utf8_decode(s + i, n - i, &cp);
		if (cp == 0x212a) {
			out[o++] = 'k';
		} else if (l == 1) {
			out[o++] = (char)tolower((unsigned char)s[i]);
		} else {
			for (size_t k = 0; k < l && o < max; k++)
				out[o++] = s[i + k];
		}
		i += l;
	}
	return o;
}

bool tags_is_trailer(const struct tag_list *t, const char *line, size_t len)
{
	size_t l = utf8_lspace(line, len);
	line += l, len -= l;
	len -= utf8_rspace(line, len);
	char low[128];
	size_t nlow = lower_prefix(line, len, low, sizeof(low));
	for (size_t i = 0; i < t->n; i++) {
		size_t tl = strlen(t->v[i]);
		if (tl + 1 <= nlow && memcmp(low, t->v[i], tl) == 0 && low[tl] == ':')
			return true;
	}
	return false;
}

/* Rust's str::lines(): split on '\n', drop one '\r' before it, no empty final line. */
struct line_iter {
	const char *s;
	size_t len, pos;
};

static bool next_line(struct line_iter *it, const char **line, size_t *n)
{
	if (it->pos >= it->len)
		return false;
	const char *start = it->s + it->pos;
	const char *nl = memchr(start, '\n', it->len - it->pos);
	size_t end = nl ? (size_t)(nl - it->s) : it->len;
	*line = start;
	*n = end - it->pos;
	if (nl && *n > 0 && start[*n - 1] == '\r')
		(*n)--;
	it->pos = nl ? end + 1 : it->len;
	return true;
}

static bool is_blank(const char *s, size_t n)
{
	return utf8_lspace(s, n) == n;
}

static void rtrim_unicode(struct strbuf *sb, size_t floor)
{
	size_t cut = utf8_rspace(sb->buf + floor, sb->len - floor);
	sb->len -= cut;
	sb->buf[sb->len] = '\0';
}

void description_from_commit(const char *msg, size_t len, const struct tag_list *tags,
			     struct strbuf *out)
{
	size_t base = out->len;
	sb_adds(out, DESCRIPTION_PREFIX "\n\n");
	struct line_iter it = {msg, len, 0};
	const char *line;
	size_t n;
	bool have = next_line(&it, &line, &n);
	while (have && is_blank(line, n))
		have = next_line(&it, &line, &n);
	if (have) { /* the subject line, kept as it is */
		sb_add(out, line, n);
		sb_adds(out, "\n\n");
		have = next_line(&it, &line, &n);
	}
	while (have && is_blank(line, n))
		have = next_line(&it, &line, &n);
	for (; have; have = next_line(&it, &line, &n)) {
		if (tags_is_trailer(tags, line, n))
			continue;
		sb_add(out, line, n);
		sb_addc(out, '\n');
	}
	rtrim_unicode(out, base);
	sb_addc(out, '\n');
}

bool description_from_message(const char *text, size_t len, struct strbuf *out)
{
	size_t l = utf8_lspace(text, len);
	text += l, len -= l;
	len -= utf8_rspace(text, len);
	if (len == 0)
		return false;
	sb_adds(out, DESCRIPTION_PREFIX "\n\n");
	sb_add(out, text, len);
	sb_addc(out, '\n');
	return true;
}

void description_truncate(const char *desc, size_t len, struct strbuf *out)
{
	if (len <= DESCRIPTION_MAX) {
		sb_add(out, desc, len - utf8_rspace(desc, len));
		return;
	}
	if (len == DESCRIPTION_MAX + 1 && desc[DESCRIPTION_MAX] == '\n') {
		sb_add(out, desc, DESCRIPTION_MAX);
		return;
	}
	/* The anchor slices bytes (and would panic inside a multi-byte character); cut at the
	 * last character boundary at or before the limit instead. */
	size_t cut = utf8_cut(desc, len, DESCRIPTION_MAX);
	KCVE_ASSERT(cut <= DESCRIPTION_MAX);
	size_t start = out->len;
	sb_add(out, desc, cut);
	if (cut == 0 || desc[cut - 1] != '\n')
		sb_addc(out, '\n');
	sb_adds(out, DESCRIPTION_TRUNCATED);
	/* the JSON description's bound: the limit, a newline and the marker */
	KCVE_ASSERT(out->len - start <= DESCRIPTION_MAX + 1 + strlen(DESCRIPTION_TRUNCATED));
}
