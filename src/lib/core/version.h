/* Kernel release strings ("6.1", "6.1.107", "6.8-rc3", "2.6.32.12", "0") and their ordering.
 *
 * The ordering is the kernel CNA's, not semver: within one branch a mainline release sorts
 * before its stable releases (6.8 < 6.8.1, 6.8-rc3 < 6.8.1), components compare numerically
 * with zero padding, and an -rc sorts before the final release. "0" is the empty kernel
 * (unknown / none) and sorts before everything. */
#ifndef KCVE_CORE_VERSION_H
#define KCVE_CORE_VERSION_H

#include <stdbool.h>
#include <stddef.h>

#define KVER_MAXCOMP 6

struct kver {
	unsigned comp[KVER_MAXCOMP];
	int ncomp;
	bool rc;       /* has "-rc" */
	long long rcnum; /* rc number (32 bits); 0 for a bare "-rc"; -1 when the text after -rc is not a number */
	bool queue;    /* has "-queue" */
};

/* Parse a release string; never fails (unparsable parts are dropped, like the CNA's tools). */
void kver_parse(struct kver *v, const char *s);
bool kver_is_mainline(const struct kver *v);
/* Branch ("major") of a version: "2.6.N" in the 2.6 era, else "X.Y"; "" when unknown.
 * Writes into out (at least 24 bytes) and returns out. */
char *kver_major(const struct kver *v, char *out, size_t outsz);
bool kver_same_major(const struct kver *a, const struct kver *b);
/* Three-way comparison of parsed versions (see header comment). */
int kver_cmp(const struct kver *a, const struct kver *b);
/* String conveniences (parse both, then compare / test). Identical strings compare equal. */
int kver_cmp_str(const char *a, const char *b);
bool kver_str_is_mainline(const char *s);
char *kver_str_major(const char *s, char *out, size_t outsz);
bool kver_str_same_major(const char *a, const char *b);
/* The release a kernel's top Makefile text declares (VERSION.PATCHLEVEL.SUBLEVEL, a SUBLEVEL
 * of 0 left out as the kernel does; EXTRAVERSION ignored) into out; false when it has no
 * VERSION/PATCHLEVEL. */
bool kver_from_makefile(const char *text, char *out, size_t outsz);

#endif
