/* One preprocessor line, read alike by the evaluator (includes.c decides each `#if` from a
 * config) and the path export (pathinfo.c writes it as a condition).  Depends only on the path
 * helpers. */
#ifndef KCVE_KBUILD_PPLINE_H
#define KCVE_KBUILD_PPLINE_H

#include <stdbool.h>
#include <stddef.h>

enum kbt_pp_kind {
	KBT_PP_UNKNOWN, /* any other expression */
	KBT_PP_FALSE,   /* 0 */
	KBT_PP_TRUE,    /* 1 */
	KBT_PP_IS_ENABLED,
	KBT_PP_IS_BUILTIN,
	KBT_PP_IS_MODULE,
	KBT_PP_DEFINED, /* defined(CONFIG_X), defined CONFIG_X, #ifdef CONFIG_X */
};
struct kbt_pp_operand {
	enum kbt_pp_kind kind;
	bool neg;        /* negated ('!', #ifndef) */
	const char *sym; /* CONFIG_X (symlen bytes, not terminated) for the symbol kinds */
	size_t symlen;
};
enum kbt_pp_line_kind {
	KBT_PPL_OTHER,
	KBT_PPL_IF, /* #if, #ifdef, #ifndef: cond */
	KBT_PPL_ELIF,
	KBT_PPL_ELSE,
	KBT_PPL_ENDIF,
	KBT_PPL_INCLUDE_C, /* #include "x.c": include */
};
struct kbt_pp_line {
	enum kbt_pp_line_kind kind;
	const char *text; /* the directive after '#' (len bytes), for messages */
	size_t len;
	struct kbt_pp_operand cond; /* KBT_PPL_IF */
	char *include;              /* KBT_PPL_INCLUDE_C: the .c path normalized against dir; free it */
	char ifdef[160];            /* #ifdef X read as defined(X); cond.sym may point here */
};
/* Read the line at *p and move *p to the next one (an #include is resolved against dir);
 * false at the end of the text. */
bool kbt_pp_next(const char **p, const char *dir, struct kbt_pp_line *out);

#endif
