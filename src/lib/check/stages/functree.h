/* The functions of a fix fingerprint without function lists (`db build --patches`), read in
 * the --source tree (the rules: check/stages/funclevel.h, ck_fix_funcs_fprints). */
#ifndef KCVE_CHECK_FUNCTREE_H
#define KCVE_CHECK_FUNCTREE_H

#include <stdbool.h>

#include "check/stages/funclevel.h"
#include "codefix/fprint.h"

struct ck_code;
/* Fill out with the functions of fingerprint fp (of set cs) read in the tree at source, per
 * hunk at the place code (the code stage's reading, NULL: none) found it, else by its header.
 * False when the tree cannot be opened. */
bool ck_fix_funcs_tree(const char *source, const struct cf_set *cs, const struct cf_fp *fp,
		       const struct ck_code *code, struct fl_fix *out);

#endif
