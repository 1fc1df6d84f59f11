/* Internals shared by the kbuild sources: the config symbol table and a small GNU make subset
 * (variables, expansion, conditionals, includes) that is just enough to read Kbuild files. */
#ifndef KCVE_KBUILD_INT_H
#define KCVE_KBUILD_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/strbuf.h"
#include "kbuild/kbuild.h"

struct kb_sym {
	char *name;  /* without CONFIG_ */
	char *raw;   /* as written after '=' (quotes kept: that is what make sees); NULL if unset */
	char *value; /* unquoted; NULL if unset */
	struct kb_sym *next;
};

struct kb_config {
	struct kb_sym **buckets;
	size_t nbuckets;
	struct kb_sym **syms;
	size_t nsyms, syms_alloc;
};

/* Raw value (quotes kept) of a symbol, NULL if unset. */
const char *kb_config_raw(const struct kb_config *c, const char *sym);

/* ---- make variables ---- */
/* Symbolic mode: one of the values a variable takes, and where. */
struct mk_alt {
	char *value; /* expanded */
	char *cond;
};
#define MK_MAX_ALTS 8
struct mk_var {
	char *name;
	char *value;
	bool recursive; /* '=' flavour: expanded at use */
	bool uncertain; /* value depends on something kcve cannot evaluate */
	bool exported;
	/* symbolic mode: a variable other than an object list assigned under CONFIG conditions
	 * (`ifeq ($(CONFIG_X86_32),y) BITS := 32 else BITS := 64`) has the values it takes under
	 * each (nalts >= 2), or more than MK_MAX_ALTS of them (alts_unknown) */
	struct mk_alt *alts;
	size_t nalts;
	bool alts_unknown;
	struct mk_var *next;
};

struct mk_vars {
	struct mk_var **buckets;
	size_t nbuckets, count;
};

void mk_vars_init(struct mk_vars *v, size_t nbuckets);
void mk_vars_free(struct mk_vars *v);
struct mk_var *mk_vars_get(const struct mk_vars *v, const char *name, size_t n);
struct mk_var *mk_vars_set(struct mk_vars *v, const char *name, size_t n, const char *value,
			   bool recursive);
/* Replace v's alternatives by a copy of alts (n of them; none clears them). */
void mk_var_set_alts(struct mk_var *v, const struct mk_alt *alts, size_t n, bool unknown);

/* Called for every assignment to a variable whose name matches a Kbuild list (obj-*, lib-*,
 * subdir-*, <composite>-y/-m/-objs/-, core-*, drivers-*, libs-*): lets the tree evaluator remember
 * where each word was listed and under which (unexpanded) left-hand side. */
struct mk_ctx;
typedef void (*mk_list_hook)(struct mk_ctx *c, const char *lhs_raw, const char *name,
			     const char *words, const char *file, unsigned line);
/* Called for every rule of an active section ("targets: prerequisites", unexpanded text;
 * prereqs starts after the colon), once it is known whether the rule has a recipe of its own
 * (after ';' or on tab-indented lines that follow): lets the tree evaluator follow the rules that
 * build an object (rulesrc.c).  The context is still the one the rule line was read in. */
typedef void (*mk_rule_hook)(struct mk_ctx *c, const char *targets, const char *prereqs,
			     bool recipe, const char *file, unsigned line);

struct mk_ctx {
	struct mk_vars *locals;  /* this makefile's variables */
	struct mk_vars *globals; /* CONFIG_*, srctree, Kbuild.include functions, arch exports */
	const struct kb_config *cfg;
	const char *ksrc;        /* absolute source tree path, no trailing slash */
	/* Symbolic mode (condition export): CONFIG_ symbols read "y" in assignments (so every
	 * obj-$(CONFIG_X) list is followed); tests on CONFIG_ symbols run both branches (see
	 * sym_test in make_eval.c); every symbol read is recorded in syms. */
	bool symbolic;
	bool in_test;
	int sym_force;           /* symbolic tests: 1 = every CONFIG_ symbol y, 2 = all unset */
	bool no_fs;              /* fuzzing: include and $(wildcard) never touch the file system */
	/* Set when an expansion met something unevaluable; why holds the first reason. */
	bool uncertain;
	char why[200];
	int depth;
	int cond_uncertain;      /* >0 inside a conditional kcve could not decide */
	struct strbuf syms;      /* symbolic mode: " CONFIG_A CONFIG_B" read by the last expansion */
	/* symbolic mode: the conditions of the enclosing conditional branches, each after a
	 * '\x01' (mk_cond_stack() folds them) */
	struct strbuf condstack;
	/* symbolic mode, while a test or a computed name is enumerated: the value of each CONFIG_
	 * symbol read (sym_names[i] -> sym_vals[i]); reading another one sets sym_missed */
	const char *const *sym_names;
	const char *const *sym_vals;
	size_t nsym_vals;
	bool sym_missed;
	/* symbolic mode, for the list hook: the condition under which the assignment runs, and
	 * when an `:=`/`=` under a condition kept the list's earlier words (a list name, see
	 * keep_name) or an unconditional one replaced them, that earlier value */
	const char *assign_cond;
	const char *assign_old;
	/* for the list hook: the words an `:=` or an append to a simple variable expanded before
	 * assigning them (the hook would otherwise expand the right-hand side afterwards) */
	const char *assign_words;
	/* symbolic mode, while an assignment or a test is evaluated for each value of the
	 * variables with alternatives it reads: those values (ovr_names[i] -> ovr_vals[i]) */
	const char *const *ovr_names;
	const char *const *ovr_vals;
	size_t novr;
	bool (*keep_name)(const char *name);
	/* symbolic mode: the condition the variables named in text (a computed name such as
	 * `obj-$(VDSO32-y)`) carry, "y" when none; caller frees */
	char *(*name_cond)(struct mk_ctx *c, const char *text);
	/* symbolic mode: the condition of word w of the expansion of text (an include line), from
	 * the variables text names; caller frees */
	char *(*word_cond)(struct mk_ctx *c, const char *text, const char *w, size_t wn);
	mk_list_hook hook;
	mk_rule_hook rule_hook;
	void *hook_data;
	const char *cur_file;
	unsigned cur_line;
	unsigned long steps;     /* expansion work counter; bounds pathological input */
	unsigned long long bytes; /* bytes all expansions produced; bounds it too */
};

void mk_ctx_init(struct mk_ctx *c, struct mk_vars *locals, struct mk_vars *globals,
		 const struct kb_config *cfg, const char *ksrc);
void mk_ctx_release(struct mk_ctx *c);
/* Expand make text into out (appended). */
void mk_expand(struct mk_ctx *c, const char *s, size_t n, struct strbuf *out);
/* Expand a variable by name (as $(name)), appended to out. */
void mk_expand_var(struct mk_ctx *c, const char *name, struct strbuf *out);
void mk_mark_uncertain(struct mk_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Evaluate makefile text (path used for messages and relative includes).  Never fails:
 * constructs it cannot evaluate make the context uncertain. */
void mk_eval_text(struct mk_ctx *c, const char *text, size_t len, const char *path);
/* Read and evaluate a makefile; returns -1 if it cannot be read. */
int mk_eval_file(struct mk_ctx *c, const char *path);

/* Symbolic mode: the conjunction of the enclosing branches' conditions ("y" outside any).
 * Caller frees. */
char *mk_cond_stack(const struct mk_ctx *c);

/* printf into a new string (caller frees). */
char *mk_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The next plain variable reference of text at or after *p: $(NAME), ${NAME} or $(NAME:a=b).
 * Returns the '$' (NULL when none), sets *name and *n to the name and *p past the name. */
const char *mk_next_ref(const char **p, const char **name, size_t *n);

/* Word helpers: iterate over whitespace-separated words of s. */
const char *mk_next_word(const char *s, size_t *len);

#endif
