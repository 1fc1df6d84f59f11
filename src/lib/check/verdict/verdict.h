/* Is a kernel release affected by a record?  Two readings of the same record:
 *
 * 1. The published CVE JSON record, read per branch (the verdict, by default).  For each
 *    vendor/product "Linux" entry of "affected": walk "versions" in order, the first entry that
 *    matches decides, else defaultStatus.  A point entry {version} matches only that exact
 *    release; a range matches version <= X < lessThan or version <= X <= lessThanOrEqual, with
 *    "*" = infinity, except where the kernel CNA's generator (bippy) means a single branch:
 *      - "F <= P.*" with a stable F bounds F's branch (5.10.231 <= 5.10.* is 5.10.z, z >= 231;
 *        2.6.32.5 <= 2.6.* is 2.6.32.z, z >= 5 -- not 2.6.33);
 *      - "0 < F" (or <=) with a stable F bounds F's branch only: bippy writes one per stable
 *        branch when the introducing commit is unknown; read literally it would call every older
 *        branch affected.
 *    versionType git entries are skipped (a release is not a commit); original_commit_for_fix
 *    compares like semver.  The record is affected if any product says affected, unaffected if
 *    one says unaffected, else the JSON cannot decide.
 * 2. The .dyad pairs (used only when the JSON cannot decide).  A pair "V:VG:F:FG" says:
 *    introduced by release V, fixed by release F on that branch.  Release A "is in" release X
 *    (version-only ancestry, as strak does it): A = "0" is in everything; on the same branch
 *    (same X.Y) A <= X; across branches only a mainline A older than X is in X.  X is affected
 *    when some pair's introduction is in X and no such pair's fix is in X.  Same-version pairs
 *    are ignored, as bippy ignores them.  (This rule lets a mainline fix close an interval that
 *    a later re-introduction opened again: the JSON encodes such gaps, the pairs do not.)
 *
 * -rc kernels: X.Y-rcN holds only part of what the records date "X.Y".  Both readings are
 * evaluated with none and with all of X.Y; when the ends differ (or a same-release X.Y pair
 * exists) the verdict is CK_ST_UNDECIDED: "unknown (needs --git)". */
#ifndef KCVE_CHECK_VERDICT_H
#define KCVE_CHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "check/records/record.h"
#include "core/error.h"
#include "core/version.h"

/* Plain (uncompiled) forms of the two readings, without the -rc rule: the reference the
 * compiled forms are checked against (unit tests, fuzzer).
 * CK_ST_AFFECTED / CK_ST_UNAFFECTED; CK_ST_UNKNOWN when the record has no usable pair. */
enum ck_vstatus ck_dyad_verdict(const struct ck_pairs *pairs, const struct kver *v);
/* CK_ST_AFFECTED / CK_ST_UNAFFECTED / CK_ST_UNKNOWN (no product could decide). */
enum ck_vstatus ck_semver_verdict(const struct ck_record *r, const struct kver *v);
/* kver_parse() with a fast path for plain release strings (same result). */
void ck_kver_parse(struct kver *v, const char *s);
/* Verdicts of a record from its parsed (compiled) pairs and ranges: same results as
 * ck_dyad_verdict(&r->pairs, v) / ck_semver_verdict(r, v), without re-parsing version strings
 * for every checked release.  `introduced` (optional) tells fixed from never introduced. */
enum ck_vstatus ck_record_dyad_verdict(struct ck_record *r, const struct kver *v, bool *introduced);
enum ck_vstatus ck_record_semver_verdict(struct ck_record *r, const struct kver *v);

/* Which JSON entry decided: product index, entry index (-1 = defaultStatus), and whether it
 * is an unaffected range starting at a fix release. */
struct ck_json_why {
	int prod, entry;
	bool fixed;
};
enum ck_vstatus ck_record_json_verdict(struct ck_record *r, const struct kver *v,
				       struct ck_json_why *why);
void ck_json_why_text(const struct ck_record *r, const struct ck_json_why *w, char *buf, size_t n);

/* --reading: json (default), dyad, or either (affected if one of them says so). */
enum ck_reading { CK_READ_JSON = 0, CK_READ_DYAD = 1, CK_READ_EITHER = 2 };
/* "json"/"dyad"/"either" -> reading; false when unknown. */
bool ck_reading_parse(const char *s, enum ck_reading *out);
/* The name of a reading ("json" for a value out of range). */
const char *ck_reading_name(enum ck_reading rd);

struct ck_readings {
	enum ck_vstatus json, dyad; /* the two readings */
	enum ck_vstatus verdict;    /* the one --reading selects (falls back to the other when
				     * the selected reading cannot decide) */
	bool introduced;            /* some pair's introduction is in the release */
	bool fixed;                 /* unaffected because a fix is in (vs never introduced) */
	struct ck_json_why why;
};
void ck_record_readings(struct ck_record *r, const struct kver *v, enum ck_reading rd,
			struct ck_readings *out);
/* Release a is "in" release x (see above). */
bool ck_release_in(const char *a, const struct kver *x);

/* Smallest release on x's branch, newer than x, for which the record is no longer affected by
 * reading rd (candidates: the pairs' fixed versions and the JSON's fix bounds); false if the
 * branch has no such fix.  out >= 32 bytes. */
bool ck_branch_fix(struct ck_record *r, const struct kver *x, enum ck_reading rd, char *out,
		   size_t outsz);


#endif
