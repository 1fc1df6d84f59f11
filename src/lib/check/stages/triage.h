/* Triage stages of `kcve check`: exploitation evidence (--kev, --epss) and mitigations on the
 * running system (modprobe rules).  They run after the file and module stages and before
 * output; the order they feed is check/stages/rank.h's.
 *
 * KEV: every entry whose CVE the catalogue lists gets kev (and kev_ransomware); the catalogue's
 * Linux kernel entries (vendorProject "Linux" / product "Kernel") that no record of the set
 * carries become the result's untracked_kev: ids another CNA assigned (CVE-2024-1086) or
 * older than the kernel CNA, which the records cannot judge but a user must see.
 *
 * Mitigations (--running, check/inputs/modprobe.h): only an affected entry whose every compiled file
 * links into a module, none of them loaded now (module state CK_MOD_NOT_LOADED), can be
 * mitigated; built-in code never is, a loaded module is in the kernel whatever the rules say,
 * and a file whose module is unknown keeps the entry as it is.
 *   every module blocked by an install rule  -> outcome mitigated, mitigation CK_MIT_BLOCKED
 *   every module blocked or blacklisted      -> still affected, CK_MIT_BLACKLIST (ranked lower)
 * mitigation_why lists the rules (file:line: rule) of the modules, "; "-separated.
 * A module listed in modules.builtin is built-in code: the entry is not mitigated and its
 * module state becomes CK_MOD_NONE (reachable); without modules.builtin nothing is mitigated. */
#ifndef KCVE_CHECK_TRIAGE_H
#define KCVE_CHECK_TRIAGE_H

#include "check/inputs/epss.h"
#include "check/inputs/kev.h"
#include "check/inputs/modprobe.h"
#include "check/records/recset.h"
#include "check/verdict/check.h"

/* What every kernel of a run shares: the catalogue, the scores (either may be NULL) and the
 * catalogue's kernel ids that no record of the set carries, computed once. */
struct ck_triage {
	const struct ck_kev *kev;
	const struct ck_epss *epss;
	char **untracked; /* sorted by id */
	size_t nuntracked;
	struct ck_kev *own_kev;   /* read by ck_triage_open, freed with t */
	struct ck_epss *own_epss;
};
/* Read --kev / --epss (either path may be NULL) and prepare t; KCVE_E_NOTFOUND, KCVE_E_IO or
 * KCVE_E_PARSE with a one-line message (nothing to release then). */
int ck_triage_open(struct ck_triage *t, const struct ck_set *s, const char *kev_path,
		   const char *epss_path, struct kcve_err *err);
void ck_triage_init(struct ck_triage *t, const struct ck_set *s, const struct ck_kev *kev,
		    const struct ck_epss *epss);
void ck_triage_release(struct ck_triage *t);
/* The "exploitation" annotations of every entry (kev, epss) and R's untracked_kev (borrowed
 * from t: valid while t lives). */
void ck_run_exploitation(const struct ck_set *s, struct ck_result *R, const struct ck_triage *t);

/* The module of a compiled file (false: built in or not known), as ck_files_module answers. */
typedef bool (*ck_module_fn)(void *ctx, const char *path, char *out, size_t outsz);
/* The "modprobe" stage over R's affected entries whose modules are not loaded; verdict tells a
 * compiled file from the others (ck_files_verdict), module names its module. */
void ck_run_modprobe(const struct ck_set *s, struct ck_result *R, const struct ck_modprobe *mp,
		     ck_file_fn verdict, ck_module_fn module, void *ctx);

#endif
