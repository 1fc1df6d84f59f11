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
 * state it not_affected and withdrawn (the delta's rejected entries, check/verdict/delta.h). */
#ifndef KCVE_CHECK_STATEMENT_H
#define KCVE_CHECK_STATEMENT_H

#include <stdbool.h>

#include "check/verdict/check.h"

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
/* "affected", "under_investigation", "not_affected", "fixed" (OpenVEX's words). */
const char *ck_vex_status_name(enum ck_vex_status s);

#endif
