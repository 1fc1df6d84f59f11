/* Which kernel source files does a given configuration compile?
 *
 * Three independent answers, from cheapest to most exact:
 *  - kb_config_*: a parsed .config (or /proc/config.gz) symbol table;
 *  - kb_tree_*:   a hand-written Kbuild evaluator that walks the kernel source tree from the
 *                 top-level Kbuild and the arch Makefile with that symbol table, following only
 *                 enabled directories, and collects every object (composites included).  Files it
 *                 cannot decide (headers, unevaluable make constructs) are KB_UNKNOWN with a
 *                 reason, never silently "not compiled";
 *  - kb_build_*:  the exact set of compiled sources and headers read from a build directory's
 *                 `.*.cmd` dependency files.
 * Paths are always relative to the kernel source tree ("fs/ext4/inode.c"). */
#ifndef KCVE_KBUILD_KBUILD_H
#define KCVE_KBUILD_KBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "core/error.h"

enum kb_verdict { KB_UNKNOWN = 0, KB_COMPILED = 1, KB_NOT_COMPILED = 2 };

/* "compiled" / "not compiled" / "unknown" */
const char *kb_verdict_name(enum kb_verdict v);

/* ---- .config ----------------------------------------------------------------------------- */
struct kb_config;
/* Parse a .config: `CONFIG_X=value` (y, m, numbers, "quoted strings" with \" and \\ escapes),
 * `# CONFIG_X is not set`, comments and blank lines.  Any other line is an error naming the
 * line number (KCVE_E_PARSE); an unreadable file is KCVE_E_IO. */
int kb_config_load(struct kb_config **out, const char *dotconfig_path, struct kcve_err *err);
/* kb_config_load() reads either form: a file starting with the gzip magic (a copy of
 * /proc/config.gz) is decompressed, and a truncated or corrupt stream is KCVE_E_PARSE, never a
 * partial config.  kb_config_load_gz() is the same call. */
int kb_config_load_gz(struct kb_config **out, const char *config_gz_path, struct kcve_err *err);
/* Parse from memory; `name` is used in error messages. */
int kb_config_parse(struct kb_config **out, const char *text, size_t len, const char *name,
		    struct kcve_err *err);
/* Value of a symbol ("CONFIG_EXT4_FS" or "EXT4_FS"): "y", "m", the unquoted string, ...;
 * NULL when unset (absent or "is not set"). */
const char *kb_config_get(const struct kb_config *c, const char *sym);
/* Number of symbols with a value. */
size_t kb_config_count(const struct kb_config *c);
/* The architecture the config was made for (SRCARCH: "x86", "arm64", ...) or NULL. */
const char *kb_config_arch(const struct kb_config *c);
/* The SRCARCH directory of an ARCH name, as the top-level Makefile maps it ("i386", "x86_64" ->
 * "x86", "sparc64" -> "sparc"); any other name is returned as is. */
const char *kb_arch_srcarch(const char *arch);
/* 0 when arch (an ARCH or SRCARCH name) fits the config, or the config names no architecture;
 * else KCVE_E_ARCH with one line naming both ("architecture 'x86' given, but the .config was made
 * for arm64 (CONFIG_ARM64=y)"), also for a word size the name implies ("i386" with CONFIG_64BIT=y). */
int kb_config_check_arch(const struct kb_config *c, const char *arch, struct kcve_err *err);
void kb_config_free(struct kb_config *c);

/* ---- Kbuild evaluation over a source tree -------------------------------------------------- */
struct kb_tree;
/* Evaluate the Kbuild files of source tree `ksrc` under `cfg`.  arch is a SRCARCH directory name
 * ("x86"); NULL derives it from the config (CONFIG_X86 -> x86, ...), default x86.  Fails with
 * KCVE_E_NOTFOUND when ksrc does not look like a kernel tree (no Kbuild/Makefile, no arch dir).
 * cfg must outlive the tree.  Directories are evaluated lazily, on first question. */
int kb_tree_open(struct kb_tree **out, const char *ksrc, const struct kb_config *cfg,
		 const char *arch, struct kcve_err *err);
/* Verdict for one source path relative to ksrc.  *reason_out (optional) gets a static-lifetime
 * (until kb_tree_close) human-readable explanation, e.g. "obj-y in fs/ext4/Makefile" or
 * "directory drivers/net/wireless/ not descended (CONFIG_WLAN unset)". */
enum kb_verdict kb_file_verdict(struct kb_tree *t, const char *path, const char **reason_out);
/* Evaluate every reachable directory now (for benchmarks / whole-tree queries). */
void kb_tree_evaluate_all(struct kb_tree *t);
/* Number of compiled objects found so far. */
size_t kb_tree_object_count(const struct kb_tree *t);
void kb_tree_close(struct kb_tree *t);

/* File -> gating condition export, for a compact database usable without the source tree:
 * a header line "# kcve kbuild conditions v1 arch=<arch>", then one line per .c file under the
 * tree, "path\tcondition": "y" (always built), "n" (never: other arch, tools, or only in a
 * makefile branch no config takes), "unknown", or an and/or of factors "CONFIG_X" (set, any
 * value), "!CONFIG_X", "CONFIG_X=y", "CONFIG_X=m" and their negations ("CONFIG_A && unknown"
 * is never built where A is unset).  Object-list gates, computed list names, conditional `:=`
 * to lists and makefile conditionals on CONFIG symbols (by their truth table) are symbolic,
 * i.e. hold for any config of the architecture; what cannot be expressed exactly is
 * "unknown" (docs/kbuild.md lists the idioms and the limits).  Tests on other variables and
 * the preprocessor around #include "x.c" follow cfg (a CONFIG-dependent include exports
 * "unknown"). */
int kb_tree_export_conditions(struct kb_tree *t, FILE *out, struct kcve_err *err);
/* What a compact database keeps (`db build --source`): one line "path\tcondition\tmodule" for
 * every .c file of ksrc and every path of paths (a database's record programFiles: also deleted
 * files, .S files, headers, tools/), sorted, each once.  The condition reproduces
 * kb_file_verdict()'s rule for that path under any config ("n" for host programs and paths no
 * makefile reaches, "unknown" for headers, "(C) && unknown" inside an undecidable directory
 * reached under C); module is the module name the file links into ("" if none).  The tree is evaluated
 * symbolically for each architecture Debian builds that it has (x86, arm64, arm, powerpc, s390,
 * riscv, mips, loongarch); a file gets the common condition or, where the architectures
 * differ, "(ARCH=x86 && (C1)) || (ARCH=arm64 && (C2)) || ... || (!ARCH=x86 && ... && unknown)",
 * ARCH being the architecture of the .config that evaluates it (another architecture's
 * sources count like any file: arm64 compiles arch/arm/xen/); a file under the directory of an
 * architecture not evaluated always takes the per-architecture form ("unknown" for it). */
int kb_export_db_conditions(const char *ksrc, const char *const *paths, size_t n, FILE *out,
			    struct kcve_err *err);
/* Module name (as /proc/modules spells it, '-' folded to '_') of the obj-y/obj-m object the
 * compiled source `path` links into: its composite (nf_tables_api.c -> nf_tables) or its own
 * object (tun.c -> tun).  False when the evaluation did not collect the file. */
bool kb_file_module(struct kb_tree *t, const char *path, char *out, size_t outsz);

/* ---- build directory ------------------------------------------------------------------------ */
struct kb_build;
/* Read every `.*.cmd` file under builddir (an `O=` directory or an in-tree build) and collect
 * the compiled sources and the headers they depend on (`source_X :=`, `deps_X :=` with
 * `$(wildcard ...)` entries skipped), relative to the source tree.  KCVE_E_NOTFOUND when
 * builddir has no .cmd file at all; a .cmd file that cannot be read is skipped with a warning
 * to diag (NULL: the default sink, core/diag.h). */
int kb_build_open(struct kb_build **out, const char *builddir, const struct kcve_diag *diag,
		  struct kcve_err *err);
/* KB_COMPILED when path was compiled or included by a compiled file, else KB_NOT_COMPILED. */
enum kb_verdict kb_build_verdict(struct kb_build *b, const char *path);
size_t kb_build_count(struct kb_build *b);
/* Iterate over the collected paths (sorted); i < kb_build_count(). */
const char *kb_build_path(struct kb_build *b, size_t i);
/* Source tree the build was made from (absolute, as found in the .cmd files) or NULL. */
const char *kb_build_srctree(struct kb_build *b);
void kb_build_close(struct kb_build *b);

#endif
