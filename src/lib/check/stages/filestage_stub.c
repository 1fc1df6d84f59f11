/* Stand-in for check/stages/filestage.c, compiled only while the kbuild module has no implementation
 * yet (see check/meson.build): the file stages then fail with a clear message instead of
 * breaking the link. */
#include "check/stages/filestage.h"

#include <string.h>

#include "check/inputs/spdx3.h"

static int unavailable(struct kcve_err *err)
{
	return kcve_err_set(err, KCVE_E_GENERIC,
			    "this kcve was built without the Kbuild evaluator; --config/--build are unavailable, "
			    "rebuild kcve with src/lib/kbuild");
}

int ck_files_open_config(struct ck_files **out, const char *dotconfig, bool gz, const char *ksrc,
			 const char *arch, const struct ck_set *s, struct kcve_err *err)
{
	(void)dotconfig, (void)gz, (void)ksrc, (void)arch, (void)s;
	*out = NULL;
	return unavailable(err);
}

int ck_files_open_config_text(struct ck_files **out, const char *text, size_t len,
			      const char *name, const char *ksrc, const char *arch,
			      const struct ck_set *s, struct kcve_err *err)
{
	(void)text, (void)len, (void)name, (void)ksrc, (void)arch, (void)s;
	*out = NULL;
	return unavailable(err);
}

enum ck_filev ck_sbom_files_verdict(void *ctx, const char *path, const char **reason)
{
	int st = ck_spdx3_file_state(ctx, path, reason);
	return st > 0 ? CK_FILE_COMPILED : st == 0 ? CK_FILE_NOT_COMPILED : CK_FILE_UNKNOWN;
}

int ck_files_open_build(struct ck_files **out, const char *builddir, const struct kcve_diag *diag,
			struct kcve_err *err)
{
	(void)builddir;
	*out = NULL;
	return unavailable(err);
}

enum ck_filev ck_files_verdict(void *ctx, const char *path, const char **reason)
{
	(void)ctx, (void)path;
	if (reason)
		*reason = "kbuild unavailable";
	return CK_FILE_UNKNOWN;
}

const char *ck_files_config_value(const struct ck_files *f, const char *sym)
{
	(void)f, (void)sym;
	return NULL;
}

void ck_files_close(struct ck_files *f)
{
	(void)f;
}

int ck_set_add_conditions(struct ck_set *s, const char *ksrc, struct kcve_err *err)
{
	(void)s, (void)ksrc;
	return unavailable(err);
}

bool ck_files_module(const struct ck_files *f, const struct ck_set *s, const char *path,
		     char *out, size_t outsz)
{
	(void)f, (void)s, (void)path, (void)out, (void)outsz;
	return false;
}

bool ck_files_have_modules(const struct ck_files *f, const struct ck_set *s)
{
	(void)f, (void)s;
	return false;
}
