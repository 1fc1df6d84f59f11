/* KCVE_ASSERT(cond): an executable invariant.
 *
 * On when the build defines KCVE_ASSERTS, which meson does for the debug and debugoptimized
 * build types, for every build with sanitizers (the test builds: scripts/build --asan), for the
 * fuzz targets, and whenever -Dasserts=enabled is given; off in release builds (-Dasserts=auto
 * with buildtype release/minsize/plain) unless -Dasserts=enabled. See meson_options.txt.
 *
 * Use it for what a comment would otherwise only claim: "caller holds the lock", "v is sorted",
 * "i < n", "this buffer is owned". Never for input validation: hostile input gets an error
 * with an exit code, not an abort. The condition must have no side effects (it is not evaluated
 * when asserts are off, though it is still compiled, so it cannot rot). */
#ifndef KCVE_CORE_ASSERT_H
#define KCVE_CORE_ASSERT_H

#include <stdbool.h>
#include <stddef.h>

_Noreturn void kcve_assert_fail(const char *cond, const char *file, int line, const char *func);

/* Marks a static function only assertions call (unused when they are off). */
#define KCVE_ASSERT_HELPER __attribute__((unused))

/* For assertions: is base[0..n) (elements of size bytes) in cmp order (ties allowed)? */
static inline bool kcve_is_sorted(const void *base, size_t n, size_t size,
				  int (*cmp)(const void *, const void *))
{
	const char *p = base;
	for (size_t i = 1; i < n; i++)
		if (cmp(p + (i - 1) * size, p + i * size) > 0)
			return false;
	return true;
}

#ifdef KCVE_ASSERTS
#define KCVE_ASSERT(cond) \
	((cond) ? (void)0 : kcve_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define KCVE_ASSERT(cond) ((void)sizeof(!(cond)))
#endif

#endif
