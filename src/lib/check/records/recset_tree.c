/* Loading the record set from a vulns-style tree: cve/published/YEAR/CVE-YEAR-N.{json,dyad,sha1}.
 * Only published records apply to kernels; rejected ones are skipped on purpose. */
#include "check/records/recset.h"
#include "codefix/fprint.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fileio.h"
#include "core/progress.h"
#include "core/safefs.h"
#include "core/xalloc.h"

static bool has_published(const char *dir)
{
	struct strbuf p = STRBUF_INIT;
	sb_addf(&p, "%s/cve/published", dir);
	bool r = is_dir(p.buf);
	sb_release(&p);
	return r;
}

char *ck_tree_find(const char *path, struct kcve_err *err)
{
	if (path) {
		if (!has_published(path)) {
			kcve_err_set(err, KCVE_E_TREE,
				     "%s is not a CVE record tree (no cve/published directory); pass "
				     "the root of a vulns checkout with --tree",
				     path);
			return NULL;
		}
		return xstrdup(path);
	}
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd)) {
		kcve_err_set(err, KCVE_E_TREE, "cannot determine the current directory; pass --tree");
		return NULL;
	}
	for (;;) {
		if (has_published(cwd))
			return xstrdup(cwd);
		char *slash = strrchr(cwd, '/');
		if (!slash || slash == cwd)
			break;
		*slash = '\0';
	}
	kcve_err_set(err, KCVE_E_TREE,
		     "no CVE record tree found above the current directory; pass --tree DIR "
		     "(or set KCVE_TREE) or --db FILE. The records are the kernel CNA's: git clone "
		     "--depth 1 https://git.kernel.org/pub/scm/linux/security/vulns.git");
	return NULL;
}

struct name_ent {
	char *name;
	unsigned long num;
};

static int cmp_ent(const void *a, const void *b)
{
	const struct name_ent *x = a, *y = b;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Names in dir (numeric part = value of the digits after the last '-', or the whole name). */
static struct name_ent *list_dir(const char *dir, const char *suffix, size_t *n)
{
	DIR *d = dir_open(dir); /* below the guarded root: never through a link */
	*n = 0;
	if (!d)
		return NULL;
	struct name_ent *v = NULL;
	size_t alloc = 0;
	struct dirent *de;
	size_t sl = suffix ? strlen(suffix) : 0;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;
		if (nm[0] == '.')
			continue;
		size_t l = strlen(nm);
		if (suffix && (l <= sl || strcmp(nm + l - sl, suffix) != 0))
			continue;
		XGROW(v, *n + 1, alloc);
		v[*n].name = suffix ? xstrndup(nm, l - sl) : xstrdup(nm);
		const char *dash = strrchr(v[*n].name, '-');
		v[*n].num = strtoul(dash ? dash + 1 : v[*n].name, NULL, 10);
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, cmp_ent);
	return v;
}

int ck_set_load_tree(struct ck_set *s, const char *root, struct kcve_err *err)
{
	memset(s, 0, sizeof *s);
	/* the tree is hostile input: every record is reached relative to the root, without links,
	 * regular files only, size capped (core/safefs.h) */
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return kcve_err_set(err, KCVE_E_TREE, "cannot open the record tree %s: %s; check the "
				    "path and permissions", root, strerror(errno));
	safefs_guard(root, rootfd);
	s->origin = xstrdup(root);
	struct strbuf pubsb = STRBUF_INIT;
	sb_addf(&pubsb, "%s/cve/published", root);
	const char *pub = pubsb.buf;
	size_t ny;
	struct name_ent *years = list_dir(pub, NULL, &ny);
	int rc = 0;
	struct progress pg;
	progress_begin(&pg, "reading records", 0);
	for (size_t y = 0; y < ny && rc == 0; y++) {
		struct strbuf ysb = STRBUF_INIT;
		sb_addf(&ysb, "%s/%s", pub, years[y].name);
		const char *ydir = ysb.buf;
		size_t nc;
		struct name_ent *cves = list_dir(ydir, ck_record_exts[CK_REC_JSON], &nc);
		for (size_t c = 0; c < nc; c++) {
			if (rc == 0) {
				XGROW(s->v, s->n + 1, s->alloc);
				rc = ck_record_read(&s->v[s->n], ydir, cves[c].name, err);
				if (rc == 0)
					s->n++;
				progress_update(&pg, s->n);
			}
			free(cves[c].name);
		}
		free(cves);
		sb_release(&ysb);
	}
	progress_end(&pg, s->n);
	for (size_t y = 0; y < ny; y++)
		free(years[y].name);
	free(years);
	if (rc == 0 && s->n == 0)
		rc = kcve_err_set(err, KCVE_E_TREE, "no published records under %s; is this a vulns tree?",
				  pub);
	for (size_t i = 0; rc == 0 && i < s->n; i++) {
		const struct ck_record *r = &s->v[i];
		long long t = r->updated > r->published ? r->updated : r->published;
		if (t > s->newest_record)
			s->newest_record = t;
	}
	/* the supported-branch data, read through the same guard as the records */
	if (rc == 0)
		rc = branch_policy_load(&s->branches, root, err);
	sb_release(&pubsb);
	safefs_unguard(rootfd);
	close(rootfd);
	return rc;
}

int ck_set_load_branches(struct ck_set *s, const char *root, struct kcve_err *err)
{
	branch_policy_release(&s->branches);
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return kcve_err_set(err, KCVE_E_TREE, "cannot open the record tree %s: %s; check the "
				    "path and permissions", root, strerror(errno));
	safefs_guard(root, rootfd);
	int rc = branch_policy_load(&s->branches, root, err);
	safefs_unguard(rootfd);
	close(rootfd);
	return rc;
}

static const struct ck_cond *find_cond(const struct ck_set *s, const char *path)
{
	size_t lo = 0, hi = s->nconds;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->conds[mid].path, path);
		if (c == 0)
			return &s->conds[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *ck_set_condition(const struct ck_set *s, const char *path)
{
	const struct ck_cond *c = find_cond(s, path);
	return c ? c->cond : NULL;
}

const char *ck_set_module(const struct ck_set *s, const char *path)
{
	const struct ck_cond *c = find_cond(s, path);
	return c && c->module && c->module[0] ? c->module : NULL;
}

bool ck_set_has_modules(const struct ck_set *s)
{
	return s->has_modules;
}

long long ck_set_time(const struct ck_set *s)
{
	return s->newest_record > 0 ? s->newest_record : s->built > 0 ? s->built
		: s->tree_head > 0 ? s->tree_head : 0;
}

void ck_set_release(struct ck_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		ck_record_release(&s->v[i]);
	if (!s->v_in_arena)
		free(s->v);
	if (!s->blob)
		for (size_t i = 0; i < s->nconds; i++) {
			free((char *)s->conds[i].path);
			free((char *)s->conds[i].cond);
			free((char *)s->conds[i].module);
		}
	free(s->conds);
	if (s->blob_mem.base)
		xbig_free(&s->blob_mem);
	else
		free(s->blob);
	xarena_release(&s->arena);
	free(s->origin);
	branch_policy_release(&s->branches);
	free(s->covix);
	if (s->fprints)
		cf_set_release(s->fprints);
	free(s->fprints);
	memset(s, 0, sizeof *s);
}
