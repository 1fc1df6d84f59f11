/* VEX documents of a check result that scanners can match (docs/check.md "VEX"):
 * OpenVEX 0.2.0 and CycloneDX 1.5, the kernel named the way SBOM generators name it
 * (purl pkg:generic/linux-kernel@VERSION, CPE cpe:2.3:o:linux:linux_kernel:VERSION), or bound
 * to the kernel component of an existing SBOM (CycloneDX BOM-Link, the component's purl). */
#ifndef KCVE_CHECK_VEX_H
#define KCVE_CHECK_VEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "check/inputs/sbom.h"
#include "check/records/recset.h"
#include "check/verdict/check.h"
#include "check/verdict/delta.h"
#include "core/diag.h"
#include "core/error.h"
#include "core/kjson.h"

/* A revision of an earlier OpenVEX document (check --since OLD). */
struct ck_vex_since {
	json_t *prev;                  /* the previous document: --since-vex FILE, or the one OLD's
				        * records give (ck_openvex_document on OLD's results) */
	const struct ck_delta *deltas; /* one per result: rejected CVEs get withdrawn statements */
	const char *label;             /* OLD as given */
};

struct ck_vex_opts {
	bool all;                 /* also records that do not apply */
	const char *product;      /* purl; without "@" the release is appended (NULL: default) */
	const char *cpe;          /* CPE 2.3 prefix (part:vendor:product) or a full CPE (NULL: default) */
	const char *author, *role; /* document author and role (NULL: placeholder / none) */
	const struct ck_sbom *sbom; /* bind the statements to this SBOM component, or NULL */
	const struct ck_vex_since *since; /* a revision of a previous document, or NULL */
	const struct kcve_diag *diag; /* the placeholder-author warning (NULL: the default sink) */
};

#define CK_VEX_DEFAULT_PURL "pkg:generic/linux-kernel"
#define CK_VEX_DEFAULT_CPE "cpe:2.3:o:linux:linux_kernel"
#define CK_VEX_AUTHOR_PLACEHOLDER "UNSET (pass --author 'Organisation <contact>' before publishing)"

/* Shared by the VEX writers (vex.c, csaf.c). */
/* The kernel's identity for one result: purl, CPE 2.3 and the CycloneDX affects ref (the
 * SBOM's BOM-Link when bound to a CycloneDX SBOM, else the purl). */
struct ck_vex_ident {
	char purl[256], cpe[256], ref[512];
};
void ck_vex_identity(const struct ck_result *R, const struct ck_vex_opts *o,
		     struct ck_vex_ident *id);
/* $SOURCE_DATE_EPOCH when set (reproducible documents), else the clock; UTC seconds. */
long long ck_vex_now(void);
/* "YYYY-MM-DDTHH:MM:SSZ" of secs; of ck_vex_now(). */
void ck_vex_time_text(long long secs, char *out, size_t n);
void ck_vex_timestamp(char *out, size_t n);
/* A content-derived RFC 4122 URN: the same document gives the same id. */
void ck_vex_content_uuid(json_t *doc, char out[46]);
/* --author, or the placeholder with a warning to o->diag. */
const char *ck_vex_author(const struct ck_vex_opts *o);
/* Print doc indented (and release it). */
int ck_vex_dump(FILE *f, json_t *doc);
/* https://www.cve.org/CVERecord?id=ID as a JSON string. */
json_t *ck_vex_cve_url(const char *id);

/* Each CVE rejected since OLD (--since: the deltas of res[0..nres), NULL: none) once: its
 * vulnerability make()s, appended to vulns, then add() for every kernel k whose delta says so. */
struct ck_withdrawn_ops {
	json_t *(*make)(void *ctx, const struct ck_delta_entry *e);
	void (*add)(void *ctx, json_t *v, size_t k);
	void *ctx;
};
void ck_vex_withdrawn_each(const struct ck_delta *deltas, size_t nres, json_t *vulns,
			   const struct ck_withdrawn_ops *ops);
/* Mark every entry of res[0..nres) the previous revision (o->since->prev, NULL: none) stated
 * for the same kernel (ck_entry.stated): a revision states it again whatever its outcome
 * (check/verdict/statement.h), in every VEX format. */
void ck_vex_mark_stated(const struct ck_set *s, struct ck_result *res, size_t nres,
			const struct ck_vex_opts *o);
/* The options a writer uses for one document of res[0..nres): o, with all set when nothing
 * would be listed (check/verdict/statement.h ck_vex_scope_of: every record checked is stated,
 * as with --all; deltas: the --since deltas the document withdraws CVEs of, or NULL). Every
 * writer calls it, so the four formats state the same. */
void ck_vex_doc_opts(const struct ck_result *res, size_t nres, const struct ck_vex_opts *o,
		     const struct ck_delta *deltas, struct ck_vex_opts *out);
/* Before writing a VEX document of res[0..nres) with o (o->since set for a revision): when
 * nothing applies, the one warning to o->diag that the document states every record checked,
 * and 0; when there is nothing at all to state (no record, none withdrawn), KCVE_E_EMPTY in err
 * (write nothing then); else 0 and quiet. */
int ck_vex_scope_announce(const struct ck_result *res, size_t nres, const struct ck_vex_opts *o,
			  struct kcve_err *err);
/* The OpenVEX document dated `when`. With o->since: the previous document's @id and first
 * timestamp, its version + 1, last_updated, and a timestamp per statement that stays the
 * previous one where the statement did not change; every statement made before is renewed
 * (entries ck_vex_mark_stated marked: a CVE fixed since is stated "fixed", not dropped), and
 * rejected CVEs get a withdrawn not_affected statement. */
json_t *ck_openvex_document(const struct ck_set *s, struct ck_result *res, size_t nres,
			    const struct ck_vex_opts *o, long long when);
/* Read a previous OpenVEX document (--since-vex), checked for what a revision needs: from a
 * file (a regular file of at most 64 MiB), or from text (name for messages). */
int ck_openvex_load(const char *path, json_t **out, struct kcve_err *err);
int ck_openvex_parse(const char *text, size_t len, const char *name, json_t **out,
		     struct kcve_err *err);
int ck_print_openvex(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		     const struct ck_vex_opts *o);
int ck_print_cyclonedx(FILE *f, const struct ck_set *s, struct ck_result *res, size_t nres,
		       const struct ck_vex_opts *o);

#endif
