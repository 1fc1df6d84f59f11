/* Per-file answers from an evaluated Kbuild tree, always with a reason.
 *
 * Order of questions for "dir/x.c":
 *  1. dir/x.o collected as an object                       -> compiled
 *  2. headers and non-C sources                            -> unknown (makefiles never name them)
 *  3. dir was descended:
 *       x.o listed only under a disabled name (obj-, foo-)  -> not compiled (with the listing)
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
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_tree.h"

static const char *keep(struct kb_tree *t, struct strbuf *sb)
{
	XGROW(t->reasons, t->nreasons + 1, t->reasons_alloc);
	t->reasons[t->nreasons++] = sb_detach(sb);
	return t->reasons[t->nreasons - 1];
}

/* "obj-$(CONFIG_EXT2_FS) fs/Makefile:53" -> append " (CONFIG_EXT2_FS=m)" style values */
static void describe_note(struct kb_tree *t, const char *note, struct strbuf *out)
{
	/* note: "<var> <lhs_raw...> <file>:<line>" */
	const char *sp = strchr(note, ' ');
	const char *last = strrchr(note, ' ');
	if (!sp || !last || last <= sp) {
		sb_adds(out, note);
		return;
	}
	sb_addf(out, "listed as `%.*s` in %s", (int)(last - sp - 1), sp + 1, last + 1);
	bool first = true;
	for (const char *p = sp; (p = strstr(p, "CONFIG_")) && p < last;) {
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

/* The preprocessor layer around an #include of a .c file: `#ifdef CONFIG_X`, `#ifndef`,
 * `#if IS_ENABLED(CONFIG_X)`, `IS_BUILTIN`, `defined(CONFIG_X)`, `0`/`1`, optionally negated, are
 * decided from the config (a tristate set to m defines CONFIG_X_MODULE, not CONFIG_X); any other
 * expression is unknown. */
struct ppframe {
	int value;      /* 1 true, 0 false, -1 unknown */
	bool seen_true; /* for #elif/#else */
	char text[96];
};

static int pp_value(struct kb_tree *t, const struct kbt_pp_operand *op)
{
	if (op->kind == KBT_PP_UNKNOWN)
		return -1;
	int v;
	if (op->kind == KBT_PP_FALSE || op->kind == KBT_PP_TRUE) {
		v = op->kind == KBT_PP_TRUE;
	} else {
		char *sym = xstrndup(op->sym, op->symlen);
		const char *val = kb_config_get(t->cfg, sym);
		free(sym);
		bool y = val && !strcmp(val, "y"), m = val && !strcmp(val, "m");
		if (op->kind == KBT_PP_IS_ENABLED)
			v = y || m;
		else if (op->kind == KBT_PP_IS_MODULE)
			v = m;
		else if (op->kind == KBT_PP_IS_BUILTIN)
			v = y;
		else
			v = val && !m; /* defined(CONFIG_X): autoconf.h defines it unless =m */
	}
	return op->neg ? !v : v;
}

/* Scan the .c files of a directory once for `#include "x.c"` of a sibling; remember the
 * includer and whether the include is active under the config. */
void kbt_scan_includes(struct kb_tree *t, const char *dir)
{
	struct strbuf key = STRBUF_INIT;
	sb_addf(&key, "%s/\tscanned", dir);
	if (strmap_get(&t->includes, sb_str(&key))) {
		sb_release(&key);
		return;
	}
	strmap_put(&t->includes, sb_str(&key), xstrdup("1"));
	sb_release(&key);
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s%s%s", t->ksrc, *dir ? "/" : "", dir);
	DIR *dh = opendir(sb_str(&p));
	if (!dh) {
		sb_release(&p);
		return;
	}
	struct dirent *de;
	while ((de = readdir(dh))) {
		size_t nl = strlen(de->d_name);
		if (nl < 3 || strcmp(de->d_name + nl - 2, ".c") != 0)
			continue;
		struct strbuf f = STRBUF_INIT, text = STRBUF_INIT;
		sb_addf(&f, "%s/%s", sb_str(&p), de->d_name);
		if (read_file(sb_str(&f), &text) != 0 || !strstr(sb_str(&text), ".c\"")) {
			sb_release(&f);
			sb_release(&text);
			continue;
		}
		struct ppframe st[32];
		int depth = 0, overflow = 0;
		const char *s = sb_str(&text);
		struct kbt_pp_line l;
		while (kbt_pp_next(&s, dir, &l)) {
			if (l.kind == KBT_PPL_IF) {
				if (depth == 32) {
					overflow++;
				} else {
					struct ppframe *fr = &st[depth++];
					int v = pp_value(t, &l.cond);
					fr->value = v;
					fr->seen_true = v == 1;
					int tl = (int)(l.len < 80 ? l.len : 80);
					snprintf(fr->text, sizeof(fr->text), "#%.*s", tl, l.text);
				}
			} else if (l.kind == KBT_PPL_ELIF && depth && !overflow) {
				struct ppframe *fr = &st[depth - 1];
				fr->value = fr->seen_true ? 0 : -1;
			} else if (l.kind == KBT_PPL_ELSE && depth && !overflow) {
				struct ppframe *fr = &st[depth - 1];
				if (fr->value >= 0)
					fr->value = fr->seen_true ? 0 : 1;
				fr->seen_true = true;
				size_t tl = strlen(fr->text);
				if (tl + 7 < sizeof(fr->text))
					memcpy(fr->text + tl, " #else", 7);
			} else if (l.kind == KBT_PPL_ENDIF) {
				if (overflow)
					overflow--;
				else if (depth)
					depth--;
			} else if (l.kind == KBT_PPL_INCLUDE_C && !strmap_get(&t->includes, l.include)) {
				int state = overflow ? -1 : 1;
				const char *why = "";
				for (int k = 0; k < depth; k++) {
					if (st[k].value == 0) {
						state = 0;
						why = st[k].text;
						break;
					}
					if (st[k].value < 0 && state == 1) {
						state = -1;
						why = st[k].text;
					}
				}
				struct strbuf v = STRBUF_INIT;
				sb_addf(&v, "%s%s%s\t%d\t%s", dir, *dir ? "/" : "", de->d_name, state, why);
				strmap_put(&t->includes, l.include, sb_detach(&v));
			}
			free(l.include);
		}
		sb_release(&f);
		sb_release(&text);
	}
	closedir(dh);
	sb_release(&p);
}

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

static enum kb_verdict verdict_depth(struct kb_tree *t, const char *path, const char **reason,
				     int depth)
{
	kbt_evaluate(t);
	struct strbuf sb = STRBUF_INIT;
	size_t kl = strlen(t->ksrc);
	if (path[0] == '/' && !strncmp(path, t->ksrc, kl) && path[kl] == '/')
		path += kl + 1; /* absolute path inside the tree */
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	char *norm = path[0] == '/' ? NULL : kbt_normalize("", path, strlen(path));
	if (!norm || !*norm) {
		free(norm);
		sb_adds(&sb, "path is outside the source tree");
		*reason = keep(t, &sb);
		return KB_UNKNOWN;
	}
	const char *dot = strrchr(norm, '.');
	const char *slash = strrchr(norm, '/');
	if (dot && slash && dot < slash)
		dot = NULL;
	enum kb_verdict v = KB_UNKNOWN;
	if (dot && (!strcmp(dot, ".h"))) {
		sb_adds(&sb, "header: makefiles never name headers (use --build with a build directory for an exact answer)");
		goto out;
	}
	char *obj = kbt_object_of(norm);
	if (!obj) {
		sb_adds(&sb, "not a C or assembler source; only .c/.S files map to objects");
		goto out;
	}
	struct kb_obj *o = strmap_get(&t->objs, obj);
	const char *note = strmap_get(&t->notes, obj);
	char *dir = kbt_dirname(norm);
	if (o) {
		v = KB_COMPILED;
		sb_adds(&sb, o->reason);
		if (note) {
			sb_adds(&sb, ", ");
			describe_note(t, note + 1, &sb);
		}
		struct kb_dir *d = strmap_get(&t->dirs, dir);
		if (d && d->uncertain)
			sb_addf(&sb, " (parts of %s could not be evaluated: %s)", d->makefile ? d->makefile : dir,
				d->why_uncertain);
		goto done;
	}
	const struct kb_rule_src *rs = depth < 8 ? strmap_get(&t->rule_srcs, norm) : NULL;
	if (rs && (strmap_get(&t->objs, rs->object) || strmap_get(&t->notes, rs->object))) {
		/* compiled exactly when the target object of the rule is (that one is not) */
		char *tsrc = xstrdup(rs->object);
		tsrc[strlen(tsrc) - 1] = 'c';
		const char *r2 = NULL;
		v = verdict_depth(t, tsrc, &r2, depth + 1);
		sb_addf(&sb, "compiled as %s by the explicit rule at %s:%u, which is %s: %s", rs->object,
			rs->makefile, rs->line, kb_verdict_name(v), r2);
		free(tsrc);
		goto done;
	}
	struct kb_dir *d = strmap_get(&t->dirs, dir);
	if (d && d->evaluated) {
		struct kb_obj *comp = strmap_get(&t->composites, obj);
		const char *mention = strmap_get(&t->mentions, obj);
		kbt_scan_includes(t, dir);
		const char *includer = strmap_get(&t->includes, norm);
		if (note && note[0] == '-') {
			v = KB_NOT_COMPILED;
			describe_note(t, note + 1, &sb);
		} else if (comp) {
			v = KB_NOT_COMPILED;
			sb_adds(&sb, comp->reason);
		} else if (includer && depth < 8) {
			/* "dir/y.c\t<state>\t<directive>" */
			const char *tab = strchr(includer, '\t');
			char *inc = xstrndup(includer, tab ? (size_t)(tab - includer) : strlen(includer));
			int state = tab ? atoi(tab + 1) : 1;
			const char *why = tab ? strchr(tab + 1, '\t') : NULL;
			why = why ? why + 1 : "";
			const char *r2 = NULL;
			enum kb_verdict iv = verdict_depth(t, inc, &r2, depth + 1);
			if (iv != KB_COMPILED || state == 1) {
				v = iv;
				sb_addf(&sb, "#included by %s, which is %s", inc, kb_verdict_name(iv));
			} else if (state == 0) {
				v = KB_NOT_COMPILED;
				sb_addf(&sb, "#included by %s only under `%s`, false for this config", inc, why);
			} else {
				v = KB_UNKNOWN;
				sb_addf(&sb, "#included by %s under `%s`, which kcve does not evaluate", inc, why);
			}
			free(inc);
		} else if (mention) {
			v = KB_UNKNOWN;
			sb_addf(&sb, "named in %s, built only if a custom rule uses it", mention);
		} else if (d->uncertain) {
			v = KB_UNKNOWN;
			sb_addf(&sb, "%s could not be fully evaluated: %s", d->makefile ? d->makefile : dir,
				d->why_uncertain);
		} else if (note && !d->builtin && (!strncmp(note + 1, "obj-y", 5))) {
			v = KB_NOT_COMPILED;
			sb_addf(&sb, "obj-y object of %s, but the directory is reached only as a module directory (%s)",
				*dir ? dir : ".", d->reason);
		} else if (note && !strncmp(note + 1, "obj-m", 5)) {
			v = KB_NOT_COMPILED;
			sb_addf(&sb, "module object, but CONFIG_MODULES is not set");
		} else if (d->no_makefile) {
			v = KB_NOT_COMPILED;
			sb_addf(&sb, "directory %s has no Kbuild or Makefile", dir);
		} else {
			v = KB_NOT_COMPILED;
			sb_addf(&sb, "not listed in any enabled object list of %s", d->makefile);
			if (note) {
				sb_adds(&sb, "; ");
				describe_note(t, note + 1, &sb);
			}
		}
		goto done;
	}
	/* not descended: named by a variable of an evaluated makefile (vdso32/...), or inside a
	 * directory that a recipe builds with $(build)= -> unknown */
	const char *mention = strmap_get(&t->mentions, obj);
	if (mention) {
		v = KB_UNKNOWN;
		sb_addf(&sb, "named in %s, built only if a custom rule uses it", mention);
		goto done;
	}
	if (kbt_host_tool(norm)) {
		v = KB_NOT_COMPILED;
		sb_adds(&sb, "build-time host program (scripts/, tools/, arch/*/tools/): runs on the build machine, not part of the kernel");
		goto done;
	}
	if (strmap_get(&t->recipe_dirs, dir) && note && note[0] == '-') {
		/* a known recipe (recipes.c) links only the enabled entries of its list */
		v = KB_NOT_COMPILED;
		describe_note(t, note + 1, &sb);
		sb_adds(&sb, "; the recipe building this directory links only the enabled entries");
		goto done;
	}
	char *anc = NULL;
	const char *mfr = kbt_custom_dir(t, dir, &anc);
	if (mfr) {
		v = KB_UNKNOWN;
		sb_addf(&sb, "directory %s/ is built by an explicit $(build)= recipe in %s; kcve does not know whether that recipe uses this file",
			anc, mfr);
		free(anc);
		goto done;
	}
	char *child = xstrdup(dir);
	for (;;) {
		char *parent = kbt_dirname(child);
		bool top = !*child;
		struct kb_dir *pd = top ? NULL : strmap_get(&t->dirs, parent);
		if (top) {
			v = KB_NOT_COMPILED;
			sb_adds(&sb, "not reached from the top-level Kbuild");
			free(parent);
			break;
		}
		if (pd && pd->evaluated) {
			struct strbuf key = STRBUF_INIT;
			sb_addf(&key, "%s", child);
			const char *dn = strmap_get(&t->notes, sb_str(&key));
			sb_release(&key);
			if (pd->uncertain && !(dn && dn[0] == '-')) {
				v = KB_UNKNOWN;
				sb_addf(&sb, "directory %s/ not descended, but %s could not be fully evaluated: %s",
					child, pd->makefile ? pd->makefile : parent, pd->why_uncertain);
			} else if (dn && !strncmp(dn + 1, "subdir- subdir- ", 16)) {
				/* a literal `subdir-` list only serves `make clean` */
				v = KB_UNKNOWN;
				sb_addf(&sb, "directory %s/ is not built through obj-y; it is listed only as `subdir-` "
					"(for make clean) in %s, so a recipe kcve does not follow may build it",
					child, pd->makefile ? pd->makefile : parent);
			} else if (dn) {
				v = KB_NOT_COMPILED;
				sb_addf(&sb, "directory %s/ not descended: ", child);
				describe_note(t, dn + 1, &sb);
			} else {
				v = KB_NOT_COMPILED;
				sb_addf(&sb, "directory %s/ is not listed in %s", child,
					pd->makefile ? pd->makefile : (*parent ? parent : "the top-level Kbuild"));
			}
			free(parent);
			break;
		}
		free(child);
		child = parent;
	}
	free(child);
done:
	free(obj);
	free(dir);
out:
	free(norm);
	*reason = keep(t, &sb);
	return v;
}
