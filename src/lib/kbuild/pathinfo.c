/* Per-path answers for the compact database and for module marking.
 *
 * kb_tree_export_conditions() only lists the .c files present in the tree; a CVE record also
 * names files that are not there (deleted or renamed since, selftests added later), .S files
 * and headers.  kb_file_verdict() decides those without a condition (a path under tools/ is a
 * host program, a directory no makefile reaches is not compiled, a header is unknown), so a
 * database holding only the .c conditions answered "unknown" where the evaluator answers "not
 * compiled".  kb_export_db_conditions() writes, for any list of paths, the condition that
 * reproduces kb_file_verdict()'s rule for that path, plus the module the file links into.
 *
 * Module of a file: the object of an obj-y/obj-m list it ends up in, i.e. the composite
 * ("nf_tables-y += nf_tables_core.o ..." -> nf_tables) or its own object (tun.o -> tun), with
 * '-' folded to '_' as the module loader reports names in /proc/modules. */
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_tree.h"

/* Module name of an object collected by the evaluation, or false (not collected, lib.a or
 * extra target).  Composite members carry "part of composite <dir>/<name>.o" (tree.c). */
static bool module_of(const struct kb_tree *t, const char *obj, char *out, size_t outsz)
{
	const struct kb_obj *o = strmap_get(&t->objs, obj);
	if (!o || (o->kind != KBT_BUILTIN && o->kind != KBT_MODULE) || outsz == 0)
		return false;
	static const char marker[] = "part of composite ";
	const char *c = o->reason ? strstr(o->reason, marker) : NULL;
	const char *p = c ? c + sizeof marker - 1 : obj;
	const char *b = strrchr(p, '/');
	b = b ? b + 1 : p;
	size_t n = strcspn(b, " ,;");
	if (n > 2 && !strncmp(b + n - 2, ".o", 2))
		n -= 2;
	if (n == 0 || n >= outsz)
		return false;
	for (size_t i = 0; i < n; i++)
		out[i] = b[i] == '-' ? '_' : b[i];
	out[n] = '\0';
	return true;
}

bool kb_file_module(struct kb_tree *t, const char *path, char *out, size_t outsz)
{
	kbt_evaluate(t);
	char *norm = path[0] == '/' ? NULL : kbt_normalize("", path, strlen(path));
	char *obj = norm ? kbt_object_of(norm) : NULL;
	bool ok = obj && module_of(t, obj, out, outsz);
	free(obj);
	free(norm);
	return ok;
}

/* Symbolic form of one `#if` operand, the same forms includes.c's pp_value() decides from a
 * config: 0/1, IS_ENABLED(CONFIG_X) (=y or =m), IS_BUILTIN (=y), IS_MODULE (=m),
 * defined(CONFIG_X) (set, not =m), optionally negated; anything else is "unknown". */
static char *pp_sym(const struct kbt_pp_operand *op)
{
	/* condition text around CONFIG_X for each symbol kind */
	static const struct {
		const char *pre, *post;
	} form[] = {
		[KBT_PP_IS_ENABLED] = {"", ""},
		[KBT_PP_IS_BUILTIN] = {"", "=y"},
		[KBT_PP_IS_MODULE] = {"", "=m"},
		[KBT_PP_DEFINED] = {"defined(", ")"},
	};
	if (op->kind == KBT_PP_UNKNOWN)
		return xstrdup("unknown");
	char *v = op->kind == KBT_PP_TRUE    ? xstrdup("y")
		  : op->kind == KBT_PP_FALSE ? xstrdup("n")
					     : mk_strf("%s%.*s%s", form[op->kind].pre, (int)op->symlen,
						       op->sym, form[op->kind].post);
	if (op->neg) {
		char *x = mk_strf("!(%s)", v);
		free(v);
		v = x;
	}
	return v;
}

static char *cond_and2(const char *a, const char *b)
{
	if (!strcmp(a, "y"))
		return xstrdup(b);
	if (!strcmp(b, "y"))
		return xstrdup(a);
	return mk_strf("(%s) && (%s)", a, b);
}

struct ppsym {
	char *cond; /* condition of the running branch */
	char *ifc;  /* condition of the #if line */
	bool elif;  /* an #elif was seen: later branches are undecided where #if is false */
};

/* Condition under which includer's first `#include "x.c"` of norm is active, walking the
 * preprocessor blocks as kbt_scan_includes() does (elif and else after elif are undecided
 * unless an earlier branch was taken, as there). */
static char *include_cond(struct kb_tree *s, const char *includer, const char *norm)
{
	struct strbuf f = STRBUF_INIT, text = STRBUF_INIT;
	sb_addf(&f, "%s/%s", s->ksrc, includer);
	int rc = read_file(sb_str(&f), &text);
	sb_release(&f);
	if (rc != 0) {
		sb_release(&text);
		return xstrdup("unknown");
	}
	char *dir = kbt_dirname(includer);
	struct ppsym st[32];
	int depth = 0, overflow = 0;
	char *res = NULL;
	const char *p = sb_str(&text);
	struct kbt_pp_line l;
	while (!res && kbt_pp_next(&p, dir, &l)) {
		if (l.kind == KBT_PPL_IF) {
			if (depth == 32) {
				overflow++;
			} else {
				char *c = pp_sym(&l.cond);
				st[depth].ifc = c;
				st[depth].cond = xstrdup(c);
				st[depth].elif = false;
				depth++;
			}
		} else if ((l.kind == KBT_PPL_ELIF || l.kind == KBT_PPL_ELSE) && depth && !overflow) {
			struct ppsym *fr = &st[depth - 1];
			if (l.kind == KBT_PPL_ELIF)
				fr->elif = true;
			free(fr->cond);
			fr->cond = fr->elif ? mk_strf("(!(%s)) && unknown", fr->ifc) : mk_strf("!(%s)", fr->ifc);
		} else if (l.kind == KBT_PPL_ENDIF) {
			if (overflow) {
				overflow--;
			} else if (depth) {
				depth--;
				free(st[depth].cond);
				free(st[depth].ifc);
			}
		} else if (l.kind == KBT_PPL_INCLUDE_C && !strcmp(l.include, norm)) {
			res = xstrdup(overflow ? "unknown" : "y");
			for (int k = 0; k < depth && !overflow; k++) {
				char *x = cond_and2(res, st[k].cond);
				free(res);
				res = x;
			}
		}
		free(l.include);
	}
	for (int k = 0; k < depth; k++) {
		free(st[k].cond);
		free(st[k].ifc);
	}
	free(dir);
	sb_release(&text);
	return res ? res : xstrdup("unknown");
}

/* Condition (symbolic tree s) under which kb_file_verdict() calls norm compiled; "n" when it
 * never does, "unknown" when it leaves it open; "(C) && unknown" when it is open only where
 * its directory is reached. */
static char *path_cond(struct kb_tree *s, const char *norm, int depth)
{
	char *obj = kbt_object_of(norm);
	if (!obj)
		return xstrdup("unknown"); /* headers, non-C files: makefiles never name them */
	const char *oc = strmap_get(&s->objconds, obj);
	free(obj);
	if (oc)
		return xstrdup(oc);
	if (kbt_host_tool(norm))
		return xstrdup("n");
	char *dir = kbt_dirname(norm);
	struct kb_dir *d = strmap_get(&s->dirs, dir);
	char *res = NULL;
	if (d) {
		kbt_scan_includes(s, dir);
		const struct kb_include *inc = strmap_get(&s->includes, norm);
		if (inc && depth < 8) {
			/* compiled where the includer is and the #include's preprocessor blocks are
			 * taken */
			char *ic = path_cond(s, inc->includer, depth + 1);
			char *pc = include_cond(s, inc->includer, norm);
			res = strcmp(ic, "n") ? cond_and2(ic, pc) : xstrdup("n");
			free(ic);
			free(pc);
		} else if (d->uncertain) {
			/* open only where the directory is reached; elsewhere "not descended" */
			res = d->cond && strcmp(d->cond, "y") ? mk_strf("(%s) && unknown", d->cond)
							      : xstrdup("unknown");
		}
	}
	if (!d)
		res = xstrdup(kbt_undescended_cond(s, norm, dir));
	free(dir);
	return res ? res : xstrdup("n");
}

/* The architectures a compact database evaluates: Debian's (the kernels kcve is measured on).
 * A file under arch/<other>/ of a listed one's tree is never compiled for it; one under an
 * unlisted architecture's directory is "unknown", and a file whose condition differs between
 * the listed architectures is "unknown" for the others. */
static const char *const db_arches[] = {"x86", "arm64", "arm", "powerpc", "s390", "riscv", "mips",
					"loongarch"};
#define N_DB_ARCHES (sizeof(db_arches) / sizeof(db_arches[0]))

/* The condition of path i across the evaluated architectures (conds[a] NULL: not evaluated):
 * one condition where they agree, else per architecture.  A file under the directory of an
 * architecture not evaluated is "unknown" for that architecture (the others' evaluations
 * cannot speak for it); another architecture's files count like any other (arm64 compiles
 * arch/arm/xen/). */
static char *merge_arches(char **conds[N_DB_ARCHES], size_t i, const char *norm)
{
	bool foreign = false;
	if (norm && !strncmp(norm, "arch/", 5)) {
		const char *a = norm + 5, *slash = strchr(a, '/');
		foreign = slash != NULL;
		for (size_t k = 0; slash && k < N_DB_ARCHES; k++)
			if (conds[k] && strlen(db_arches[k]) == (size_t)(slash - a) &&
			    !strncmp(a, db_arches[k], (size_t)(slash - a)))
				foreign = false;
	}
	const char *first = NULL;
	bool same = !foreign;
	for (size_t k = 0; k < N_DB_ARCHES; k++)
		if (conds[k]) {
			if (first && strcmp(first, conds[k][i]))
				same = false;
			if (!first)
				first = conds[k][i];
		}
	if (!first)
		return xstrdup("unknown");
	if (same)
		return xstrdup(first);
	struct strbuf sb = STRBUF_INIT, rest = STRBUF_INIT;
	for (size_t k = 0; k < N_DB_ARCHES; k++) {
		if (!conds[k])
			continue;
		sb_addf(&rest, "!ARCH=%s && ", db_arches[k]);
		if (!strcmp(conds[k][i], "n"))
			continue;
		sb_addf(&sb, "%s(ARCH=%s && (%s))", sb.len ? " || " : "", db_arches[k], conds[k][i]);
	}
	sb_addf(&sb, "%s(%sunknown)", sb.len ? " || " : "", sb_str(&rest));
	sb_release(&rest);
	return sb_detach(&sb);
}

int kb_export_db_conditions(const char *ksrc, const char *const *paths, size_t n, FILE *out,
			    struct kcve_err *err)
{
	struct kb_config *cfg = NULL;
	if (kb_config_parse(&cfg, "", 0, "(empty config)", err) < 0)
		return -1;
	/* every .c file of the tree and every path asked for, sorted, once */
	char *root = realpath(ksrc, NULL);
	char **v = NULL;
	size_t nv = 0, alloc = 0;
	if (root)
		kbt_list_c_files(root, "", &v, &nv, &alloc);
	free(root);
	for (size_t i = 0; i < n; i++) {
		if (!*paths[i] || strchr(paths[i], '\t') || strchr(paths[i], '\n'))
			continue;
		XGROW(v, nv + 1, alloc);
		v[nv++] = xstrdup(paths[i]);
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_str);
	size_t w = 0;
	for (size_t i = 0; i < nv; i++) {
		if (w && !strcmp(v[w - 1], v[i]))
			free(v[i]);
		else
			v[w++] = v[i];
	}
	nv = w;
	char **norms = xcalloc(nv + 1, sizeof(*norms));
	char **mods = xcalloc(nv + 1, sizeof(*mods));
	for (size_t i = 0; i < nv; i++)
		norms[i] = v[i][0] == '/' ? NULL : kbt_normalize("", v[i], strlen(v[i]));
	char **conds[N_DB_ARCHES] = {0};
	int rc = 0;
	size_t present = 0;
	for (size_t k = 0; k < N_DB_ARCHES; k++) {
		char *probe = mk_strf("%s/arch/%s/Makefile", ksrc, db_arches[k]);
		bool have = path_exists(probe);
		free(probe);
		/* an architecture the tree does not have is left out (its files say "unknown") */
		if (!have)
			continue;
		present++;
		struct kb_tree *s = NULL;
		if (kbt_open(&s, ksrc, cfg, db_arches[k], true, err) < 0) {
			rc = -1;
			break;
		}
		kbt_evaluate(s);
		conds[k] = xcalloc(nv + 1, sizeof(**conds));
		for (size_t i = 0; i < nv; i++) {
			conds[k][i] = norms[i] && *norms[i] ? path_cond(s, norms[i], 0) : xstrdup("unknown");
			char mod[256];
			char *obj = norms[i] ? kbt_object_of(norms[i]) : NULL;
			if (!mods[i] && obj && module_of(s, obj, mod, sizeof mod))
				mods[i] = xstrdup(mod);
			free(obj);
		}
		kb_tree_close(s);
	}
	if (rc == 0 && !present) {
		/* not a kernel tree of any of them: kbt_open words the error */
		struct kb_tree *s = NULL;
		rc = kbt_open(&s, ksrc, cfg, db_arches[0], true, err);
		kb_tree_close(s);
		if (rc == 0)
			rc = kcve_err_set(err, KCVE_E_NOTFOUND, "%s has none of the architectures kcve evaluates", ksrc);
	}
	for (size_t i = 0; i < nv && rc == 0; i++) {
		char *c = merge_arches(conds, i, norms[i]);
		fprintf(out, "%s\t%s\t%s\n", v[i], c, mods[i] ? mods[i] : "");
		free(c);
	}
	for (size_t k = 0; k < N_DB_ARCHES; k++) {
		for (size_t i = 0; conds[k] && i < nv; i++)
			free(conds[k][i]);
		free(conds[k]);
	}
	for (size_t i = 0; i < nv; i++) {
		free(v[i]);
		free(norms[i]);
		free(mods[i]);
	}
	free(v);
	free(norms);
	free(mods);
	kb_config_free(cfg);
	if (rc == 0 && ferror(out))
		return kcve_err_set(err, KCVE_E_IO, "write error while exporting Kbuild conditions");
	return rc;
}
