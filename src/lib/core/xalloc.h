/* Allocation wrappers that abort on out-of-memory: kcve never continues with a NULL buffer. */
#ifndef KCVE_CORE_XALLOC_H
#define KCVE_CORE_XALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* The out-of-memory exit of these (also for libraries that return NULL only then). */
_Noreturn void xalloc_oom(size_t n);
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

/* Large buffers in transparent huge pages where the kernel offers them (madvise mode): one
 * page fault per 2 MiB instead of one per 4 KiB.  On a virtual machine every fault is a trap
 * to the hypervisor, and faults were the largest cost of loading the records (~30 us each).
 * Zero-filled; aborts on out-of-memory like xmalloc. */
struct xbig {
	void *base;
	size_t len; /* of the mapping; 0: malloc'd (AddressSanitizer builds) */
};
void *xbig_alloc(struct xbig *m, size_t n);
void xbig_free(struct xbig *m);

/* Many small arrays with one lifetime, carved from xbig chunks and freed together.  Under
 * AddressSanitizer every array is its own malloc, so that bounds are still checked. */
struct xarena {
	struct xbig *chunks;
	size_t nchunks, alloc;
	char *at;
	size_t left;
	void **ptrs; /* AddressSanitizer builds: the arrays */
	size_t nptrs, palloc;
};
void *xarena_calloc(struct xarena *a, size_t nmemb, size_t size);
void xarena_release(struct xarena *a);

#endif
