/* Every test hook: the environment variables that exist so that tests can steer kcve, and the
 * other variables kcve reads, with where each is read. A test-only knob is added HERE first (a
 * macro naming it, used by the getenv() call); tests/meta/testhooks.py fails when src/ reads a
 * KCVE_* variable that is not listed in this file.
 *
 * Test hooks (tests set them; users have no reason to):
 *   KCVE_NOW               fixed "now" in seconds, 1970..9999 (core/clock.c: clock_now()); policy
 *                          dates, staleness, rejection and dispute dates.
 *   KCVE_TEST_CRASH_STEP   N: SIGKILL at the N-th step boundary of a record-tree transaction
 *                          (store/txn.c), for the crash-recovery tests.
 *   KCVE_INDEX_PER_RANGE   set: `kcve index` builds range by range even for a full build
 *                          (history/index_build.c), so that the two builders can be compared.
 *   KCVE_LOCK_TIMEOUT      seconds a writer waits for the tree lock, default 60 (store/tree.c);
 *                          tests make contention fail fast.
 *   KCVE_TEST_MAX_COMMITS  1..2^31-1: the one-pass index build holds at most that many commits
 *                          instead of 2^31 (history/index_walk.c), so that a small repository
 *                          reaches the error of a history beyond the limit (exit 23).
 *   KCVE_TEST_MATCH_SECONDS  1..20: code matching's time limit for one run, default and cap
 *                          CF_MATCH_SECONDS (codefix/tree.c); the hostile test of hunks that
 *                          exhaust it ends in seconds whatever the machine's load.
 *
 * Settings users set (documented in docs/ and --help):
 *   SOURCE_DATE_EPOCH      time stamped into generated documents (core/clock.c: clock_stamp()).
 *   KCVE_REPO, KCVE_TREE, KCVE_INDEX  defaults of --repo/--tree/--index (cli/kcve.c; KCVE_TREE
 *                          also store/tree.c).
 *   KCVE_ROOT              default of check --root (cli/cmd_check.c).
 *   KCVE_FROM, CVE_USER    the identity written into records and mails (record/identity.c,
 *                          cli/cmd_request.c, cli/cmd_dispute.c).
 *   KCVE_VEX_AUTHOR        VEX author (cli/cmd_check.c).
 *   KCVE_CVE_API_*, KCVE_SMTP_*, CVE_ORG, CVE_USER, CVE_API_KEY  publish settings, one table:
 *                          env_map in publish/config.c.
 *   TERM, USER             terminal colour (cli/cli_opt.c), default reviewer (cli/cmd_review.c). */
#ifndef KCVE_CORE_TESTHOOKS_H
#define KCVE_CORE_TESTHOOKS_H

#define KCVE_HOOK_NOW "KCVE_NOW"
#define KCVE_HOOK_CRASH_STEP "KCVE_TEST_CRASH_STEP"
#define KCVE_HOOK_INDEX_PER_RANGE "KCVE_INDEX_PER_RANGE"
#define KCVE_HOOK_LOCK_TIMEOUT "KCVE_LOCK_TIMEOUT"
#define KCVE_HOOK_MATCH_SECONDS "KCVE_TEST_MATCH_SECONDS"
#define KCVE_HOOK_MAX_COMMITS "KCVE_TEST_MAX_COMMITS"
#define KCVE_ENV_SOURCE_DATE_EPOCH "SOURCE_DATE_EPOCH"

#endif
