/* The function-level stage of `kcve check`: is the code a fix changes in this kernel image?
 *
 * A fix's functions come from a scan of the C function boundaries (csrc/funcscan.h) of each
 * file it changes, before the fix (the lines it removes) and after (the lines it adds); the
 * image's symbols from its vmlinux and modules, /proc/kallsyms or a System.map
 * (ksyms/ksyms.h).  The rule, in this order:
 *   1. the fix changes no function (only macros, declarations, data)       -> undecided;
 *   2. some changed function has a symbol in the image                     -> present
 *      (the changed code is in this kernel: the stage says nothing against the CVE);
 *   3. the kernel was built with link-time optimisation (ksyms: lto), or
 *      some changed line is outside every function                         -> undecided;
 *   4. a function that existed before the fix is static, inline or made by
 *      an unknown macro: it may be compiled in with no symbol of its own   -> undecided;
 *   5. the fix only adds functions (nothing of the vulnerable code named)  -> undecided;
 *   6. the image's symbol source does not cover modules and a changed file
 *      is not known to be built in                                         -> undecided;
 *   7. otherwise                                                           -> absent:
 *      "not affected: the changed code is not in this kernel", with the functions and the
 *      symbol source as evidence.
 * A wrong "absent" hides a vulnerability, so every doubt is "undecided" (the CVE is kept and
 * the other stages decide).  Names compare after dropping compiler clone suffixes (ksyms), a
 * syscall by each architecture's wrapper symbol (funcscan_symbols). */
#ifndef KCVE_CHECK_FUNCLEVEL_H
#define KCVE_CHECK_FUNCLEVEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"
#include "ksyms/ksyms.h"

struct fl_func {
	char *file;
	char *name;     /* as funcscan names it (a syscall without sys_) */
	unsigned flags; /* FUNCSCAN_*, or'ed over both sides */
	bool added;     /* only after the fix: a function the fix adds */
};

/* The functions one fix changes. */
struct fl_fix {
	struct fl_func *fn;
	size_t n, alloc;
	bool outside; /* some changed line lies outside every function */
	/* hunks whose functions were read in the --source tree (a fingerprint without function
	 * lists, from --patches): at the place the code stage found them, or by their hunk
	 * header's function, which the tree's scan defines; 0 and 0: from the fingerprint */
	unsigned from_place, from_header;
	bool from_tree;  /* the functions were read in the --source tree (from_place/header) */
};

/* A run of changed lines (1-based, inclusive). */
struct fl_range {
	unsigned first, last;
};

/* Record one changed file: its text before the fix (old, NULL for a new file) with the ranges
 * of removed lines, and after (new_, NULL for a deleted file) with the ranges of added lines.
 * Blank changed lines should not be passed (they belong to no function).  Only C files (.c,
 * .h) are scanned: a change to any other file (assembly, Rust) counts as outside every
 * function ("" as path: the caller checks, as fl_hunk_funcs). */
void fl_fix_add_file(struct fl_fix *fx, const char *path, const char *old, size_t oldlen,
		     const struct fl_range *del, size_t ndel, const char *new_, size_t newlen,
		     const struct fl_range *add, size_t nadd);
void fl_fix_release(struct fl_fix *fx);
/* Add one scanned function of file path as changed (not added by the fix); a path that is not
 * C counts as outside every function. */
struct funcscan_fn;
void fl_fix_add_scanned(struct fl_fix *fx, const char *path, const struct funcscan_fn *f);

/* The text form of one hunk's functions, for the fix fingerprints (codefix/fprint.h keeps it
 * per hunk): comma-separated "name:FLAGS" entries, FLAGS letters s static, i inline, m made by
 * a macro, y syscall, c compat syscall, a added by the fix (e.g. "foo:,bar:si,read:y"), and a
 * last entry "!" when a changed line lies outside every function.  An entry without ':' (a
 * name from a fingerprint made without the file's source) has unknown specifiers: it may
 * show presence, never absence (FL_FLAGS_UNKNOWN). */
#define FL_FLAGS_UNKNOWN (1u << 8)
void fl_hunk_funcs(struct strbuf *out, const char *old, size_t oldlen, const struct fl_range *del,
		   size_t ndel, const char *new_, size_t newlen, const struct fl_range *add,
		   size_t nadd);
/* Add one hunk's text form (as fl_hunk_funcs writes it) of file path to fx (a path that is
 * not C counts as outside every function, as in fl_fix_add_file). */
void fl_fix_add_text(struct fl_fix *fx, const char *path, const char *funcs);

enum fl_verdict { FL_UNDECIDED = 0, FL_ABSENT = 1, FL_PRESENT = 2 };
const char *fl_verdict_name(enum fl_verdict v);

/* Whether a source file is known to be built into vmlinux (not a module): asked only when the
 * symbol source does not cover modules.  NULL: never known. */
typedef bool (*fl_builtin_fn)(void *ctx, const char *path);

/* Decide one fix against an image's symbols; the reason or evidence is appended to why. */
enum fl_verdict fl_decide(const struct fl_fix *fx, const struct ksyms *k, fl_builtin_fn builtin,
			  void *ctx, struct strbuf *why);

/* The stage's inputs (check/run/pipeline.h: struct ck_kernel's funcs).  fix_funcs fills out with
 * the functions record r's fix changes (from its fingerprint; code: the code stage's reading
 * of it, NULL when that stage did not run) and returns false when there is no fingerprint
 * for it. */
struct ck_set;
struct ck_record;
struct ck_result;
struct ck_code;
typedef bool (*ck_fix_funcs_fn)(void *ctx, const struct ck_set *s, const struct ck_record *r,
				const struct ck_code *code, struct fl_fix *out);
struct ck_func_input {
	const struct ksyms *syms; /* NULL: no function-level stage */
	ck_fix_funcs_fn fix_funcs;
	fl_builtin_fn builtin;    /* may be NULL */
	void *ctx;
};
/* The stage "functions": every kept entry whose fix's functions are all absent from the image
 * becomes not compiled ("not affected: the changed code is not in this kernel", the evidence in
 * its reason); present and undecided change nothing. */
void ck_run_functions(const struct ck_set *s, struct ck_result *res, const struct ck_func_input *in);

/* The lookup over the record set's fix fingerprints (s->fprints, codefix/fprint.h): ctx is a
 * struct ck_fix_ctx.  Only the kernel's own branch's version of the fix ("6.1", see
 * ck_fix_branch), or a patch given for it, is used (the mainline version may name a function
 * the branch calls otherwise, which would read as absent).  A hunk without functions makes
 * the fix undecidable.
 * A fingerprint without any function list (`db build --patches`: no source at build time)
 * has its functions read in the --source tree, when there is one and the code stage read that
 * same fingerprint: per hunk the code stage found (fixed or vulnerable), the functions of the
 * tree's file (csrc/funcscan.h) that its change's span overlaps (a change placed between two
 * lines, with those lines in two functions or not both between one function's braces,
 * counts as outside every function); per hunk it
 * did not find, the function its header names, only when the tree's file defines it (the
 * header being a prefix of the definition's first line or name line: not a prototype), no
 * other function starts on a line of the hunk (else that one is taken too), and nothing but
 * conditional directives (#if...#endif) and EXPORT_SYMBOL lines follows it before the next
 * function (else the hunk may change data or a #define there: outside).  Flags (static, inline...) come from the tree's scan;
 * no function counts as added by the fix.  A file that cannot be read makes the fix
 * undecidable. */
struct ck_fix_ctx {
	const char *branch; /* "6.1"; NULL: only a given patch */
	const char *source; /* the --source tree; NULL: none */
};
bool ck_fix_funcs_fprints(void *ctx, const struct ck_set *s, const struct ck_record *r,
			  const struct ck_code *code, struct fl_fix *out);
/* The branch label of a release as the fingerprints use it: "6.1.52" -> "6.1", "6.8" or an -rc
 * -> "mainline". */
void ck_fix_branch(const char *release, char *out, size_t n);

#endif
