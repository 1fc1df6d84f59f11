/* check --since OLD (see since.h). */
#include "check/run/since.h"

#include <string.h>

#include "core/xalloc.h"

int ck_since_open(struct ck_since *S, const char *old, const char *since_vex,
		  struct kcve_err *err)
{
	memset(S, 0, sizeof *S);
	S->label = old;
	/* the previous document first: a bad one is refused before any work */
	if (since_vex && ck_openvex_load(since_vex, &S->vex.prev, err))
		return err->code ? err->code : KCVE_E_PARSE;
	if (ck_delta_load_old(old, &S->old, err)) {
		json_decref(S->vex.prev);
		S->vex.prev = NULL;
		return err->code ? err->code : KCVE_E_GENERIC;
	}
	S->pl.set = &S->old;
	return 0;
}

int ck_since_kernel(struct ck_since *S, const struct ck_set *cur_set, const struct ck_kernel *k,
		    const struct ck_result *cur, struct kcve_err *err)
{
	XGROW(S->ores, S->n + 1, S->alloc);
	S->deltas = xrealloc(S->deltas, S->alloc * sizeof *S->deltas);
	struct ck_result *o = &S->ores[S->n];
	memset(o, 0, sizeof *o);
	int rc = ck_pipeline_run(&S->pl, k, o, err);
	if (rc) {
		ck_result_release(o);
		return rc;
	}
	/* rejected records are under the current tree's cve/rejected/ (a database has none) */
	ck_delta_compute(&S->old, o, cur_set, cur, cur_set->is_db ? NULL : cur_set->origin,
			 &S->deltas[S->n]);
	S->n++;
	return 0;
}

int ck_since_finish(struct ck_since *S, const struct ck_set *cur, struct ck_result *res,
		    size_t nres, const struct ck_vex_opts *vo, struct kcve_err *err)
{
	long long t = ck_set_time(&S->old);
	S->vex.deltas = S->deltas;
	S->vex.label = S->label;
	(void)err;
	if (!S->vex.prev) { /* the document OLD gives, dated by OLD's age */
		struct ck_vex_opts ov = *vo;
		ov.since = NULL;
		S->vex.prev = ck_openvex_document(&S->old, S->ores, S->n, &ov, t ? t : ck_vex_now());
	}
	/* what it stated is stated again, in every VEX format (check/verdict/statement.h) */
	struct ck_vex_opts nv = *vo;
	nv.since = &S->vex;
	ck_vex_mark_stated(cur, res, nres, &nv);
	S->csaf.deltas = S->deltas;
	S->csaf.label = S->label;
	S->csaf.old_time = t;
	return 0;
}

void ck_since_close(struct ck_since *S)
{
	for (size_t i = 0; i < S->n; i++) {
		ck_result_release(&S->ores[i]);
		ck_delta_release(&S->deltas[i]);
	}
	free(S->ores);
	free(S->deltas);
	json_decref(S->vex.prev);
	ck_set_release(&S->old);
	memset(S, 0, sizeof *S);
}
