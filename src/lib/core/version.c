#include "core/version.h"
#include "core/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse an unsigned decimal that spans exactly [s, e); false if empty or not all digits. */
static bool parse_uint(const char *s, const char *e, unsigned *out)
{
	if (s == e)
		return false;
	unsigned long v = 0;
	for (const char *p = s; p < e; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (unsigned)(*p - '0');
		if (v > 0xffffffffUL)
			return false;
	}
	*out = (unsigned)v;
	return true;
}

void kver_parse(struct kver *v, const char *s)
{
	memset(v, 0, sizeof(*v));
	char buf[128];
	text_snprintf(buf, sizeof(buf), "%s", s);

	char *q = strstr(buf, "-queue");
	if (q) {
		v->queue = true;
		memmove(q, q + 6, strlen(q + 6) + 1);
	}
	char *rc = strstr(buf, "-rc");
	if (rc) {
		v->rc = true;
		const char *num = rc + 3;
		unsigned n;
		if (*num == '\0')
			v->rcnum = 0;
		else if (parse_uint(num, num + strlen(num), &n))
			v->rcnum = (long long)n;
		else
			v->rcnum = -1;
		*rc = '\0';
	}
	const char *p = buf;
	while (*p) {
		const char *e = strchr(p, '.');
		if (!e)
			e = p + strlen(p);
		unsigned n;
		if (parse_uint(p, e, &n) && v->ncomp < KVER_MAXCOMP)
			v->comp[v->ncomp++] = n;
		p = *e ? e + 1 : e;
	}
}

static bool old_era(const struct kver *v)
{
	return v->ncomp >= 2 && v->comp[0] == 2 && (v->comp[1] == 6 || v->comp[1] == 4);
}

bool kver_is_mainline(const struct kver *v)
{
	if (v->ncomp == 0 || v->comp[0] == 0)
		return false;
	if (v->rc)
		return true;
	if (v->queue)
		return false;
	if (old_era(v))
		return v->ncomp == 3;
	return v->ncomp == 2;
}

char *kver_major(const struct kver *v, char *out, size_t outsz)
{
	if (v->ncomp >= 3 && v->comp[0] == 2 && v->comp[1] == 6)
		text_snprintf(out, outsz, "%u.%u.%u", v->comp[0], v->comp[1], v->comp[2]);
	else if (v->ncomp >= 2)
		text_snprintf(out, outsz, "%u.%u", v->comp[0], v->comp[1]);
	else
		out[0] = '\0';
	return out;
}

/* The major as numbers ("2.6.N" or "X.Y"); 0 components when unknown. Comparing numbers
 * instead of formatted strings keeps kver_cmp() cheap: checks compare millions of versions. */
static int major_of(const struct kver *v, unsigned m[3])
{
	if (v->ncomp >= 3 && v->comp[0] == 2 && v->comp[1] == 6) {
		m[0] = 2, m[1] = 6, m[2] = v->comp[2];
		return 3;
	}
	if (v->ncomp >= 2) {
		m[0] = v->comp[0], m[1] = v->comp[1], m[2] = 0;
		return 2;
	}
	return 0;
}

bool kver_same_major(const struct kver *a, const struct kver *b)
{
	unsigned x[3] = {0}, y[3] = {0};
	int nx = major_of(a, x), ny = major_of(b, y);
	return nx && nx == ny && x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

int kver_cmp(const struct kver *a, const struct kver *b)
{
	if (kver_same_major(a, b)) {
		bool ma = kver_is_mainline(a), mb = kver_is_mainline(b);
		if (ma && !mb)
			return -1;
		if (!ma && mb)
			return 1;
	}
	int n = a->ncomp > b->ncomp ? a->ncomp : b->ncomp;
	for (int i = 0; i < n; i++) {
		unsigned x = i < a->ncomp ? a->comp[i] : 0;
		unsigned y = i < b->ncomp ? b->comp[i] : 0;
		if (x != y)
			return x < y ? -1 : 1;
	}
	if (a->rc != b->rc)
		return a->rc ? -1 : 1;
	if (a->rc && a->rcnum != b->rcnum)
		return a->rcnum < b->rcnum ? -1 : 1;
	return 0;
}

int kver_cmp_str(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return 0;
	struct kver x, y;
	kver_parse(&x, a);
	kver_parse(&y, b);
	return kver_cmp(&x, &y);
}

bool kver_str_is_mainline(const char *s)
{
	struct kver v;
	kver_parse(&v, s);
	return kver_is_mainline(&v);
}

char *kver_str_major(const char *s, char *out, size_t outsz)
{
	struct kver v;
	kver_parse(&v, s);
	return kver_major(&v, out, outsz);
}

bool kver_str_same_major(const char *a, const char *b)
{
	struct kver x, y;
	kver_parse(&x, a);
	kver_parse(&y, b);
	return kver_same_major(&x, &y);
}

/* "VERSION = 6" -> 6; -1 when the line is not that variable. */
static long make_var(const char *line, const char *var)
{
	size_t n = strlen(var);
	if (strncmp(line, var, n))
		return -1;
	const char *p = line + n;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p++ != '=')
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	char *end;
	long v = strtol(p, &end, 10);
	return end == p || v < 0 || v > 100000 ? -1 : v;
}

bool kver_from_makefile(const char *text, char *out, size_t outsz)
{
	long v[3] = {-1, -1, -1};
	static const char *const vars[] = {"VERSION", "PATCHLEVEL", "SUBLEVEL"};
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		for (int k = 0; k < 3; k++)
			if (v[k] < 0 && (v[k] = make_var(line, vars[k])) >= 0)
				break;
		line = nl ? nl + 1 : NULL;
	}
	if (v[0] < 0 || v[1] < 0)
		return false;
	if (v[2] > 0)
		text_snprintf(out, outsz, "%ld.%ld.%ld", v[0], v[1], v[2]);
	else
		text_snprintf(out, outsz, "%ld.%ld", v[0], v[1]);
	return true;
}
