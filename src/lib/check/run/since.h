/* check --since OLD: the same kernels checked with OLD's records through the same pipeline,
 * the delta per kernel (check/verdict/delta.h) and the previous state the VEX revisions need
 * (docs/check.md "What changed since"). */
#ifndef KCVE_CHECK_SINCE_H
#define KCVE_CHECK_SINCE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "check/emit/csaf.h"
#include "check/emit/vex.h"
#include "check/records/recset.h"
#include "check/run/pipeline.h"
#include "check/verdict/delta.h"
#include "core/error.h"

struct ck_since {
	const char *label;       /* OLD as given */
	struct ck_set old;
	struct ck_pipeline pl;   /* OLD's: no coverage warnings (they are the current run's) */
	struct ck_result *ores;  /* OLD's result per kernel */
	struct ck_delta *deltas; /* the delta per kernel */
	size_t n, alloc;
	struct ck_vex_since vex; /* for ck_vex_opts.since (after ck_since_finish) */
	struct ck_csaf_since csaf;
};

/* Load OLD (a record tree or a database) and the previous OpenVEX document since_vex (NULL:
 * derived from OLD in ck_since_finish). */
int ck_since_open(struct ck_since *S, const char *old, const char *since_vex,
		  struct kcve_err *err);
/* Check kernel k with OLD's records and compare with its current result cur (of the records
 * cur_set); call once per kernel, in order.  0, or the error of a stage. */
int ck_since_kernel(struct ck_since *S, const struct ck_set *cur_set, const struct ck_kernel *k,
		    const struct ck_result *cur, struct kcve_err *err);
/* After every kernel: the CSAF revision inputs, the previous OpenVEX document (--since-vex,
 * else OLD's, dated by OLD's age; vo names the kernels as the current document will), and the
 * entries of the current results res[0..nres) (of the records cur) that document stated
 * marked (ck_vex_mark_stated), so that every VEX format renews the same statements. */
int ck_since_finish(struct ck_since *S, const struct ck_set *cur, struct ck_result *res,
		    size_t nres, const struct ck_vex_opts *vo, struct kcve_err *err);
void ck_since_close(struct ck_since *S);

#endif
