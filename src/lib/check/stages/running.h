/* What a kernel says about itself: the running system (`kcve check --running`: uname -r,
 * /proc/version, /proc/config.gz or /boot/config-RELEASE, /proc/modules, all under --root when
 * given) and a build directory's include/config/kernel.release.  The probes read; the module
 * stage of the pipeline (check/run/pipeline.h) asks ck_running_module_state() per record. */
#ifndef KCVE_CHECK_RUNNING_H
#define KCVE_CHECK_RUNNING_H

#include <stdbool.h>
#include <stddef.h>

#include "check/records/recset.h"
#include "check/stages/filestage.h"
#include "check/verdict/check.h"
#include "core/error.h"

struct ck_running {
	char release[64];  /* upstream release, normalised */
	char uname_r[128]; /* as uname -r (or ROOT/proc/sys/kernel/osrelease) says */
	char *config;      /* path of the configuration found, NULL if none */
	char *config_shown; /* the same as the user knows it (ROOT/boot/config-R), for messages */
	bool config_gz;
	int config_fd;     /* under --root: the configuration opened inside the image (config is
			    * then /proc/self/fd/N, so no later lookup can leave the image) */
	bool config_fd_open;
	char **modules;    /* names in /proc/modules */
	size_t nmodules;
	char *warning;     /* NULL or why a stage will be skipped (no configuration found) */
};

/* Probe the running system, or the system image under root (NULL: this machine; with a root
 * nothing of this machine is read, a missing file is an error, never a fallback). */
int ck_running_probe(struct ck_running *rn, const char *root, struct kcve_err *err);
void ck_running_release(struct ck_running *rn);

/* Where a record's compiled code is, as far as the loaded modules go (enum ck_module).
 * cf: the configuration stage, for the exact file-to-module mapping (NULL: guess by name). */
enum ck_module ck_running_module_state(const struct ck_running *rn, struct ck_files *cf,
				       const struct ck_set *set, const struct ck_record *r);

#endif
