/* A per-file verdict list, as `kcve db files` prints it: one "path<TAB>verdict[<TAB>module]"
 * line per source file, verdict compiled, not-compiled or unknown ('#' lines are comments; the
 * first entry has a verdict, a later line without one is unknown; a file not listed is
 * unknown; a file listed twice has one verdict; no NUL byte).  The input of a file stage
 * named "files" (check/run/kernel.h): `kcve check --files FILE` and a --batch line's FILES. */
#ifndef KCVE_CHECK_FILELIST_H
#define KCVE_CHECK_FILELIST_H

#include <stdbool.h>
#include <stddef.h>

#include "check/verdict/check.h"
#include "core/error.h"

struct ck_filelist;

/* Whether text looks like such a list: its first line that is not a comment or blank is
 * path TAB a verdict. */
bool ck_filelist_looks(const char *text);
/* Parse len bytes of text (copied): the list, or NULL and *error (malloc'd, one line: "line N:
 * verdict '...' is not ...", a first entry without a verdict, a path given two verdicts, a NUL
 * byte, or that the list is empty). */
struct ck_filelist *ck_filelist_parse(const char *text, size_t len, char **error);
/* Read (a bounded regular file) and parse path: 0, or KCVE_E_IO / KCVE_E_PARSE in err. */
int ck_filelist_open(struct ck_filelist **out, const char *path, struct kcve_err *err);
/* A ck_file_fn over the list (ctx: the list). */
enum ck_filev ck_filelist_verdict(void *ctx, const char *path, const char **reason);
void ck_filelist_free(struct ck_filelist *fl);

#endif
