/* The version data of a record, derived from the vulnerable:fixed pairs (docs/spec/record.md "Issuance policy",
 * "Product 1", "Product 2", "cpeApplicability", "References"): issuance policy, the two `affected` products (git ranges with defaultStatus
 * "unaffected"; semver ranges with a computed defaultStatus), cpeApplicability matches and
 * the reference URLs. Pure functions of the pairs, so they are unit-testable without git. */
#ifndef KCVE_RECORD_AFFECTED_H
#define KCVE_RECORD_AFFECTED_H

#include <stdbool.h>
#include <stddef.h>

#include "history/dyad_text.h"

#define AFFECTED_UNKNOWN_INTRO "1da177e4c3f41524e886b7f1b8a0c1fc7321cac2"

/* One entry of an `affected[].versions` array; NULL fields are omitted. */
struct vrange {
	char *version;
	char *less_than;
	char *less_than_or_equal;
	const char *status;       /* "affected" / "unaffected" */
	const char *version_type; /* "git", "semver", "original_commit_for_fix" or NULL */
};

struct vrange_list {
	struct vrange *v;
	size_t n, alloc;
};

/* One cpeMatch: versionStartIncluding / versionEndExcluding (NULL = omitted). */
struct cpe_match {
	const char *start, *end;
};

struct affected {
	const char *default_status;  /* of the semver product */
	struct vrange_list git;      /* product 1 (defaultStatus "unaffected") */
	struct vrange_list semver;   /* product 2 */
	struct cpe_match *cpe;
	size_t ncpe;
};

/* Introduced and fixed in the same release (never shipped vulnerable). */
bool affected_same_version(const struct dyad_pair *p);
/* The issuance policy: at least one pair is not a same-version pair. */
bool affected_should_issue(const struct dyad_list *pairs);
/* defaultStatus of the semver product: "affected" or "unaffected". */
const char *affected_default_status(const struct dyad_list *pairs);
/* Compute products and CPE matches (strings in *out point into pairs or are owned by out). */
void affected_compute(const struct dyad_list *pairs, struct affected *out);
void affected_release(struct affected *a);
/* Stable sort of semver ranges: status text, then original_commit_for_fix last when both are
 * typed, then kernel version order. */
void affected_sort_ranges(struct vrange *v, size_t n);

/* A list of URLs without duplicates, in insertion order. */
struct url_list {
	char **v;
	size_t n, alloc;
};
void url_list_add(struct url_list *l, const char *url);   /* ignored if already present */
void url_list_release(struct url_list *l);
/* JSON references: fix URLs in pair order, then extra, else the main fix's URL. */
void affected_json_refs(const struct dyad_list *pairs, const char *const *extra, size_t nextra,
			const char *main_sha, struct url_list *out);
/* Mbox links: other fixes sorted by fixed version, then the main fix, then extra. */
void affected_mbox_refs(const struct dyad_list *pairs, const char *const *extra, size_t nextra,
			const char *main_sha, struct url_list *out);

#endif
