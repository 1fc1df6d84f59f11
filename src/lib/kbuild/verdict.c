/* Per-file answers from an evaluated Kbuild tree, always with a reason.
 *
 * Order of questions for "dir/x.c":
 *  0. headers and non-C sources                            -> unknown (makefiles never name them)
 *  1. dir/x.o collected as an object                       -> compiled
 *  2. x.c compiled as another directory's listed object by an explicit rule (rulesrc.c)
 *                                                           -> that object's verdict
 *  3. dir was descended:
 *       x.o listed only under a disabled name (obj-, foo-), and no rule of the makefile names
 *       it through another variable                         -> not compiled (with the listing)
 *       x.c #included by a compiled sibling .c              -> compiled
 *       x.o named by another variable (custom rule: vdso)   -> unknown
 *       the makefile had undecidable object lists          -> unknown
 *       otherwise                                          -> not compiled
 *  4. dir was not descended:
 *       x.o linked by an arch recipe kcve knows (recipes.c)   -> compiled (step 1)
 *       x.o listed only under a disabled name of such a recipe -> not compiled
 *       host program (scripts/, tools/)                      -> not compiled
 *       dir (or an ancestor) built by another $(build)= recipe -> unknown
 *       otherwise the nearest evaluated ancestor decides (its listing of the subdirectory, or
 *       "not listed"); unknown if that ancestor was undecidable or lists the subdirectory only
 *       as a literal `subdir-` (which serves `make clean`, not the build). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_tree.h"

static const char *keep(struct kb_tree *t, struct strbuf *sb)
{
	XGROW(t->reasons, t->nreasons + 1, t->reasons_alloc);
	t->reasons[t->nreasons++] = sb_detach(sb);
	return t->reasons[t->nreasons - 1];
}

/* "listed as `obj-$(CONFIG_EXT2_FS)` in fs/Makefile:53 (CONFIG_EXT2_FS=m)" */
static void describe_note(struct kb_tree *t, const struct kb_note *n, struct strbuf *out)
{
	sb_addf(out, "listed as `%s` in %s", n->lhs, n->where);
	bool first = true;
	for (const char *p = n->lhs; (p = strstr(p, "CONFIG_"));) {
		const char *e = p + 7;
		while (isalnum((unsigned char)*e) || *e == '_')
			e++;
		char *sym = xstrndup(p, (size_t)(e - p));
		const char *v = t->cfg ? kb_config_get(t->cfg, sym) : NULL;
		sb_addf(out, "%s%s%s%s", first ? " (" : ", ", sym, v ? "=" : " is not set", v ? v : "");
		first = false;
		free(sym);
		p = e;
	}
	if (!first)
		sb_addc(out, ')');
}

/* One question: the path (normalised, inside the tree), its object and directory, where the
 * object was listed, and the reason being written. */
struct vq {
	struct kb_tree *t;
	const char *norm, *obj, *dir;
	const struct kb_note *note;
	int depth; /* #include and explicit-rule hops */
	struct strbuf *sb;
};

static enum kb_verdict verdict_depth(struct kb_tree *t, const char *path, const char **reason,
				     int depth);

enum kb_verdict kb_file_verdict(struct kb_tree *t, const char *path, const char **reason_out)
{
	const char *r = NULL;
	enum kb_verdict v = verdict_depth(t, path, &r, 0);
	if (reason_out)
		*reason_out = r;
	return v;
}

/* Phase 1: the object was collected. */
static enum kb_verdict listed_object(const struct vq *q, const struct kb_obj *o, const struct kb_dir *d)
{
	sb_adds(q->sb, o->reason);
	if (q->note) {
		sb_adds(q->sb, ", ");
		describe_note(q->t, q->note, q->sb);
	}
	if (d && d->uncertain)
		sb_addf(q->sb, " (parts of %s could not be evaluated: %s)", d->makefile ? d->makefile : q->dir,
			d->why_uncertain);
	return KB_COMPILED;
}

/* Phase 2: compiled as another directory's listed object by an explicit rule; false when the
 * file is no such source. */
static bool rule_source(const struct vq *q, enum kb_verdict *v)
{
	struct kb_tree *t = q->t;
	const struct kb_rule_src *rs = q->depth < 8 ? strmap_get(&t->rule_srcs, q->norm) : NULL;
	if (!rs || (!strmap_get(&t->objs, rs->object) && !strmap_get(&t->notes, rs->object)))
		return false;
	/* compiled exactly when the target object of the rule is (that one is not) */
	char *tsrc = xstrdup(rs->object);
	tsrc[strlen(tsrc) - 1] = 'c';
	const char *r2 = NULL;
	*v = verdict_depth(t, tsrc, &r2, q->depth + 1);
	sb_addf(q->sb, "compiled as %s by the explicit rule at %s:%u, which is %s: %s", rs->object,
		rs->makefile, rs->line, kb_verdict_name(*v), r2);
	free(tsrc);
	return true;
}

/* `#include "x.c"` in a sibling: the includer's verdict, refined by the #if around it. */
static enum kb_verdict included(const struct vq *q, const struct kb_include *inc)
{
	const char *r2 = NULL;
	enum kb_verdict iv = verdict_depth(q->t, inc->includer, &r2, q->depth + 1);
	if (iv != KB_COMPILED || inc->state == 1) {
		sb_addf(q->sb, "#included by %s, which is %s", inc->includer, kb_verdict_name(iv));
		return iv;
	}
	if (inc->state == 0) {
		sb_addf(q->sb, "#included by %s only under `%s`, false for this config", inc->includer, inc->why);
		return KB_NOT_COMPILED;
	}
	sb_addf(q->sb, "#included by %s under `%s`, which kcve does not evaluate", inc->includer, inc->why);
	return KB_UNKNOWN;
}

/* Phase 3: the directory was evaluated and its lists do not collect the object. */
static enum kb_verdict evaluated_dir(const struct vq *q, const struct kb_dir *d)
{
	struct kb_tree *t = q->t;
	const struct kb_note *note = q->note;
	const struct kb_obj *comp = strmap_get(&t->composites, q->obj);
	const char *mention = strmap_get(&t->mentions, q->obj);
	kbt_scan_includes(t, q->dir);
	const struct kb_include *inc = strmap_get(&t->includes, q->norm);
	if (note && !note->enabled && !(mention && kbt_rule_names(t, q->dir, q->obj))) {
		/* a disabled listing says nothing about a custom rule that uses the object */
		describe_note(t, note, q->sb);
	} else if (comp) {
		sb_adds(q->sb, comp->reason);
	} else if (inc && q->depth < 8) {
		return included(q, inc);
	} else if (mention) {
		sb_addf(q->sb, "named in %s, built only if a custom rule uses it", mention);
		return KB_UNKNOWN;
	} else if (d->uncertain) {
		sb_addf(q->sb, "%s could not be fully evaluated: %s", d->makefile ? d->makefile : q->dir,
			d->why_uncertain);
		return KB_UNKNOWN;
	} else if (note && !d->builtin && !strncmp(note->var, "obj-y", 5)) {
		sb_addf(q->sb, "obj-y object of %s, but the directory is reached only as a module directory (%s)",
			*q->dir ? q->dir : ".", d->reason);
	} else if (note && !strncmp(note->var, "obj-m", 5)) {
		sb_addf(q->sb, "module object, but CONFIG_MODULES is not set");
	} else if (d->no_makefile) {
		sb_addf(q->sb, "directory %s has no Kbuild or Makefile", q->dir);
	} else {
		sb_addf(q->sb, "not listed in any enabled object list of %s", d->makefile);
		if (note) {
			sb_adds(q->sb, "; ");
			describe_note(t, note, q->sb);
		}
	}
	return KB_NOT_COMPILED;
}

/* How the evaluated parent lists the subdirectory child that was not descended. */
static enum kb_verdict parent_listing(const struct vq *q, const char *child, const char *parent,
				      const struct kb_dir *pd)
{
	const struct kb_note *dn = strmap_get(&q->t->notes, child);
	const char *mf = pd->makefile ? pd->makefile : parent;
	if (pd->uncertain && !(dn && !dn->enabled)) {
		sb_addf(q->sb, "directory %s/ not descended, but %s could not be fully evaluated: %s", child,
			mf, pd->why_uncertain);
		return KB_UNKNOWN;
	}
	if (dn && !strcmp(dn->var, "subdir-") && !strcmp(dn->lhs, "subdir-")) {
		/* a literal `subdir-` list only serves `make clean` */
		sb_addf(q->sb, "directory %s/ is not built through obj-y; it is listed only as `subdir-` "
			"(for make clean) in %s, so a recipe kcve does not follow may build it", child, mf);
		return KB_UNKNOWN;
	}
	if (dn) {
		sb_addf(q->sb, "directory %s/ not descended: ", child);
		describe_note(q->t, dn, q->sb);
	} else {
		sb_addf(q->sb, "directory %s/ is not listed in %s", child,
			pd->makefile ? pd->makefile : (*parent ? parent : "the top-level Kbuild"));
	}
	return KB_NOT_COMPILED;
}

/* The nearest evaluated ancestor decides. */
static enum kb_verdict ancestor_listing(const struct vq *q)
{
	enum kb_verdict v = KB_NOT_COMPILED;
	char *child = xstrdup(q->dir);
	for (;;) {
		char *parent = kbt_dirname(child);
		if (!*child) {
			sb_adds(q->sb, "not reached from the top-level Kbuild");
			free(parent);
			break;
		}
		const struct kb_dir *pd = strmap_get(&q->t->dirs, parent);
		if (pd && pd->evaluated) {
			v = parent_listing(q, child, parent, pd);
			free(parent);
			break;
		}
		free(child);
		child = parent;
	}
	free(child);
	return v;
}

/* Phase 4: the directory was not descended. */
static enum kb_verdict not_descended(const struct vq *q)
{
	struct kb_tree *t = q->t;
	/* named by a variable of an evaluated makefile (vdso32/...), or inside a directory that a
	 * recipe builds with $(build)= -> unknown */
	const char *mention = strmap_get(&t->mentions, q->obj);
	if (mention) {
		sb_addf(q->sb, "named in %s, built only if a custom rule uses it", mention);
		return KB_UNKNOWN;
	}
	if (kbt_host_tool(q->norm)) {
		sb_adds(q->sb, "build-time host program (scripts/, tools/, arch/*/tools/): runs on the build machine, not part of the kernel");
		return KB_NOT_COMPILED;
	}
	if (strmap_get(&t->recipe_dirs, q->dir) && q->note && !q->note->enabled) {
		/* a known recipe (recipes.c) links only the enabled entries of its list */
		describe_note(t, q->note, q->sb);
		sb_adds(q->sb, "; the recipe building this directory links only the enabled entries");
		return KB_NOT_COMPILED;
	}
	char *anc = NULL;
	const char *mfr = kbt_custom_dir(t, q->dir, &anc);
	if (mfr) {
		sb_addf(q->sb, "directory %s/ is built by an explicit $(build)= recipe in %s; kcve does not know whether that recipe uses this file",
			anc, mfr);
		free(anc);
		return KB_UNKNOWN;
	}
	return ancestor_listing(q);
}

static enum kb_verdict object_verdict(struct kb_tree *t, const char *norm, const char *obj, int depth,
				      struct strbuf *sb)
{
	char *dir = kbt_dirname(norm);
	struct vq q = {t, norm, obj, dir, strmap_get(&t->notes, obj), depth, sb};
	const struct kb_obj *o = strmap_get(&t->objs, obj);
	const struct kb_dir *d = strmap_get(&t->dirs, dir);
	enum kb_verdict v;
	if (o)
		v = listed_object(&q, o, d);
	else if (!rule_source(&q, &v))
		v = d && d->evaluated ? evaluated_dir(&q, d) : not_descended(&q);
	free(dir);
	return v;
}

/* path relative to the tree, normalised; NULL outside it (or empty) */
static char *tree_path(struct kb_tree *t, const char *path)
{
	size_t kl = strlen(t->ksrc);
	if (path[0] == '/' && !strncmp(path, t->ksrc, kl) && path[kl] == '/')
		path += kl + 1; /* absolute path inside the tree */
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	char *norm = path[0] == '/' ? NULL : kbt_normalize("", path, strlen(path));
	if (norm && !*norm) {
		free(norm);
		norm = NULL;
	}
	return norm;
}

static bool is_header(const char *norm)
{
	const char *dot = strrchr(norm, '.'), *slash = strrchr(norm, '/');
	return dot && !(slash && dot < slash) && !strcmp(dot, ".h");
}

static enum kb_verdict verdict_depth(struct kb_tree *t, const char *path, const char **reason,
				     int depth)
{
	kbt_evaluate(t);
	struct strbuf sb = STRBUF_INIT;
	enum kb_verdict v = KB_UNKNOWN;
	char *norm = tree_path(t, path);
	char *obj = norm && !is_header(norm) ? kbt_object_of(norm) : NULL;
	if (!norm)
		sb_adds(&sb, "path is outside the source tree");
	else if (is_header(norm))
		sb_adds(&sb, "header: makefiles never name headers (use --build with a build directory for an exact answer)");
	else if (!obj)
		sb_adds(&sb, "not a C or assembler source; only .c/.S files map to objects");
	else
		v = object_verdict(t, norm, obj, depth, &sb);
	free(obj);
	free(norm);
	*reason = keep(t, &sb);
	return v;
}
