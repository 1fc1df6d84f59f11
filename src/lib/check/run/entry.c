/* The one entry of a check (see entry.h). */
#include "check/run/entry.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/modprobe.h"
#include "check/inputs/release.h"
#include "check/inputs/running.h"
#include "check/records/coverage.h"
#include "check/run/batch.h"
#include "check/run/kernel.h"
#include "check/run/pipeline.h"
#include "check/stages/codestage.h"
#include "check/stages/filelist.h"
#include "check/stages/filestage.h"
#include "check/stages/funclevel.h"
#include "check/stages/triage.h"
#include "core/assert.h"
#include "core/diag.h"
#include "core/text.h"
#include "core/xalloc.h"
#include "ksyms/ksyms.h"

/* Everything one run opened (released by run_close, whatever was reached). */
struct run {
	const struct ck_request *rq;
	const struct ck_sink *sk;
	struct ck_triage tri;
	bool have_tri;
	struct ck_running rn;
	char **rels;                 /* the kernels' releases (owned copies) */
	size_t nrels, arels;
	struct ck_cov_index cov;
	bool have_cov;
	struct ck_coverage age;
	bool has_age;
	struct ck_files *cf, *bf;    /* configuration and build directory */
	struct ck_filelist *fl;      /* or a per-file verdict list as the configuration */
	struct ck_git *gt;
	char glabel[128];
	struct ck_modprobe *mp;      /* --running: the modprobe.d rules */
	struct ksyms syms;           /* the image's symbols (function level) */
	bool have_syms;
	struct ck_code_reading code; /* --source with fix fingerprints: the tree read once */
	bool have_code;
	/* NULL: the code goes with the run's one kernel; with several kernels (--version A,B,
	 * --fixed-between) the one tree is at most one of them: the release its Makefile names
	 * ("" when none), the only kernel its code decides (check/run/kernel.h) */
	const char *code_only;
	char code_rel[64];
	struct ck_kernel_scratch ks; /* what the kernel's description points into */
	struct ck_since since;
	bool have_since;
	struct ck_result *res;
	size_t nres;
};

static void say(const struct ck_sink *sk, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* kind 0: a warning; 1: a note; 2: a note for -v. */
static void say(const struct ck_sink *sk, int kind, const char *fmt, ...)
{
	if (kind == 2 && !sk->detail)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *msg = diag_vformat(fmt, ap); /* one line, nothing that drives a terminal */
	va_end(ap);
	if (kind == 0)
		diag_warn(&sk->diag, "%s", msg);
	else if (kind == 1)
		diag_note(&sk->diag, "%s", msg);
	else
		sk->detail(sk->diag.ctx, msg);
	free(msg);
}

static void add_release(struct run *r, const char *rel)
{
	XGROW(r->rels, r->nrels + 1, r->arels);
	r->rels[r->nrels++] = xstrdup(rel);
}

/* The two releases of an upgrade (--fixed-between V1 V2, --fixed-by V), older first. */
static int gather_upgrade(struct run *r, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	bool by = rq->kind == CK_RQ_FIXED_BY;
	if (rq->nreleases != (by ? 1u : 2u) || rq->gitdir || rq->batch || rq->running || rq->since)
		return kcve_err_set(err, KCVE_E_USAGE, "give either --fixed-between V1 V2 or "
				    "--fixed-by V, with no --version, --git, --batch, --running or "
				    "--since");
	char prev[64];
	if (by && ck_previous_release(rq->releases[0], prev, sizeof prev, err) != 0)
		return err->code;
	if (by)
		add_release(r, prev);
	for (size_t i = 0; i < rq->nreleases; i++)
		add_release(r, rq->releases[i]);
	return ck_fixed_order(r->rels[0], r->rels[1], err);
}

/* The releases to check: the request's, else the one --running, --build or --source says. */
static int gather_releases(struct run *r, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	if (rq->kind != CK_RQ_CHECK)
		return gather_upgrade(r, err);
	for (size_t i = 0; i < rq->nreleases; i++)
		add_release(r, rq->releases[i]);
	if (rq->running) {
		if (ck_running_probe(&r->rn, rq->root, err))
			return err->code;
		if (r->rn.warning)
			say(r->sk, 0, "%s", r->rn.warning);
		/* say what was read, so a user (and the QEMU boot test) can see the inputs used */
		say(r->sk, 1, "running kernel %s (release %s), configuration %s, %zu modules loaded",
		    r->rn.uname_r, r->rn.release, r->rn.config ? r->rn.config_shown : "none",
		    r->rn.nmodules);
		if (r->nrels == 0)
			add_release(r, r->rn.release);
	}
	char norm[64];
	if (rq->build && r->nrels == 0 && !rq->gitdir &&
	    ck_build_release(rq->build, norm, sizeof norm))
		add_release(r, norm);
	if (rq->source && r->nrels == 0 && !rq->gitdir && !rq->batch) {
		if (ck_source_release(rq->source, norm, sizeof norm, err) != 0)
			return err->code;
		add_release(r, norm);
	}
	if (r->nrels == 0 && !rq->gitdir && !rq->batch)
		return kcve_err_set(err, KCVE_E_USAGE, "nothing to check: give --version, --git, "
				    "--running or --build (with include/config/kernel.release); see "
				    "'kcve check --help'");
	if (rq->gitdir && r->nrels > 1)
		return kcve_err_set(err, KCVE_E_USAGE, "--git checks one tree: give at most one "
				    "--version with it");
	return 0;
}

/* The function level's symbols: --system-map, else a build directory's vmlinux and modules,
 * else the running kernel's; only when the records carry fix fingerprints (their functions). */
static int open_symbols(struct run *r, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	if (!rq->system_map && (!rq->set->fprints || (!rq->build && !rq->running)))
		return 0;
	if (!rq->set->fprints)
		return kcve_err_set(err, KCVE_E_USAGE, "--system-map needs a --db holding fix "
				    "fingerprints with their functions ('kcve db build --repo "
				    "LINUX.git')");
	struct kcve_err e = {0};
	int rc;
	if (rq->system_map)
		rc = ksyms_open_system_map(&r->syms, rq->system_map, &e);
	else if (rq->build)
		rc = ksyms_open_build(&r->syms, rq->build, &e);
	else
		rc = ksyms_open_running(&r->syms, rq->root, r->rn.uname_r, &e);
	if (rc != 0 && rq->system_map) {
		*err = e;
		return rc;
	}
	if (rc != 0) {
		say(r->sk, 0, "function level skipped: %s", e.msg);
		ksyms_free(&r->syms);
		return 0;
	}
	if (r->syms.warning[0])
		say(r->sk, 0, "%s", r->syms.warning);
	r->have_syms = true;
	return 0;
}

/* The configuration: --config, else the one --running found (which may be gzip-compressed and
 * may have no source or conditions to read it with: then the stage is skipped, said once). */
static int open_config(struct run *r, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	const char *config = rq->config;
	bool from_running = false;
	if (!config && rq->files)
		return ck_filelist_open(&r->fl, rq->files, err);
	if (!config && rq->running && r->rn.config) {
		config = r->rn.config;
		from_running = true;
	}
	const struct ck_spdx3 *sb = rq->sbom;
	if (!config && sb && sb->config && !sb->have_files) {
		/* an SBOM's kernel configuration (check/inputs/spdx3.h) when it lists no files */
		return ck_open_sbom_config(&r->cf, sb, "the SBOM's kernel configuration", rq,
					   &r->sk->diag, err);
	}
	if (!config)
		return 0;
	bool gz = from_running && r->rn.config_gz;
	size_t cl = strlen(config);
	if (cl > 3 && strcmp(config + cl - 3, ".gz") == 0)
		gz = true;
	if (from_running && !rq->source && !rq->set->nconds) {
		say(r->sk, 0, "no kernel source (--source) and the records carry no file conditions "
		    "(build the db with --source); configuration stage skipped");
		return 0;
	}
	return ck_files_open_config(&r->cf, config, gz, rq->source, rq->arch, rq->set, err);
}

/* other kernels (of a batch, or of a single check of several) were checked without the code
 * of the --source tree, whose release (its Makefile's) is code_release ("": none): said once */
static void say_code_other(const struct run *r, const char *code_release, size_t other)
{
	if (code_release[0])
		say(r->sk, 0, "the code of --source %s (release %s) decides only the kernels of that "
		    "release; %zu kernel%s of another release %s checked without it (check each "
		    "source tree in its own run)", r->rq->source, code_release, other,
		    other == 1 ? "" : "s", other == 1 ? "was" : "were");
	else
		say(r->sk, 0, "the Makefile of --source %s names no release (VERSION/PATCHLEVEL): its "
		    "code was applied to none of the %zu kernel%s (give a tree with its top "
		    "Makefile)", r->rq->source, other, other == 1 ? "" : "s");
}

/* Several kernels and one --source tree: its code decides only the kernels of the release the
 * tree is (as for --batch), the others are checked without it. */
static void code_pairing(struct run *r)
{
	struct kcve_err e = {0};
	char mk[64];
	if (ck_source_release(r->rq->source, mk, sizeof mk, &e) != 0 ||
	    ck_version_normalize(mk, r->code_rel, sizeof r->code_rel, &e) != 0)
		r->code_rel[0] = '\0';
	r->code_only = r->code_rel;
	size_t other = 0;
	for (size_t i = 0; i < r->nrels; i++)
		other += strcmp(r->rels[i], r->code_rel) != 0;
	if (other)
		say_code_other(r, r->code_rel, other);
}

/* The inputs every kernel of the run shares, opened once. */
static int open_inputs(struct run *r, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	/* the code first: its tree is read once for every kernel (a missing tree is the error) */
	if (rq->source && rq->set->fprints) {
		r->have_code = true;
		if (ck_code_read(rq->set, rq->source, &r->sk->diag, &r->code, err) != 0)
			return err->code;
		if (r->nrels > 1)
			code_pairing(r);
	}
	if (open_config(r, err) != 0)
		return err->code;
	if (rq->build && ck_files_open_build(&r->bf, rq->build, &r->sk->diag, err) != 0)
		return err->code;
	if (open_symbols(r, err) != 0)
		return err->code;
	if (rq->running && ck_modprobe_load(&r->mp, rq->root, r->rn.uname_r, &r->sk->diag, err) != 0)
		return err->code;
	if (!rq->gitdir)
		return 0;
	if (!rq->git)
		return kcve_err_set(err, KCVE_E_USAGE, "--git %s: this build has no git support",
				    rq->gitdir);
	if (rq->git->open(&r->gt, rq->gitdir, rq->ref, rq->git_cache, rq->git_cache_write, &r->sk->diag,
			  err))
		return err->code;
	text_snprintf(r->glabel, sizeof r->glabel, "git:%s@%s", rq->gitdir,
		      rq->ref ? rq->ref : "HEAD");
	say(r->sk, 2, "%zu commits (%zu read, %zu from the scan cache), %zu upstream references "
	    "in %s", rq->git->commits(r->gt), rq->git->read(r->gt), rq->git->cached(r->gt),
	    rq->git->references(r->gt), r->glabel);
	return 0;
}

/* The i-th kernel's opened inputs, described by the code every path shares (check/run/kernel.h). */
static struct ck_kernel kernel_of(struct run *r, size_t i)
{
	const struct ck_request *rq = r->rq;
	struct ck_opened in = {.release = r->gt ? (r->nrels ? r->rels[0] : NULL) : r->rels[i],
			       .git = r->gt, .git_label = r->glabel, .code_release = r->code_only};
	if (r->cf)
		in.config = (struct ck_answers){CK_IN_CONFIG, ck_files_verdict, r->cf};
	else if (r->fl)
		in.config = (struct ck_answers){CK_IN_LIST, ck_filelist_verdict, r->fl};
	if (r->bf)
		in.build = (struct ck_answers){CK_IN_BUILD, ck_files_verdict, r->bf};
	else if (rq->sbom && rq->sbom->have_files) /* exact, like a build directory */
		in.build = (struct ck_answers){CK_IN_SBOM, ck_sbom_files_verdict, (void *)rq->sbom};
	if (r->have_syms)
		in.syms = &r->syms;
	if (rq->running) {
		in.running = &r->rn;
		in.modmap = r->cf;
		in.modprobe = r->mp;
	}
	if (r->have_code)
		in.code = &r->code;
	struct ck_kernel k;
	ck_kernel_describe(rq, &in, &r->ks, &k);
	return k;
}

/* --batch: the fleet's JSON Lines (check/run/batch.h), then what the run says once. */
static int run_batch(struct run *r, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	const struct ck_sink *sk = r->sk;
	struct ck_batch_opts bo = {.age = r->has_age ? &r->age : NULL,
				   .triage = rq->kev || rq->epss ? &r->tri : NULL, .diag = &r->sk->diag};
	struct ck_batch_stats st;
	int rc = ck_batch_run(rq, sk->lines, &bo, &st, err);
	if (rc)
		return rc;
	if (r->has_age) /* once, after the list could be read (in every line's "coverage") */
		say(sk, 0, "%s", r->age.message);
	if (st.code_other)
		say_code_other(r, st.code_release, st.code_other);
	if (st.uncovered)
		say(sk, 0, "the records do not cover %zu of the %zu kernels (newer than the records "
		    "know, nonexistent or on an unsupported branch: see the \"coverage\" of their "
		    "lines)", st.uncovered, st.kernels);
	say(sk, 2, "%zu kernels (%zu releases, %zu distinct file inputs, %zu evaluations), %zu "
	    "with a CVE, %zu not checked", st.kernels, st.releases, st.files, st.evaluated,
	    st.affected, st.errors);
	if (st.errors)
		return kcve_err_set(err, KCVE_E_PARSE, "%zu of the %zu kernels in %s could not be "
				    "checked (their lines carry an \"error\"); fix those lines",
				    st.errors, st.kernels, rq->batch);
	struct ck_run_end end = {
		.affected = st.affected > 0,
		.gaps = st.uncovered || (r->has_age && ck_coverage_strict(&r->age)),
	};
	return sk->end ? sk->end(sk->ctx, rq->set, &end, err) : 0;
}

/* One kernel: the pipeline, OLD's records with --since, its warnings, the sink. */
static int run_kernel(struct run *r, const struct ck_pipeline *pl, size_t i,
		      struct ck_run_end *end, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	struct ck_result *R = &r->res[i];
	struct ck_kernel k = kernel_of(r, i);
	int rc = ck_pipeline_run(pl, &k, R, err);
	if (rc == 0 && r->have_since) { /* the same kernel with OLD's records (and fingerprints) */
		struct ck_kernel ok = k;
		ok.code_reading = NULL;
		ok.code_source = r->have_code ? rq->source : NULL;
		rc = ck_since_kernel(&r->since, rq->set, &ok, R, err);
	}
	if (rc)
		return rc;
	for (size_t w = 0; w < R->ncov; w++) {
		if (!ck_coverage_is_age(&R->cov[w])) /* the age was said once, before */
			say(r->sk, 0, "%s", R->cov[w].message);
		end->gaps |= ck_coverage_strict(&R->cov[w]);
	}
	for (size_t e = 0; e < R->n; e++)
		end->affected |= R->e[e].outcome == CK_OUT_AFFECTED;
	if (r->sk->kernel && (rc = r->sk->kernel(r->sk->ctx, rq->set, R)) != 0)
		return rc;
	if (rq->stream && rq->kind == CK_RQ_CHECK)
		ck_result_release(R);
	return 0;
}

/* One result per checked kernel, then the end. */
static int run_kernels(struct run *r, struct kcve_err *err)
{
	const struct ck_request *rq = r->rq;
	ck_cov_index_build(&r->cov, rq->set);
	r->have_cov = true;
	struct ck_pipeline pl = {.set = rq->set, .cov = &r->cov, .now = rq->now,
				 .age = r->has_age ? &r->age : NULL,
				 .triage = rq->kev || rq->epss ? &r->tri : NULL,
				 .diag = &r->sk->diag};
	int rc = open_inputs(r, err);
	if (rc)
		return rc;
	r->nres = r->gt ? 1 : r->nrels;
	bool stream = rq->stream && rq->kind == CK_RQ_CHECK;
	rq->set->compile_once = r->nres == 1 && !rq->fixes;
	if (rq->since && (rc = ck_since_open(&r->since, rq->since, rq->since_vex, err)) != 0)
		return rc;
	r->have_since = rq->since != NULL;
	r->since.pl.diag = &r->sk->diag; /* OLD's code stage warns to the run's sink too */
	r->res = xcalloc(r->nres + 1, sizeof *r->res);
	if (r->has_age)
		say(r->sk, 0, "%s", r->age.message);
	struct ck_run_end end = {0};
	for (size_t i = 0; i < r->nres; i++)
		if ((rc = run_kernel(r, &pl, i, &end, err)) != 0)
			return rc;
	if (r->gt)
		end.gaps |= rq->git->ancestry(r->gt) != 0; /* a shallow clone proves no absence */
	end.res = stream ? NULL : r->res;
	end.nres = stream ? 0 : r->nres;
	end.since = r->have_since ? &r->since : NULL;
	struct ck_fixed fx = {0};
	if (rq->kind != CK_RQ_CHECK) { /* the final outcomes of the two kernels */
		KCVE_ASSERT(r->nres == 2);
		ck_fixed_between(&fx, rq->set, &r->res[0], &r->res[1]);
		end.fixed = &fx;
	}
	rc = r->sk->end ? r->sk->end(r->sk->ctx, rq->set, &end, err) : 0;
	ck_fixed_release(&fx);
	return rc;
}

static void run_close(struct run *r)
{
	for (size_t i = 0; r->res && i < r->nres; i++)
		ck_result_release(&r->res[i]);
	free(r->res);
	if (r->have_since)
		ck_since_close(&r->since);
	if (r->gt)
		r->rq->git->close(r->gt);
	ck_files_close(r->cf);
	ck_filelist_free(r->fl);
	ck_files_close(r->bf);
	ck_modprobe_free(r->mp);
	ksyms_free(&r->syms);
	ck_code_reading_release(&r->code);
	if (r->have_cov)
		ck_cov_index_release(&r->cov);
	if (r->have_tri)
		ck_triage_release(&r->tri);
	ck_running_release(&r->rn);
	for (size_t i = 0; i < r->nrels; i++)
		free(r->rels[i]);
	free(r->rels);
}

int ck_run(const struct ck_request *rq, const struct ck_sink *sk, struct kcve_err *err)
{
	static const struct ck_sink none = {0};
	struct run r = {.rq = rq, .sk = sk ? sk : &none};
	int rc = gather_releases(&r, err);
	if (rc == 0 && (rc = ck_triage_open(&r.tri, rq->set, rq->kev, rq->epss, err)) == 0)
		r.have_tri = true;
	if (rc == 0) {
		r.has_age = ck_coverage_age(rq->set, rq->now, rq->max_age, &r.age);
		rc = rq->batch ? run_batch(&r, err) : run_kernels(&r, err);
	}
	run_close(&r);
	return rc;
}
