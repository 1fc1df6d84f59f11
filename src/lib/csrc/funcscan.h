/* C function boundaries: which function definitions a C source file holds, and where.
 *
 * The fix fingerprints record the functions each hunk of a fix changes from a scan of the
 * file itself, not from the hunk header (a hunk header names the nearest line above the hunk
 * that looks like a function start, which is often a struct or a label, and says nothing about
 * where a function ends).  The check's function-level stage then asks whether those functions
 * are in a kernel image; it may only conclude absence from a function that, when compiled,
 * always has a symbol of its own, so the scan also says which functions are static or inline.
 *
 * What the scanner sees (a lexer, not a compiler: no preprocessing, no types):
 * - comments, string and character literals, line splices are skipped; a preprocessor line
 *   (with its continuations) is not C code, so functions written inside a #define are not
 *   found; in #if/#elif/#else blocks the brace depth after the first branch is kept, so that
 *   "#ifdef A  if (x) {  #else  if (y) {  #endif" does not open two blocks;
 * - a definition is, at file level, a declaration ending in "name(parameters) [attributes] {"
 *   with no '=' before the brace (so "struct x y = { ... };" and "struct x { ... };" are not
 *   functions); its name is the first identifier followed by '(' that is not an attribute
 *   (__attribute__, __printf, __aligned, __section, __acquires, __releases, __must_hold, ...);
 * - the kernel's wrapper macros: SYSCALL_DEFINEn(name, ...) and COMPAT_SYSCALL_DEFINEn(name,
 *   ...) define the syscall "name" (FUNCSCAN_SYSCALL / FUNCSCAN_COMPAT: funcscan_symbols()
 *   lists the linker symbols they make); any other upper-case macro followed by a body
 *   (BPF_CALL_2(name, ...), DEFINE_*(name, ...)) is FUNCSCAN_MACRO, named after its first
 *   argument, and nothing is known about its symbols;
 * - specifiers before the name: "static" sets FUNCSCAN_STATIC; inline, __inline, __inline__,
 *   __always_inline, __always_inline__ set FUNCSCAN_INLINE (__init, __visible, asmlinkage,
 *   noinline, ... are accepted and change nothing).
 * Anything it cannot read (unbalanced braces, a truncated file) ends the current function at
 * end of file; it never fails on bad input, only on out-of-memory (which aborts, xalloc).
 *
 * Lines are 1-based.  A function spans decl_line (its first token, e.g. "static") to end_line
 * (its closing brace); comments above it are outside. */
#ifndef KCVE_CSRC_FUNCSCAN_H
#define KCVE_CSRC_FUNCSCAN_H

#include <stdbool.h>
#include <stddef.h>

enum funcscan_flag {
	FUNCSCAN_STATIC = 1u << 0,  /* "static": internal linkage, may have no symbol */
	FUNCSCAN_INLINE = 1u << 1,  /* inline: may be inlined everywhere and have no symbol */
	FUNCSCAN_SYSCALL = 1u << 2, /* SYSCALL_DEFINEn(name, ...) */
	FUNCSCAN_COMPAT = 1u << 3,  /* COMPAT_SYSCALL_DEFINEn(name, ...) */
	FUNCSCAN_MACRO = 1u << 4,   /* another wrapper macro: symbols unknown */
};

struct funcscan_fn {
	char *name;         /* as written (a syscall: its name without sys_, "read") */
	unsigned decl_line; /* first token of the definition */
	unsigned name_line; /* the line of the name */
	unsigned body_line; /* the opening brace */
	unsigned end_line;  /* the closing brace (last line of the file if unclosed) */
	unsigned flags;     /* enum funcscan_flag */
};

struct funcscan {
	struct funcscan_fn *fn; /* in file order, not overlapping (one line may end a function
				 * and start the next: funcscan_at gives the first) */
	size_t n, alloc;
	unsigned char *code; /* code[line], line < ncode: the line holds C code or a
			      * preprocessor line (not only comments and blanks) */
	unsigned ncode;
	unsigned nlines; /* lines in the file (the last line's number) */
};

/* Scan len bytes of C source (need not be NUL-terminated; NUL bytes are ordinary characters).
 * Replaces *fs (which must be zeroed or the result of a previous scan). */
void funcscan_scan(struct funcscan *fs, const char *buf, size_t len);
void funcscan_free(struct funcscan *fs);

/* The function whose lines [decl_line, end_line] contain line, or NULL. */
const struct funcscan_fn *funcscan_at(const struct funcscan *fs, unsigned line);

/* The functions that lines [first, last] overlap, in file order: up to max indexes into fs->fn
 * are written to idx; returns how many overlap (may exceed max).  *outside (when not NULL) is
 * set when some line of the range that holds code lies outside every function (a hunk that
 * also changes declarations, data or macros; comments and blank lines between functions do
 * not count).  Lines past the end of the file count as code. */
size_t funcscan_range(const struct funcscan *fs, unsigned first, unsigned last, size_t *idx,
		      size_t max, bool *outside);

/* Whether a kernel image that builds this function must have a symbol for it: not static, not
 * inline, not made by an unknown macro.  Absence may only be concluded from such a function. */
bool funcscan_has_symbol(const struct funcscan_fn *f);

/* The linker symbols a definition makes (its name, for a plain function): up to max
 * NUL-terminated strings are written to buf (bufsize bytes), pointers to them stored in out;
 * returns how many (0 for FUNCSCAN_MACRO).  A syscall "foo" is __x64_sys_foo, __ia32_sys_foo
 * (x86), __arm64_sys_foo (arm64), __s390x_sys_foo (s390), __riscv_sys_foo (riscv) and
 * sys_foo (architectures without syscall wrappers); a compat syscall the same with
 * compat_sys_.  The __se_sys_/__do_sys_ helpers are static inline and are not listed. */
size_t funcscan_symbols(const struct funcscan_fn *f, char *buf, size_t bufsize, const char **out,
			size_t max);

#endif
