/* Kbuild evaluation over a kernel source tree: which objects does a .config build?
 *
 * Mirrors scripts/Makefile.build / Makefile.lib of 6.x: start at the root Kbuild (whose obj-y
 * list pulls in $(ARCH_CORE)/$(ARCH_LIB)/$(ARCH_DRIVERS) from arch/<arch>/Makefile), evaluate
 * each directory's Kbuild-or-Makefile, descend into `dir/` entries of obj-y (built-in), obj-m and
 * subdir-y/m (not built-in: their obj-y objects are not built), collect obj-y (only when
 * built-in), obj-m (only with CONFIG_MODULES), lib-y, extra-y, always-y, expanding composite
 * objects through <name>-objs / <name>-y / <name>-m (a composite whose only list is <name>- is
 * still composite and builds nothing).
 *
 * The whole reachable tree is evaluated on the first question (objects may be listed by a
 * makefile of another directory, e.g. amdgpu's `../display/...`), which takes well under a
 * second for a 6.1 tree. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_int.h"
#include "kbuild/kbuild_tree.h"
#include "core/strmap.h"

static char *expand_list(struct mk_ctx *c, const char *var, bool *uncertain, struct strbuf *why)
{
	c->uncertain = false;
	struct strbuf sb = STRBUF_INIT;
	mk_expand_var(c, var, &sb);
	if (c->uncertain) {
		*uncertain = true;
		if (!why->len)
			sb_addf(why, "%s: %s", var, c->why);
	}
	return sb_detach(&sb);
}

static bool word_in(const char *list, const char *w, size_t wn)
{
	size_t n;
	for (const char *p = list; (p = mk_next_word(p, &n)); p += n)
		if (n == wn && !memcmp(p, w, n))
			return true;
	return false;
}

static const char *kind_name(int kind)
{
	switch (kind) {
	case KBT_BUILTIN:
		return "built-in";
	case KBT_MODULE:
		return "module";
	case KBT_LIB:
		return "lib.a";
	default:
		return "extra target";
	}
}

/* Composite expansion (Makefile.lib suffix-search/real-search, one level as in 6.1). */
static void add_real(struct kb_tree *t, struct mk_ctx *c, const char *dir, const char *w, size_t wn,
		     int kind, bool *uncertain, struct strbuf *why)
{
	if (!kbt_ends_with(w, wn, ".o")) {
		/* lib.a, built-in.a, .dtb, .s, .lds, ...: not compiled from a .c of this name */
		return;
	}
	char *base = xstrndup(w, wn - 2);
	static const char *const sfx[] = {"-objs", "-y", "-m", "-"};
	struct strbuf members = STRBUF_INIT, var = STRBUF_INIT;
	bool composite = false;
	for (size_t i = 0; i < 4; i++) {
		if (i == 2 && kind != KBT_MODULE)
			continue;
		sb_reset(&var);
		sb_addf(&var, "%s%s", base, sfx[i]);
		char *v = expand_list(c, sb_str(&var), uncertain, why);
		size_t n;
		if (mk_next_word(v, &n))
			composite = true;
		if (i < 3) {
			sb_addc(&members, ' ');
			sb_adds(&members, v);
		}
		free(v);
	}
	char *self = kbt_normalize(dir, w, wn);
	if (!self) {
		free(base);
		sb_release(&members);
		sb_release(&var);
		return;
	}
	struct strbuf reason = STRBUF_INIT;
	if (!composite) {
		sb_addf(&reason, "%s object", kind_name(kind));
		kbt_add_object(t, self, sb_str(&reason), kind);
	} else {
		size_t n;
		for (const char *m = sb_str(&members); (m = mk_next_word(m, &n)); m += n) {
			if (!kbt_ends_with(m, n, ".o"))
				continue;
			char *p = kbt_normalize(dir, m, n);
			if (!p)
				continue;
			sb_reset(&reason);
			sb_addf(&reason, "%s object, part of composite %s", kind_name(kind), self);
			kbt_add_object(t, p, sb_str(&reason), kind);
			free(p);
		}
		/* the composite itself is linked, not compiled: remember it so that a same-named .c
		 * gets an explicit reason */
		struct kb_obj *o = strmap_get(&t->composites, self);
		if (!o) {
			o = xcalloc(1, sizeof(*o));
			o->kind = kind;
			sb_reset(&reason);
			sb_addf(&reason, "%s.o is a composite object (linked from %s-y/-objs members), no %s.c is compiled",
				base, base, base);
			o->reason = xstrdup(sb_str(&reason));
			strmap_put(&t->composites, self, o);
		}
	}
	free(self);
	sb_release(&reason);
	free(base);
	sb_release(&members);
	sb_release(&var);
}

static void queue_dir(struct kb_tree *t, const char *path, bool builtin, const char *reason)
{
	struct kb_dir *d = strmap_get(&t->dirs, path);
	if (d) {
		if (builtin && !d->builtin && !d->evaluated) {
			d->builtin = true;
		} else if (builtin && !d->builtin) {
			/* visited as non-built-in already; re-visit for the obj-y part */
			d->builtin = true;
			d->evaluated = false;
			XGROW(t->queue, t->nqueue + 1, t->queue_alloc);
			t->queue[t->nqueue++] = xstrdup(path);
		}
		return;
	}
	d = xcalloc(1, sizeof(*d));
	d->builtin = builtin;
	d->reason = xstrdup(reason);
	strmap_put(&t->dirs, path, d);
	XGROW(t->queue, t->nqueue + 1, t->queue_alloc);
	t->queue[t->nqueue++] = xstrdup(path);
}

/* Every .o word of the makefile's other variables: objects built by custom rules (vdso, ...). */
static void scan_mentions(struct kb_tree *t, struct mk_ctx *c, const char *dir)
{
	for (size_t b = 0; b < c->locals->nbuckets; b++)
		for (struct mk_var *v = c->locals->buckets[b]; v; v = v->next) {
			if (kbt_list_name(v->name) || !strchr(v->value, '.') || !strchr(v->value, 'o'))
				continue;
			if (!strncmp(v->name, "CFLAGS", 6) || !strncmp(v->name, "AFLAGS", 6) ||
			    strstr(v->name, "flags") || strstr(v->name, "FLAGS"))
				continue;
			bool saved = c->uncertain;
			struct strbuf sb = STRBUF_INIT;
			char *val = xstrdup(v->value);
			bool rec = v->recursive;
			if (rec)
				mk_expand(c, val, strlen(val), &sb);
			else
				sb_adds(&sb, val);
			free(val);
			c->uncertain = saved;
			size_t wn;
			for (const char *w = sb_str(&sb); (w = mk_next_word(w, &wn)); w += wn) {
				if (!kbt_ends_with(w, wn, ".o"))
					continue;
				char *p = kbt_listed_path(dir, w, wn);
				if (!p)
					continue;
				if (!strmap_get(&t->mentions, p)) {
					struct strbuf r = STRBUF_INIT;
					sb_addf(&r, "$(%s) of %s", v->name, *dir ? dir : ".");
					strmap_put(&t->mentions, p, sb_detach(&r));
				}
				free(p);
			}
			sb_release(&sb);
		}
}

/* The object and directory lists of one makefile, expanded (in this order: the first
 * undecidable one gives the directory's reason). */
struct dir_lists {
	char *obj_y, *obj_m, *lib_y, *lib_m, *sub_y, *sub_m, *extra, *always, *always_m;
};

static void expand_lists(struct mk_ctx *c, struct dir_lists *l, bool *unc, struct strbuf *why)
{
	l->obj_y = expand_list(c, "obj-y", unc, why);
	l->obj_m = expand_list(c, "obj-m", unc, why);
	l->lib_y = expand_list(c, "lib-y", unc, why);
	l->lib_m = expand_list(c, "lib-m", unc, why);
	l->sub_y = expand_list(c, "subdir-y", unc, why);
	l->sub_m = expand_list(c, "subdir-m", unc, why);
	l->extra = expand_list(c, "extra-y", unc, why);
	l->always = expand_list(c, "always-y", unc, why);
	l->always_m = expand_list(c, "always-m", unc, why);
}

static void free_lists(struct dir_lists *l)
{
	char *v[] = {l->obj_y, l->obj_m, l->lib_y, l->lib_m, l->sub_y, l->sub_m, l->extra, l->always, l->always_m};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		free(v[i]);
}

/* Queue the subdirectories: obj-y ones keep the directory's built-in state, obj-m and
 * subdir-y/m ones are not built-in. */
static void descend(struct kb_tree *t, const char *dir, const struct kb_dir *d, const struct dir_lists *l)
{
	const char *rel = *dir ? dir : ".";
	size_t wn;
	struct strbuf reason = STRBUF_INIT;
	for (const char *w = l->obj_y; (w = mk_next_word(w, &wn)); w += wn)
		if (kbt_ends_with(w, wn, "/")) {
			char *p = kbt_normalize(dir, w, wn - 1);
			if (!p)
				continue;
			sb_reset(&reason);
			sb_addf(&reason, "obj-y of %s", rel);
			queue_dir(t, p, d->builtin, sb_str(&reason));
			free(p);
		}
	const char *nonbuiltin[] = {l->obj_m, l->sub_y, l->sub_m};
	for (size_t k = 0; k < 3; k++)
		for (const char *w = nonbuiltin[k]; (w = mk_next_word(w, &wn)); w += wn) {
			if (k == 0 && !kbt_ends_with(w, wn, "/"))
				continue;
			char *p = kbt_normalize(dir, w, kbt_ends_with(w, wn, "/") ? wn - 1 : wn);
			if (!p)
				continue;
			sb_reset(&reason);
			sb_addf(&reason, "%s of %s", k == 0 ? "obj-m" : k == 1 ? "subdir-y" : "subdir-m", rel);
			queue_dir(t, p, false, sb_str(&reason));
			free(p);
		}
	sb_release(&reason);
}

/* Collect the objects: obj-y (built-in directories only), obj-m minus obj-y (with
 * CONFIG_MODULES), lib-y/lib-m, extra-y/always-y/always-m. */
static void collect_objects(struct kb_tree *t, struct mk_ctx *c, const char *dir, const struct kb_dir *d,
			    const struct dir_lists *l, bool *unc, struct strbuf *why)
{
	bool modules = t->symbolic || (kb_config_get(t->cfg, "MODULES") &&
					  !strcmp(kb_config_get(t->cfg, "MODULES"), "y"));
	size_t wn;
	if (d->builtin)
		for (const char *w = l->obj_y; (w = mk_next_word(w, &wn)); w += wn)
			if (!kbt_ends_with(w, wn, "/"))
				add_real(t, c, dir, w, wn, KBT_BUILTIN, unc, why);
	if (modules)
		for (const char *w = l->obj_m; (w = mk_next_word(w, &wn)); w += wn)
			if (!kbt_ends_with(w, wn, "/") && !word_in(l->obj_y, w, wn))
				add_real(t, c, dir, w, wn, KBT_MODULE, unc, why);
	const char *libs[] = {l->lib_y, l->lib_m};
	for (size_t k = 0; k < 2; k++)
		for (const char *w = libs[k]; (w = mk_next_word(w, &wn)); w += wn)
			if (!word_in(l->obj_y, w, wn))
				add_real(t, c, dir, w, wn, KBT_LIB, unc, why);
	const char *extras[] = {l->extra, l->always, l->always_m};
	for (size_t k = 0; k < 3; k++)
		for (const char *w = extras[k]; (w = mk_next_word(w, &wn)); w += wn)
			if (kbt_ends_with(w, wn, ".o")) {
				char *p = kbt_normalize(dir, w, wn);
				if (p)
					kbt_add_object(t, p, k == 0 ? "extra-y target" : "always-y target", KBT_EXTRA);
				free(p);
			}
}

static void eval_dir(struct kb_tree *t, const char *dir)
{
	struct kb_dir *d = strmap_get(&t->dirs, dir);
	if (!d || d->evaluated)
		return;
	d->evaluated = true;
	struct kbt_dirctx x;
	char *mf_rel = kbt_dirctx_open(t, &x, dir);
	if (!mf_rel) {
		d->no_makefile = true;
		return;
	}
	free(d->makefile);
	d->makefile = mf_rel;
	struct mk_ctx *c = &x.c;
	bool unc = false;
	struct strbuf why = STRBUF_INIT;
	struct dir_lists l;
	expand_lists(c, &l, &unc, &why);
	descend(t, dir, d, &l);
	collect_objects(t, c, dir, d, &l, &unc, &why);
	kbt_scan_build_rules(t, c, mf_rel, dir);
	if (!t->symbolic)
		scan_mentions(t, c, dir);
	else
		kbt_symbolic_collect(t, c, dir, d, l.obj_y, l.obj_m, l.lib_y, l.lib_m, l.extra, l.always);
	if (unc) {
		d->uncertain = true;
		d->why_uncertain = sb_detach(&why);
	}
	sb_release(&why);
	free_lists(&l);
	kbt_dirctx_close(&x);
}

/* arch/<arch>/Makefile: only its core-y / libs-y / drivers-y lists and exported variables. */
static void eval_arch(struct kb_tree *t)
{
	struct mk_vars locals;
	mk_vars_init(&locals, 512);
	struct mk_ctx c;
	mk_ctx_init(&c, &locals, &t->globals, t->cfg, t->ksrc);
	c.symbolic = t->symbolic;
	c.keep_name = t->symbolic ? kbt_list_name : NULL;
	struct kbt_hookdata hd = {t, "", false, 0};
	c.hook = kbt_list_hook;
	c.hook_data = &hd;
	mk_vars_set(&locals, "core-y", 6, "", false);
	mk_vars_set(&locals, "drivers-y", 9, "", false);
	mk_vars_set(&locals, "libs-y", 6, "lib/", false);
	char *mf = mk_strf("%s/arch/%s/Makefile", t->ksrc, t->arch);
	mk_eval_file(&c, mf);
	free(mf);
	char *mf_rel = mk_strf("arch/%s/Makefile", t->arch);
	kbt_scan_build_rules(t, &c, mf_rel, ""); /* bzImage: $(build)=$(boot) */
	free(mf_rel);
	bool unc = false;
	struct strbuf why = STRBUF_INIT;
	/* the default image (bzImage, zImage, Image.gz): rulechain.c follows its rules */
	bool img_unc = false;
	struct strbuf img_why = STRBUF_INIT;
	char *img = expand_list(&c, "KBUILD_IMAGE", &img_unc, &img_why);
	size_t iwn;
	const char *iw = mk_next_word(img, &iwn);
	if (iw && !img_unc)
		t->image = kbt_normalize("", iw, iwn);
	free(img);
	sb_release(&img_why);
	t->arch_core = expand_list(&c, "core-y", &unc, &why);
	char *libs = expand_list(&c, "libs-y", &unc, &why);
	char *dy = expand_list(&c, "drivers-y", &unc, &why);
	char *dm = expand_list(&c, "drivers-m", &unc, &why);
	struct strbuf sb = STRBUF_INIT;
	size_t wn;
	for (const char *w = libs; (w = mk_next_word(w, &wn)); w += wn)
		if (kbt_ends_with(w, wn, "/")) {
			sb_add(&sb, w, wn);
			sb_addc(&sb, ' ');
		}
	t->arch_lib = sb_detach(&sb);
	sb_addf(&sb, "%s %s", dy, dm);
	t->arch_drivers = sb_detach(&sb);
	t->arch_uncertain = unc;
	if (unc)
		t->arch_why = sb_detach(&why);
	sb_release(&why);
	free(libs);
	free(dy);
	free(dm);
	/* exported variables (BITS, ...) are visible to every directory */
	for (size_t b = 0; b < locals.nbuckets; b++)
		for (struct mk_var *v = locals.buckets[b]; v; v = v->next)
			if (v->exported) {
				struct mk_var *g = mk_vars_set(&t->globals, v->name, strlen(v->name), v->value,
							       v->recursive);
				g->uncertain = v->uncertain;
				mk_var_set_alts(g, v->alts, v->nalts, v->alts_unknown); /* symbolic: BITS */
			}
	mk_ctx_release(&c);
	mk_vars_free(&locals);
}

void kbt_evaluate(struct kb_tree *t)
{
	if (t->evaluated)
		return;
	t->evaluated = true;
	eval_arch(t);
	queue_dir(t, "", true, "top-level Kbuild");
	eval_dir(t, "");
	if (t->nqueue == 1) {
		/* kernels before 6.1 list core-y/drivers-y in the top-level Makefile, which kcve does
		 * not model: answer unknown rather than "nothing is compiled" */
		struct kb_dir *root = strmap_get(&t->dirs, "");
		root->uncertain = true;
		free(root->why_uncertain);
		root->why_uncertain = xstrdup("the top-level Kbuild lists no directories (kernel older than 6.1, "
					      "whose top-level Makefile lists them, is not supported)");
	}
	for (size_t i = 1; i < t->nqueue; i++)
		eval_dir(t, t->queue[i]);
	kbt_apply_recipes(t);
	kbt_apply_rule_sources(t);
}

void kb_tree_evaluate_all(struct kb_tree *t)
{
	kbt_evaluate(t);
}

size_t kb_tree_object_count(const struct kb_tree *t)
{
	return t->objs.count;
}

static void setg(struct kb_tree *t, const char *name, const char *value)
{
	mk_vars_set(&t->globals, name, strlen(name), value, false);
}

int kbt_open(struct kb_tree **out, const char *ksrc, const struct kb_config *cfg, const char *arch,
	     bool symbolic, struct kcve_err *err)
{
	*out = NULL;
	if (arch && kb_config_check_arch(cfg, arch, err))
		return -1;
	if (arch)
		arch = kb_arch_srcarch(arch);
	if (!arch)
		arch = cfg ? kb_config_arch(cfg) : NULL;
	if (!arch)
		arch = "x86";
	if (strchr(arch, '/') || !strcmp(arch, "..") || !*arch) {
		kcve_err_set(err, KCVE_E_USAGE, "invalid architecture name '%s'", arch);
		return -1;
	}
	char *abs = realpath(ksrc, NULL);
	if (!abs) {
		kcve_err_set(err, KCVE_E_NOTFOUND, "kernel source %s not found, give an unpacked kernel tree",
			     ksrc);
		return -1;
	}
	char *probe = mk_strf("%s/arch/%s/Makefile", abs, arch);
	bool ok = path_exists(probe);
	free(probe);
	probe = mk_strf("%s/Kbuild", abs);
	bool root = path_exists(probe);
	free(probe);
	probe = mk_strf("%s/Makefile", abs);
	root = root || path_exists(probe);
	free(probe);
	if (!ok || !root) {
		kcve_err_set(err, KCVE_E_NOTFOUND,
			     "%s is not a kernel source tree (no top-level Kbuild/Makefile or arch/%s/Makefile), give the path of an unpacked kernel",
			     ksrc, arch);
		free(abs);
		return -1;
	}
	struct kb_tree *t = xcalloc(1, sizeof(*t));
	t->ksrc = abs;
	t->cfg = cfg;
	t->arch = xstrdup(arch);
	t->symbolic = symbolic;
	strmap_init(&t->objs);
	strmap_init(&t->dirs);
	strmap_init(&t->notes);
	strmap_init(&t->mentions);
	strmap_init(&t->custom_dirs);
	strmap_init(&t->clean_dirs);
	strmap_init(&t->recipe_dirs);
	strmap_init(&t->composites);
	strmap_init(&t->includes);
	strmap_init(&t->symconds);
	strmap_init(&t->objconds);
	strmap_init(&t->rule_srcs);
	strmap_init(&t->rules);
	mk_vars_init(&t->globals, 1024);
	setg(t, "srctree", abs);
	setg(t, "objtree", abs);
	setg(t, "SRCARCH", arch);
	setg(t, "ARCH", arch);
	setg(t, "KBUILD_EXTMOD", "");
	setg(t, "CONFIG_SHELL", "sh");
	setg(t, "MAKE", "make");
	setg(t, "CC", "gcc");
	setg(t, "HOSTCC", "gcc");
	/* flag lists are simple (:=) variables of the top-level Makefile; appending to them must
	 * not turn them into recursive ones that re-expand every probe */
	static const char *const flagvars[] = {
		"KBUILD_CFLAGS", "KBUILD_AFLAGS", "KBUILD_CPPFLAGS", "KBUILD_LDFLAGS", "KBUILD_RUSTFLAGS",
		"KBUILD_CFLAGS_KERNEL", "KBUILD_AFLAGS_KERNEL", "KBUILD_CFLAGS_MODULE", "KBUILD_AFLAGS_MODULE",
		"KBUILD_LDFLAGS_MODULE", "LDFLAGS_vmlinux", "CHECKFLAGS", "KBUILD_HOSTCFLAGS", "KBUILD_HOSTLDFLAGS",
		"REALMODE_CFLAGS", "KBUILD_USERCFLAGS", "KBUILD_USERLDFLAGS"};
	for (size_t i = 0; i < sizeof(flagvars) / sizeof(flagvars[0]); i++)
		setg(t, flagvars[i], "");
	/* Kbuild's helper variables and functions ($(comma), $(space), cc-option, ...) */
	struct mk_ctx c;
	mk_ctx_init(&c, &t->globals, &t->globals, cfg, abs);
	c.symbolic = symbolic;
	const char *helpers[] = {"scripts/Kbuild.include", "scripts/Makefile.compiler"};
	for (size_t i = 0; i < 2; i++) {
		char *p = mk_strf("%s/%s", abs, helpers[i]);
		mk_eval_file(&c, p); /* absent in old or non-kernel trees: fine */
		free(p);
	}
	mk_ctx_release(&c);
	*out = t;
	return 0;
}

int kb_tree_open(struct kb_tree **out, const char *ksrc, const struct kb_config *cfg, const char *arch,
		 struct kcve_err *err)
{
	if (!cfg) {
		kcve_err_set(err, KCVE_E_USAGE, "no .config given for the Kbuild evaluation");
		return -1;
	}
	return kbt_open(out, ksrc, cfg, arch, false, err);
}

void kb_tree_close(struct kb_tree *t)
{
	if (!t)
		return;
	strmap_free(&t->objs, kbt_free_obj);
	strmap_free(&t->composites, kbt_free_obj);
	strmap_free(&t->dirs, kbt_free_dir);
	strmap_free(&t->notes, kbt_free_note);
	strmap_free(&t->mentions, free);
	strmap_free(&t->custom_dirs, free);
	strmap_free(&t->clean_dirs, free);
	strmap_free(&t->recipe_dirs, free);
	strmap_free(&t->includes, kbt_free_include);
	strset_clear(&t->scanned_dirs);
	strmap_free(&t->symconds, free);
	strmap_free(&t->objconds, free);
	strmap_free(&t->rule_srcs, kbt_free_rule_src);
	strmap_free(&t->rules, kbt_free_rules);
	strset_clear(&t->rules_read);
	for (size_t i = 0; i < t->nqueue; i++)
		free(t->queue[i]);
	free(t->queue);
	for (size_t i = 0; i < t->nreasons; i++)
		free(t->reasons[i]);
	free(t->reasons);
	mk_vars_free(&t->globals);
	free(t->arch_core);
	free(t->arch_lib);
	free(t->arch_drivers);
	free(t->arch_why);
	free(t->image);
	free(t->arch);
	free(t->ksrc);
	free(t);
}
