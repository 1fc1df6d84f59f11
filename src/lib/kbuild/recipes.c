/* Objects that the architecture's own recipes build outside obj-y.
 *
 * Boot code, the real-mode trampoline and the vDSO are not linked into vmlinux through obj-y:
 * x86's bzImage recipe runs `$(MAKE) $(build)=$(boot)`, which links $(setup-y) into setup.elf
 * and, through `$(build)=$(obj)/compressed`, $(vmlinux-objs-y) into the compressed kernel;
 * arch/x86/realmode runs `$(build)=$(obj)/rm` for $(realmode-y); the vDSO images link
 * $(vobjs-y) / $(vobjs32-y).  arch/x86/Kbuild even lists boot/ as `subdir-`, which only tells
 * `make clean` where to go.  For the recipes below kcve knows which variable holds the objects,
 * so those files are "compiled" (or not) like any other; every other file of a directory that a
 * `$(build)=` recipe builds stays "unknown" (verdict.c), never "not compiled".
 *
 * A recipe applies when the directory that runs it is built: "" is the kernel image itself
 * (bzImage is x86's default target), a recipe directory applied before, or a directory reached
 * through obj-y.  A gate (variable, word) restricts it further: the 32-bit vDSO objects are
 * linked only when vdso_img-y holds "32". */
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_tree.h"

struct recipe {
	const char *arch;
	const char *dir;       /* directory whose makefile lists the objects */
	const char *run_by;    /* "" = the kernel image, else the directory that runs the recipe */
	const char *var;       /* variable holding the objects */
	const char *gate_var;  /* optional: the recipe runs only when gate_var holds gate_word */
	const char *gate_word;
	const char *what;      /* for the reason */
};

static const struct recipe recipes[] = {
	{"x86", "arch/x86/boot", "", "setup-y", NULL, NULL,
	 "linked into setup.elf by the bzImage recipe (arch/x86/Makefile: $(build)=$(boot))"},
	{"x86", "arch/x86/boot/compressed", "arch/x86/boot", "vmlinux-objs-y", NULL, NULL,
	 "linked into the compressed kernel of bzImage (arch/x86/boot/Makefile: $(build)=$(obj)/compressed)"},
	{"x86", "arch/x86/realmode/rm", "arch/x86/realmode", "realmode-y", NULL, NULL,
	 "linked into realmode.bin (arch/x86/realmode/Makefile: $(build)=$(obj)/rm)"},
	{"x86", "arch/x86/entry/vdso", "arch/x86/entry/vdso", "vobjs-y", "vdso_img-y", "64",
	 "linked into the 64-bit vDSO image"},
	{"x86", "arch/x86/entry/vdso", "arch/x86/entry/vdso", "vobjs32-y", "vdso_img-y", "32",
	 "linked into the 32-bit vDSO image"},
};

static bool has_word(const char *list, const char *word)
{
	size_t n, wl = strlen(word);
	for (const char *p = list; (p = mk_next_word(p, &n)); p += n)
		if (n == wl && !memcmp(p, word, n))
			return true;
	return false;
}

static char *expand(struct mk_ctx *c, const char *var)
{
	struct strbuf sb = STRBUF_INIT;
	bool saved = c->uncertain;
	mk_expand_var(c, var, &sb);
	c->uncertain = saved;
	return sb_detach(&sb);
}

/* Condition under which the directory running r is built; NULL when it is not built. */
static char *runner_cond(struct kb_tree *t, const struct recipe *r)
{
	if (!*r->run_by)
		return xstrdup("y");
	const char *rc = strmap_get(&t->recipe_dirs, r->run_by);
	if (rc)
		return xstrdup(rc);
	struct kb_dir *d = strmap_get(&t->dirs, r->run_by);
	if (!d || !d->evaluated || d->no_makefile || (!t->symbolic && !d->builtin))
		return NULL;
	return xstrdup(d->cond && t->symbolic ? d->cond : "y");
}

static void apply(struct kb_tree *t, const struct recipe *r)
{
	char *cond = runner_cond(t, r);
	if (!cond)
		return;
	/* the directory is built where its runner is; the gate only decides this list (symbolic
	 * mode: x86's vDSO directory is not built "only with CONFIG_X86_64" because its first
	 * recipe, the 64-bit image, is gated so) */
	char *dircond = xstrdup(cond);
	struct kbt_dirctx x;
	char *mf = kbt_dirctx_open(t, &x, r->dir);
	if (!mf) {
		free(cond);
		free(dircond);
		return;
	}
	if (r->gate_var) {
		char *gate = expand(&x.c, r->gate_var);
		bool open = has_word(gate, r->gate_word);
		free(gate);
		if (open && t->symbolic) {
			char *gc = kbt_symcond(t, r->dir, r->gate_var, r->gate_word, strlen(r->gate_word));
			char *both = kbt_cond_and(cond, gc);
			free(gc);
			free(cond);
			cond = both;
		}
		if (!open)
			goto out;
	}
	char *list = expand(&x.c, r->var);
	struct strbuf reason = STRBUF_INIT;
	sb_addf(&reason, "%s object of %s, %s", r->var, mf, r->what);
	size_t wn;
	for (const char *w = list; (w = mk_next_word(w, &wn)); w += wn) {
		if (!kbt_ends_with(w, wn, ".o"))
			continue; /* linker scripts, lib.a of other directories */
		/* "$(obj)/misc.o" expands to a path from the root, "misc.o" is relative to dir */
		char *p = kbt_listed_path(r->dir, w, wn);
		if (!p)
			continue;
		if (t->symbolic) {
			char *wc = kbt_symcond(t, r->dir, r->var, w, wn);
			char *oc = kbt_cond_and(cond, wc);
			kbt_add_objcond(t, p, oc);
			free(wc);
			free(oc);
		} else {
			kbt_add_object(t, p, sb_str(&reason), KBT_EXTRA);
		}
		free(p);
	}
	sb_release(&reason);
	free(list);
	if (!strmap_get(&t->recipe_dirs, r->dir))
		strmap_put(&t->recipe_dirs, r->dir, xstrdup(t->symbolic ? dircond : cond));
	/* the recipe directory's own `$(build)=` descents (boot -> compressed) */
	kbt_scan_build_rules(t, &x.c, mf, r->dir);
out:
	kbt_dirctx_close(&x);
	free(mf);
	free(cond);
	free(dircond);
}

void kbt_apply_recipes(struct kb_tree *t)
{
	for (size_t i = 0; i < sizeof(recipes) / sizeof(recipes[0]); i++)
		if (!strcmp(recipes[i].arch, t->arch))
			apply(t, &recipes[i]);
}
