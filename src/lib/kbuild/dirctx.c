/* One directory's makefile evaluated in a fresh context with the hooks installed: the list
 * hook remembers where every word of an object list was listed (and, in symbolic mode, under
 * which condition), the rule hook finds sources compiled by an explicit rule (rulesrc.c); and the
 * `$(build)=` recipes of a makefile. */
#include <ctype.h>
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

/* Flag variables never carry object words. */
static bool flag_name(const char *name)
{
	static const char *const pre[] = {"ccflags", "asflags", "ldflags", "subdir-ccflags", "cppflags",
					  "CFLAGS", "AFLAGS", "KBUILD_", "OBJECT_FILES_", "KASAN_", "KCSAN_",
					  "UBSAN_", "KCOV_", "GCOV_", "quiet_cmd_", "cmd_", "targets", "clean-files"};
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(name, pre[i], strlen(pre[i])))
			return true;
	return false;
}

/* Symbolic mode: a variable the right-hand side names, with its words at this point. */
struct symref {
	char *name;
	char *words;
};

/* The variables $(NAME), ${NAME} and $(NAME:a=b) named anywhere in rhs (CONFIG_ symbols
 * aside), each with its value; name's own earlier value for a self-reference that replaced
 * it (`lib-y := $(patsubst %.o,%.stub.o,$(lib-y))`). */
static size_t rhs_refs(struct mk_ctx *c, const char *name, const char *rhs, struct symref **out)
{
	struct symref *v = NULL;
	size_t n = 0, alloc = 0;
	const char *q = rhs, *s;
	size_t sn;
	while (mk_next_ref(&q, &s, &sn)) {
		if (!strncmp(s, "CONFIG_", 7))
			continue;
		char *nm = xstrndup(s, sn);
		bool dup = false;
		for (size_t i = 0; i < n && !dup; i++)
			dup = !strcmp(v[i].name, nm);
		if (dup) {
			free(nm);
			continue;
		}
		struct strbuf val = STRBUF_INIT;
		if (!strcmp(nm, name) && c->assign_old) {
			sb_adds(&val, c->assign_old);
		} else {
			size_t sl = c->syms.len;
			mk_expand_var(c, nm, &val);
			c->syms.len = sl;
			if (c->syms.buf)
				c->syms.buf[sl] = '\0';
		}
		XGROW(v, n + 1, alloc);
		v[n].name = nm;
		v[n].words = sb_detach(&val);
		n++;
	}
	*out = v;
	return n;
}

/* How word w derives from word u of a variable: pass 0, it is u; pass 1, as
 * $(patsubst %.o,%.stub.o,...) or $(addprefix dir/,...) make it; pass 2, u (one path
 * component) is one of its directories ($(addsuffix /Makefile,$(addprefix $(DIR)/,$(DC_LIBS))));
 * pass 3, u stands in it between non-alphanumeric characters. */
static bool derived(int pass, const char *u, size_t un, const char *w, size_t wn)
{
	if (pass == 0)
		return un == wn && !memcmp(u, w, wn);
	if (pass == 1) {
		if (un > 2 && !memcmp(u + un - 2, ".o", 2) && wn > un - 1 && !memcmp(w, u, un - 2) &&
		    w[un - 2] == '.')
			return true;
		return wn > un && w[wn - un - 1] == '/' && !memcmp(w + wn - un, u, un);
	}
	if (!un || memchr(u, '/', un))
		return false;
	if (pass == 2) {
		for (size_t i = 0; i + un < wn; i++)
			if ((i == 0 || w[i - 1] == '/') && w[i + un] == '/' && !memcmp(w + i, u, un))
				return true;
		return false;
	}
	/* pass 3: u between non-alphanumeric characters ($(vdso_img-y:%=vdso-image-%.o): 32 ->
	 * vdso-image-32.o) */
	for (size_t i = 0; i + un <= wn; i++)
		if ((i == 0 || !isalnum((unsigned char)w[i - 1])) &&
		    (i + un == wn || !isalnum((unsigned char)w[i + un])) && !memcmp(w + i, u, un))
			return true;
	return false;
}

#define SYM_WORK 4e6 /* word comparisons of the symbolic list hook per makefile */

static size_t count_words(const char *s)
{
	size_t n = 0, wn;
	for (const char *w = s; (w = mk_next_word(w, &wn)); w += wn)
		n++;
	return n;
}

/* The condition the words of the variables named carry for word w: "y" when w is written
 * literally or comes from an untracked value, else the or of the conditions the variables
 * recorded for it. */
static char *ref_cond(struct kb_tree *t, const char *dir, const char *rhs, const struct symref *refs,
		      size_t nrefs, const char *w, size_t wn)
{
	size_t ln;
	for (const char *x = rhs; (x = mk_next_word(x, &ln)); x += ln)
		if (ln == wn && !memcmp(x, w, wn))
			return xstrdup("y");
	char *acc = NULL;
	for (int pass = 0; pass < 4 && !acc; pass++)
		for (size_t i = 0; i < nrefs; i++) {
			size_t un;
			for (const char *u = refs[i].words; (u = mk_next_word(u, &un)); u += un) {
				if (!derived(pass, u, un, w, wn))
					continue;
				char *rc = kbt_symcond(t, dir, refs[i].name, u, un);
				char *x = acc ? kbt_cond_or(acc, rc) : xstrdup(rc);
				free(acc);
				free(rc);
				acc = x;
			}
		}
	return acc ? acc : xstrdup("y");
}

static void put_symcond(struct kb_tree *t, const char *dir, const char *name, const char *w, size_t wn,
			const char *cs, bool replace)
{
	struct strbuf key = STRBUF_INIT;
	sb_addf(&key, "%s\t%s\t%.*s", dir, name, (int)wn, w);
	char *old = strmap_get(&t->symconds, sb_str(&key));
	char *nc = old && !replace ? kbt_cond_or(old, cs) : xstrdup(cs);
	free(old);
	strmap_put(&t->symconds, sb_str(&key), nc);
	sb_release(&key);
}

/* Symbolic mode: the condition of every word the assignment adds (its own condition and that
 * of the variable it came from), and, when an `:=` kept or replaced the earlier words, theirs
 * narrowed to where this assignment does not run. */
static void sym_hook(struct mk_ctx *c, struct kb_tree *t, const char *dir, const char *name, const char *rhs,
		     const char *words, bool list)
{
	const char *ac = c->assign_cond ? c->assign_cond : "y";
	struct symref *refs = NULL;
	size_t nrefs = rhs_refs(c, name, rhs, &refs);
	/* the words' conditions first: a self-reference reads the earlier words' conditions.
	 * Matching every word against every word of the variables named is quadratic: once a
	 * makefile's assignments have cost SYM_WORK comparisons (the real 6.1 tree's most,
	 * drivers/gpu/drm/nouveau, needs ~330,000) the words keep only the assignment's own
	 * condition, which says "built" more often, the safe direction (a hostile makefile's
	 * self-prefixing variable of 500,000 words took minutes; fuzz_kbuild_rules) */
	size_t nw = count_words(words), nr = 0, wn;
	for (size_t i = 0; i < nrefs; i++)
		nr += count_words(refs[i].words);
	struct kbt_hookdata *hd = c->hook_data;
	hd->sym_work += (double)nw * (double)(nr + 1);
	bool cheap = hd->sym_work <= SYM_WORK;
	struct strbuf conds = STRBUF_INIT;
	for (const char *w = words; (w = mk_next_word(w, &wn)); w += wn) {
		char *rc = cheap ? ref_cond(t, dir, rhs, refs, nrefs, w, wn) : xstrdup("y");
		char *cs = kbt_cond_and(ac, rc);
		sb_adds(&conds, cs);
		sb_addc(&conds, '\n');
		free(rc);
		free(cs);
	}
	if (c->assign_old) {
		char *notc = kbt_cond_not(ac);
		size_t un;
		for (const char *u = c->assign_old; (u = mk_next_word(u, &un)); u += un) {
			char *oc = kbt_symcond(t, dir, name, u, un);
			char *nc = kbt_cond_and(oc, notc);
			put_symcond(t, dir, name, u, un, nc, true);
			free(oc);
			free(nc);
		}
		free(notc);
	}
	const char *cs = sb_str(&conds);
	for (const char *w = words; (w = mk_next_word(w, &wn)); w += wn) {
		const char *e = strchr(cs, '\n');
		char *one = xstrndup(cs, (size_t)(e - cs));
		cs = e + 1;
		/* other variables only matter when they carry a condition */
		if (list || strcmp(one, "y"))
			put_symcond(t, dir, name, w, wn, one, false);
		free(one);
	}
	sb_release(&conds);
	for (size_t i = 0; i < nrefs; i++) {
		free(refs[i].name);
		free(refs[i].words);
	}
	free(refs);
}

/* Symbolic mode: a computed name's condition from the variables it names (`obj-$(VDSO32-y)`
 * with `VDSO32-$(CONFIG_X86_32) := y`): for each, the or of its words' conditions. */
static char *name_cond(struct mk_ctx *c, const char *text)
{
	struct kbt_hookdata *hd = c->hook_data;
	struct symref *refs = NULL;
	size_t nrefs = rhs_refs(c, "", text, &refs);
	char *acc = xstrdup("y");
	for (size_t i = 0; i < nrefs; i++) {
		char *any = NULL;
		size_t un;
		for (const char *u = refs[i].words; (u = mk_next_word(u, &un)); u += un) {
			char *rc = kbt_symcond(hd->t, hd->dir, refs[i].name, u, un);
			char *x = any ? kbt_cond_or(any, rc) : xstrdup(rc);
			free(any);
			free(rc);
			any = x;
		}
		if (any) {
			char *x = kbt_cond_and(acc, any);
			free(acc);
			free(any);
			acc = x;
		}
		free(refs[i].name);
		free(refs[i].words);
	}
	free(refs);
	return acc;
}

static char *word_cond(struct mk_ctx *c, const char *text, const char *w, size_t wn)
{
	struct kbt_hookdata *hd = c->hook_data;
	struct symref *refs = NULL;
	size_t nrefs = rhs_refs(c, "", text, &refs);
	char *r = ref_cond(hd->t, hd->dir, text, refs, nrefs, w, wn);
	for (size_t i = 0; i < nrefs; i++) {
		free(refs[i].name);
		free(refs[i].words);
	}
	free(refs);
	return r;
}

/* Remember, for every word of an object list, where it was listed (for reasons) and, in
 * symbolic mode, under which condition. */
void kbt_list_hook(struct mk_ctx *c, const char *lhs_raw, const char *name, const char *rhs,
		   const char *file, unsigned line)
{
	struct kbt_hookdata *hd = c->hook_data;
	struct kb_tree *t = hd->t;
	bool list = kbt_list_name(name);
	if (!list && (!c->symbolic || flag_name(name)))
		return;
	bool saved = c->uncertain;
	char savedwhy[sizeof(c->why)];
	memcpy(savedwhy, c->why, sizeof(savedwhy));
	struct strbuf words = STRBUF_INIT;
	if (c->assign_words) /* `:=`: what was expanded before the assignment */
		sb_adds(&words, c->assign_words);
	else
		mk_expand(c, rhs, strlen(rhs), &words);
	if (c->symbolic)
		sym_hook(c, t, hd->dir, name, rhs, sb_str(&words), list);
	c->uncertain = saved;
	memcpy(c->why, savedwhy, sizeof(savedwhy));
	if (!list) {
		sb_release(&words);
		return;
	}
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
		if (c->symbolic)
			continue;
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
	x->c.keep_name = t->symbolic ? kbt_list_name : NULL;
	x->c.name_cond = t->symbolic ? name_cond : NULL;
	x->c.word_cond = t->symbolic ? word_cond : NULL;
	x->hd.t = t;
	x->hd.dir = dir;
	x->hd.record_rules = strset_add(&t->rules_read, dir);
	x->hd.sym_work = 0;
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
