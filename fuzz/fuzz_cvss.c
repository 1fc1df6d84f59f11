/* Fuzz the CVSS vector parser and the .cvss file parser. Invariants: a parsed vector formats
 * to a canonical string that parses to the same vector with a score in [0, 10]; a parsed file
 * renders to text that parses again and renders identically (the canonical form is a fixed
 * point), and validation gives the same answer before and after. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "record/cvss.h"
#include "record/cvss_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	struct kcve_err err;
	struct cvss_vector v, v2;
	if (cvss_vector_parse(s, &v, &err) == 0) {
		char buf[CVSS_VECTOR_MAX];
		cvss_vector_format(&v, buf);
		if (cvss_vector_parse(buf, &v2, &err) != 0 || memcmp(&v, &v2, sizeof(v)) != 0)
			abort();
		double sc = cvss_score(&v);
		if (sc < 0.0 || sc > 10.0)
			abort();
	}

	struct cvss_file f, f2;
	if (cvss_file_parse(s, size, &f, &err) == 0) {
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		int valid = cvss_file_validate(&f, &err);
		cvss_file_render(&f, &a);
		if (cvss_file_parse(a.buf, a.len, &f2, &err) != 0)
			abort();
		cvss_file_render(&f2, &b);
		if (a.len != b.len || memcmp(a.buf, b.buf, a.len) != 0)
			abort();
		if ((cvss_file_validate(&f2, &err) == 0) != (valid == 0))
			abort();
		cvss_file_release(&f2);
		cvss_file_release(&f);
		sb_release(&a);
		sb_release(&b);
	}
	struct cvss_rationale r;
	if (cvss_rationale_parse(s, size, &r, &err) == 0)
		cvss_rationale_release(&r);
	free(s);
	return 0;
}
