/* The release a kernel says it is, from outside text: a version the user gives (--version, an
 * SBOM's), /proc/version (--running), the top Makefile of a source tree (--source) or a build
 * directory's include/config/kernel.release (--build); always normalised the one way below. */
#ifndef KCVE_CHECK_RELEASE_H
#define KCVE_CHECK_RELEASE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* Normalise a user-supplied version to a release string ("6.1.107", "6.8", "6.9-rc3").
 * Rules (documented in docs/check.md):
 *  - a leading "v"/"V" and "linux-" are dropped;
 *  - "X.Y.0" is the mainline release "X.Y" (6.1.0 = 6.1);
 *  - "-rcN" is kept; any other suffix after the numbers ("-3", "+", "-amd64", "-cip3",
 *    "-android14") is dropped when the stable number is not 0 ("6.1.192-3" -> 6.1.192);
 *  - "X.Y.0-N..." with a distro suffix (Debian's "6.1.0-27-amd64", Ubuntu's
 *    "5.15.0-91-generic") is refused: the ABI number does not say which stable release the
 *    package carries; the message says to pass the upstream number or to use --running, which
 *    reads it from /proc/version ("Debian 6.1.115-1", Ubuntu's trailing "5.15.131").
 * Returns 0 or KCVE_E_USAGE with err filled. */
int ck_version_normalize(const char *in, char *out, size_t outsz, struct kcve_err *err);
/* Upstream release from a /proc/version text: Debian's "Debian 6.1.115-1" or Ubuntu's
 * "(Ubuntu 5.15.0-91.101-generic 5.15.131)"; false when no such marker is present. */
bool ck_version_from_proc(const char *proc_version, char *out, size_t outsz);

/* The release of the tree at srcdir from its top Makefile (VERSION.PATCHLEVEL.SUBLEVEL, a
 * SUBLEVEL of 0 left out as the kernel does): 0, or KCVE_E_PARSE/KCVE_E_IO. */
int ck_source_release(const char *srcdir, char *out, size_t n, struct kcve_err *err);
/* The normalised release of a build directory (its include/config/kernel.release); false when
 * the file is missing or holds no release. */
bool ck_build_release(const char *builddir, char *out, size_t outsz);

#endif
