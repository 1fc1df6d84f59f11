/* File -> gating condition export.
 *
 * The tree is evaluated once with every CONFIG_ symbol reading "y" while recording which symbols
 * each list assignment's name depended on (obj-$(CONFIG_EXT4_FS) -> CONFIG_EXT4_FS) and which
 * symbols the enclosing ifdef/ifeq tests read.  A file's condition is the conjunction along its
 * path: directory descents, its object entry, its composite-member entry, and the ifdef/ifeq
 * blocks around them (both branches are followed; "ifdef CONFIG_X" gives CONFIG_X and its else
 * !CONFIG_X; tests that are not a plain presence test add nothing, i.e. over-approximate).
 * Tests on non-CONFIG variables and the preprocessor around `#include "x.c"` follow the given
 * .config (an include under a CONFIG #if exports "unknown").  =m and =y are not distinguished. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/strmap.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "kbuild/kbuild_tree.h"

#define MAX_COND_LEN 1500

/* Conjunction of the literals ("CONFIG_A", "!CONFIG_B") found in syms, deduplicated, in order. */
char *kbt_cond_from_syms(const char *syms)
{
	struct strbuf out = STRBUF_INIT;
	sb_adds(&out, "");
	char **seen = NULL;
	size_t nseen = 0, alloc = 0;
	const char *p = syms;
	while (*p) {
		while (*p == ' ' || *p == '&')
			p++;
		const char *e = p;
		while (*e && *e != ' ' && *e != '&')
			e++;
		size_t n = (size_t)(e - p);
		bool lit = (n > 7 && !strncmp(p, "CONFIG_", 7)) || (n > 8 && !strncmp(p, "!CONFIG_", 8));
		bool dup = false;
		for (size_t i = 0; lit && i < nseen; i++)
			if (strlen(seen[i]) == n && !memcmp(seen[i], p, n))
				dup = true;
		if (lit && !dup) {
			XGROW(seen, nseen + 1, alloc);
			seen[nseen++] = xstrndup(p, n);
			if (out.len)
				sb_adds(&out, " && ");
			sb_add(&out, p, n);
		}
		p = e;
	}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	if (!out.len)
		sb_adds(&out, "y");
	return sb_detach(&out);
}

static bool pure_conj(const char *a)
{
	return !strchr(a, '|') && !strchr(a, '(');
}

char *kbt_cond_and(const char *a, const char *b)
{
	if (!strcmp(a, "unknown") || !strcmp(b, "unknown"))
		return xstrdup("unknown");
	if (!strcmp(a, "y"))
		return xstrdup(b);
	if (!strcmp(b, "y") || !strcmp(a, b))
		return xstrdup(a);
	struct strbuf sb = STRBUF_INIT;
	if (pure_conj(a) && pure_conj(b)) {
		sb_adds(&sb, a);
		sb_addc(&sb, ' ');
		sb_adds(&sb, b);
		char *s = kbt_cond_from_syms(sb_str(&sb));
		sb_release(&sb);
		return s;
	}
	sb_addf(&sb, "%s%s%s && %s%s%s", pure_conj(a) ? "" : "(", a, pure_conj(a) ? "" : ")",
		pure_conj(b) ? "" : "(", b, pure_conj(b) ? "" : ")");
	if (sb.len > MAX_COND_LEN) {
		sb_release(&sb);
		return xstrdup("unknown");
	}
	return sb_detach(&sb);
}

char *kbt_cond_or(const char *a, const char *b)
{
	if (!strcmp(a, "y") || !strcmp(b, "y"))
		return xstrdup("y");
	if (!strcmp(a, b))
		return xstrdup(a);
	if (!strcmp(a, "unknown") || !strcmp(b, "unknown"))
		return xstrdup("unknown");
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "(%s) || (%s)", a, b);
	if (sb.len > MAX_COND_LEN) {
		sb_release(&sb);
		return xstrdup("unknown");
	}
	return sb_detach(&sb);
}

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

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && memcmp(s + n - k, suf, k) == 0;
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
		if (ends_with(w, wn, "/")) {
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
		if (!ends_with(w, wn, ".o")) {
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
			sb_adds(&val, "");
			bool saved = c->uncertain;
			mk_expand_var(c, sb_str(&var2), &val);
			c->uncertain = saved;
			size_t mn;
			for (const char *m = sb_str(&val); (m = mk_next_word(m, &mn)); m += mn) {
				composite = true;
				if (!ends_with(m, mn, ".o"))
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
		sb_adds(&val, "");
		bool saved = c->uncertain;
		mk_expand_var(c, subs[i], &val);
		c->uncertain = saved;
		struct strbuf withslash = STRBUF_INIT;
		size_t wn;
		sb_adds(&withslash, "");
		for (const char *w = sb_str(&val); (w = mk_next_word(w, &wn)); w += wn) {
			sb_add(&withslash, w, wn);
			if (!ends_with(w, wn, "/"))
				sb_addc(&withslash, '/');
			sb_addc(&withslash, ' ');
		}
		collect_list(t, c, dir, dircond, sb_str(&withslash), subs[i], false);
		sb_release(&val);
		sb_release(&withslash);
	}
}

/* A file whose directory no obj-y/subdir-y reaches: "n", or "unknown" inside a directory that a
 * `$(build)=` recipe kcve does not know builds, or that is listed only as a literal `subdir-`
 * (verdict.c answers "unknown" there too); host programs are "n". */
const char *kbt_undescended_cond(struct kb_tree *s, const char *norm, const char *dir)
{
	if (kbt_host_tool(norm))
		return "n";
	char *which = NULL;
	bool open = kbt_custom_dir(s, dir, &which) || kbt_clean_dir(s, dir, &which);
	free(which);
	return open ? "unknown" : "n";
}

/* All .c files under ksrc, relative, sorted. */
static void list_c_files(const char *root, const char *rel, char ***v, size_t *n, size_t *alloc)
{
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s%s%s", root, *rel ? "/" : "", rel);
	DIR *dh = opendir(sb_str(&p));
	sb_release(&p);
	if (!dh)
		return;
	struct dirent *de;
	while ((de = readdir(dh))) {
		if (de->d_name[0] == '.')
			continue;
		struct strbuf r = STRBUF_INIT;
		sb_addf(&r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		size_t nl = strlen(de->d_name);
		bool isdir = de->d_type == DT_DIR;
		if (de->d_type == DT_UNKNOWN || de->d_type == DT_LNK) {
			struct stat st;
			struct strbuf full = STRBUF_INIT;
			sb_addf(&full, "%s/%s", root, sb_str(&r));
			isdir = stat(sb_str(&full), &st) == 0 && S_ISDIR(st.st_mode) && de->d_type != DT_LNK;
			sb_release(&full);
		}
		if (isdir) {
			list_c_files(root, sb_str(&r), v, n, alloc);
		} else if (nl > 2 && !strcmp(de->d_name + nl - 2, ".c")) {
			XGROW(*v, *n + 1, *alloc);
			(*v)[(*n)++] = sb_detach(&r);
			continue;
		}
		sb_release(&r);
	}
	closedir(dh);
}

int kb_tree_export_conditions(struct kb_tree *t, FILE *out, struct kcve_err *err)
{
	struct kb_tree *s = NULL;
	if (kbt_open(&s, t->ksrc, t->cfg, t->arch, true, err) < 0)
		return -1;
	kbt_evaluate(s);
	char **files = NULL;
	size_t n = 0, alloc = 0;
	list_c_files(s->ksrc, "", &files, &n, &alloc);
	if (n)
		qsort(files, n, sizeof(*files), cmp_str);
	fprintf(out, "# kcve kbuild conditions v1 arch=%s\n", s->arch);
	for (size_t i = 0; i < n; i++) {
		size_t fl = strlen(files[i]);
		char *o = xstrdup(files[i]);
		o[fl - 1] = 'o';
		const char *cond = strmap_get(&s->objconds, o);
		const char *res = cond;
		char *slash0 = strrchr(files[i], '/');
		char *dir0 = slash0 ? xstrndup(files[i], (size_t)(slash0 - files[i])) : xstrdup("");
		const char *inc = NULL;
		if (!res && strmap_get(&s->dirs, dir0)) {
			kbt_scan_includes(s, dir0);
			inc = strmap_get(&s->includes, files[i]);
		}
		free(dir0);
		char *incres = NULL;
		if (inc) {
			/* "dir/y.c\t<state>\t..." : an unconditional #include inherits y.c's condition */
			const char *tab = strchr(inc, '\t');
			char *io = tab ? xstrndup(inc, (size_t)(tab - inc)) : xstrdup(inc);
			io[strlen(io) - 1] = 'o';
			const char *ic = strmap_get(&s->objconds, io);
			incres = xstrdup(tab && atoi(tab + 1) == 1 ? (ic ? ic : "n") : "unknown");
			free(io);
			res = incres;
		}
		if (!res) {
			char *slash = strrchr(files[i], '/');
			char *dir = slash ? xstrndup(files[i], (size_t)(slash - files[i])) : xstrdup("");
			struct kb_dir *d = strmap_get(&s->dirs, dir);
			/* inside a directory it could not fully evaluate, or one that only a recipe
			 * builds, the answer is open */
			res = d ? (d->uncertain ? "unknown" : "n") : kbt_undescended_cond(s, files[i], dir);
			free(dir);
		}
		fprintf(out, "%s\t%s\n", files[i], res);
		free(incres);
		free(o);
		free(files[i]);
	}
	free(files);
	kb_tree_close(s);
	if (ferror(out)) {
		kcve_err_set(err, KCVE_E_IO, "write error while exporting Kbuild conditions");
		return -1;
	}
	return 0;
}

char *kbt_literals(const char *syms, bool negate)
{
	char *conj = kbt_cond_from_syms(syms);
	if (!negate || !strcmp(conj, "y")) {
		if (!strcmp(conj, "y")) {
			free(conj);
			return xstrdup("");
		}
		char *r = mk_strf(" %s", conj);
		free(conj);
		return r;
	}
	char *r = strstr(conj, " && ") ? xstrdup("")
		  : conj[0] == '!' ? mk_strf(" %s", conj + 1) : mk_strf(" !%s", conj);
	free(conj);
	return r;
}
