/* JSON values built and read under the input rules (every JSON string of kcve goes through
 * here; `meta-jansson` refuses jansson's own string constructors and packers elsewhere).
 *
 * Building: jansson returns NULL for a string that is not UTF-8, and json_pack then frees the
 * values it was handed ("o") and returns NULL too; a caller that passes such a NULL on drops
 * an entry silently or uses freed memory. These never return NULL for text: bytes that are not
 * UTF-8 are escaped ("\xE9", core/text.h), so nothing is lost for its encoding.
 *
 * Reading: a JSON input file is read by the bounded reader (a regular file, non-blocking
 * open, a cap per kind) and its count of values is bounded before jansson builds them (a file
 * of "[],[],..." costs jansson ~100 bytes per value). */
#ifndef KCVE_CORE_KJSON_H
#define KCVE_CORE_KJSON_H

#include <jansson.h>
#include <stddef.h>

#include "core/error.h"

/* A JSON string of s (escaped where it is not UTF-8). NULL only when s is NULL, so that
 * json_object_set_new(o, key, kj_str(maybe)) leaves the key out. */
json_t *kj_str(const char *s);
json_t *kj_strn(const char *s, size_t n);
/* json_pack's format ("{s:s, s:o, s:[...]}", s s# s% n b i I f o O, '?' and '*' after s/o/O)
 * with every string through kj_str and every key escaped the same way. Never NULL: a NULL
 * "s" or "o" is JSON null (and "s*"/"o*" in an object leaves the member out), so is an "f"
 * that is NaN or infinite (jansson refuses them), every "o"
 * reference is taken. A malformed format is a programming error (KCVE_ASSERT). */
json_t *kj_pack(const char *fmt, ...);

/* The values one JSON text may hold unless its kind says otherwise: 2,097,152 (2 M empty
 * objects cost jansson 470 MB; a real record, catalogue, VEX or check document holds far
 * fewer). */
#define KJ_VALUES_MAX ((size_t)2 << 20)
/* json_loadb within KJ_VALUES_MAX: NULL with je filled ("more than N JSON values") when the
 * text holds more, else what json_loadb gives. Every JSON text is parsed through it (or
 * kj_parse). */
json_t *kj_loadb(const char *text, size_t len, size_t flags, json_error_t *je);

/* Limits of one kind of JSON input. */
struct kj_limits {
	size_t bytes;  /* the file */
	size_t values; /* arrays, objects, members and elements together */
};
/* The values of text, counted without building them: '[' '{' and ',' outside strings (an
 * upper bound of what jansson allocates, +1). */
size_t kj_count_values(const char *text, size_t len);
/* Parse len bytes of JSON within lim (lim->bytes is not checked here). what names the input
 * in messages ("the SBOM F"), hint ends them ("; give a CycloneDX JSON file"). 0 with *out,
 * or -1 with err set (KCVE_E_PARSE). */
int kj_parse(const char *text, size_t len, const struct kj_limits *lim, const char *what,
	     const char *hint, json_t **out, struct kcve_err *err);
/* Read path through the bounded reader (fileio.h) and parse it: KCVE_E_NOTFOUND,
 * KCVE_E_IO (not a regular file, larger than lim->bytes, unreadable: one line saying so)
 * or KCVE_E_PARSE. kind names it in messages ("SBOM"); the path is shown printable. */
int kj_load_file(const char *path, const struct kj_limits *lim, const char *kind,
		 const char *hint, json_t **out, struct kcve_err *err);

#endif
