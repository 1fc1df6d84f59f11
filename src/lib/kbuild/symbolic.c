/* Symbolic evaluation bookkeeping: while the tree is evaluated with every CONFIG_ symbol "y"
 * (export.c explains the rule), the condition of every listed word and of every collected
 * object. */
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/cond.h"
#include "kbuild/kbuild_tree.h"
#include "kbuild/paths.h"

char *kbt_symcond(struct kb_tree *t, const char *dir, const char *var, const char *w, size_t wn)
{
	struct strbuf key = STRBUF_INIT;
	sb_addf(&key, "%s\t%s\t%.*s", dir, var, (int)wn, w);
	const char *c = strmap_get(&t->symconds, sb_str(&key));
	if (!c && wn > 1 && w[wn - 1] == '/') {
		/* subdir-y words get a '/' appended for collect_list, but were recorded as written
		 * ("subdir-$(CONFIG_EFI_STUB) += libstub") */
		sb_reset(&key);
		sb_addf(&key, "%s\t%s\t%.*s", dir, var, (int)wn - 1, w);
		c = strmap_get(&t->symconds, sb_str(&key));
	}
	sb_release(&key);
	return xstrdup(c ? c : "y");
}

void kbt_add_objcond(struct kb_tree *t, const char *path, const char *cond)
{
	char *old = strmap_get(&t->objconds, path);
	char *n = old ? kbt_cond_or(old, cond) : xstrdup(cond);
	free(old);
	strmap_put(&t->objconds, path, n);
}

static void collect_list(struct kb_tree *t, struct mk_ctx *c, const char *dir, const char *dircond,
			 const char *list, const char *var, bool module)
{
	size_t wn;
	for (const char *w = list; (w = mk_next_word(w, &wn)); w += wn) {
		char *oc0 = kbt_symcond(t, dir, var, w, wn);
		if (!*dir && !strcmp(var, "obj-y")) {
			/* $(ARCH_CORE)/$(ARCH_LIB)/$(ARCH_DRIVERS): conditions from the arch Makefile */
			static const char *const av[] = {"core-y", "libs-y", "drivers-y", "drivers-m"};
			for (size_t i = 0; i < 4; i++) {
				char *ac = kbt_symcond(t, dir, av[i], w, wn);
				if (strcmp(ac, "y")) {
					char *x = kbt_cond_and(oc0, ac);
					free(oc0);
					oc0 = x;
				}
				free(ac);
			}
		}
		char *oc = kbt_cond_and(dircond, oc0);
		free(oc0);
		if (kbt_ends_with(w, wn, "/")) {
			char *p = kbt_normalize(dir, w, wn - 1);
			struct kb_dir *child = p ? strmap_get(&t->dirs, p) : NULL;
			if (child) {
				char *n = child->cond ? kbt_cond_or(child->cond, oc) : xstrdup(oc);
				free(child->cond);
				child->cond = n;
			}
			free(p);
			free(oc);
			continue;
		}
		if (!kbt_ends_with(w, wn, ".o")) {
			free(oc);
			continue;
		}
		char *base = xstrndup(w, wn - 2);
		static const char *const sfx[] = {"-objs", "-y", "-m"};
		bool composite = false;
		for (size_t i = 0; i < 3; i++) {
			if (i == 2 && !module)
				continue;
			struct strbuf var2 = STRBUF_INIT, val = STRBUF_INIT;
			sb_addf(&var2, "%s%s", base, sfx[i]);
			bool saved = c->uncertain;
			mk_expand_var(c, sb_str(&var2), &val);
			c->uncertain = saved;
			size_t mn;
			for (const char *m = sb_str(&val); (m = mk_next_word(m, &mn)); m += mn) {
				composite = true;
				if (!kbt_ends_with(m, mn, ".o"))
					continue;
				char *mc0 = kbt_symcond(t, dir, sb_str(&var2), m, mn);
				char *mc = kbt_cond_and(oc, mc0);
				char *p = kbt_normalize(dir, m, mn);
				if (p)
					kbt_add_objcond(t, p, mc);
				free(p);
				free(mc0);
				free(mc);
			}
			sb_release(&var2);
			sb_release(&val);
		}
		if (!composite) {
			char *p = kbt_normalize(dir, w, wn);
			if (p)
				kbt_add_objcond(t, p, oc);
			free(p);
		}
		free(base);
		free(oc);
	}
}

void kbt_symbolic_collect(struct kb_tree *t, struct mk_ctx *c, const char *dir, struct kb_dir *d,
			  const char *obj_y, const char *obj_m, const char *lib_y, const char *lib_m,
			  const char *extra, const char *always)
{
	const char *dircond = d->cond ? d->cond : "y";
	collect_list(t, c, dir, dircond, obj_y, "obj-y", false);
	collect_list(t, c, dir, dircond, obj_m, "obj-m", true);
	collect_list(t, c, dir, dircond, lib_y, "lib-y", false);
	collect_list(t, c, dir, dircond, lib_m, "lib-m", false);
	collect_list(t, c, dir, dircond, extra, "extra-y", false);
	collect_list(t, c, dir, dircond, always, "always-y", false);
	/* subdir-y / subdir-m descents */
	const char *subs[] = {"subdir-y", "subdir-m"};
	for (size_t i = 0; i < 2; i++) {
		struct strbuf val = STRBUF_INIT;
		bool saved = c->uncertain;
		mk_expand_var(c, subs[i], &val);
		c->uncertain = saved;
		struct strbuf withslash = STRBUF_INIT;
		size_t wn;
		for (const char *w = sb_str(&val); (w = mk_next_word(w, &wn)); w += wn) {
			sb_add(&withslash, w, wn);
			if (!kbt_ends_with(w, wn, "/"))
				sb_addc(&withslash, '/');
			sb_addc(&withslash, ' ');
		}
		collect_list(t, c, dir, dircond, sb_str(&withslash), subs[i], false);
		sb_release(&val);
		sb_release(&withslash);
	}
}
