/* The `kcve check` verdicts: one result per checked kernel, built in stages (the order and
 * the list of stages: check/run/pipeline.h).
 *
 *   records ──version (or git)──▶ affected by version ──config──▶ ──build──▶ remaining
 *
 * Every record keeps an entry with its outcome and the reason, so not-affected verdicts can
 * be exported (VEX) and nothing is silently dropped: a file stage that cannot decide keeps
 * the CVE as "unknown".
 *
 * Ownership of a struct ck_result:
 *  - owned, freed by ck_result_release(): the entry array e, each entry's reason and
 *    mitigation_why, and the code readings (code, with each reading's evidence) unless
 *    code_shared says they are borrowed;
 *  - borrowed, never freed by the result: the records and strings of the set (an entry's
 *    rec is an index into it), each stage count's name (static strings), untracked_kev (the
 *    triage's), and with code_shared the code readings (their owner outlives the result);
 *  - plain values: label, release, fixed_in, the coverage warnings (messages inline), the
 *    counts.  So a result can be copied only by ck_result_copy(), which copies the entries;
 *    a byte copy would free the entries twice. */
#ifndef KCVE_CHECK_CHECK_H
#define KCVE_CHECK_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "check/records/coverage.h"
#include "check/records/recset.h"
#include "check/verdict/verdict.h"

enum ck_outcome {
	CK_OUT_AFFECTED = 1,       /* applies (version/git, and a compiled file if a file stage ran) */
	CK_OUT_UNKNOWN = 2,        /* applies by version, but no file stage could decide: kept */
	CK_OUT_NOT_COMPILED = 3,   /* applies by version, none of its programFiles is compiled */
	CK_OUT_FIXED = 4,          /* introduced, and the fix is present */
	CK_OUT_NOT_INTRODUCED = 5, /* the vulnerable code was never introduced in this kernel */
	CK_OUT_NO_DATA = 6,        /* record has no usable pair: version verdict impossible (kept) */
	CK_OUT_MITIGATED = 7,      /* compiled, but only into modules a modprobe rule keeps from
				    * loading (check/stages/triage.h): not affected, with the evidence */
};
const char *ck_outcome_name(enum ck_outcome o);
/* Outcomes that keep a CVE on the "look at this" list. */
bool ck_outcome_kept(enum ck_outcome o);

/* --running: where a kept record's compiled code is, as far as modules go. */
enum ck_module {
	CK_MOD_NONE = 0,       /* built in, or nothing known about modules */
	CK_MOD_LOADED = 1,     /* a programFile links into a module listed in /proc/modules */
	CK_MOD_NOT_LOADED = 2, /* every compiled programFile is in a module, none of them loaded */
};

/* --running: what the modprobe configuration does to a kept record's modules (check/stages/triage.h). */
enum ck_mitigation {
	CK_MIT_NONE = 0,
	CK_MIT_BLACKLIST = 1, /* every module blacklisted or blocked, one only blacklisted: still
			       * loadable by name or as a dependency, affected, ranked lower */
	CK_MIT_BLOCKED = 2,   /* every module blocked by an install rule: outcome mitigated */
};

enum ck_filev { CK_FILE_UNKNOWN = 0, CK_FILE_COMPILED = 1, CK_FILE_NOT_COMPILED = 2 };
/* A file stage answers per source path (same values as kbuild's enum kb_verdict). */
typedef enum ck_filev (*ck_file_fn)(void *ctx, const char *path, const char **reason);

struct ck_entry {
	size_t rec;            /* index into the record set */
	unsigned char outcome; /* enum ck_outcome */
	unsigned char semver;  /* JSON reading of the release (enum ck_vstatus) */
	unsigned char dyad;    /* .dyad reading of the release (enum ck_vstatus) */
	bool disagree;         /* the two readings differ for the checked release */
	bool needs_git;        /* -rc release the records cannot place: "unknown (needs --git)" */
	unsigned char module;  /* enum ck_module (--running only; an annotation, not a verdict) */
	bool stated;           /* the previous VEX revision stated it (--since: ck_vex_mark_stated):
				* stated again whatever its outcome (check/verdict/statement.h) */
	const char *stage;     /* stage that decided: "version", "git", "config", "build" */
	char *reason;          /* NULL for version verdicts: see ck_entry_reason() */
	char fixed_in[32];     /* branch fix for affected entries ("" when none / not computed) */
	/* exploitation evidence and mitigations (check/stages/triage.h, check/stages/rank.h) */
	bool kev;              /* listed in CISA's KEV catalogue (--kev) */
	bool kev_ransomware;   /* ... with knownRansomwareCampaignUse "Known" */
	bool has_epss;         /* --epss gave a score */
	double epss, epss_pct; /* EPSS probability and percentile, 0..1 */
	unsigned char mitigation; /* enum ck_mitigation */
	char *mitigation_why;  /* the rules: "/etc/modprobe.d/x.conf:3: install m /bin/false" */
};

/* Stages of the pipeline's table (check/run/pipeline.c, which checks this number at compile
 * time); each adds at most one count to a result, after the "records" count. */
#define CK_PIPELINE_STAGES 10
#define CK_STAGE_COUNTS_MAX (1 + CK_PIPELINE_STAGES)

struct ck_stage_count {
	const char *name;
	size_t count;   /* CVEs still kept after the stage */
	size_t unknown; /* of which undecided ("unknown"/"no data") */
};

/* The code stage's reading of one CVE (check/stages/codestage.h): verdict is an enum cf_verdict
 * (codefix/match.h), ev its evidence per hunk (file names point into the set's fingerprints; each `moved` is owned: cf_ev_free). */
struct cf_ev;
struct ck_code {
	bool checked;          /* the CVE has a fingerprint and the code stage ran */
	unsigned char verdict; /* enum cf_verdict */
	unsigned hunks, found;
	const char *label;     /* version of the fix that decided ("patch", "mainline", "6.1") */
	struct cf_ev *ev;
	size_t nev;
};

struct ck_result {
	char label[128];       /* what was checked: "6.1.107", "git:/path@HEAD", ... */
	char release[32];      /* release number when known ("" for a git tree without --version) */
	struct ck_entry *e;    /* one per record, same order as the set */
	size_t n;
	struct ck_stage_count stages[CK_STAGE_COUNTS_MAX];
	int nstages;
	size_t ndisagree;
	size_t nneeds_git;     /* entries left unknown because an -rc cannot be placed */
	unsigned char reading; /* enum ck_reading used for the version verdict */
	char fixed_in[32];     /* --fixed-in: smallest branch release fixing every affected CVE */
	size_t unfixed_on_branch; /* affected CVEs without any fix on the branch */
	struct ck_coverage cov[CK_COV_MAX]; /* what the records cannot vouch for (coverage.h) */
	size_t ncov;
	struct ck_code *code;  /* one per entry when the code stage ran (--source), else NULL */
	bool code_shared;      /* code is borrowed (--batch: one reading for every kernel) */
	size_t ncode_decided;  /* CVEs whose code verdict decided their outcome */
	bool ranked_kev, ranked_epss; /* --kev / --epss were applied (check/stages/triage.h) */
	const char *const *untracked_kev; /* KEV Linux kernel ids no record of the set carries
					   * (sorted; borrowed from check/stages/triage.h's ck_triage) */
	size_t nuntracked_kev;
};

/* A result with one entry per record of s (outcomes still to be set by the first stage) and
 * the "records" stage count; release may be NULL (a git tree without --version). */
void ck_result_init(struct ck_result *res, const struct ck_set *s, const char *label,
		    const char *release);
/* Count the entries still kept after the stage name (a stage calls it when done, at most once;
 * room for every stage of the table is asserted). */
void ck_result_push_stage(struct ck_result *res, const char *name);
/* dst = a copy of src, a result the release-scope stages alone made (check/run/pipeline.h),
 * for another kernel of the same release: such a result owns nothing per entry (no reason, no
 * mitigation, no code reading: asserted), so copying the entry array is a full copy. */
void ck_result_copy(struct ck_result *dst, const struct ck_result *src);
/* Version stage: the reading rd of every record (check/verdict/verdict.h), the other reading kept for
 * comparison.  release must be normalised. */
void ck_run_version(struct ck_set *s, const char *release, enum ck_reading rd,
		    struct ck_result *out);
/* A file stage over the entries still kept; name is "config" or "build". */
void ck_run_files(struct ck_set *s, struct ck_result *res, const char *name, ck_file_fn fn,
		  void *ctx);
/* Fill fixed_in per entry and for the whole result (needs res->release). */
void ck_compute_fixed_in(struct ck_set *s, struct ck_result *res);
/* Human-readable reason of an entry (its own, or the version verdict worded into buf). */
const char *ck_entry_reason(const struct ck_set *s, const struct ck_result *res,
			    const struct ck_entry *e, char *buf, size_t n);
/* Both readings of an entry's record at the result's release, worded ("JSON affected (product
 * 2: no entry matches, defaultStatus affected)"), each into a buffer of n bytes. */
void ck_readings_explain(const struct ck_set *s, const struct ck_result *res,
			 const struct ck_entry *e, char *json_why, char *dyad_why, size_t n);
void ck_result_release(struct ck_result *res);

#endif
