/* The condition algebra (see cond.h): string conditions built while the symbolic evaluation
 * follows every list, and simplified just enough to stay readable in the export. */
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "kbuild/cond.h"

#define MAX_COND_LEN 1500

char *kbt_cond_from_syms(const char *syms)
{
	struct strbuf out = STRBUF_INIT;
	char **seen = NULL;
	size_t nseen = 0, alloc = 0;
	const char *p = syms;
	while (*p) {
		while (*p == ' ' || *p == '&')
			p++;
		const char *e = p;
		while (*e && *e != ' ' && *e != '&')
			e++;
		size_t n = (size_t)(e - p);
		bool lit = (n > 7 && !strncmp(p, "CONFIG_", 7)) || (n > 8 && !strncmp(p, "!CONFIG_", 8));
		bool dup = false;
		for (size_t i = 0; lit && i < nseen; i++)
			if (strlen(seen[i]) == n && !memcmp(seen[i], p, n))
				dup = true;
		if (lit && !dup) {
			XGROW(seen, nseen + 1, alloc);
			seen[nseen++] = xstrndup(p, n);
			if (out.len)
				sb_adds(&out, " && ");
			sb_add(&out, p, n);
		}
		p = e;
	}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	if (!out.len)
		sb_adds(&out, "y");
	return sb_detach(&out);
}

static bool pure_conj(const char *a)
{
	return !strchr(a, '|') && !strchr(a, '(');
}

char *kbt_cond_and(const char *a, const char *b)
{
	if (!strcmp(a, "n") || !strcmp(b, "n"))
		return xstrdup("n");
	if (!strcmp(a, "unknown") || !strcmp(b, "unknown"))
		return xstrdup("unknown");
	if (!strcmp(a, "y"))
		return xstrdup(b);
	if (!strcmp(b, "y") || !strcmp(a, b))
		return xstrdup(a);
	struct strbuf sb = STRBUF_INIT;
	if (pure_conj(a) && pure_conj(b)) {
		sb_adds(&sb, a);
		sb_addc(&sb, ' ');
		sb_adds(&sb, b);
		char *s = kbt_cond_from_syms(sb_str(&sb));
		sb_release(&sb);
		return s;
	}
	sb_addf(&sb, "%s%s%s && %s%s%s", pure_conj(a) ? "" : "(", a, pure_conj(a) ? "" : ")",
		pure_conj(b) ? "" : "(", b, pure_conj(b) ? "" : ")");
	if (sb.len > MAX_COND_LEN) {
		sb_release(&sb);
		return xstrdup("unknown");
	}
	return sb_detach(&sb);
}

char *kbt_cond_or(const char *a, const char *b)
{
	if (!strcmp(a, "y") || !strcmp(b, "y"))
		return xstrdup("y");
	if (!strcmp(a, "n"))
		return xstrdup(b);
	if (!strcmp(b, "n"))
		return xstrdup(a);
	if (!strcmp(a, b))
		return xstrdup(a);
	if (!strcmp(a, "unknown") || !strcmp(b, "unknown"))
		return xstrdup("unknown");
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "(%s) || (%s)", a, b);
	if (sb.len > MAX_COND_LEN) {
		sb_release(&sb);
		return xstrdup("unknown");
	}
	return sb_detach(&sb);
}

/* pre followed by s, as a new string */
static char *concat(const char *pre, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, pre);
	sb_adds(&sb, s);
	return sb_detach(&sb);
}


char *kbt_cond_not(const char *a)
{
	if (!strcmp(a, "y"))
		return xstrdup("n");
	if (!strcmp(a, "n"))
		return xstrdup("y");
	if (!strcmp(a, "unknown"))
		return xstrdup("unknown");
	if (!strchr(a, ' ') && !strchr(a, '(') && !strncmp(a, "CONFIG_", 7))
		return concat("!", a);
	if (!strchr(a, ' ') && !strchr(a, '(') && !strncmp(a, "!CONFIG_", 8))
		return xstrdup(a + 1);
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "!(%s)", a);
	return sb_detach(&sb);
}

/* Multi-valued Quine-McCluskey: an implicant holds, per symbol, the set of its values it
 * covers (bit 0 y, bit 1 m, bit 2 unset, bit 3 any other value). */
#define NVAL 4u
#define ALLV 15u

static bool same_but_one(const unsigned char *a, const unsigned char *b, size_t k, size_t *at)
{
	size_t diff = 0;
	for (size_t i = 0; i < k; i++)
		if (a[i] != b[i]) {
			diff++;
			*at = i;
		}
	return diff == 1;
}

static bool covers(const unsigned char *a, const unsigned char *b, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if ((a[i] & b[i]) != b[i])
			return false;
	return true;
}

/* The value set m of sym as a factor: a plain symbol is set (any value), "=y"/"=m" one value. */
static void literal(struct strbuf *sb, const char *sym, unsigned m)
{
	static const char *const form[16] = {
		[1] = "%s=y", [2] = "%s=m", [3] = "(%s=y || %s=m)", [4] = "!%s", [5] = "(%s=y || !%s)",
		[6] = "(%s=m || !%s)", [7] = "(!%s || %s=y || %s=m)", [8] = "(%s && !%s=y && !%s=m)",
		[9] = "(%s && !%s=m)", [10] = "(%s && !%s=y)", [11] = "%s", [12] = "(!%s=y && !%s=m)",
		[13] = "!%s=m", [14] = "!%s=y"};
	const char *f = form[m];
	for (; *f; f++) {
		if (f[0] == '%' && f[1] == 's') {
			sb_adds(sb, sym);
			f++;
		} else {
			sb_addc(sb, *f);
		}
	}
}

size_t kbt_cond_rows(size_t k)
{
	size_t rows = 1;
	for (size_t i = 0; i < k; i++)
		rows *= NVAL;
	return rows;
}

char *kbt_cond_from_table(const char *const *syms, size_t k, const bool *truth)
{
	KCVE_ASSERT(k <= KBT_COND_TABLE_MAX);
	size_t rows = kbt_cond_rows(k);
	/* an implicant is one of 15^k value-set vectors */
	size_t cap = 1;
	for (size_t i = 0; i < k; i++)
		cap *= ALLV;
	size_t kk = k ? k : 1;
	unsigned char *cur = xcalloc(cap, kk), *next = xcalloc(cap, kk), *prime = xcalloc(cap, kk);
	bool *merged = xcalloc(cap, sizeof(bool));
	size_t ncur = 0, nprime = 0;
	for (size_t r = 0; r < rows; r++) {
		if (!truth[r])
			continue;
		size_t x = r;
		for (size_t i = 0; i < k; i++, x /= NVAL)
			cur[ncur * k + i] = (unsigned char)(1u << (x % NVAL));
		ncur++;
	}
	bool always = ncur == rows;
	while (ncur && !always) {
		size_t nnext = 0;
		memset(merged, 0, cap * sizeof(bool));
		for (size_t a = 0; a < ncur; a++)
			for (size_t b = a + 1; b < ncur; b++) {
				size_t at = 0;
				if (!same_but_one(cur + a * k, cur + b * k, k, &at))
					continue;
				merged[a] = merged[b] = true;
				unsigned char tmp[KBT_COND_TABLE_MAX + 1];
				memcpy(tmp, cur + a * k, k);
				tmp[at] = (unsigned char)(tmp[at] | cur[b * k + at]);
				bool dup = false;
				for (size_t j = 0; j < nnext && !dup; j++)
					dup = !memcmp(next + j * k, tmp, k);
				if (!dup && nnext < cap)
					memcpy(next + nnext++ * k, tmp, k);
			}
		for (size_t a = 0; a < ncur; a++) {
			bool dup = merged[a];
			for (size_t j = 0; j < nprime && !dup; j++)
				dup = covers(prime + j * k, cur + a * k, k);
			if (!dup && nprime < cap)
				memcpy(prime + nprime++ * k, cur + a * k, k);
		}
		unsigned char *t = cur;
		cur = next;
		next = t;
		ncur = nnext;
	}
	struct strbuf sb = STRBUF_INIT;
	size_t terms = 0;
	for (size_t j = 0; j < nprime && !always; j++) {
		/* a prime implicant inside a wider one adds nothing */
		bool sub = false;
		for (size_t o = 0; o < nprime && !sub; o++)
			sub = o != j && covers(prime + o * k, prime + j * k, k) &&
			      (memcmp(prime + o * k, prime + j * k, k) || o < j);
		if (sub)
			continue;
		struct strbuf term = STRBUF_INIT;
		for (size_t i = 0; i < k; i++) {
			unsigned m = prime[j * k + i];
			if (m == ALLV)
				continue;
			if (term.len)
				sb_adds(&term, " && ");
			literal(&term, syms[i], m);
		}
		if (!term.len)
			always = true;
		else
			sb_addf(&sb, "%s(%s)", terms++ ? " || " : "", sb_str(&term));
		sb_release(&term);
	}
	free(cur);
	free(next);
	free(prime);
	free(merged);
	if (always || !terms) {
		sb_release(&sb);
		return xstrdup(always ? "y" : "n");
	}
	char *r = sb_detach(&sb);
	if (terms == 1) { /* a single term needs no outer parentheses */
		size_t n = strlen(r);
		memmove(r, r + 1, n - 2);
		r[n - 2] = '\0';
	}
	return r;
}
