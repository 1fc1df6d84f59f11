/* --running: where a kept record's compiled code is, as far as the loaded modules go -- the
 * modules stage of the pipeline (check/run/pipeline.c) asks it per record; the system's
 * modules come from the probes (check/inputs/running.h), a file's module from the
 * configuration stage (check/stages/filestage.h). */
#ifndef KCVE_CHECK_MODULES_H
#define KCVE_CHECK_MODULES_H

#include "check/inputs/running.h"
#include "check/records/recset.h"
#include "check/stages/filestage.h"
#include "check/verdict/check.h"

/* Where a record's compiled code is, as far as the loaded modules go (enum ck_module).
 * cf: the configuration stage, for the exact file-to-module mapping (NULL: guess by name). */
enum ck_module ck_running_module_state(const struct ck_running *rn, struct ck_files *cf,
				       const struct ck_set *set, const struct ck_record *r);

#endif
