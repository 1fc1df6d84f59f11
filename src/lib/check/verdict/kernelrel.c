/* The release a kernel source tree or build directory says it is (see kernelrel.h). */
#include "check/verdict/kernelrel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/verdict/verdict.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "core/text.h"

/* include/config/kernel.release is one line; the running-system probes read with the same cap. */
#define RELEASE_FILE_MAX ((size_t)1 << 20)

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
