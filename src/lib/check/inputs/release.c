/* The release a kernel says it is (see release.h). */
#include "check/inputs/release.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "core/text.h"

/* include/config/kernel.release is one line; the running-system probes read with the same cap. */
#define RELEASE_FILE_MAX ((size_t)1 << 20)

int ck_version_normalize(const char *in, char *out, size_t outsz, struct kcve_err *err)
{
	/* A local version may follow the release ("6.1.192-3", "6.6.30+", CONFIG_LOCALVERSION), but
	 * never a comma or a blank: "6.1.5,6.1.6" or "6.1.5 6.1.6" is two versions given where one is
	 * taken, and reading the first of them would answer a question nobody asked. */
	for (const unsigned char *q = (const unsigned char *)in; *q; q++)
		if (*q == ',' || isspace(*q) || *q < 0x20 || *q == 0x7f)
			return kcve_err_set(err, KCVE_E_USAGE,
					    "'%s' is not one kernel version (it holds a comma, a blank or a "
					    "control character); give one like 6.1.107 (a list of kernels is "
					    "--version A,B)", in);
	const char *s = in;
	if (strncmp(s, "linux-", 6) == 0)
		s += 6;
	if (*s == 'v' || *s == 'V')
		s++;
	unsigned comp[4];
	int n = 0;
	const char *p = s;
	while (n < 4 && isdigit((unsigned char)*p)) {
		unsigned long c = 0;
		while (isdigit((unsigned char)*p) && c <= 100000)
			c = c * 10 + (unsigned)(*p++ - '0');
		if (c > 100000)
			break;
		comp[n++] = (unsigned)c;
		if (*p == '.' && isdigit((unsigned char)p[1]))
			p++;
		else
			break;
	}
	/* components of a mainline release: 2.6.N (and 2.4.N) in the 2.x era, else X.Y */
	int base = n > 0 && comp[0] == 2 ? 3 : 2;
	if (n < base || n > base + 1 || isdigit((unsigned char)*p) || *p == '.')
		return kcve_err_set(err, KCVE_E_USAGE,
				    "'%s' is not a kernel version; give one like 6.1.107, v6.6.30, 6.8-rc3, "
				    "2.6.32.71 or 2.6.15-rc3", in);
	if (n == base + 1 && comp[base] == 0)
		n = base; /* X.Y.0 is the mainline release X.Y */
	char num[64];
	if (base == 3)
		text_snprintf(num, sizeof num, "%u.%u.%u", comp[0], comp[1], comp[2]);
	else
		text_snprintf(num, sizeof num, "%u.%u", comp[0], comp[1]);
	bool rc = strncmp(p, "-rc", 3) == 0 && isdigit((unsigned char)p[3]);
	if (n == base + 1) {
		if (rc)
			return kcve_err_set(err, KCVE_E_USAGE,
					    "'%s' is a stable release candidate: it holds %s.%u plus part of "
					    "the queue; pass %s.%u (what it surely holds) or check the tree with --git",
					    in, num, comp[base] - 1, num, comp[base] - 1);
		/* any other suffix is a local or package version: "6.1.192-3", "6.6.30+" */
		text_snprintf(out, outsz, "%s.%u", num, comp[base]);
		return 0;
	}
	if (rc) {
		int r = 0;
		for (const char *q = p + 3; isdigit((unsigned char)*q) && r < 1000; q++)
			r = r * 10 + (*q - '0');
		text_snprintf(out, outsz, "%s-rc%d", num, r);
		return 0;
	}
	if (*p == '-' && isdigit((unsigned char)p[1]))
		return kcve_err_set(err, KCVE_E_USAGE,
				    "'%s' is a distribution ABI version (%s-N or %s.0-N): it does not say "
				    "which stable release %s.N it carries; pass the upstream version (Debian: the "
				    "'Debian %s.N-M' text in /proc/version or the package version) or use --running",
				    in, num, num, num, num);
	text_snprintf(out, outsz, "%s", num);
	return 0;
}

static bool take_version_at(const char *p, char *out, size_t outsz)
{
	struct kcve_err e;
	char tok[64];
	size_t n = 0;
	while (p[n] && !isspace((unsigned char)p[n]) && p[n] != ')' && p[n] != ',' && n < sizeof tok - 1)
		n++;
	memcpy(tok, p, n);
	tok[n] = '\0';
	return ck_version_normalize(tok, out, outsz, &e) == 0;
}

bool ck_version_from_proc(const char *pv, char *out, size_t outsz)
{
	/* Debian: "... #1 SMP PREEMPT_DYNAMIC Debian 6.1.115-1 (2024-11-01)" */
	const char *d = strstr(pv, " Debian ");
	while (d) {
		if (isdigit((unsigned char)d[8]) && take_version_at(d + 8, out, outsz))
			return true;
		d = strstr(d + 1, " Debian ");
	}
	/* Ubuntu: "(Ubuntu 5.15.0-91.101-generic 5.15.131)" — the last word is upstream. */
	const char *u = strstr(pv, "(Ubuntu ");
	if (u) {
		const char *close = strchr(u, ')');
		if (close) {
			const char *sp = close;
			while (sp > u && sp[-1] != ' ')
				sp--;
			char tok[64];
			text_snprintf(tok, sizeof tok, "%.*s", (int)(close - sp), sp);
			struct kcve_err e;
			if (isdigit((unsigned char)tok[0]) && ck_version_normalize(tok, out, outsz, &e) == 0)
				return true;
		}
	}
	return false;
}

int ck_source_release(const char *srcdir, char *out, size_t n, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = path_join(srcdir, "Makefile");
	if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		int rc = kcve_err_set(err, KCVE_E_IO, "cannot read %s (%s); give the top directory of "
				      "a kernel source tree, or --version", path, strerror(e));
		free(path);
		return rc;
	}
	int rc = 0;
	if (!kver_from_makefile(sb_str(&sb), out, n))
		rc = kcve_err_set(err, KCVE_E_PARSE, "%s has no VERSION/PATCHLEVEL; give --version",
				  path);
	sb_release(&sb);
	free(path);
	return rc;
}

bool ck_build_release(const char *builddir, char *out, size_t outsz)
{
	char p[4096];
	struct strbuf sb = STRBUF_INIT;
	struct kcve_err err = {0};
	text_snprintf(p, sizeof p, "%s/include/config/kernel.release", builddir);
	bool ok = read_file_capped(p, &sb, RELEASE_FILE_MAX) == 0 &&
		  (sb_rtrim(&sb), ck_version_normalize(sb.buf, out, outsz, &err) == 0);
	sb_release(&sb);
	return ok;
}
