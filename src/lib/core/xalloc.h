/* Allocation wrappers that abort on out-of-memory: kcve never continues with a NULL buffer. */
#ifndef KCVE_CORE_XALLOC_H
#define KCVE_CORE_XALLOC_H

#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grow an array of nmemb elements to hold at least need elements (doubling). */
#define XGROW(ptr, need, alloc)                                                    \
	do {                                                                       \
		if ((size_t)(need) > (size_t)(alloc)) {                            \
			size_t n__ = (alloc) ? (size_t)(alloc) * 2 : 16;           \
			while (n__ < (size_t)(need))                               \
				n__ *= 2;                                          \
			(ptr) = xrealloc((ptr), n__ * sizeof(*(ptr)));             \
			(alloc) = n__;                                             \
		}                                                                  \
	} while (0)

#endif
