/* The modules stage's question (see modules.h). */
#include "check/stages/modules.h"

#include <string.h>

#include "core/text.h"

static bool module_loaded(const struct ck_running *rn, const char *name)
{
	for (size_t i = 0; i < rn->nmodules; i++)
		if (strcmp(rn->modules[i], name) == 0)
			return true;
	return false;
}

/* Is the file part of a loaded module?  Exact when the Kbuild evaluation (--source) or the
 * database (built with --source) knows which module each file links into (composites such
 * as nf_tables = nf_tables_api.o + nf_tables_core.o + ...).  Without that knowledge, guess from
 * the file's basename and its directory name, with '-' folded to '_' as the module loader
 * does ("drivers/net/tun.c" -> tun, net). */
static bool file_in_loaded_module(const struct ck_running *rn, const struct ck_files *cf,
				  const struct ck_set *set, const char *file)
{
	if (ck_files_have_modules(cf, set)) {
		char mod[256];
		return ck_files_module(cf, set, file, mod, sizeof mod) && module_loaded(rn, mod);
	}
	char cand[2][128];
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	text_snprintf(cand[0], sizeof cand[0], "%.*s", (int)strcspn(base, "."), base);
	cand[1][0] = '\0';
	if (slash) {
		const char *d = slash;
		while (d > file && d[-1] != '/')
			d--;
		text_snprintf(cand[1], sizeof cand[1], "%.*s", (int)(slash - d), d);
	}
	for (int c = 0; c < 2; c++) {
		for (char *q = cand[c]; *q; q++)
			if (*q == '-')
				*q = '_';
		if (cand[c][0] && module_loaded(rn, cand[c]))
			return true;
	}
	return false;
}

/* Loaded when one of the record's files links into a loaded module.  Not loaded when every
 * file the configuration compiles links into a module and none of them is loaded: the code is
 * built but not in the kernel now (the verdict stays, modules can be autoloaded).  Deciding
 * "not loaded" needs the exact file-to-module mapping (--source, or a database built with
 * --source); the name guess only ever says "loaded". */
enum ck_module ck_running_module_state(const struct ck_running *rn, struct ck_files *cf,
				       const struct ck_set *set, const struct ck_record *r)
{
	for (size_t f = 0; f < r->nfiles; f++)
		if (file_in_loaded_module(rn, cf, set, r->files[f]))
			return CK_MOD_LOADED;
	if (!cf || !ck_files_have_modules(cf, set))
		return CK_MOD_NONE;
	bool in_module = false;
	for (size_t f = 0; f < r->nfiles; f++) {
		const char *why = NULL;
		if (ck_files_verdict(cf, r->files[f], &why) != CK_FILE_COMPILED)
			continue;
		char mod[256];
		if (!ck_files_module(cf, set, r->files[f], mod, sizeof mod))
			return CK_MOD_NONE; /* built in */
		in_module = true;
	}
	return in_module ? CK_MOD_NOT_LOADED : CK_MOD_NONE;
}
