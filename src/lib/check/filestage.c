/* File stages backed by the kbuild module (see check/filestage.h). */
#include "check/filestage.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/strbuf.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"

struct ck_files {
	struct kb_config *cfg;
	struct kb_tree *tree;
	struct kb_build *build;
	const struct ck_set *conds; /* condition mode */
	char reason[512];
};

int ck_files_open_config(struct ck_files **out, const char *dotconfig, bool gz, const char *ksrc,
			 const char *arch, const struct ck_set *s, struct kcve_err *err)
{
	*out = NULL;
	if (!ksrc && (!s || !s->nconds))
		return kcve_err_set(err, KCVE_E_USAGE,
				    "a .config alone cannot tell which files are compiled; pass --source KSRC "
				    "(the kernel source tree) or use a --db built with 'kcve db build --source KSRC'");
	struct ck_files *f = xcalloc(1, sizeof *f);
	int rc = gz ? kb_config_load_gz(&f->cfg, dotconfig, err) : kb_config_load(&f->cfg, dotconfig, err);
	if (rc == 0 && ksrc)
		rc = kb_tree_open(&f->tree, ksrc, f->cfg, arch, err);
	if (rc) {
		ck_files_close(f);
		return rc;
	}
	if (!ksrc)
		f->conds = s;
	*out = f;
	return 0;
}

int ck_files_open_build(struct ck_files **out, const char *builddir, struct kcve_err *err)
{
	*out = NULL;
	struct ck_files *f = xcalloc(1, sizeof *f);
	int rc = kb_build_open(&f->build, builddir, err);
	if (rc) {
		free(f);
		return rc;
	}
	*out = f;
	return 0;
}

static const char *cfg_get(void *ctx, const char *sym)
{
	return kb_config_get(ctx, sym);
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
	int r = ck_cond_eval(cond, cfg_get, f->cfg);
	snprintf(f->reason, sizeof f->reason, "condition %s is %s", cond,
		 r == 1 ? "met" : r == 0 ? "not met" : "undecidable");
	if (reason)
		*reason = f->reason;
	return r == 1 ? CK_FILE_COMPILED : r == 0 ? CK_FILE_NOT_COMPILED : CK_FILE_UNKNOWN;
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

static int cmp_cond(const void *a, const void *b)
{
	return strcmp(((const struct ck_cond *)a)->path, ((const struct ck_cond *)b)->path);
}

int ck_set_add_conditions(struct ck_set *s, const char *ksrc, struct kcve_err *err)
{
	struct kb_config *cfg = NULL;
	struct kb_tree *t = NULL;
	int rc = kb_config_parse(&cfg, "", 0, "(empty config)", err);
	if (rc == 0)
		rc = kb_tree_open(&t, ksrc, cfg, NULL, err);
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = NULL;
	if (rc == 0) {
		mf = open_memstream(&buf, &len);
		if (!mf)
			rc = kcve_err_set(err, KCVE_E_GENERIC, "out of memory");
	}
	if (rc == 0)
		rc = kb_tree_export_conditions(t, mf, err);
	if (mf)
		fclose(mf);
	if (t)
		kb_tree_close(t);
	if (cfg)
		kb_config_free(cfg);
	if (rc == 0) {
		size_t alloc = 0;
		char *p = buf;
		while (p && *p) {
			char *eol = strchr(p, '\n');
			if (eol)
				*eol = '\0';
			char *tab = strchr(p, '\t');
			if (tab) {
				*tab = '\0';
				XGROW(s->conds, s->nconds + 1, alloc);
				s->conds[s->nconds].path = xstrdup(p);
				s->conds[s->nconds].cond = xstrdup(tab + 1);
				s->nconds++;
			}
			p = eol ? eol + 1 : NULL;
		}
		if (s->nconds)
			qsort(s->conds, s->nconds, sizeof *s->conds, cmp_cond);
		/* drop duplicate paths (keep the first) so lookups stay well-defined */
		size_t w = 0;
		for (size_t i = 0; i < s->nconds; i++) {
			if (w && strcmp(s->conds[w - 1].path, s->conds[i].path) == 0) {
				free((char *)s->conds[i].path);
				free((char *)s->conds[i].cond);
				continue;
			}
			s->conds[w++] = s->conds[i];
		}
		s->nconds = w;
	}
	free(buf);
	return rc;
}
