/* The one VEX statement of a checked entry (see check/verdict/statement.h). */
#include "check/verdict/statement.h"

#include <string.h>

#include "core/assert.h"

void ck_vex_stmt_of(const struct ck_entry *e, bool all, struct ck_vex_stmt *out)
{
	out->just = CK_VEX_JUST_NONE;
	bool applies = true; /* listed without --all */
	switch ((enum ck_outcome)e->outcome) {
	case CK_OUT_AFFECTED:
		out->status = CK_VEX_AFFECTED;
		break;
	case CK_OUT_UNKNOWN:
	case CK_OUT_NO_DATA:
		out->status = CK_VEX_UNDER_INVESTIGATION;
		break;
	case CK_OUT_NOT_COMPILED:
		out->status = CK_VEX_NOT_AFFECTED;
		out->just = CK_VEX_JUST_CODE_NOT_PRESENT;
		break;
	case CK_OUT_MITIGATED:
		out->status = CK_VEX_NOT_AFFECTED;
		out->just = CK_VEX_JUST_INLINE_MITIGATION;
		break;
	case CK_OUT_NOT_INTRODUCED:
		out->status = CK_VEX_NOT_AFFECTED;
		out->just = CK_VEX_JUST_CODE_NOT_PRESENT;
		applies = false;
		break;
	case CK_OUT_FIXED:
		/* the code stage found the fix in the tree: the vulnerable code is not there (a
		 * release or git history that has the fix: fixed) */
		if (e->stage && !strcmp(e->stage, "code")) {
			out->status = CK_VEX_NOT_AFFECTED;
			out->just = CK_VEX_JUST_CODE_NOT_PRESENT;
		} else {
			out->status = CK_VEX_FIXED;
		}
		applies = false;
		break;
	default:
		KCVE_ASSERT(!"an entry without an outcome");
		out->status = CK_VEX_UNDER_INVESTIGATION; /* the cautious answer */
		break;
	}
	out->listed = all || applies || e->stated;
}

enum ck_vex_scope ck_vex_scope_of(const struct ck_result *res, size_t nres, bool all,
				  const struct ck_delta *deltas)
{
	bool entries = false;
	for (size_t k = 0; k < nres; k++) {
		for (size_t i = 0; deltas && i < deltas[k].n; i++)
			if (deltas[k].v[i].rejected) /* a withdrawn statement */
				return CK_VEX_SCOPE_LISTED;
		for (size_t i = 0; i < res[k].n; i++) {
			struct ck_vex_stmt vs;
			ck_vex_stmt_of(&res[k].e[i], all, &vs);
			if (vs.listed)
				return CK_VEX_SCOPE_LISTED;
			entries = true;
		}
	}
	return entries ? CK_VEX_SCOPE_WIDENED : CK_VEX_SCOPE_NOTHING;
}

bool ck_vex_doc_all(const struct ck_result *res, size_t nres, bool all,
		    const struct ck_delta *deltas)
{
	return all || ck_vex_scope_of(res, nres, all, deltas) == CK_VEX_SCOPE_WIDENED;
}

const char *ck_vex_status_name(enum ck_vex_status s)
{
	switch (s) {
	case CK_VEX_AFFECTED: return "affected";
	case CK_VEX_UNDER_INVESTIGATION: return "under_investigation";
	case CK_VEX_NOT_AFFECTED: return "not_affected";
	case CK_VEX_FIXED: return "fixed";
	}
	return "under_investigation";
}
