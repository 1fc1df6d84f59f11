/* Kbuild's file conditions, as a database built with `db build --source` stores them per file
 * (check/records/recset.h), evaluated against a .config by the config stage
 * (check/stages/filestage.h). */
#ifndef KCVE_CHECK_COND_H
#define KCVE_CHECK_COND_H

/* Evaluate a condition ("CONFIG_A && (CONFIG_B || CONFIG_C)", "y", "n", "unknown", "!X")
 * three-valued: 1 true, 0 false, -1 unknown/malformed.  A symbol is true when it is set
 * (get() returns any value: y, m, a string or a number, as make's ifdef reads it);
 * "CONFIG_X=y" / "CONFIG_X=m" test one value; "defined(CONFIG_X)" is the
 * preprocessor's test (set, and not =m, which defines CONFIG_X_MODULE instead). */
int ck_cond_eval(const char *cond, const char *(*get)(void *ctx, const char *sym), void *ctx);

#endif
