/* Internal state of a Kbuild tree evaluation, shared by the files after ppline.c in the source
 * layout of docs/kbuild.md (tree.c walks, the others add to it or answer from it). */
#ifndef KCVE_KBUILD_TREE_H
#define KCVE_KBUILD_TREE_H

#include <stdbool.h>

#include "kbuild/cond.h"
#include "kbuild/kbuild_int.h"
#include "kbuild/paths.h"
#include "kbuild/ppline.h"
#include "core/strmap.h"

enum { KBT_BUILTIN = 1, KBT_MODULE, KBT_LIB, KBT_EXTRA };

struct kb_obj {
	int kind;
	char *reason;
};

struct kb_dir {
	bool builtin;      /* reached through obj-y all the way from the root */
	bool evaluated;
	bool no_makefile;
	bool uncertain;    /* some object list could not be fully evaluated */
	char *why_uncertain;
	char *makefile;    /* relative path of the Kbuild/Makefile read */
	char *reason;      /* how it was reached */
	char *cond;        /* symbolic mode: condition for reaching it */
};

/* Where a word of an object list was listed (dirctx.c's list hook), for reasons; the first
 * listing wins, but an enabled one replaces a disabled one. */
struct kb_note {
	bool enabled; /* under a name that builds (-y, -m, -objs), not obj-, foo-, -n */
	char *var;    /* the list's name: "obj-y", "subdir-", "ext4-y" */
	char *lhs;    /* as written: "obj-$(CONFIG_EXT4_FS)" */
	char *where;  /* "fs/Makefile:53" */
};
struct kb_note *kbt_note_dup(const struct kb_note *n);
void kbt_free_note(void *p);

/* `#include "x.c"` of a sibling .c (includes.c). */
struct kb_include {
	char *includer; /* "dir/y.c" */
	int state;      /* 1 active under the config, 0 not, -1 undecided */
	char *why;      /* the directive deciding it ("#ifdef CONFIG_X #else"), "" when active */
};
void kbt_free_include(void *p);

/* An object of a directory's lists compiled from a source elsewhere by an explicit rule
 * (rulesrc.c): `$(obj)/relo_core.o: $(srctree)/tools/lib/bpf/relo_core.c FORCE`. */
struct kb_rule_src {
	char *object;   /* "kernel/bpf/relo_core.o" */
	char *makefile; /* "kernel/bpf/Makefile", for the reason */
	unsigned line;
};

/* A rule of a makefile (rulesrc.c), its words expanded when it was read, as make does, and
 * taken from the root of the tree ("$(srctree)/" removed), not normalised. */
struct kb_rule {
	char **targets;  /* "arch/arm64/crypto/aes-glue-%.o", "arch/x/vdso.so" */
	char **tnorm;    /* per target: its normalised path, NULL for a pattern */
	size_t ntargets;
	char *tpat;      /* static pattern rule ("targets: tpat: prereqs"): the target pattern */
	char **prereqs;  /* without FORCE and '|' */
	size_t nprereqs;
	bool pattern;    /* an implicit rule: its targets hold '%' */
	bool recipe;     /* has a recipe of its own */
	char *makefile;  /* where it is written, for reasons */
	unsigned line;
};
struct kb_rules {
	struct kb_rule *v;
	size_t n, alloc;
};
void kbt_free_rule_fields(struct kb_rule *r);
void kbt_free_rules(void *p);

struct kb_tree {
	char *ksrc; /* absolute */
	char *arch;
	const struct kb_config *cfg;
	bool symbolic;
	bool evaluated;
	struct mk_vars globals;
	char *arch_core, *arch_lib, *arch_drivers, *arch_why;
	char *image;              /* the arch Makefile's KBUILD_IMAGE ("arch/s390/boot/bzImage"), or NULL */
	bool arch_uncertain;
	struct strmap objs;       /* "fs/ext4/inode.o" -> struct kb_obj */
	struct strmap composites; /* composite objects -> struct kb_obj (reason only) */
	struct strmap dirs;       /* "fs/ext4" ("" = root) -> struct kb_dir */
	struct strmap notes;      /* word path -> struct kb_note */
	struct strmap mentions;   /* .o named by other variables -> "$(var) of dir" */
	struct strmap custom_dirs; /* dirs built by an explicit $(build)= recipe -> makefile */
	struct strmap clean_dirs;  /* dirs listed by a literal `subdir-` (make clean only) -> makefile */
	struct strmap recipe_dirs; /* dirs whose recipe objects recipes.c added -> condition ("y") */
	struct strmap includes;   /* "dir/x.c" -> struct kb_include (#include "x.c" in dir/y.c) */
	struct strset scanned_dirs; /* directories whose .c files were scanned for includes */
	struct strmap symconds;   /* symbolic: "dir\tvar\tword" -> condition */
	struct strmap objconds;   /* symbolic: object path -> condition */
	struct strmap rule_srcs;  /* source compiled by another directory's rule -> struct kb_rule_src */
	struct strmap rules;      /* dir -> struct kb_rules of its makefile (rulesrc.c) */
	struct strset rules_read; /* directories whose makefile's rules are recorded */
	size_t rule_steps;        /* work of rulechain.c's walk, bounded */
	char **queue;
	size_t nqueue, queue_alloc;
	char **reasons;           /* strings handed out by kb_file_verdict */
	size_t nreasons, reasons_alloc;
};

/* treedata.c: constructors, destructors and queries of the state */
void kbt_free_obj(void *p);
void kbt_free_dir(void *p);
void kbt_free_rule_src(void *p);
void kbt_add_object(struct kb_tree *t, const char *path, const char *reason, int kind);
/* The innermost directory (dir itself or an ancestor) that a `$(build)=` recipe builds, with the
 * makefile naming it; NULL when none. */
const char *kbt_custom_dir(struct kb_tree *t, const char *dir, char **which);
/* The innermost directory (dir or an ancestor) listed only by a literal `subdir-`; NULL when none. */
const char *kbt_clean_dir(struct kb_tree *t, const char *dir, char **which);

/* dirctx.c: one directory's makefile evaluated in a fresh context, with the hooks. */
struct kbt_hookdata {
	struct kb_tree *t;
	const char *dir;
	bool record_rules; /* the makefile's rules are not recorded yet (t->rules_read) */
	double sym_work;   /* symbolic mode: word comparisons of the list hook so far (bounded) */
};
struct kbt_dirctx {
	struct mk_vars locals;
	struct mk_ctx c;
	struct kbt_hookdata hd;
};
char *kbt_dirctx_open(struct kb_tree *t, struct kbt_dirctx *x, const char *dir);
void kbt_dirctx_close(struct kbt_dirctx *x);
void kbt_scan_build_rules(struct kb_tree *t, struct mk_ctx *c, const char *mf_rel, const char *dir);
/* Names whose assignments feed the object lists (obj-*, lib-*, subdir-*, <composite>-y, ...). */
bool kbt_list_name(const char *name);
void kbt_list_hook(struct mk_ctx *c, const char *lhs_raw, const char *name, const char *rhs,
		   const char *file, unsigned line);

/* recipes.c: objects that the arch's image recipes link outside obj-y (boot, realmode, vDSO) */
void kbt_apply_recipes(struct kb_tree *t);
/* rulesrc.c: records every rule of the makefiles read (t->rules) */
void kbt_rule_hook(struct mk_ctx *c, const char *targets, const char *prereqs, bool recipe, const char *file,
		   unsigned line);
/* obj (a path from the root) is a target or prerequisite of a rule of dir's makefile. */
bool kbt_rule_names(const struct kb_tree *t, const char *dir, const char *obj);
/* A rule's word as a normalised path from the root (make runs there: "$(obj)/x.o" is "dir/x.o",
 * a bare "x.o" a file of the root); NULL when it climbs out.  Caller frees. */
char *kbt_rule_path(const char *w);
/* w names a C or assembler source (.c, .S, .s). */
bool kbt_is_source(const char *w);

/* rulechain.c: after the evaluation, the sources that the rules compile for a listed object (another
 * directory's source by an explicit rule, pattern rules, objects linked by custom rules) are
 * compiled when (and as) that object is. */
void kbt_apply_rule_sources(struct kb_tree *t);

/* tree.c: the walk (kb_tree_open and kb_tree_close of kbuild.h too) */
int kbt_open(struct kb_tree **out, const char *ksrc, const struct kb_config *cfg, const char *arch,
	     bool symbolic, struct kcve_err *err);
void kbt_evaluate(struct kb_tree *t);

/* includes.c: `#include "x.c"` scan of a directory (t->includes), once */
void kbt_scan_includes(struct kb_tree *t, const char *dir);

/* symbolic.c: symbolic ("every symbol y") evaluation bookkeeping */
char *kbt_symcond(struct kb_tree *t, const char *dir, const char *var, const char *w, size_t wn);
void kbt_add_objcond(struct kb_tree *t, const char *path, const char *cond);
void kbt_symbolic_collect(struct kb_tree *t, struct mk_ctx *c, const char *dir, struct kb_dir *d,
			  const char *obj_y, const char *obj_m, const char *lib_y, const char *lib_m,
			  const char *extra, const char *always);

/* export.c: the condition of a file whose directory no list reaches */
const char *kbt_undescended_cond(struct kb_tree *s, const char *norm, const char *dir);
/* All .c files under root/rel, relative to root, appended to *v (unsorted). */
void kbt_list_c_files(const char *root, const char *rel, char ***v, size_t *n, size_t *alloc);

#endif
