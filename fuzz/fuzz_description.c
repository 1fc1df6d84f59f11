/* Fuzz the description cleaner (trailer-tag stripping over any commit message or .message
 * text) and the JSON truncation. Invariants: the prefix line is always there, the text ends
 * with exactly one newline, the truncated copy stays within 3,982 bytes + marker and never
 * splits a UTF-8 sequence of valid input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "record/description.h"
#include "record/json_writer.h"
#include "record/utf8.h"

static struct tag_list tags;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!tags.n)
		tags_builtin(&tags);
	const char *msg = (const char *)data;
	bool valid = utf8_valid(msg, size);
	struct strbuf d = STRBUF_INIT, t = STRBUF_INIT, m = STRBUF_INIT, j = STRBUF_INIT;

	description_from_commit(msg, size, &tags, &d);
	if (strncmp(d.buf, DESCRIPTION_PREFIX "\n\n", strlen(DESCRIPTION_PREFIX) + 2) != 0 &&
	    strcmp(d.buf, DESCRIPTION_PREFIX "\n") != 0)
		abort();
	if (d.len < 2 || d.buf[d.len - 1] != '\n' || (d.buf[d.len - 2] == '\n'))
		abort();
	description_truncate(d.buf, d.len, &t);
	if (t.len > DESCRIPTION_MAX + 1 + strlen(DESCRIPTION_TRUNCATED))
		abort();
	if (valid && !utf8_valid(t.buf ? t.buf : "", t.len))
		abort();
	/* whatever the text, the JSON string writer escapes it without losing bytes */
	json_escape_string(&j, t.buf ? t.buf : "", t.len);
	if (j.len < t.len + 2)
		abort();
	if (description_from_message(msg, size, &m) && m.buf[m.len - 1] != '\n')
		abort();
	(void)tags_is_trailer(&tags, msg, size);

	sb_release(&d);
	sb_release(&t);
	sb_release(&m);
	sb_release(&j);
	return 0;
}
