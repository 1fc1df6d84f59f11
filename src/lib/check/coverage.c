/* Coverage warnings: see check/coverage.h. */
#include "check/coverage.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/version.h"

struct cov_scan {
	unsigned major, minor;
	long long max_patch;   /* newest X.Y.Z patch named on the branch, -1 when none */
	unsigned top_major, top_minor; /* newest branch any record names */
};

static void note(struct cov_scan *c, const char *s)
{
	if (!s || !*s || !strcmp(s, "0"))
		return;
	struct kver v;
	kver_parse(&v, s);
	if (v.ncomp < 2 || v.queue)
		return;
	if (v.comp[0] > c->top_major || (v.comp[0] == c->top_major && v.comp[1] > c->top_minor)) {
		c->top_major = v.comp[0];
		c->top_minor = v.comp[1];
	}
	if (v.comp[0] != c->major || v.comp[1] != c->minor)
		return;
	long long p = v.ncomp >= 3 ? (long long)v.comp[2] : 0;
	if (p > c->max_patch)
		c->max_patch = p;
}

int ck_coverage_of(const struct ck_set *s, const char *release, struct ck_coverage *out)
{
	memset(out, 0, sizeof *out);
	struct kver v;
	kver_parse(&v, release);
	if (v.ncomp < 2 || s->n == 0)
		return 0;
	struct cov_scan c = {.major = v.comp[0], .minor = v.comp[1], .max_patch = -1};
	for (size_t i = 0; i < s->n; i++) {
		const struct ck_record *r = &s->v[i];
		for (size_t k = 0; k < r->pairs.n; k++) {
			note(&c, r->pairs.v[k].vver);
			note(&c, r->pairs.v[k].fver);
		}
		for (size_t p = 0; p < r->nprod; p++)
			for (size_t k = 0; k < r->prod[p].n; k++) {
				const struct ck_range *g = &r->prod[p].v[k];
				if (g->type != CK_VT_SEMVER && g->type != CK_VT_OCFF)
					continue;
				note(&c, g->version);
				note(&c, g->less_than);
				note(&c, g->less_equal);
			}
	}
	long long patch = v.ncomp >= 3 ? (long long)v.comp[2] : 0;
	bool newer_branch = v.comp[0] > c.top_major ||
			    (v.comp[0] == c.top_major && v.comp[1] > c.top_minor);
	if (c.max_patch < 0 && newer_branch) {
		out->kind = "newer";
		snprintf(out->message, sizeof out->message,
			 "%s is on a branch newer than every branch the records know (up to %u.%u); "
			 "later fixes are not counted", release, c.top_major, c.top_minor);
	} else if (c.max_patch < 0) {
		out->kind = "unsupported";
		snprintf(out->message, sizeof out->message,
			 "no record names a %u.%u release: the kernel CNA does not track that branch, "
			 "so no fixes are counted for %s", v.comp[0], v.comp[1], release);
	} else if (patch > c.max_patch + CK_COV_FAR) {
		out->kind = "nonexistent";
		snprintf(out->message, sizeof out->message,
			 "%s is more than %d releases beyond %u.%u.%lld, the newest %u.%u release the "
			 "records know: it may not exist", release, CK_COV_FAR, v.comp[0], v.comp[1],
			 c.max_patch, v.comp[0], v.comp[1]);
	} else if (patch > c.max_patch) {
		out->kind = "newer";
		snprintf(out->message, sizeof out->message,
			 "records know %u.%u up to %u.%u.%lld; later fixes are not counted for %s",
			 v.comp[0], v.comp[1], v.comp[0], v.comp[1], c.max_patch, release);
	}
	return out->kind != NULL;
}
