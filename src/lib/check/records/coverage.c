/* Coverage warnings: see check/records/coverage.h. */
#include "check/records/coverage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/xalloc.h"
#include "policy/branches.h"
#include "core/text.h"

/* Branch key and patch number of a release string ("6.1.119" -> 6.1 and 119, "6.8-rc3" -> 6.8
 * and 0, "2.6.32.5" -> 2.6.32 and 5); false when it names no release ("0", "*", "6.1-queue").
 * A plain digit scan, not kver_parse(): the index reads some 200,000 strings per check of the
 * whole record set, and stops at what kver_parse() drops (-rcN, .*). */
#define KEY_BITS 21
static bool branch_patch(const char *s, unsigned long long *key, long long *patch)
{
	if (!s)
		return false;
	unsigned long long c[4];
	int n = 0;
	const char *p = s;
	while (n < 4 && *p >= '0' && *p <= '9') {
		unsigned long long v = 0;
		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (unsigned)(*p++ - '0');
			if (v >= 1ULL << KEY_BITS)
				return false;
		}
		c[n++] = v;
		if (*p != '.')
			break;
		p++;
	}
	if (n < 2 || (*p == '-' && strstr(p, "-queue")))
		return false;
	bool old = c[0] == 2 && c[1] == 6;
	if (old && n < 3)
		return false;
	*key = c[0] << (2 * KEY_BITS) | c[1] << KEY_BITS | (old ? c[2] : 0);
	int mainline = old ? 3 : 2;
	*patch = n > mainline ? (long long)c[mainline] : 0;
	return true;
}

static void key_name(unsigned long long key, char out[32])
{
	unsigned long long m = (1ULL << KEY_BITS) - 1;
	unsigned long long a = key >> (2 * KEY_BITS), b = key >> KEY_BITS & m, c = key & m;
	if (a == 2 && b == 6)
		text_snprintf(out, 32, "%llu.%llu.%llu", a, b, c);
	else
		text_snprintf(out, 32, "%llu.%llu", a, b);
}

static int cmp_branch(const void *a, const void *b)
{
	unsigned long long x = ((const struct ck_cov_branch *)a)->key;
	unsigned long long y = ((const struct ck_cov_branch *)b)->key;
	return x < y ? -1 : x > y;
}

/* Branches seen so far: an open-addressing table keyed by the branch numbers (a record's
 * strings alternate between branches, so a list searched per string cost a sixth of a check). */
struct ix_build {
	struct ck_cov_branch *t; /* key 0 = empty slot (no branch has key 0: 0.0 is no release) */
	size_t mask, n;
};

static size_t slot_of(const struct ix_build *b, unsigned long long key)
{
	size_t h = (size_t)((key * 0x9E3779B97F4A7C15ULL) >> 40) & b->mask;
	while (b->t[h].key && b->t[h].key != key)
		h = (h + 1) & b->mask;
	return h;
}

static void ix_grow(struct ix_build *b)
{
	struct ix_build old = *b;
	b->mask = old.mask ? 2 * old.mask + 1 : 255;
	b->t = xcalloc(b->mask + 1, sizeof *b->t);
	for (size_t i = 0; old.t && i <= old.mask; i++)
		if (old.t[i].key)
			b->t[slot_of(b, old.t[i].key)] = old.t[i];
	free(old.t);
}

static void note(struct ix_build *b, const char *s)
{
	unsigned long long key;
	long long patch;
	if (!branch_patch(s, &key, &patch) || !key)
		return;
	if (2 * (b->n + 1) > b->mask)
		ix_grow(b);
	struct ck_cov_branch *e = &b->t[slot_of(b, key)];
	if (!e->key) {
		e->key = key;
		e->max_patch = patch;
		b->n++;
	} else if (patch > e->max_patch) {
		e->max_patch = patch;
	}
}

void ck_cov_index_build(struct ck_cov_index *ix, const struct ck_set *s)
{
	if (s->has_covix) {
		ix->v = xcalloc(s->ncovix + 1, sizeof *ix->v);
		memcpy(ix->v, s->covix, s->ncovix * sizeof *ix->v);
		ix->n = s->ncovix;
		return;
	}
	ck_cov_index_scan(ix, s);
}

void ck_cov_index_scan(struct ck_cov_index *ix, const struct ck_set *s)
{
	struct ix_build b = {0};
	for (size_t i = 0; i < s->n; i++) {
		const struct ck_record *r = &s->v[i];
		for (size_t k = 0; k < r->pairs.n; k++) {
			note(&b, r->pairs.v[k].vver);
			note(&b, r->pairs.v[k].fver);
		}
		for (size_t p = 0; p < r->nprod; p++)
			for (size_t k = 0; k < r->prod[p].n; k++) {
				const struct ck_range *g = &r->prod[p].v[k];
				if (g->type != CK_VT_SEMVER && g->type != CK_VT_OCFF)
					continue;
				note(&b, g->version);
				note(&b, g->less_than);
				note(&b, g->less_equal);
			}
	}
	ix->v = xcalloc(b.n + 1, sizeof *ix->v);
	ix->n = 0;
	for (size_t i = 0; b.t && i <= b.mask; i++)
		if (b.t[i].key)
			ix->v[ix->n++] = b.t[i];
	free(b.t);
	if (ix->n)
		qsort(ix->v, ix->n, sizeof *ix->v, cmp_branch);
}

void ck_cov_index_release(struct ck_cov_index *ix)
{
	free(ix->v);
	memset(ix, 0, sizeof *ix);
}

static const struct ck_cov_branch *find_branch(const struct ck_cov_index *ix,
					       unsigned long long key)
{
	size_t lo = 0, hi = ix->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ix->v[mid].key == key)
			return &ix->v[mid];
		if (ix->v[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void day_of(long long t, char out[16])
{
	time_t tt = (time_t)t;
	struct tm tm;
	if (!gmtime_r(&tt, &tm) || !strftime(out, 16, "%Y-%m-%d", &tm))
		text_snprintf(out, 16, "?");
}

/* Why the supported-branch data calls the branch unsupported (it does: checked by the caller). */
static void unsupported_why(const struct branch_policy *bp, const char *major, char *why, size_t n)
{
	for (size_t i = 0; i < bp->n; i++) {
		const struct branch_row *r = &bp->v[i];
		if (strcmp(r->branch, major))
			continue;
		if (r->eol_day >= 0) {
			char day[16];
			day_of(r->eol_day * 86400, day);
			text_snprintf(why, n, "end of life since %s in scripts/kcve-eol", day);
		} else if (r->iseol) {
			text_snprintf(why, n, "end of life in kernel.org's releases.json");
		} else {
			text_snprintf(why, n, "no moniker in the supported-branch data");
		}
		return;
	}
	text_snprintf(why, n, "not among the branches of the supported-branch data");
}

size_t ck_coverage_of(const struct ck_cov_index *ix, const struct ck_set *s, const char *release,
		      long long now, struct ck_coverage *out, size_t max)
{
	size_t n = 0;
	unsigned long long key;
	long long patch;
	if (!max || !branch_patch(release, &key, &patch) || s->n == 0)
		return 0;
	char major[32], top[32] = "";
	key_name(key, major);
	if (ix->n)
		key_name(ix->v[ix->n - 1].key, top);
	const struct ck_cov_branch *b = find_branch(ix, key);
	bool newer_branch = !ix->n || key > ix->v[ix->n - 1].key;
	bool have_data = s->branches.has_data;
	if (!b && newer_branch) {
		out[n].kind = "newer";
		text_snprintf(out[n++].message, sizeof out->message,
			 "%s is on a branch newer than every branch the records know (up to %s); "
			 "later fixes are not counted", release, top);
	} else if (!b && !have_data) {
		out[n].kind = "unsupported";
		text_snprintf(out[n++].message, sizeof out->message,
			 "no record names a %s release: the kernel CNA does not track that branch, "
			 "so no fixes are counted for %s (judged from the records: they carry no "
			 "supported-branch data, see 'kcve branches import')", major, release);
	} else if (b && patch > b->max_patch) {
		char newest[64];
		if (b->max_patch)
			text_snprintf(newest, sizeof newest, "%s.%lld", major, b->max_patch);
		else
			text_snprintf(newest, sizeof newest, "%s", major);
		bool far = patch > b->max_patch + CK_COV_FAR;
		out[n].kind = far ? "nonexistent" : "newer";
		if (far)
			text_snprintf(out[n++].message, sizeof out->message,
				 "%s is more than %d releases beyond %s, the newest %s release the "
				 "records know: it may not exist", release, CK_COV_FAR, newest, major);
		else
			text_snprintf(out[n++].message, sizeof out->message,
				 "records know %s up to %s; later fixes are not counted for %s", major,
				 newest, release);
	}
	/* Without supported-branch data one fact still holds: a branch that had reached its end
	 * of life before the kernel CNA began (policy/branches.h) never had a fix tracked, even
	 * though records name its releases (fixes of 2021 and earlier got CVEs in 2024). */
	if (!have_data && b && branch_ended_before_cna(major) && n < max) {
		out[n].kind = "unsupported";
		text_snprintf(out[n++].message, sizeof out->message,
			 "%s had reached its end of life when the kernel CNA began (February 2024): no "
			 "fixes are tracked for it, so later ones are not counted for %s (the records "
			 "carry no supported-branch data, see 'kcve branches import')", major, release);
	}
	if (have_data && n < max && !branch_policy_supported(&s->branches, major, (time_t)now)) {
		char why[96];
		unsupported_why(&s->branches, major, why, sizeof why);
		out[n].kind = "unsupported";
		text_snprintf(out[n++].message, sizeof out->message,
			 "%s is not a branch the kernel CNA supports (%s; 'kcve branches list'): no "
			 "fixes are tracked for it, so later ones are not counted for %s", major, why,
			 release);
	}
	return n;
}

/* "git HEAD commit is from D" / "newest record date, datePublished or dateUpdated, is D" */
static void tree_source(const struct ck_set *s, char *buf, size_t n)
{
	char day[16];
	if (s->tree_head > 0) {
		day_of(s->tree_head, day);
		text_snprintf(buf, n, "git HEAD commit is from %s", day);
	} else {
		day_of(s->newest_record, day);
		text_snprintf(buf, n, "newest record date, datePublished or dateUpdated, is %s", day);
	}
}

int ck_coverage_age(const struct ck_set *s, long long now, long max_days, struct ck_coverage *out)
{
	if (max_days < 0)
		return 0;
	const char *name = s->origin ? s->origin : "the records";
	long long data = s->tree_head > 0 ? s->tree_head : s->newest_record;
	long long when;
	char src[224], tsrc[160];
	if (s->is_db && (s->db_format < 2 || (s->built <= 0 && data <= 0))) {
		out->kind = "age-unknown";
		text_snprintf(out->message, sizeof out->message,
			 "the age of database %s is unknown: it was written by an older kcve (database "
			 "format %u) that did not record when it was built; rebuild it with 'kcve db "
			 "build' to have its age checked", name, s->db_format);
		return 1;
	}
	if (!s->is_db && data <= 0) {
		out->kind = "age-unknown";
		text_snprintf(out->message, sizeof out->message,
			 "the age of the record tree %s is unknown: it is not a git checkout and no "
			 "record carries a datePublished or dateUpdated date", name);
		return 1;
	}
	if (data > 0)
		tree_source(s, tsrc, sizeof tsrc);
	if (s->is_db) {
		char built[16];
		day_of(s->built, built);
		when = s->built > 0 && (data <= 0 || s->built < data) ? s->built : data;
		if (data > 0 && s->built > 0)
			text_snprintf(src, sizeof src, "built %s from a record tree whose %s", built, tsrc);
		else if (data > 0)
			text_snprintf(src, sizeof src, "from a record tree whose %s", tsrc);
		else
			text_snprintf(src, sizeof src, "built %s", built);
	} else {
		when = data;
		text_snprintf(src, sizeof src, "its %s%s", tsrc,
			 s->tree_head > 0 ? "" : "; no git HEAD commit dates it");
	}
	long long days = (now - when) / 86400;
	if (days <= max_days)
		return 0;
	out->kind = "stale";
	if (s->is_db)
		text_snprintf(out->message, sizeof out->message,
			 "database %s is %lld days old (%s); rebuild it from an updated record tree "
			 "('kcve db build'), or pass --max-age DAYS", name, days, src);
	else
		text_snprintf(out->message, sizeof out->message,
			 "the record tree %s is %lld days old (%s); update it (git pull), or pass "
			 "--max-age DAYS", name, days, src);
	return 1;
}

bool ck_coverage_is_age(const struct ck_coverage *c)
{
	return c->kind && (!strcmp(c->kind, "stale") || !strcmp(c->kind, "age-unknown"));
}

bool ck_coverage_strict(const struct ck_coverage *c)
{
	return c->kind && strcmp(c->kind, "age-unknown") != 0;
}
