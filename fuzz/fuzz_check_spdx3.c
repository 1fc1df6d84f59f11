/* libFuzzer target: the SPDX 3.0 JSON-LD SBOM reader (check/inputs/spdx3.c) for kcve check
 * --sbom. Input: up to four documents separated by NUL bytes (the kernel's generator writes
 * three that refer to each other). Checks what the check stages rely on: the compiled files are
 * sorted, distinct, tree-relative and clean; the configuration is CONFIG_ lines only. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/spdx3.h"

static void check_path(const char *p)
{
	if (!*p || *p == '/' || !strncmp(p, "./", 2) || strstr(p, "//") || strstr(p, "/../") ||
	    !strncmp(p, "../", 3) || !strcmp(p, ".."))
		abort();
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			abort();
}

static void check_config(const struct ck_spdx3 *s)
{
	if (!s->config)
		return;
	if (strlen(s->config) != s->config_len)
		abort();
	size_t lines = 0;
	for (const char *l = s->config; *l; lines++) {
		const char *eol = strchr(l, '\n');
		if (!eol || strncmp(l, "CONFIG_", 7) || !memchr(l, '=', (size_t)(eol - l)))
			abort();
		for (const char *c = l; c < eol; c++)
			if ((unsigned char)*c < 0x20)
				abort();
		l = eol + 1;
	}
	if (lines != s->nconfig)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ck_spdx3 s;
	struct kcve_err e = {0};
	ck_spdx3_init(&s);
	const char *p = (const char *)data, *end = p + size;
	int rc = 0;
	for (int n = 0; n < 4 && p <= end && rc == 0; n++) {
		const char *z = memchr(p, '\0', (size_t)(end - p));
		size_t len = z ? (size_t)(z - p) : (size_t)(end - p);
		rc = ck_spdx3_add_text(&s, p, len, "fuzz", &e);
		if (!z)
			break;
		p = z + 1;
	}
	if (rc == 0)
		rc = ck_spdx3_finish(&s, &e);
	if (rc == 0) {
		for (size_t i = 0; i < s.nfiles; i++) {
			check_path(s.files[i]);
			if (i && strcmp(s.files[i - 1], s.files[i]) >= 0)
				abort();
			if (!ck_spdx3_compiled(&s, s.files[i]))
				abort();
		}
		if (s.nfiles && !s.have_files)
			abort();
		check_config(&s);
		char line[256];
		ck_spdx3_summary(&s, line, sizeof line);
		if (strncmp(line, "SBOM: ", 6))
			abort();
	} else if (rc != KCVE_E_PARSE || strchr(e.msg, '\n')) {
		abort();
	}
	ck_spdx3_release(&s);
	return 0;
}
