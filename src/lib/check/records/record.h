/* One CVE record reduced to what `kcve check` needs.
 *
 * Read either from a record tree (CVE-*.json + .dyad + .sha1, ck_record_read()) or from the
 * compact database (check/records/recset.h describes its format; records/db.c reads it).  The
 * JSON "affected" products decide by default; the .dyad pairs decide when the JSON cannot (or
 * when --reading dyad asks for them), and the other reading is kept beside the verdict so a
 * disagreement is reported (the two readings: check/verdict/verdict.h). */
#ifndef KCVE_CHECK_RECORD_H
#define KCVE_CHECK_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"
#include "history/dyad_text.h"

/* CK_ST_UNDECIDED: an -rc kernel the records cannot place (it may or may not hold a commit the
 * records date to the final release): only --git can tell. */
enum ck_vstatus {
	CK_ST_NONE = 0,
	CK_ST_AFFECTED = 1,
	CK_ST_UNAFFECTED = 2,
	CK_ST_UNKNOWN = 3,
	CK_ST_UNDECIDED = 4,
};
enum ck_vtype { CK_VT_NONE = 0, CK_VT_SEMVER = 1, CK_VT_GIT = 2, CK_VT_OCFF = 3, CK_VT_OTHER = 4 };

/* One entry of a product's "versions" array. Strings are NULL when absent. */
struct ck_range {
	const char *version, *less_than, *less_equal;
	unsigned char status; /* enum ck_vstatus */
	unsigned char type;   /* enum ck_vtype */
};

/* One vulnerable:fixed pair of the record's .dyad, "0" for an unknown release or commit. */
struct ck_pair {
	const char *vver, *vsha, *fver, *fsha;
};

struct ck_pairs {
	struct ck_pair *v;
	size_t n;
};

struct ck_product {
	unsigned char default_status; /* enum ck_vstatus; CK_ST_UNKNOWN when absent (schema default) */
	struct ck_range *v;
	size_t n;
};

struct ck_record {
	const char *id;        /* "CVE-2024-44947" */
	const char *title;     /* "" when absent */
	const char *severity;  /* "CRITICAL"/"HIGH"/"MEDIUM"/"LOW"/"" (from CVSS metrics) */
	unsigned score10;      /* CVSS base score * 10, 0 = none */
	const char *cvss31;    /* the CNA's CVSS 3.1 vector string, NULL or "" when none (CSAF
				* scores need the vector, not only the score) */
	long long published;   /* UTC seconds (cveMetadata.datePublished), 0 = unknown */
	long long updated;     /* UTC seconds (cveMetadata.dateUpdated), 0 = unknown; not kept
				* in a database (its newest value is: ck_set.newest_record) */
	const char **files;    /* programFiles (union over the products, order kept) */
	size_t nfiles;
	const char **fixes;    /* .sha1 lines (first = main fix) */
	size_t nfixes;
	struct ck_pairs pairs;  /* strings in `dyad` (read from a tree) or in a database blob */
	struct dyad_list dyad; /* the parsed .dyad file of a record read from a tree */
	struct ck_product *prod; /* vendor/product Linux entries of "affected" */
	size_t nprod;
	/* 1: the strings were allocated for this record and are freed with it; 0: they point
	 * into a database blob owned by the caller.  Arrays are always owned. */
	int owns_strings;
	/* 1: the arrays (files, fixes, pairs, prod and their ranges) belong to the set's arena */
	int arena_arrays;
	/* Parsed form of pairs and ranges, built on first use by check/verdict/verdict.c as one
	 * allocation (so the record frees it without knowing its layout: freed with r, or
	 * earlier by ck_record_drop_compiled()). */
	struct ck_compiled *cc;
};

/* Parse the JSON text of a record (CVE JSON 5) into r; pairs/fixes are left empty.
 * KCVE_E_PARSE with the reason on malformed input.  `name` is used in messages. */
int ck_record_parse_json(struct ck_record *r, const char *json, size_t len, const char *name,
			 struct kcve_err *err);
/* The files of one record that ck_record_read() reads, by extension: the JSON text (required),
 * the dyad pairs and the fix commits (both optional).  The tree cache (check/records/treecache.h) keys
 * on exactly these. */
enum { CK_REC_JSON, CK_REC_DYAD, CK_REC_SHA1, CK_REC_NFILES };
extern const char *const ck_record_exts[CK_REC_NFILES];
/* Read <dir>/<id>.json, <id>.dyad and <id>.sha1. A missing .dyad means "no pairs". */
int ck_record_read(struct ck_record *r, const char *dir, const char *id, struct kcve_err *err);
void ck_record_release(struct ck_record *r);
/* Free the compiled form of r (r->cc; built again on the next verdict). */
void ck_record_drop_compiled(struct ck_record *r);
/* Point r->pairs at the pairs of r->dyad (after they are parsed or pushed). */
void ck_record_link_pairs(struct ck_record *r);
/* Introduced and fixed in the same release: never shipped vulnerable. */
bool ck_pair_same_release(const struct ck_pair *p);

/* Subsystem used to group output: directory of the first programFile, cut to two path
 * components (three under drivers/, sound/, arch/), e.g. "fs/fuse", "drivers/gpu/drm";
 * without programFiles, the title's prefix before ':' ; else "other".  Writes into out. */
const char *ck_record_subsystem(const struct ck_record *r, char *out, size_t outsz);

#endif
