/* Sources compiled by a makefile's own rules, followed from the objects of the lists.
 *
 * An object of the lists is normally compiled from its own source (Kbuild's `$(obj)/%.o:
 * $(src)/%.c`), but a makefile may build it otherwise, and what it builds may link further
 * objects that no list names.  Make's rules decide, so kcve follows the rules rulesrc.c recorded:
 *
 * - an explicit rule with a recipe of its own compiles its first prerequisite (make's `$<`) when
 *   that is a C or assembler source and the target an object: kernel/bpf/Makefile builds
 *   `relo_core.o` from `$(srctree)/tools/lib/bpf/relo_core.c`;
 * - otherwise the pattern rule with the shortest stem whose prerequisite exists (make's choice;
 *   Kbuild's own `$(obj)/%.o: $(src)/%.c` is one of them): `$(obj)/aes-glue-%.o:
 *   $(src)/aes-glue.c` compiles aes-glue.c as aes-glue-ce.o and aes-glue-neon.o
 *   (arch/arm64/crypto), `$(obj)/%.nvhe.o: $(src)/%.c` compiles hyp-obj-y's files as *.nvhe.o
 *   (arch/arm64/kvm/hyp/nvhe); static pattern rules (`$(c-obj-vdso): %.o: %.c`) are explicit
 *   rules of their targets with the stem put into their prerequisites;
 * - every other prerequisite that is built (an object, a shared object, an image, a generated
 *   source) is built too, and followed the same way, with or without a recipe:
 *   `$(obj)/kvm_nvhe.tmp.o: $(obj)/hyp.lds $(addprefix $(obj)/,$(hyp-obj))` links the *.nvhe.o
 *   into kvm_nvhe.o, the obj-y object; `$(obj)/vdso-wrap.o: $(obj)/vdso/vdso.so` makes the
 *   vDSO image that vdso-wrap.S includes, and the vDSO's makefile links `$(obj-vdso)` into it;
 * - a prerequisite in another directory that the current makefile has no rule for is built by
 *   that directory's makefile (arch/arm64/Makefile builds the vDSO with `$(build)=`): its rules
 *   are read (once) and followed; also when it has a rule for it whose recipe runs `$(build)=`
 *   there (arch/arm/boot's `$(obj)/compressed/vmlinux`).
 * The walk starts from every object the lists collect and from the arch Makefile's default image
 * (KBUILD_IMAGE: bzImage, zImage, Image.gz), whose rules build the boot code and decompressor.
 * A source found this way is compiled exactly when, and as, the listed object the walk started
 * from is (built-in, module; in symbolic mode under its condition).  Only existing sources count:
 * a generated source (`vdso-image-64.c`) is followed to what it is made from. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/xalloc.h"
#include "kbuild/kbuild_tree.h"
#include "kbuild/paths.h"

/* ---- following the rules from a listed object ---- */

struct found {
	char *src;     /* "arch/arm64/crypto/aes-glue.c" */
	char *as;      /* the object it is compiled as: "arch/arm64/crypto/aes-glue-ce.o" */
	char *rule;    /* "arch/arm64/crypto/Makefile:80", or NULL for Kbuild's own rule */
};

struct follow {
	struct kb_tree *t;
	struct strset seen; /* "dir\tpath" */
	struct found *v;
	size_t n, alloc;
};

/* Work bound of the whole walk (rules looked at plus files followed): the real 6.1 tree needs
 * about 25,000 (amd64, arm64, symbolic export included); a hostile makefile (every object
 * depending on every other, thousands of rules) stops here instead of running for hours. */
#define RULE_STEPS 2000000

static bool in_tree(struct kb_tree *t, const char *norm)
{
	char *p = mk_strf("%s/%s", t->ksrc, norm);
	struct stat st;
	bool ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	return ok;
}

static void add_found(struct follow *f, const char *src, const char *as, const struct kb_rule *r)
{
	XGROW(f->v, f->n + 1, f->alloc);
	f->v[f->n].src = xstrdup(src);
	f->v[f->n].as = xstrdup(as);
	f->v[f->n].rule = r ? mk_strf("%s:%u", r->makefile, r->line) : NULL;
	f->n++;
}

/* The stem of word w for pattern pat ("pre%suf"), or NULL.  Without a '/' in the pattern, an
 * implicit rule matches the file name only and the directory goes back in front of the stem
 * (*dirlen bytes of w). */
static const char *match(const char *pat, const char *w, bool implicit, size_t *stemlen, size_t *dirlen)
{
	const char *pc = strchr(pat, '%');
	if (!pc)
		return NULL;
	*dirlen = 0;
	if (implicit && !strchr(pat, '/')) {
		const char *slash = strrchr(w, '/');
		if (slash) {
			*dirlen = (size_t)(slash + 1 - w);
			w = slash + 1;
		}
	}
	size_t pre = (size_t)(pc - pat), suf = strlen(pc + 1), wl = strlen(w);
	if (wl < pre + suf || strncmp(w, pat, pre) || strcmp(w + wl - suf, pc + 1))
		return NULL;
	*stemlen = wl - pre - suf;
	return w + pre;
}

/* Prerequisite pattern p with the stem put in (and the directory of an implicit match). */
static char *subst(const char *p, const char *w, size_t dirlen, const char *stem, size_t stemlen)
{
	const char *pc = strchr(p, '%');
	if (!pc)
		return xstrdup(p);
	return mk_strf("%.*s%.*s%.*s%s", (int)dirlen, w, (int)(pc - p), p, (int)stemlen, stem, pc + 1);
}

static void resolve(struct follow *f, const char *dir, const char *word, int depth, bool start);

/* The prerequisites of a rule chosen for target `norm` (already stem-substituted): the first one
 * is compiled as the target when the rule has a recipe and it is a source; the built ones are
 * followed. */
static void use_rule(struct follow *f, const char *dir, const char *norm, const struct kb_rule *r,
		     char **pre, size_t npre, int depth)
{
	for (size_t i = 0; i < npre; i++) {
		if (kbt_is_source(pre[i])) {
			char *src = kbt_rule_path(pre[i]);
			if (src && i == 0 && r->recipe && kbt_ends_with(norm, strlen(norm), ".o")) {
				if (in_tree(f->t, src))
					add_found(f, src, norm, r);
				else
					resolve(f, dir, pre[i], depth + 1, false); /* generated */
			}
			free(src);
			continue;
		}
		resolve(f, dir, pre[i], depth + 1, false);
	}
}

/* Files whose rules are followed: whatever make builds and links (objects, shared objects,
 * images such as bzImage or zImage.pseries, generated sources); not headers, linker scripts or
 * the scripts and tables that generators read. */
static bool built_word(const char *norm)
{
	static const char *const ext[] = {".h", ".lds", ".ld", ".sh", ".pl", ".py", ".awk", ".tbl",
					  ".txt", ".dts", ".dtsi", ".in"};
	size_t n = strlen(norm);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (kbt_ends_with(norm, n, ext[i]))
			return false;
	return true;
}

static const struct kb_rules *rules_of(struct kb_tree *t, const char *dir)
{
	if (!strset_contains(&t->rules_read, dir)) {
		struct kbt_dirctx x;
		char *mf = kbt_dirctx_open(t, &x, dir); /* records the rules through the hook */
		if (mf)
			kbt_dirctx_close(&x);
		free(mf);
		strset_add(&t->rules_read, dir); /* also when it has no makefile */
	}
	return strmap_get(&t->rules, dir);
}

static bool explicit_rules(struct follow *f, const char *dir, const struct kb_rules *rs, const char *norm,
			   int depth)
{
	bool recipe = false;
	f->t->rule_steps += rs ? rs->n : 0;
	for (size_t i = 0; rs && i < rs->n; i++) {
		const struct kb_rule *r = &rs->v[i];
		if (r->pattern)
			continue;
		for (size_t k = 0; k < r->ntargets; k++) {
			if (!r->tnorm[k] || strcmp(r->tnorm[k], norm))
				continue;
			recipe = recipe || r->recipe;
			if (!r->tpat) {
				use_rule(f, dir, norm, r, r->prereqs, r->nprereqs, depth);
				break;
			}
			size_t sl, dl;
			const char *stem = match(r->tpat, r->targets[k], false, &sl, &dl);
			if (!stem)
				break; /* make rejects a target that does not match its pattern */
			char **pre = xcalloc(r->nprereqs + 1, sizeof(*pre));
			for (size_t j = 0; j < r->nprereqs; j++)
				pre[j] = subst(r->prereqs[j], r->targets[k], dl, stem, sl);
			use_rule(f, dir, norm, r, pre, r->nprereqs, depth);
			for (size_t j = 0; j < r->nprereqs; j++)
				free(pre[j]);
			free(pre);
			break;
		}
	}
	return recipe;
}

/* Make's choice among the pattern rules with a recipe that match: the shortest stem whose first
 * prerequisite exists (a source) or can be made (anything else); Kbuild's own
 * `$(obj)/%.o: $(src)/%.c` (and .S) competes with the stem of the file name. */
static void pattern_rules(struct follow *f, const char *dir, const struct kb_rules *rs, const char *word,
			  const char *norm, int depth, bool start)
{
	const struct kb_rule *best = NULL;
	size_t best_len = (size_t)-1, best_dl = 0;
	const char *best_stem = NULL;
	f->t->rule_steps += rs ? rs->n : 0;
	for (size_t i = 0; rs && i < rs->n; i++) {
		const struct kb_rule *r = &rs->v[i];
		if (!r->pattern || !r->recipe)
			continue;
		for (size_t k = 0; k < r->ntargets; k++) {
			size_t sl, dl;
			const char *stem = match(r->targets[k], word, true, &sl, &dl);
			if (!stem || sl >= best_len)
				continue;
			if (r->nprereqs && kbt_is_source(r->prereqs[0])) {
				char *p = subst(r->prereqs[0], word, dl, stem, sl);
				char *pn = kbt_rule_path(p);
				bool ok = pn && in_tree(f->t, pn);
				free(pn);
				free(p);
				if (!ok)
					continue;
			}
			best = r;
			best_len = sl;
			best_dl = dl;
			best_stem = stem;
		}
	}
	/* Kbuild's default rule: dir/x.o from dir/x.c, stem "x" */
	size_t nl = strlen(norm);
	char *own = NULL;
	if (kbt_ends_with(norm, nl, ".o")) {
		char *d = kbt_dirname(norm);
		const char *base = strrchr(norm, '/') ? strrchr(norm, '/') + 1 : norm;
		if (!strcmp(d, dir) && strlen(base) - 2 < best_len) {
			static const char *const sx[] = {"c", "S", "s"};
			for (size_t i = 0; i < 3 && !own; i++) {
				char *p = mk_strf("%.*s%s", (int)(nl - 1), norm, sx[i]);
				if (in_tree(f->t, p))
					own = p;
				else
					free(p);
			}
			if (!own) {
				/* a generated source: follow what it is made from */
				char *gen = mk_strf("%.*sc", (int)(nl - 1), norm);
				resolve(f, dir, gen, depth + 1, false);
				free(gen);
				gen = mk_strf("%.*sS", (int)(nl - 1), norm);
				resolve(f, dir, gen, depth + 1, false);
				free(gen);
			}
		}
		free(d);
	}
	if (own) {
		if (!start)
			add_found(f, own, norm, NULL);
		free(own);
		return;
	}
	if (!best)
		return;
	char **pre = xcalloc(best->nprereqs + 1, sizeof(*pre));
	for (size_t j = 0; j < best->nprereqs; j++)
		pre[j] = subst(best->prereqs[j], word, best_dl, best_stem, best_len);
	use_rule(f, dir, norm, best, pre, best->nprereqs, depth);
	for (size_t j = 0; j < best->nprereqs; j++)
		free(pre[j]);
	free(pre);
}

/* Follow the rules of dir's makefile that build `word` (a word of that makefile, from the root). */
static void resolve(struct follow *f, const char *dir, const char *word, int depth, bool start)
{
	if (depth > 16 || strchr(word, '%') || f->t->rule_steps > RULE_STEPS)
		return;
	f->t->rule_steps++;
	char *norm = kbt_rule_path(word);
	if (!norm || !*norm || !built_word(norm)) {
		free(norm);
		return;
	}
	char *key = mk_strf("%s\t%s", dir, norm);
	bool fresh = strset_add(&f->seen, key);
	free(key);
	if (!fresh) {
		free(norm);
		return;
	}
	const struct kb_rules *rs = rules_of(f->t, dir);
	if (!explicit_rules(f, dir, rs, norm, depth))
		pattern_rules(f, dir, rs, word, norm, depth, start);
	/* a file of another directory is built by that directory's makefile, also when this one
	 * has a rule for it (whose recipe runs `$(build)=` there: arm's boot/compressed/vmlinux) */
	char *nd = kbt_dirname(norm);
	if (strcmp(nd, dir) && !kbt_host_tool(norm))
		resolve(f, nd, norm, depth + 1, false);
	free(nd);
	free(norm);
}

/* The explicit rules' sources of listed objects (t->rule_srcs), first: their reason names the rule. */
static void apply_explicit(struct kb_tree *t)
{
	for (size_t i = 0; i < t->rule_srcs.count; i++) {
		const struct strmap_ent *e = strmap_at(&t->rule_srcs, i);
		const struct kb_rule_src *r = e->val;
		char *srcobj = kbt_object_of(e->key);
		const char *oc = t->symbolic ? strmap_get(&t->objconds, r->object) : NULL;
		if (oc)
			kbt_add_objcond(t, srcobj, oc);
		const struct kb_obj *o = strmap_get(&t->objs, r->object);
		if (o) {
			struct strbuf reason = STRBUF_INIT;
			sb_addf(&reason, "%s, compiled from this file as %s by the explicit rule at %s:%u",
				o->reason, r->object, r->makefile, r->line);
			kbt_add_object(t, srcobj, sb_str(&reason), o->kind);
			sb_release(&reason);
		}
		const struct kb_note *note = strmap_get(&t->notes, r->object);
		if (note && !strmap_get(&t->notes, srcobj))
			strmap_put(&t->notes, srcobj, kbt_note_dup(note));
		free(srcobj);
	}
}

/* What the walk starts from: a listed object (with its kind, reason or condition) or the image. */
struct start {
	const char *path;
	bool listed;
	int kind;
	const char *reason; /* normal mode */
	const char *cond;   /* symbolic mode */
};

/* Follow the rules from s; every source found is compiled as s is.  In symbolic mode a source
 * that the lists or the arch recipes gave a condition keeps it (theirs is exact, a rule chain's
 * is its start's); the chains' conditions of one source are or-ed (aes-glue.c: CE or NEON). */
static void follow_from(struct kb_tree *t, const struct start *s, struct strset *rule_added)
{
	struct follow f = {.t = t};
	char *d = kbt_dirname(s->path);
	resolve(&f, d, s->path, 0, s->listed);
	free(d);
	for (size_t k = 0; k < f.n; k++) {
		char *srcobj = kbt_object_of(f.v[k].src);
		if (srcobj && strcmp(srcobj, s->path)) {
			if (t->symbolic) {
				if (!strmap_get(&t->objconds, srcobj) || strset_contains(rule_added, srcobj)) {
					strset_add(rule_added, srcobj);
					kbt_add_objcond(t, srcobj, s->cond);
				}
			} else {
				struct strbuf reason = STRBUF_INIT;
				sb_addf(&reason, "compiled from this file as %s by %s%s", f.v[k].as,
					f.v[k].rule ? "the rule at " : "Kbuild's rule `$(obj)/%.o: $(src)/%.c`",
					f.v[k].rule ? f.v[k].rule : "");
				if (strcmp(f.v[k].as, s->path))
					sb_addf(&reason, ", which the makefiles' rules build into %s", s->path);
				sb_addf(&reason, " (%s)", s->reason);
				kbt_add_object(t, srcobj, sb_str(&reason), s->kind);
				sb_release(&reason);
			}
		}
		free(srcobj);
		free(f.v[k].src);
		free(f.v[k].as);
		free(f.v[k].rule);
	}
	free(f.v);
	strset_clear(&f.seen);
}

void kbt_apply_rule_sources(struct kb_tree *t)
{
	apply_explicit(t);
	/* every listed object of a directory with rules (copied: the walk adds objects) */
	struct strmap *objs = t->symbolic ? &t->objconds : &t->objs;
	size_t nstart = objs->count, ns = 0;
	char **starts = xcalloc(nstart + 1, sizeof(*starts));
	for (size_t i = 0; i < nstart; i++) {
		const char *p = strmap_at(objs, i)->key;
		char *d = kbt_dirname(p);
		if (strmap_get(&t->rules, d))
			starts[ns++] = xstrdup(p);
		free(d);
	}
	struct strset rule_added = STRSET_INIT;
	for (size_t i = 0; i < ns; i++) {
		const struct kb_obj *o = t->symbolic ? NULL : strmap_get(&t->objs, starts[i]);
		char *cond = t->symbolic ? xstrdup(strmap_get(&t->objconds, starts[i])) : NULL;
		struct start s = {starts[i], true, o ? o->kind : KBT_EXTRA, o ? o->reason : "", cond};
		follow_from(t, &s, &rule_added);
		free(cond);
		free(starts[i]);
	}
	free(starts);
	/* the default image of the arch Makefile (KBUILD_IMAGE): its boot code, decompressor */
	if (t->image) {
		char *why = mk_strf("built for the kernel image %s, the default target (KBUILD_IMAGE of arch/%s/Makefile)",
				    t->image, t->arch);
		struct start s = {t->image, false, KBT_EXTRA, why, "y"};
		follow_from(t, &s, &rule_added);
		free(why);
	}
	strset_clear(&rule_added);
}
