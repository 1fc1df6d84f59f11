/* The release a kernel says it is, read from what the user points `kcve check` at: the top
 * Makefile of a source tree (--source) or a build directory's include/config/kernel.release
 * (--build).  Normalised as ck_version_normalize() does (check/verdict/verdict.h). */
#ifndef KCVE_CHECK_KERNELREL_H
#define KCVE_CHECK_KERNELREL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* The release of the tree at srcdir from its top Makefile (VERSION.PATCHLEVEL.SUBLEVEL, a
 * SUBLEVEL of 0 left out as the kernel does): 0, or KCVE_E_PARSE/KCVE_E_IO. */
int ck_source_release(const char *srcdir, char *out, size_t n, struct kcve_err *err);
/* The normalised release of a build directory (its include/config/kernel.release); false when
 * the file is missing or holds no release. */
bool ck_build_release(const char *builddir, char *out, size_t outsz);

#endif
