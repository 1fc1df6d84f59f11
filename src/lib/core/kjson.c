/* JSON built and read under the input rules (kjson.h). The one file that calls jansson's
 * string constructors. */
#include "core/kjson.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/text.h"
#include "core/xalloc.h"

/* jansson fails here only when out of memory: abort like xalloc does. */
static json_t *must(json_t *v)
{
	if (!v)
		xalloc_oom(sizeof(json_t));
	return v;
}

json_t *kj_strn(const char *s, size_t n)
{
	if (!s)
		return NULL;
	if (utf8_valid(s, n))
		return must(json_stringn_nocheck(s, n));
	char *e = utf8_escape(s, n);
	json_t *v = must(json_string_nocheck(e));
	free(e);
	return v;
}

json_t *kj_str(const char *s)
{
	return s ? kj_strn(s, strlen(s)) : NULL;
}

struct packer {
	const char *f; /* the format, at the next token */
	va_list ap;
};

static void skip_blank(struct packer *p)
{
	while (*p->f == ' ' || *p->f == '\t' || *p->f == '\n' || *p->f == ',' || *p->f == ':')
		p->f++;
}

/* One value of the format; *omit set when a "*" value was NULL. */
static json_t *pack_value(struct packer *p, bool *omit)
{
	skip_blank(p);
	char c = *p->f++;
	*omit = false;
	switch (c) {
	case '{': {
		json_t *o = must(json_object());
		for (skip_blank(p); *p->f != '}'; skip_blank(p)) {
			KCVE_ASSERT(*p->f == 's');
			bool dummy;
			json_t *k = pack_value(p, &dummy); /* the key: "s" (or "s#"/"s%") */
			bool om;
			json_t *v = pack_value(p, &om);
			if (!om && json_is_string(k))
				json_object_set_new_nocheck(o, json_string_value(k), v ? v : json_null());
			else
				json_decref(v);
			json_decref(k);
		}
		p->f++;
		return o;
	}
	case '[': {
		json_t *a = must(json_array());
		for (skip_blank(p); *p->f != ']'; skip_blank(p)) {
			bool om;
			json_t *v = pack_value(p, &om);
			if (!om)
				json_array_append_new(a, v ? v : json_null());
		}
		p->f++;
		return a;
	}
	case 's': {
		const char *s = va_arg(p->ap, const char *);
		size_t n = 0;
		bool sized = false;
		if (*p->f == '#') {
			n = (size_t)va_arg(p->ap, int);
			sized = true;
			p->f++;
		} else if (*p->f == '%') {
			n = va_arg(p->ap, size_t);
			sized = true;
			p->f++;
		}
		if (*p->f == '?' || *p->f == '*')
			*omit = *p->f++ == '*' && !s;
		if (!s)
			return json_null();
		return sized ? kj_strn(s, n) : kj_str(s);
	}
	case 'n':
		return json_null();
	case 'b':
		return json_boolean(va_arg(p->ap, int));
	case 'i':
		return must(json_integer(va_arg(p->ap, int)));
	case 'I':
		return must(json_integer(va_arg(p->ap, json_int_t)));
	case 'f': { /* jansson has no NaN or infinity: JSON null */
		double d = va_arg(p->ap, double);
		return isfinite(d) ? must(json_real(d)) : json_null();
	}
	case 'o':
	case 'O': {
		json_t *v = va_arg(p->ap, json_t *);
		if (*p->f == '?' || *p->f == '*')
			*omit = *p->f++ == '*' && !v;
		if (!v)
			return json_null();
		return c == 'O' ? json_incref(v) : v;
	}
	default:
		KCVE_ASSERT(!"kj_pack: unknown format character");
		return json_null();
	}
}

json_t *kj_pack(const char *fmt, ...)
{
	struct packer p = {.f = fmt};
	va_start(p.ap, fmt);
	bool omit;
	json_t *v = pack_value(&p, &omit);
	va_end(p.ap);
	skip_blank(&p);
	KCVE_ASSERT(*p.f == '\0');
	return v;
}

size_t kj_count_values(const char *text, size_t len)
{
	size_t n = 1;
	bool str = false;
	for (size_t i = 0; i < len; i++) {
		char c = text[i];
		if (str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				str = false;
		} else if (c == '"')
			str = true;
		else if (c == '[' || c == '{' || c == ',')
			n++;
	}
	return n;
}

json_t *kj_loadb(const char *text, size_t len, size_t flags, json_error_t *je)
{
	size_t n = kj_count_values(text, len);
	if (n > KJ_VALUES_MAX) {
		if (je) {
			memset(je, 0, sizeof *je);
			text_snprintf(je->text, sizeof je->text, "more than %zu JSON values", KJ_VALUES_MAX);
		}
		return NULL;
	}
	return json_loadb(text, len, flags, je);
}

int kj_parse(const char *text, size_t len, const struct kj_limits *lim, const char *what,
	     const char *hint, json_t **out, struct kcve_err *err)
{
	*out = NULL;
	size_t n = kj_count_values(text, len);
	if (lim->values && n > lim->values)
		return kcve_err_set(err, KCVE_E_PARSE, "%s holds more than %zu JSON values%s", what,
				    lim->values, hint), -1;
	json_error_t je;
	*out = json_loadb(text, len, 0, &je);
	if (!*out)
		return kcve_err_set(err, KCVE_E_PARSE, "cannot parse %s (%s, line %d)%s", what, je.text,
				    je.line, hint), -1;
	return 0;
}

int kj_load_file(const char *path, const struct kj_limits *lim, const char *kind,
		 const char *hint, json_t **out, struct kcve_err *err)
{
	*out = NULL;
	struct strbuf sb = STRBUF_INIT, what = STRBUF_INIT;
	char *shown = safe_printable(path);
	sb_addf(&what, "the %s %s", kind, shown);
	int rc = 0;
	if (read_file_capped(path, &sb, lim->bytes) != 0) {
		int e = errno;
		rc = kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				  "cannot read %s: %s (a regular file of at most %zu MiB)%s", what.buf,
				  read_file_reason(e), lim->bytes >> 20, hint);
	} else if (kj_parse(sb.buf, sb.len, lim, what.buf, hint, out, err) != 0)
		rc = err->code;
	free(shown);
	sb_release(&sb);
	sb_release(&what);
	return rc ? -1 : 0;
}
