/* libFuzzer target: text cut and escaped for JSON (core/text.h, core/kjson.h).  Input: any
 * bytes.  Invariants: utf8_escape gives valid UTF-8 and keeps valid input as it is; every cut
 * of utf8_cut and text_snprintf stays within its bound and, for valid input, valid; kj_strn and
 * kj_pack never return NULL for text and their strings equal the escaped text; kj_loadb parses
 * exactly what json_loadb parses below the value cap, and kj_count_values never counts fewer
 * values than jansson builds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/kjson.h"
#include "core/text.h"

static size_t count_json(json_t *v)
{
	size_t n = 1, i;
	const char *k;
	json_t *x;
	if (json_is_array(v))
		json_array_foreach(v, i, x)
			n += count_json(x);
	else if (json_is_object(v))
		json_object_foreach(v, k, x)
			n += count_json(x);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	bool valid = utf8_valid(s, size);
	char *e = utf8_escape(s, size);
	if (!utf8_valid(e, strlen(e)) || (valid && (strlen(e) != size || memcmp(e, s, size))))
		abort();
	for (size_t max = 0; max <= size && max < 64; max++) {
		size_t c = utf8_cut(s, size, max);
		if (c > max || (valid && !utf8_valid(s, c)))
			abort();
	}
	char *z = malloc(size + 1); /* the text as a C string (up to its first NUL) */
	memcpy(z, s, size);
	z[size] = '\0';
	char buf[33];
	int r = text_snprintf(buf, sizeof buf, "%s", z);
	if (r != (int)strlen(z) || strlen(buf) > 32 || (utf8_valid(z, strlen(z)) && !utf8_valid(buf, strlen(buf))))
		abort();
	json_t *j = kj_strn(s, size);
	json_t *p = kj_pack("{s:s, s:[s#, o]}", z, z, "a", s, (int)size, kj_str(z));
	if (!j || !p || strcmp(json_string_value(j), e))
		abort();
	json_decref(j);
	json_decref(p);
	json_error_t je;
	json_t *doc = kj_loadb(s, size, JSON_DECODE_ANY, &je);
	if (doc && count_json(doc) > kj_count_values(s, size))
		abort();
	json_decref(doc);
	free(z);
	free(e);
	return 0;
}
