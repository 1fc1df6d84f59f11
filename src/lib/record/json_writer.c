/* serde_json-compatible pretty printer (see json_writer.h). */
#include "record/json_writer.h"
#include "core/assert.h"
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void indent(struct json_writer *w)
{
	sb_addc(w->out, '\n');
	for (int i = 0; i < w->depth; i++)
		sb_add(w->out, "   ", 3);
}

/* Position for a new element: after a key nothing is needed; inside a container a comma
 * (unless first) and a fresh indented line. */
static void before_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (w->has_items[w->depth - 1])
			sb_addc(w->out, ',');
		w->has_items[w->depth - 1] = true;
		indent(w);
	}
}

void jw_init(struct json_writer *w, struct strbuf *out)
{
	memset(w, 0, sizeof(*w));
	w->out = out;
}

static void open_container(struct json_writer *w, char c)
{
	before_value(w);
	sb_addc(w->out, c);
	/* An invariant, not an input check: the nesting is the code's, never the input's. Every
	 * caller (record/render.c, cmd_cvss.c) writes a fixed layout, at most 6 levels deep,
	 * whatever the record says: lists in the input only repeat elements at one level, and no
	 * caller copies a JSON value of its input recursively. A caller that does must bound the
	 * depth itself and return an error first. (record-corpus renders every published record
	 * with asserts on; record-cvss's test_json_depth: the writer holds JW_MAX_DEPTH levels.) */
	KCVE_ASSERT(w->depth < JW_MAX_DEPTH);
	w->has_items[w->depth++] = false;
}

static void close_container(struct json_writer *w, char c)
{
	KCVE_ASSERT(w->depth > 0); /* calls pair up: the same fixed layouts */
	bool had = w->has_items[--w->depth];
	if (had)
		indent(w);
	sb_addc(w->out, c);
}

void jw_begin_object(struct json_writer *w) { open_container(w, '{'); }
void jw_end_object(struct json_writer *w) { close_container(w, '}'); }
void jw_begin_array(struct json_writer *w) { open_container(w, '['); }
void jw_end_array(struct json_writer *w) { close_container(w, ']'); }

void jw_key(struct json_writer *w, const char *key)
{
	before_value(w);
	json_escape_string(w->out, key, strlen(key));
	sb_add(w->out, ": ", 2);
	w->after_key = true;
}

void json_escape_string(struct strbuf *sb, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	sb_grow(sb, n + 2);
	sb_addc(sb, '"');
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *esc = NULL;
		char ubuf[7];
		if (c == '"')
			esc = "\\\"";
		else if (c == '\\')
			esc = "\\\\";
		else if (c == '\n')
			esc = "\\n";
		else if (c == '\t')
			esc = "\\t";
		else if (c == '\r')
			esc = "\\r";
		else if (c == '\b')
			esc = "\\b";
		else if (c == '\f')
			esc = "\\f";
		else if (c < 0x20) {
			memcpy(ubuf, "\\u00", 4);
			ubuf[4] = hex[c >> 4];
			ubuf[5] = hex[c & 15];
			ubuf[6] = '\0';
			esc = ubuf;
		}
		if (esc) {
			sb_add(sb, s + start, i - start);
			sb_adds(sb, esc);
			start = i + 1;
		}
	}
	sb_add(sb, s + start, n - start);
	sb_addc(sb, '"');
}

void jw_string_n(struct json_writer *w, const char *s, size_t n)
{
	before_value(w);
	json_escape_string(w->out, s, n);
}

void jw_string(struct json_writer *w, const char *s)
{
	jw_string_n(w, s, strlen(s));
}

void jw_bool(struct json_writer *w, bool v)
{
	before_value(w);
	sb_adds(w->out, v ? "true" : "false");
}

void json_format_double(double v, char out[32])
{
	/* Shortest digit string that reads back to the same double (ryu, serde_json's float
	 * printer), written positionally with a mandatory fraction: 7.8, 10.0, 0.0. Records only
	 * carry scores (0.0 .. 10.0), far from where serde would switch to exponent form. */
	char e[40];
	int prec = 0;
	for (; prec <= 16; prec++) {
		text_snprintf(e, sizeof(e), "%.*e", prec, v);
		if (strtod(e, NULL) == v)
			break;
	}
	char digits[24];
	size_t nd = 0;
	const char *p = e;
	bool neg = false;
	if (*p == '-')
		neg = true, p++;
	for (; *p && *p != 'e'; p++)
		if (*p >= '0' && *p <= '9' && nd < sizeof(digits) - 1)
			digits[nd++] = *p;
	int exp10 = *p == 'e' ? atoi(p + 1) : 0;
	if (exp10 > 15 || exp10 < -5 || v != v) { /* serde's exponent range: not positional */
		text_snprintf(out, 32, "%.17g", v);
		return;
	}
	while (nd > 1 && digits[nd - 1] == '0') /* trailing zeros add nothing */
		nd--;
	char *o = out;
	if (neg)
		*o++ = '-';
	int point = exp10 + 1; /* digits before the decimal point */
	if (point <= 0) {
		*o++ = '0';
		*o++ = '.';
		for (int i = 0; i < -point; i++)
			*o++ = '0';
		for (size_t i = 0; i < nd; i++)
			*o++ = digits[i];
	} else {
		for (int i = 0; i < point; i++)
			*o++ = (size_t)i < nd ? digits[i] : '0';
		*o++ = '.';
		if ((size_t)point < nd)
			for (size_t i = (size_t)point; i < nd; i++)
				*o++ = digits[i];
		else
			*o++ = '0';
	}
	*o = '\0';
}

void jw_double(struct json_writer *w, double v)
{
	char buf[32];
	before_value(w);
	json_format_double(v, buf);
	sb_adds(w->out, buf);
}

void jw_kv_string(struct json_writer *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

void jw_finish(struct json_writer *w)
{
	sb_addc(w->out, '\n');
}
