#include "core/assert.h"
#include "core/diag.h"
#include "core/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

_Noreturn void xalloc_oom(size_t n)
{
	diag_fatal("error: out of memory allocating %zu bytes", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xalloc_oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		xalloc_oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		xalloc_oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

#define HUGE_SZ ((size_t)2 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif

void *xbig_alloc(struct xbig *m, size_t n)
{
#ifdef ARENA_ASAN
	m->len = 0; /* a malloc'd buffer, so that AddressSanitizer checks its bounds */
	return m->base = xcalloc(n ? n : 1, 1);
#endif
	if (n > SIZE_MAX - 2 * HUGE_SZ)
		xalloc_oom(n);
	/* round up to whole huge pages, plus one for the alignment */
	size_t want = (n + HUGE_SZ - 1) & ~(HUGE_SZ - 1);
	size_t len = want + HUGE_SZ;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		xalloc_oom(n);
	char *a = (char *)(((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1));
	/* give back the unaligned head and the unused tail */
	if (a > p)
		munmap(p, (size_t)(a - p));
	size_t tail = len - (size_t)(a - p) - want;
	if (tail)
		munmap(a + want, tail);
#ifdef MADV_HUGEPAGE
	(void)madvise(a, want, MADV_HUGEPAGE); /* a hint: without it, plain pages */
#endif
	m->base = a;
	m->len = want;
	return a;
}

void xbig_free(struct xbig *m)
{
	if (m->base && !m->len)
		free(m->base);
	else if (m->base)
		munmap(m->base, m->len);
	m->base = NULL;
	m->len = 0;
}

void *xarena_calloc(struct xarena *a, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		xalloc_oom(SIZE_MAX);
	size_t n = nmemb * size;
#ifdef ARENA_ASAN
	XGROW(a->ptrs, a->nptrs + 1, a->palloc);
	return a->ptrs[a->nptrs++] = xcalloc(n ? n : 1, 1);
#else
	n = (n + 15) & ~(size_t)15;
	if (n > a->left) {
		XGROW(a->chunks, a->nchunks + 1, a->alloc);
		struct xbig *c = &a->chunks[a->nchunks++];
		a->at = xbig_alloc(c, n > HUGE_SZ ? n : HUGE_SZ);
		a->left = c->len;
	}
	KCVE_ASSERT(n <= a->left && ((uintptr_t)a->at & 15) == 0); /* in bounds, 16-aligned */
	void *p = a->at;
	a->at += n;
	a->left -= n;
	return p; /* fresh anonymous memory is zero */
#endif
}

void xarena_release(struct xarena *a)
{
	for (size_t i = 0; i < a->nchunks; i++)
		xbig_free(&a->chunks[i]);
	free(a->chunks);
	for (size_t i = 0; i < a->nptrs; i++)
		free(a->ptrs[i]);
	free(a->ptrs);
	memset(a, 0, sizeof *a);
}
