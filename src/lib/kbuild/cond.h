/* The condition algebra of the symbolic (condition export) evaluation.  A condition is a string:
 * "y" (always), "n" (never), "unknown", a conjunction of literals "CONFIG_A && !CONFIG_B", or a
 * parenthesised and/or of those; anything longer than 1500 bytes becomes "unknown".
 * A leaf: it depends on nothing else in kbuild. */
#ifndef KCVE_KBUILD_COND_H
#define KCVE_KBUILD_COND_H

#include <stdbool.h>
#include <stddef.h>

/* Conjunction of the literals ("CONFIG_A", "!CONFIG_B") found in syms, deduplicated, in order;
 * " && CONFIG_A CONFIG_B" -> "CONFIG_A && CONFIG_B", none -> "y".  Caller frees. */
char *kbt_cond_from_syms(const char *syms);
/* a && b, a || b, simplified where y, unknown or equal operands allow.  Caller frees. */
char *kbt_cond_and(const char *a, const char *b);
char *kbt_cond_or(const char *a, const char *b);

/* !a, simplified for y, n, unknown and single literals.  Caller frees. */
char *kbt_cond_not(const char *a);
/* The condition a truth table over k CONFIG symbols (k <= KBT_COND_TABLE_MAX) describes:
 * truth[r] for each of the kbt_cond_rows(k) = 4^k rows, whose base-4 digit i (least significant
 * first) is symbol i's value: 0 = y, 1 = m, 2 = unset, 3 = any other value (a string or number).
 * Written as an or of conjunctions of factors: "CONFIG_A" (set, whatever the value),
 * "!CONFIG_A" (unset), "CONFIG_A=y", "CONFIG_A=m", their negations and parenthesised ors of
 * those; "y" or "n" when constant.  Caller frees. */
#define KBT_COND_TABLE_MAX 3
size_t kbt_cond_rows(size_t k);
char *kbt_cond_from_table(const char *const *syms, size_t k, const bool *truth);

#endif
