/* The condition algebra of the symbolic (condition export) evaluation.  A condition is a string:
 * "y" (always), "n" (never), "unknown", a conjunction of literals "CONFIG_A && !CONFIG_B", or a
 * parenthesised and/or of those; anything longer than 1500 bytes becomes "unknown".
 * A leaf: it depends on nothing else in kbuild. */
#ifndef KCVE_KBUILD_COND_H
#define KCVE_KBUILD_COND_H

#include <stdbool.h>

/* Conjunction of the literals ("CONFIG_A", "!CONFIG_B") found in syms, deduplicated, in order;
 * " && CONFIG_A CONFIG_B" -> "CONFIG_A && CONFIG_B", none -> "y".  Caller frees. */
char *kbt_cond_from_syms(const char *syms);
/* a && b, a || b, simplified where y, unknown or equal operands allow.  Caller frees. */
char *kbt_cond_and(const char *a, const char *b);
char *kbt_cond_or(const char *a, const char *b);
/* " CONFIG_A CONFIG_B" -> the same literals, or with negate the negation of a single literal
 * ("!CONFIG_A"; "" for several, i.e. no condition).  Caller frees. */
char *kbt_literals(const char *syms, bool negate);

#endif
