/* File stages backed by the kbuild module (see check/stages/filestage.h). */
#include "check/stages/filestage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/spdx3.h"
#include "check/stages/cond.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "core/text.h"

struct ck_files {
	struct kb_config *cfg;
	struct kb_tree *tree;
	struct kb_build *build;
	const struct ck_set *conds; /* condition mode */
	char arch[32];              /* SRCARCH of the configuration */
	char reason[512];
};

/* A header (or any file but a .c/.S source) under "arch/<other>/..." is not part of a kernel
 * for this architecture; kbuild leaves such headers undecided, but the answer needs no
 * makefile.  A source is left to the makefiles: arm64 compiles the .c files of arch/arm/xen
 * (arch/arm64/xen/Makefile), and a --db's conditions cover every architecture. */
static bool other_arch(const struct ck_files *f, const char *path)
{
	size_t n0 = strlen(path);
	if (n0 > 2 && path[n0 - 2] == '.' && (path[n0 - 1] == 'c' || path[n0 - 1] == 'S'))
		return false;
	if (!f->arch[0] || strncmp(path, "arch/", 5) != 0)
		return false;
	const char *a = path + 5, *slash = strchr(a, '/');
	if (!slash)
		return false;
	size_t n = (size_t)(slash - a);
	return !(n == strlen(f->arch) && strncmp(a, f->arch, n) == 0);
}

/* A .config: from a file (dotconfig, gz) or from text (dotconfig names it). */
static int open_config(struct ck_files **out, const char *dotconfig, bool gz, const char *text,
		       size_t len, const char *ksrc, const char *arch, const struct ck_set *s,
		       struct kcve_err *err)
{
	*out = NULL;
	if (!ksrc && (!s || !s->nconds))
		return kcve_err_set(err, KCVE_E_USAGE,
				    "a .config alone cannot tell which files are compiled; pass --source KSRC "
				    "(the kernel source tree) or use a --db built with 'kcve db build --source KSRC'");
	struct ck_files *f = xcalloc(1, sizeof *f);
	int rc = text ? kb_config_parse(&f->cfg, text, len, dotconfig, err)
		 : gz ? kb_config_load_gz(&f->cfg, dotconfig, err)
		      : kb_config_load(&f->cfg, dotconfig, err);
	if (rc == 0)
		rc = kb_config_check_arch(f->cfg, arch, err) ? -1 : 0;
	if (rc == 0 && ksrc)
		rc = kb_tree_open(&f->tree, ksrc, f->cfg, arch, err);
	if (rc) {
		ck_files_close(f);
		return rc;
	}
	if (!ksrc)
		f->conds = s;
	const char *ca = arch ? kb_arch_srcarch(arch) : kb_config_arch(f->cfg);
	text_snprintf(f->arch, sizeof f->arch, "%s", ca ? ca : "x86");
	*out = f;
	return 0;
}

int ck_files_open_config(struct ck_files **out, const char *dotconfig, bool gz, const char *ksrc,
			 const char *arch, const struct ck_set *s, struct kcve_err *err)
{
	return open_config(out, dotconfig, gz, NULL, 0, ksrc, arch, s, err);
}

int ck_files_open_config_text(struct ck_files **out, const char *text, size_t len,
			      const char *name, const char *ksrc, const char *arch,
			      const struct ck_set *s, struct kcve_err *err)
{
	return open_config(out, name, false, text, len, ksrc, arch, s, err);
}

int ck_files_open_build(struct ck_files **out, const char *builddir, const struct kcve_diag *diag,
			struct kcve_err *err)
{
	*out = NULL;
	struct ck_files *f = xcalloc(1, sizeof *f);
	int rc = kb_build_open(&f->build, builddir, diag, err);
	if (rc) {
		free(f);
		return rc;
	}
	*out = f;
	return 0;
}

/* A database's conditions read the .config's symbols and "ARCH", the architecture the
 * configuration is evaluated for (see kb_export_db_conditions). */
static const char *cfg_get(void *ctx, const char *sym)
{
	const struct ck_files *f = ctx;
	if (!strcmp(sym, "ARCH"))
		return f->arch;
	return kb_config_get(f->cfg, sym);
}

enum ck_filev ck_files_verdict(void *ctx, const char *path, const char **reason)
{
	struct ck_files *f = ctx;
	if (f->build) {
		enum kb_verdict v = kb_build_verdict(f->build, path);
		if (reason)
			*reason = v == KB_COMPILED ? "in the build's .cmd files"
						   : "not in the build's .cmd files";
		return (enum ck_filev)v;
	}
	if (other_arch(f, path)) {
		if (reason) {
			text_snprintf(f->reason, sizeof f->reason, "architecture directory other than arch/%s/", f->arch);
			*reason = f->reason;
		}
		return CK_FILE_NOT_COMPILED;
	}
	if (f->tree) {
		const char *why = NULL;
		enum kb_verdict v = kb_file_verdict(f->tree, path, &why);
		if (reason)
			*reason = why;
		return (enum ck_filev)v;
	}
	const char *cond = ck_set_condition(f->conds, path);
	if (!cond) {
		if (reason)
			*reason = "no condition in the database (header or unknown file)";
		return CK_FILE_UNKNOWN;
	}
	int r = ck_cond_eval(cond, cfg_get, f);
	text_snprintf(f->reason, sizeof f->reason, "condition %s is %s", cond,
		 r == 1 ? "met" : r == 0 ? "not met" : "undecidable");
	if (reason)
		*reason = f->reason;
	return r == 1 ? CK_FILE_COMPILED : r == 0 ? CK_FILE_NOT_COMPILED : CK_FILE_UNKNOWN;
}

enum ck_filev ck_sbom_files_verdict(void *ctx, const char *path, const char **reason)
{
	int st = ck_spdx3_file_state(ctx, path, reason);
	return st > 0 ? CK_FILE_COMPILED : st == 0 ? CK_FILE_NOT_COMPILED : CK_FILE_UNKNOWN;
}

const char *ck_files_config_value(const struct ck_files *f, const char *sym)
{
	return f && f->cfg ? kb_config_get(f->cfg, sym) : NULL;
}

void ck_files_close(struct ck_files *f)
{
	if (!f)
		return;
	if (f->tree)
		kb_tree_close(f->tree);
	if (f->build)
		kb_build_close(f->build);
	if (f->cfg)
		kb_config_free(f->cfg);
	free(f);
}

/* By path; for one path the entry with a module field (from the record-path export, which
 * reproduces the evaluator's rule exactly) sorts first and wins the deduplication. */
static int cmp_cond(const void *a, const void *b)
{
	const struct ck_cond *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	return (x->module == NULL) - (y->module == NULL);
}

/* Lines "path\tcond[\tmodule]" -> s->conds (module NULL for two-column lines). */
static void parse_cond_lines(struct ck_set *s, char *buf, size_t *alloc)
{
	char *p = buf;
	while (p && *p) {
		char *eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		char *tab = strchr(p, '\t');
		if (tab) {
			*tab = '\0';
			char *tab2 = strchr(tab + 1, '\t');
			if (tab2)
				*tab2 = '\0';
			XGROW(s->conds, s->nconds + 1, *alloc);
			s->conds[s->nconds].path = xstrdup(p);
			s->conds[s->nconds].cond = xstrdup(tab + 1);
			s->conds[s->nconds].module = tab2 ? xstrdup(tab2 + 1) : NULL;
			s->nconds++;
		}
		p = eol ? eol + 1 : NULL;
	}
}

/* Every distinct programFile of the records, sorted. */
static const char **record_paths(const struct ck_set *s, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < s->n; i++)
		total += s->v[i].nfiles;
	const char **v = xcalloc(total + 1, sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		for (size_t j = 0; j < s->v[i].nfiles; j++)
			v[k++] = s->v[i].files[j];
	if (k)
		qsort(v, k, sizeof *v, cmp_str);
	size_t w = 0;
	for (size_t i = 0; i < k; i++)
		if (!w || strcmp(v[w - 1], v[i]))
			v[w++] = v[i];
	*n = w;
	return v;
}

int ck_set_add_conditions(struct ck_set *s, const char *ksrc, struct kcve_err *err)
{
	/* the .c files of the tree and the records' own paths (exact rule + module), for every
	 * architecture kbuild evaluates */
	size_t n = 0;
	const char **v = record_paths(s, &n);
	char *all = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&all, &len);
	if (!mf) {
		free(v);
		return kcve_err_set(err, KCVE_E_GENERIC, "out of memory");
	}
	int rc = kb_export_db_conditions(ksrc, v, n, mf, err);
	fclose(mf);
	free(v);
	if (rc == 0) {
		size_t alloc = 0;
		parse_cond_lines(s, all, &alloc);
		if (s->nconds)
			qsort(s->conds, s->nconds, sizeof *s->conds, cmp_cond);
		/* drop duplicate paths (keep the first, see cmp_cond) so lookups stay well-defined */
		size_t w = 0;
		for (size_t i = 0; i < s->nconds; i++) {
			if (w && strcmp(s->conds[w - 1].path, s->conds[i].path) == 0) {
				free((char *)s->conds[i].path);
				free((char *)s->conds[i].cond);
				free((char *)s->conds[i].module);
				continue;
			}
			s->conds[w++] = s->conds[i];
		}
		s->nconds = w;
		/* a database with module data gives every entry a module field ("" = none) */
		for (size_t i = 0; i < s->nconds; i++)
			if (!s->conds[i].module)
				s->conds[i].module = xstrdup("");
		s->has_modules = true;
	}
	free(all);
	return rc;
}

bool ck_files_module(const struct ck_files *f, const struct ck_set *s, const char *path,
		     char *out, size_t outsz)
{
	if (f && f->tree)
		return kb_file_module(f->tree, path, out, outsz);
	const char *m = s ? ck_set_module(s, path) : NULL;
	if (!m || outsz == 0)
		return false;
	text_snprintf(out, outsz, "%s", m);
	return true;
}

bool ck_files_have_modules(const struct ck_files *f, const struct ck_set *s)
{
	return (f && f->tree) || (s && ck_set_has_modules(s));
}
