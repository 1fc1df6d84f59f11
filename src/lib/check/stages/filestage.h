/* File stages of `kcve check`: is a record's programFile compiled in this kernel?
 *
 * Three sources, all answering through ck_files_verdict (a ck_file_fn):
 *  - config + kernel source: kbuild's Kbuild evaluator (kb_tree_*);
 *  - config + compact database built with `kcve db build --source`: the per-file CONFIG
 *    conditions stored in the database, evaluated against the .config (no source needed,
 *    for small systems and --running);
 *  - build directory: the exact compiled set from the .*.cmd files (headers included).
 * The kbuild module does the parsing; this file only adapts it. When kcve is built without
 * the kbuild implementation, every open function fails with a clear message. */
#ifndef KCVE_CHECK_FILESTAGE_H
#define KCVE_CHECK_FILESTAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "check/records/recset.h"
#include "check/verdict/check.h"
#include "core/diag.h"
#include "core/error.h"

struct ck_files;
/* dotconfig may be gzip-compressed (gz = true, e.g. /proc/config.gz).  ksrc NULL: use the
 * conditions of s (error if s has none). arch NULL: from the config. */
int ck_files_open_config(struct ck_files **out, const char *dotconfig, bool gz, const char *ksrc,
			 const char *arch, const struct ck_set *s, struct kcve_err *err);
/* The same from .config text (an SBOM's kernel configuration, check/inputs/spdx3.h); name is
 * used in messages. */
int ck_files_open_config_text(struct ck_files **out, const char *text, size_t len,
			      const char *name, const char *ksrc, const char *arch,
			      const struct ck_set *s, struct kcve_err *err);
/* A build directory's .cmd files; one that cannot be read is a warning to diag (NULL: the
 * default sink, core/diag.h). */
int ck_files_open_build(struct ck_files **out, const char *builddir, const struct kcve_diag *diag,
			struct kcve_err *err);
enum ck_filev ck_files_verdict(void *ctx, const char *path, const char **reason);
/* The compiled files an SPDX 3 SBOM lists (ctx: a finished struct ck_spdx3 with have_files),
 * exact like a build directory's: a file listed is compiled, any other is not, except a
 * header absent from a list made from debug information (Yocto's): unknown. */
enum ck_filev ck_sbom_files_verdict(void *ctx, const char *path, const char **reason);
/* Value of a CONFIG symbol in a config-backed file stage (NULL if unset or no config). */
const char *ck_files_config_value(const struct ck_files *f, const char *sym);
void ck_files_close(struct ck_files *f);

/* Module (as /proc/modules names it) the source file links into: from the Kbuild evaluation
 * when f reads a source tree, else from s's database (built with --source).  False when
 * unknown or not part of a module. */
bool ck_files_module(const struct ck_files *f, const struct ck_set *s, const char *path,
		     char *out, size_t outsz);
/* Whether ck_files_module() can answer at all (a source tree, or a database with modules). */
bool ck_files_have_modules(const struct ck_files *f, const struct ck_set *s);

/* Compute kbuild's per-file conditions for the source tree ksrc and store them in s (for
 * `kcve db build --source`): every .c file of the tree, and every programFile of s's records
 * with the condition reproducing the source-tree verdict and its module name. */
int ck_set_add_conditions(struct ck_set *s, const char *ksrc, struct kcve_err *err);

#endif
