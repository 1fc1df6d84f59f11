/* libFuzzer target: kernel version strings (core/version.c parser and ordering, check's fast
 * parser and the --version normaliser) against a reference ordering written here from the
 * kernel CNA's rules, independently of core/version.c:
 *   "-queue" anywhere sets the queue flag; "-rc" sets the rc flag, the text after it is the rc
 *   number (none = 0, not a number = unnumbered); the rest is split on '.', each part that is
 *   a decimal fitting 32 bits is a component.  Mainline: first component not 0, and rc, or not
 *   queue and exactly 3 components for 2.6.x/2.4.x, exactly 2 otherwise.  Branch: "2.6.N" for
 *   2.6.x with 3+ components, else the first two.  Order: on the same branch mainline sorts
 *   first; then components (zero padded); then rc before final, rcs by number.
 * Input: up to three version strings separated by '\n'. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/release.h"
#include "check/verdict/verdict.h"
#include "core/version.h"

struct ref {
	unsigned long long c[64];
	int n;
	bool rc, queue, ok;
	long long rcnum; /* -1 = unnumbered */
};

static bool digits(const char *s, size_t n, unsigned long long *out)
{
	if (n == 0)
		return false;
	unsigned long long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned)(s[i] - '0'); /* leading zeros are fine: "007" is 7 */
		if (v > 0xffffffffULL)
			return false;
	}
	*out = v;
	return true;
}

static void ref_parse(struct ref *r, const char *in)
{
	memset(r, 0, sizeof *r);
	char s[256];
	size_t len = strlen(in);
	if (len >= 120) /* kcve keeps 127 bytes of a version string; stay below */
		return;
	memcpy(s, in, len + 1);
	char *q = strstr(s, "-queue");
	if (q) {
		r->queue = true;
		memmove(q, q + 6, strlen(q + 6) + 1);
	}
	char *rc = strstr(s, "-rc");
	if (rc) {
		unsigned long long n;
		r->rc = true;
		r->rcnum = rc[3] == '\0' ? 0 : digits(rc + 3, strlen(rc + 3), &n) ? (long long)n : -1;
		*rc = '\0';
	}
	for (char *p = s;;) {
		char *e = strchr(p, '.');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		unsigned long long v;
		if (digits(p, n, &v) && r->n < 64)
			r->c[r->n++] = v;
		if (!e)
			break;
		p = e + 1;
	}
	r->ok = r->n <= KVER_MAXCOMP;
}

static bool ref_mainline(const struct ref *r)
{
	if (r->n == 0 || r->c[0] == 0)
		return false;
	if (r->rc)
		return true;
	if (r->queue)
		return false;
	if (r->n >= 2 && r->c[0] == 2 && (r->c[1] == 6 || r->c[1] == 4))
		return r->n == 3;
	return r->n == 2;
}

static bool ref_same_branch(const struct ref *a, const struct ref *b)
{
	int la = a->n >= 3 && a->c[0] == 2 && a->c[1] == 6 ? 3 : a->n >= 2 ? 2 : 0;
	int lb = b->n >= 3 && b->c[0] == 2 && b->c[1] == 6 ? 3 : b->n >= 2 ? 2 : 0;
	return la && la == lb && memcmp(a->c, b->c, sizeof a->c[0] * (size_t)la) == 0;
}

static int ref_cmp(const struct ref *a, const struct ref *b)
{
	if (ref_same_branch(a, b) && ref_mainline(a) != ref_mainline(b))
		return ref_mainline(a) ? -1 : 1;
	for (int i = 0; i < a->n || i < b->n; i++) {
		unsigned long long x = i < a->n ? a->c[i] : 0, y = i < b->n ? b->c[i] : 0;
		if (x != y)
			return x < y ? -1 : 1;
	}
	if (a->rc != b->rc)
		return a->rc ? -1 : 1;
	if (a->rc && a->rcnum != b->rcnum)
		return a->rcnum < b->rcnum ? -1 : 1;
	return 0;
}

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[512];
	if (size >= sizeof buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (memchr(buf, '\0', size))
		return 0;
	char *v[3] = {buf, "", ""};
	int nv = 1;
	for (char *p = buf; *p && nv < 3; p++)
		if (*p == '\n') {
			*p = '\0';
			v[nv++] = p + 1;
		}
	struct kver k[3];
	struct ref r[3];
	for (int i = 0; i < 3; i++) {
		kver_parse(&k[i], v[i]);
		struct kver f;
		ck_kver_parse(&f, v[i]);
		/* the fast parser must equal the general one (rcnum may differ in how an
		 * unparsable rc number is kept, compare what the ordering uses) */
		if (f.ncomp != k[i].ncomp || memcmp(f.comp, k[i].comp, sizeof f.comp[0] * (size_t)f.ncomp) ||
		    f.rc != k[i].rc || (f.rc && f.rcnum != k[i].rcnum) || f.queue != k[i].queue)
			abort();
		ref_parse(&r[i], v[i]);
		if (r[i].ok && kver_is_mainline(&k[i]) != ref_mainline(&r[i]))
			abort();
		/* a normalised --version is a release that normalises to itself */
		char out[64], again[64];
		struct kcve_err e = {0};
		if (ck_version_normalize(v[i], out, sizeof out, &e) == 0) {
			if (ck_version_normalize(out, again, sizeof again, &e) != 0 || strcmp(out, again))
				abort();
			struct kver n;
			kver_parse(&n, out);
			if (n.queue || n.ncomp < 2 || n.ncomp > 4)
				abort();
		}
	}
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			int c = sign(kver_cmp(&k[i], &k[j]));
			if (c != -sign(kver_cmp(&k[j], &k[i])))
				abort(); /* antisymmetric */
			if (r[i].ok && r[j].ok && c != ref_cmp(&r[i], &r[j]))
				abort();
			if (kver_same_major(&k[i], &k[j]) != ref_same_branch(&r[i], &r[j]) && r[i].ok && r[j].ok)
				abort();
		}
	return 0;
}
