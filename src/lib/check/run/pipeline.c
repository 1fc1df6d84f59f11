/* The check pipeline (see check/run/pipeline.h): the stage table and the stages that are not a
 * module of their own. */
#include "check/run/pipeline.h"
#include "check/stages/codestage.h"
#include "check/stages/modules.h"

#include <string.h>

#include "core/assert.h"

/* A stage: 0, or an error in err (the run stops and the caller gets it). */
typedef int (*ck_stage_fn)(const struct ck_pipeline *p, const struct ck_kernel *k,
			   struct ck_result *res, struct kcve_err *err);

/* version (or git): one entry per record, its outcome by version or by git history */
static int stage_version(const struct ck_pipeline *p, const struct ck_kernel *k,
			 struct ck_result *res, struct kcve_err *err)
{
	(void)err;
	if (k->git)
		k->git_run(p->set, k->git, k->git_label, k->release, res);
	else
		ck_run_version(p->set, k->release, k->reading, res);
	return 0;
}

/* coverage: what the records cannot vouch for about the release, then the records' age */
static int stage_coverage(const struct ck_pipeline *p, const struct ck_kernel *k,
			  struct ck_result *res, struct kcve_err *err)
{
	(void)k, (void)err;
	if (p->cov && res->release[0])
		res->ncov = ck_coverage_of(p->cov, p->set, res->release, p->now, res->cov,
					   CK_COV_MAX - 1);
	if (p->age)
		res->cov[res->ncov++] = *p->age;
	return 0;
}

static int stage_config(const struct ck_pipeline *p, const struct ck_kernel *k,
			struct ck_result *res, struct kcve_err *err)
{
	(void)err;
	if (k->config.fn)
		ck_run_files(p->set, res, k->config.stage, k->config.fn, k->config.ctx);
	return 0;
}

static int stage_build(const struct ck_pipeline *p, const struct ck_kernel *k,
		       struct ck_result *res, struct kcve_err *err)
{
	(void)err;
	if (k->build.fn)
		ck_run_files(p->set, res, k->build.stage, k->build.fn, k->build.ctx);
	return 0;
}

/* code (--source with a database holding fix fingerprints): the fix read in the tree's code
 * overrides the version where it decides; a tree that cannot be read is the run's error */
static int stage_code(const struct ck_pipeline *p, const struct ck_kernel *k,
		      struct ck_result *res, struct kcve_err *err)
{
	if (k->code_reading)
		ck_code_apply(k->code_reading, res, true);
	else if (k->code_source && p->set->fprints)
		return ck_run_code(p->set, res, k->code_source, p->diag, err);
	return 0;
}

/* functions: the changed code is not in the image (check/stages/funclevel.h) */
static int stage_functions(const struct ck_pipeline *p, const struct ck_kernel *k,
			   struct ck_result *res, struct kcve_err *err)
{
	(void)err;
	ck_run_functions(p->set, res, &k->funcs);
	return 0;
}

/* modules (--running): an annotation of the kept entries, not a verdict */
static int stage_modules(const struct ck_pipeline *p, const struct ck_kernel *k,
			 struct ck_result *res, struct kcve_err *err)
{
	(void)err;
	if (!k->running)
		return 0;
	for (size_t i = 0; i < res->n; i++) {
		struct ck_entry *e = &res->e[i];
		if (ck_outcome_kept(e->outcome))
			e->module = ck_running_module_state(k->running, k->modmap, p->set,
							    &p->set->v[e->rec]);
	}
	return 0;
}

/* exploitation (--kev, --epss): what the ranking reads (check/stages/triage.h, check/stages/rank.h) */
static int stage_exploitation(const struct ck_pipeline *p, const struct ck_kernel *k,
			      struct ck_result *res, struct kcve_err *err)
{
	(void)k, (void)err;
	if (p->triage)
		ck_run_exploitation(p->set, res, p->triage);
	return 0;
}

struct modmap_ctx {
	struct ck_files *cf;
	const struct ck_set *set;
};

static enum ck_filev modmap_verdict(void *ctx, const char *path, const char **reason)
{
	return ck_files_verdict(((struct modmap_ctx *)ctx)->cf, path, reason);
}

static bool modmap_module(void *ctx, const char *path, char *out, size_t outsz)
{
	const struct modmap_ctx *c = ctx;
	return ck_files_module(c->cf, c->set, path, out, outsz);
}

/* modprobe (--running): code only in modules the system's rules keep from loading is
 * mitigated (check/stages/triage.h); needs the exact file-to-module mapping */
static int stage_modprobe(const struct ck_pipeline *p, const struct ck_kernel *k,
			  struct ck_result *res, struct kcve_err *err)
{
	(void)err;
	if (!k->modprobe || !k->running || !k->modmap || !ck_files_have_modules(k->modmap, p->set))
		return 0;
	struct modmap_ctx c = {k->modmap, p->set};
	ck_run_modprobe(p->set, res, k->modprobe, modmap_verdict, modmap_module, &c);
	return 0;
}

static int stage_fixed_in(const struct ck_pipeline *p, const struct ck_kernel *k,
			  struct ck_result *res, struct kcve_err *err)
{
	(void)err;
	if (k->fixed_in)
		ck_compute_fixed_in(p->set, res);
	return 0;
}

/* ==== THE STAGES, in the order they run.  A new stage goes here, at its place: ==========
 * after the stages whose outcomes it reads, before fixed-in (which reads the final outcomes)
 * unless it only annotates.  The first stage creates the result's entries. */
static const struct {
	const char *name;
	enum ck_stage_scope scope;
	ck_stage_fn run;
} stages[] = {
	{"version", CK_STAGE_RELEASE, stage_version}, /* or git: creates the entries */
	{"coverage", CK_STAGE_RELEASE, stage_coverage},
	{"exploitation", CK_STAGE_RELEASE, stage_exploitation}, /* annotates: kev, epss */
	{"config", CK_STAGE_KERNEL, stage_config},
	{"build", CK_STAGE_KERNEL, stage_build},
	{"code", CK_STAGE_KERNEL, stage_code},
	{"functions", CK_STAGE_KERNEL, stage_functions},
	{"modules", CK_STAGE_KERNEL, stage_modules},
	{"modprobe", CK_STAGE_KERNEL, stage_modprobe}, /* reads the module state */
	{"fixed-in", CK_STAGE_KERNEL, stage_fixed_in},
};
/* ======================================================================================== */
_Static_assert(sizeof stages / sizeof stages[0] == CK_PIPELINE_STAGES,
	       "CK_PIPELINE_STAGES (check/verdict/check.h) sizes each result's stage counts");

/* The rules of the table, asserted: the first stage creates one entry per record of the set,
 * every stage adds at most one stage count, and a result the release-scope stages made alone
 * owns nothing per entry (--batch copies it for each kernel of the release: ck_result_copy). */
int ck_pipeline_run_scope(const struct ck_pipeline *p, const struct ck_kernel *k,
			  struct ck_result *res, enum ck_stage_scope scope, struct kcve_err *err)
{
	KCVE_ASSERT(scope & CK_STAGE_RELEASE || (res->e && res->n == p->set->n));
	for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
		if (!(stages[i].scope & scope))
			continue;
		int before = i == 0 ? 1 : res->nstages; /* the first stage starts the result */
		int rc = stages[i].run(p, k, res, err);
		KCVE_ASSERT(i > 0 || (res->e && res->n == p->set->n));
		KCVE_ASSERT(res->nstages <= before + 1);
		if (rc)
			return rc;
	}
	if (scope == CK_STAGE_RELEASE) {
		KCVE_ASSERT(res->code == NULL);
		for (size_t i = 0; i < res->n; i++)
			KCVE_ASSERT(res->e[i].reason == NULL && res->e[i].mitigation_why == NULL);
	}
	return 0;
}

int ck_pipeline_run(const struct ck_pipeline *p, const struct ck_kernel *k, struct ck_result *res,
		    struct kcve_err *err)
{
	return ck_pipeline_run_scope(p, k, res, CK_STAGE_ALL, err);
}
