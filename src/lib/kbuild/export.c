/* File -> gating condition export (kb_tree_export_conditions).
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
#include "kbuild/paths.h"

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

/* All .c files under ksrc, relative (unsorted). */
void kbt_list_c_files(const char *root, const char *rel, char ***v, size_t *n, size_t *alloc)
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
			kbt_list_c_files(root, sb_str(&r), v, n, alloc);
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
	kbt_list_c_files(s->ksrc, "", &files, &n, &alloc);
	if (n)
		qsort(files, n, sizeof(*files), cmp_str);
	fprintf(out, "# kcve kbuild conditions v1 arch=%s\n", s->arch);
	for (size_t i = 0; i < n; i++) {
		size_t fl = strlen(files[i]);
		char *o = xstrdup(files[i]);
		o[fl - 1] = 'o';
		const char *cond = strmap_get(&s->objconds, o);
		const char *res = cond;
		char *dir = kbt_dirname(files[i]);
		struct kb_dir *d = strmap_get(&s->dirs, dir);
		const struct kb_include *inc = NULL;
		if (!res && d) {
			kbt_scan_includes(s, dir);
			inc = strmap_get(&s->includes, files[i]);
		}
		char *incres = NULL;
		if (inc) {
			/* an unconditional #include inherits the includer's condition */
			char *io = kbt_object_of(inc->includer);
			const char *ic = strmap_get(&s->objconds, io);
			incres = xstrdup(inc->state == 1 ? (ic ? ic : "n") : "unknown");
			free(io);
			res = incres;
		}
		/* inside a directory it could not fully evaluate, or one that only a recipe builds,
		 * the answer is open */
		if (!res)
			res = d ? (d->uncertain ? "unknown" : "n") : kbt_undescended_cond(s, files[i], dir);
		free(dir);
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
