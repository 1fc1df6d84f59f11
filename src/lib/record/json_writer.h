/* A streaming JSON writer that produces exactly what serde_json's PrettyFormatter with a
 * 3-space indent writes (docs/spec/record.md "Serialization"), so kcve's records are byte-identical to the
 * kernel CNA's: one element per line, "key": value, empty containers as [] / {}, raw UTF-8,
 * escapes only for '"', '\\' and control characters, floats with a mandatory fraction.
 *
 * jansson is used for reading JSON only: its dumper cannot reproduce this layout. */
#ifndef KCVE_RECORD_JSON_WRITER_H
#define KCVE_RECORD_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"

#define JW_MAX_DEPTH 32

struct json_writer {
	struct strbuf *out;
	int depth;
	bool has_items[JW_MAX_DEPTH]; /* per open container: at least one element written */
	bool after_key;               /* a key was written; the next value follows it inline */
};

void jw_init(struct json_writer *w, struct strbuf *out);
void jw_begin_object(struct json_writer *w);
void jw_end_object(struct json_writer *w);
void jw_begin_array(struct json_writer *w);
void jw_end_array(struct json_writer *w);
/* Object member name; the next call writes its value. */
void jw_key(struct json_writer *w, const char *key);
void jw_string(struct json_writer *w, const char *s);
void jw_string_n(struct json_writer *w, const char *s, size_t n);
void jw_bool(struct json_writer *w, bool v);
void jw_double(struct json_writer *w, double v);
/* Convenience: key + string value. */
void jw_kv_string(struct json_writer *w, const char *key, const char *s);
/* End of document: appends the trailing newline the anchor writes. */
void jw_finish(struct json_writer *w);

/* serde_json string escaping of s[0..n) (with the quotes) appended to sb. */
void json_escape_string(struct strbuf *sb, const char *s, size_t n);
/* Shortest round-trip decimal form with a mandatory fraction ("7.8", "10.0"). */
void json_format_double(double v, char out[32]);

#endif
