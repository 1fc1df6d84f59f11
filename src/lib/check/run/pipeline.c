/* The check pipeline (see check/run/pipeline.h): the stage table and the stages that are not a
 * module of their own. */
#include "check/run/pipeline.h"
#include "check/stages/codestage.h"

#include <string.h>

typedef void (*ck_stage_fn)(const struct ck_pipeline *p, const struct ck_kernel *k,
			    struct ck_result *res);

/* version (or git): one entry per record, its outcome by version or by git history */
static void stage_version(const struct ck_pipeline *p, const struct ck_kernel *k,
			  struct ck_result *res)
{
	if (k->git) {
		k->git_run(p->set, k->git, k->git_label, k->release, res);
		return;
	}
	ck_run_version(p->set, k->release, k->reading, res);
}

/* coverage: what the records cannot vouch for about the release, then the records' age */
static void stage_coverage(const struct ck_pipeline *p, const struct ck_kernel *k,
			   struct ck_result *res)
{
	(void)k;
	if (p->cov && res->release[0])
		res->ncov = ck_coverage_of(p->cov, p->set, res->release, p->now, res->cov,
					   CK_COV_MAX - 1);
	if (p->age)
		res->cov[res->ncov++] = *p->age;
}

static void stage_config(const struct ck_pipeline *p, const struct ck_kernel *k,
			 struct ck_result *res)
{
	if (k->config.fn)
		ck_run_files(p->set, res, k->config.stage, k->config.fn, k->config.ctx);
}

static void stage_build(const struct ck_pipeline *p, const struct ck_kernel *k,
			struct ck_result *res)
{
	if (k->build.fn)
		ck_run_files(p->set, res, k->build.stage, k->build.fn, k->build.ctx);
}

/* code (--source with a database holding fix fingerprints): the fix read in the tree's code
 * overrides the version where it decides; a tree that cannot be opened leaves every entry as
 * it is (the caller checks the directory before) */
static void stage_code(const struct ck_pipeline *p, const struct ck_kernel *k,
		       struct ck_result *res)
{
	struct kcve_err err = {0};
	if (k->code_reading)
		ck_code_apply(k->code_reading, res, true);
	else if (k->code_source && p->set->fprints)
		(void)ck_run_code(p->set, res, k->code_source, &err);
}

/* functions: the changed code is not in the image (check/stages/funclevel.h) */
static void stage_functions(const struct ck_pipeline *p, const struct ck_kernel *k,
			    struct ck_result *res)
{
	ck_run_functions(p->set, res, &k->funcs);
}

/* modules (--running): an annotation of the kept entries, not a verdict */
static void stage_modules(const struct ck_pipeline *p, const struct ck_kernel *k,
			  struct ck_result *res)
{
	if (!k->running)
		return;
	for (size_t i = 0; i < res->n; i++) {
		struct ck_entry *e = &res->e[i];
		if (ck_outcome_kept(e->outcome))
			e->module = ck_running_module_state(k->running, k->modmap, p->set,
							    &p->set->v[e->rec]);
	}
}

/* exploitation (--kev, --epss): what the ranking reads (check/stages/triage.h, check/stages/rank.h) */
static void stage_exploitation(const struct ck_pipeline *p, const struct ck_kernel *k,
			       struct ck_result *res)
{
	(void)k;
	if (p->triage)
		ck_run_exploitation(p->set, res, p->triage);
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
static void stage_modprobe(const struct ck_pipeline *p, const struct ck_kernel *k,
			   struct ck_result *res)
{
	if (!k->modprobe || !k->running || !k->modmap || !ck_files_have_modules(k->modmap, p->set))
		return;
	struct modmap_ctx c = {k->modmap, p->set};
	ck_run_modprobe(p->set, res, k->modprobe, modmap_verdict, modmap_module, &c);
}

static void stage_fixed_in(const struct ck_pipeline *p, const struct ck_kernel *k,
			   struct ck_result *res)
{
	if (k->fixed_in)
		ck_compute_fixed_in(p->set, res);
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

void ck_pipeline_run_scope(const struct ck_pipeline *p, const struct ck_kernel *k,
			   struct ck_result *res, enum ck_stage_scope scope)
{
	for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
		if (stages[i].scope & scope)
			stages[i].run(p, k, res);
}

void ck_pipeline_run(const struct ck_pipeline *p, const struct ck_kernel *k, struct ck_result *res)
{
	ck_pipeline_run_scope(p, k, res, CK_STAGE_ALL);
}
