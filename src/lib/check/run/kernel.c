/* One kernel's description (see kernel.h). */
#include "check/run/kernel.h"

#include <string.h>

#include "core/assert.h"

static const char *stage_name(enum ck_input_kind kind)
{
	switch (kind) {
	case CK_IN_CONFIG: return "config";
	case CK_IN_LIST: return "files";
	case CK_IN_BUILD: return "build";
	case CK_IN_SBOM: return "sbom";
	case CK_IN_NONE: break;
	}
	return NULL;
}

static struct ck_file_input file_input(const struct ck_answers *a)
{
	if (a->kind == CK_IN_NONE || !a->fn)
		return (struct ck_file_input){0};
	return (struct ck_file_input){stage_name(a->kind), a->fn, a->ctx};
}

bool ck_kernel_code_applies(const struct ck_opened *in)
{
	return !in->code_release || (in->release && !strcmp(in->release, in->code_release));
}

void ck_kernel_describe(const struct ck_request *rq, const struct ck_opened *in,
			struct ck_kernel_scratch *sc, struct ck_kernel *k)
{
	KCVE_ASSERT(in->config.kind == CK_IN_NONE || in->config.kind == CK_IN_CONFIG ||
		    in->config.kind == CK_IN_LIST);
	KCVE_ASSERT(in->build.kind == CK_IN_NONE || in->build.kind == CK_IN_BUILD ||
		    in->build.kind == CK_IN_SBOM);
	KCVE_ASSERT(in->release || in->git);
	*k = (struct ck_kernel){.release = in->release, .reading = rq->reading,
				.fixed_in = rq->fixes};
	if (in->git) {
		k->git = in->git;
		k->git_run = rq->git->run;
		k->git_label = in->git_label;
	}
	k->config = file_input(&in->config);
	k->build = file_input(&in->build);
	bool own = ck_kernel_code_applies(in);
	if (in->syms && in->release) {
		ck_fix_branch(in->release, sc->branch, sizeof sc->branch);
		sc->fctx = (struct ck_fix_ctx){sc->branch, own ? rq->source : NULL};
		k->funcs = (struct ck_func_input){in->syms, ck_fix_funcs_fprints, NULL, &sc->fctx};
	}
	if (in->running) {
		k->running = in->running;
		k->modmap = in->modmap;
		k->modprobe = in->modprobe;
	}
	if (in->code && own)
		k->code_reading = in->code;
}

int ck_open_sbom_config(struct ck_files **cf, const struct ck_spdx3 *sb, const char *name,
			const struct ck_request *rq, const struct kcve_diag *diag,
			struct kcve_err *err)
{
	*cf = NULL;
	KCVE_ASSERT(sb->config && !sb->have_files);
	if (!rq->source && !rq->set->nconds) {
		diag_warn(diag, "the SBOM's kernel configuration needs --source KSRC or a --db built "
			  "with --source; configuration stage skipped");
		return 0;
	}
	return ck_files_open_config_text(cf, sb->config, sb->config_len, name, rq->source,
					 rq->arch, rq->set, err);
}
