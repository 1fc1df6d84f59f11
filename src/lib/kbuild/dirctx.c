/* One directory's makefile evaluated in a fresh context with the hooks installed: the list
 * hook remembers where every word of an object list was listed (and, in symbolic mode, under
 * which condition), the rule hook finds sources compiled by an explicit rule (rulesrc.c); and the
 * `$(build)=` recipes of a makefile. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "kbuild/kbuild_int.h"
#include "kbuild/kbuild_tree.h"

/* Names whose assignments feed the object lists (the hook records where words were listed).
 * Kbuild's own lists are obj-, lib-, subdir- (and the arch Makefile's core-, drivers-, libs-)
 * followed by a Kconfig value: y, m, n or nothing (`obj-$(CONFIG_X)` expanded).  Any other name
 * with such a prefix is a makefile's own variable (`obj-vdso`, `obj-cvdso64`: what a vDSO recipe
 * links), never a Kconfig object list. */
bool kbt_list_name(const char *name)
{
	size_t n = strlen(name);
	static const char *const prefixes[] = {"obj-", "lib-", "subdir-", "core-", "drivers-", "libs-"};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t pl = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], pl) &&
		    (!name[pl] || (!name[pl + 1] && strchr("ymn", name[pl]))))
			return true;
	}
	if (!strncmp(name, "ccflags", 7) || !strncmp(name, "asflags", 7) || !strncmp(name, "ldflags", 7) ||
	    !strncmp(name, "subdir-ccflags", 14) || !strncmp(name, "cppflags", 8) ||
	    !strncmp(name, "CFLAGS", 6) || !strncmp(name, "AFLAGS", 6))
		return false;
	return kbt_ends_with(name, n, "-y") || kbt_ends_with(name, n, "-m") || kbt_ends_with(name, n, "-objs") ||
	       kbt_ends_with(name, n, "-") || kbt_ends_with(name, n, "-n");
}

/* Remember, for every word of an object list, where it was listed (for reasons) and, in
 * symbolic mode, under which condition. */
/* Remember, for every word of an object list, where it was listed (for reasons) and, in
 * symbolic mode, under which condition. */
void kbt_list_hook(struct mk_ctx *c, const char *lhs_raw, const char *name, const char *rhs,
		   const char *file, unsigned line)
{
	struct kbt_hookdata *hd = c->hook_data;
	struct kb_tree *t = hd->t;
	if (!kbt_list_name(name))
		return;
	bool saved = c->uncertain;
	char savedwhy[sizeof(c->why)];
	memcpy(savedwhy, c->why, sizeof(savedwhy));
	char *lsyms = c->symbolic ? xstrdup(sb_str(&c->syms)) : NULL;
	struct strbuf words = STRBUF_INIT;
	mk_expand(c, rhs, strlen(rhs), &words);
	c->uncertain = saved;
	memcpy(c->why, savedwhy, sizeof(savedwhy));
	const char *rel = file;
	size_t kl = strlen(t->ksrc);
	if (rel && !strncmp(rel, t->ksrc, kl) && rel[kl] == '/')
		rel = rel + kl + 1;
	/* a literal `subdir- += boot` only tells `make clean` where to go: it says nothing about
	 * whether (or by which recipe) the directory is built */
	bool clean_only = !strcmp(name, "subdir-") && !strchr(lhs_raw, '$');
	size_t wn;
	for (const char *w = sb_str(&words); (w = mk_next_word(w, &wn)); w += wn) {
		if (clean_only) {
			char *p = kbt_normalize(hd->dir, w, kbt_ends_with(w, wn, "/") ? wn - 1 : wn);
			if (p && !strmap_get(&t->clean_dirs, p))
				strmap_put(&t->clean_dirs, p, mk_strf("%s", rel ? rel : "?"));
			free(p);
		}
		if (c->symbolic) {
			/* key: "<var>\t<word>" within this directory */
			struct strbuf key = STRBUF_INIT, cond = STRBUF_INIT;
			sb_addf(&key, "%s\t%s\t%.*s", hd->dir, name, (int)wn, w);
			sb_adds(&cond, sb_str(&c->condstack));
			sb_adds(&cond, lsyms);
			char *cs = kbt_cond_from_syms(sb_str(&cond));
			char *old = strmap_get(&t->symconds, sb_str(&key));
			if (old) {
				char *d = kbt_cond_or(old, cs);
				free(cs);
				cs = d;
				free(old);
			}
			strmap_put(&t->symconds, sb_str(&key), cs);
			sb_release(&key);
			sb_release(&cond);
			continue;
		}
		/* "$(obj)/x.o" expands to a path from the root */
		char *path = kbt_listed_path(hd->dir, w, wn);
		if (!path)
			continue;
		/* first listing wins, but an enabled listing replaces a disabled one */
		struct kb_note *old = strmap_get(&t->notes, path);
		bool enabled = kbt_ends_with(name, strlen(name), "-y") || kbt_ends_with(name, strlen(name), "-m") ||
			       kbt_ends_with(name, strlen(name), "-objs");
		if (!old || (enabled && !old->enabled)) {
			struct kb_note *n = xcalloc(1, sizeof(*n));
			n->enabled = enabled;
			n->var = xstrdup(name);
			n->lhs = xstrdup(lhs_raw);
			n->where = mk_strf("%s:%u", rel ? rel : "?", line);
			kbt_free_note(strmap_put(&t->notes, path, n));
		}
		free(path);
	}
	free(lsyms);
	sb_release(&words);
}

static char *kbuild_file(const char *ksrc, const char *dir)
{
	const char *names[] = {"Kbuild", "Makefile"};
	for (size_t i = 0; i < 2; i++) {
		char *p = mk_strf("%s/%s%s%s", ksrc, dir, *dir ? "/" : "", names[i]);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			return p;
		free(p);
	}
	return NULL;
}

/* Subdirectories built by an explicit recipe (`$(Q)$(MAKE) $(build)=$(obj)/rm $@`, the arch's
 * `$(build)=$(boot)`) rather than by obj-y/subdir-y.  The word after `$(build)=` is expanded in
 * the makefile's context ($(obj) is the directory, $(boot) the arch's boot directory); it names
 * a path from the tree root.  recipes.c knows what some of them link; the files of the others
 * can only be "unknown". */
void kbt_scan_build_rules(struct kb_tree *t, struct mk_ctx *c, const char *mf_rel, const char *dir)
{
	struct strbuf text = STRBUF_INIT;
	char *path = mk_strf("%s/%s", t->ksrc, mf_rel);
	if (read_file(path, &text) == 0) {
		for (const char *p = sb_str(&text); (p = strstr(p, "$(build)=")); p += 9) {
			const char *s = p + 9, *e = s;
			while (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != ';')
				e++;
			if (e <= s)
				continue;
			bool saved = c->uncertain;
			c->uncertain = false;
			struct strbuf word = STRBUF_INIT;
			mk_expand(c, s, (size_t)(e - s), &word);
			bool unc = c->uncertain;
			c->uncertain = saved;
			size_t wn;
			const char *w = mk_next_word(sb_str(&word), &wn);
			char *sub = !unc && w ? kbt_normalize("", w, wn) : NULL;
			if (sub && *sub && strcmp(sub, dir) && !strmap_get(&t->custom_dirs, sub))
				strmap_put(&t->custom_dirs, sub, mk_strf("%s", mf_rel));
			free(sub);
			sb_release(&word);
		}
	}
	free(path);
	sb_release(&text);
}

/* A fresh evaluation context for dir's Kbuild-or-Makefile, with the list hook installed, and
 * the makefile evaluated in it.  Returns the makefile's path relative to the tree, or NULL when
 * the directory has none (x is then unusable). */
char *kbt_dirctx_open(struct kb_tree *t, struct kbt_dirctx *x, const char *dir)
{
	char *mf = kbuild_file(t->ksrc, dir);
	if (!mf)
		return NULL;
	mk_vars_init(&x->locals, 256);
	mk_ctx_init(&x->c, &x->locals, &t->globals, t->cfg, t->ksrc);
	x->c.symbolic = t->symbolic;
	x->hd.t = t;
	x->hd.dir = dir;
	x->hd.record_rules = strset_add(&t->rules_read, dir);
	x->c.hook = kbt_list_hook;
	x->c.rule_hook = kbt_rule_hook;
	x->c.hook_data = &x->hd;
	const char *rel = *dir ? dir : ".";
	mk_vars_set(&x->locals, "src", 3, rel, false);
	mk_vars_set(&x->locals, "obj", 3, rel, false);
	if (!*dir) {
		/* the root Kbuild sees the arch lists through these exports (top-level Makefile) */
		mk_vars_set(&x->locals, "ARCH_CORE", 9, t->arch_core, false);
		mk_vars_set(&x->locals, "ARCH_LIB", 8, t->arch_lib, false);
		mk_vars_set(&x->locals, "ARCH_DRIVERS", 12, t->arch_drivers, false);
		if (t->arch_uncertain)
			mk_vars_get(&x->locals, "ARCH_CORE", 9)->uncertain = true;
	}
	mk_eval_file(&x->c, mf);
	char *rel_mf = xstrdup(mf + strlen(t->ksrc) + 1);
	free(mf);
	return rel_mf;
}

void kbt_dirctx_close(struct kbt_dirctx *x)
{
	mk_ctx_release(&x->c);
	mk_vars_free(&x->locals);
}
