/* The one VEX statement of a checked entry (docs/vex.md): what every VEX writer (OpenVEX,
 * CycloneDX, CSAF, SPDX 3: check/emit/) states about a CVE for one kernel is decided here, once;
 * a writer only translates it into its format's words.
 *
 *   outcome                              status               justification      listed
 *   affected                             affected             -                  yes
 *   unknown, no_data                     under_investigation  -                  yes
 *   not_compiled (files or functions)    not_affected         code not present   yes
 *   mitigated (a modprobe rule)          not_affected         inline mitigation  yes
 *   not_introduced                       not_affected         code not present   --all or stated
 *   fixed, the code stage found the fix  not_affected         code not present   --all or stated
 *   fixed                                fixed                -                  --all or stated
 *
 * "stated": the previous revision of the document stated the entry (check --since OLD,
 * struct ck_entry.stated): a revision renews every statement it made, so a CVE fixed since is
 * stated fixed rather than dropped. A CVE rejected since OLD is not an entry: the writers
 * state it not_affected and withdrawn (the delta's rejected entries, check/verdict/delta.h).
 *
 * A document states at least one thing (the OpenVEX schema requires a statement, CSAF's
 * csaf_vex profile a vulnerability with a product status): when nothing is listed for any of
 * its kernels and nothing is withdrawn (a fully patched kernel), the document states every
 * record checked, exactly as with --all (ck_vex_scope_of, docs/vex.md "When nothing applies");
 * with no record at all there is no document. */
#ifndef KCVE_CHECK_STATEMENT_H
#define KCVE_CHECK_STATEMENT_H

#include <stdbool.h>

#include "check/verdict/check.h"
#include "check/verdict/delta.h"

enum ck_vex_status {
	CK_VEX_AFFECTED = 1,
	CK_VEX_UNDER_INVESTIGATION = 2,
	CK_VEX_NOT_AFFECTED = 3,
	CK_VEX_FIXED = 4,
};

/* Why not affected (CK_VEX_NOT_AFFECTED only). Code not compiled in counts as "vulnerable code
 * not present": the kernel is the product, and code a configuration leaves out is not in it. */
enum ck_vex_just {
	CK_VEX_JUST_NONE = 0,
	CK_VEX_JUST_CODE_NOT_PRESENT = 1,
	CK_VEX_JUST_INLINE_MITIGATION = 2,
};

struct ck_vex_stmt {
	enum ck_vex_status status;
	enum ck_vex_just just;
	bool listed; /* the writers state it (else it is left out of the document) */
};

/* The statement of entry e (of a result); all: --all (every record, not only those that apply). */
void ck_vex_stmt_of(const struct ck_entry *e, bool all, struct ck_vex_stmt *out);
/* What one VEX document of the results res[0..nres) states. */
enum ck_vex_scope {
	CK_VEX_SCOPE_LISTED = 0,  /* the entries ck_vex_stmt_of lists (all as given), and the
				   * withdrawn CVEs */
	CK_VEX_SCOPE_WIDENED = 1, /* none would be listed and none is withdrawn: every entry, as
				   * with --all (the writers pass all = true) */
	CK_VEX_SCOPE_NOTHING = 2, /* no entry and none withdrawn: no document can be written */
};
/* The scope of a document of res[0..nres) with --all as given; deltas: one per result (--since,
 * whose rejected entries are withdrawn statements), or NULL. */
enum ck_vex_scope ck_vex_scope_of(const struct ck_result *res, size_t nres, bool all,
				  const struct ck_delta *deltas);
/* The `all` the writers pass to ck_vex_stmt_of for that document: all, or true when widened. */
bool ck_vex_doc_all(const struct ck_result *res, size_t nres, bool all,
		    const struct ck_delta *deltas);
/* "affected", "under_investigation", "not_affected", "fixed" (OpenVEX's words). */
const char *ck_vex_status_name(enum ck_vex_status s);

#endif
