/* What a kernel says about itself: the running system (`kcve check --running`: uname -r,
 * /proc/version, /proc/config.gz or /boot/config-RELEASE, /proc/modules, all under --root when
 * given).  The probes read and say what they found; the modules stage of the pipeline asks,
 * per record, where its code is (check/stages/modules.h); the release a build directory says
 * it is: check/inputs/release.h. */
#ifndef KCVE_CHECK_RUNNING_H
#define KCVE_CHECK_RUNNING_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
