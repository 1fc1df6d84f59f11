/* The exit-code table of 'kcve help exit-codes' (docs/cli.md restates it; the CLI conformance
 * test checks that the two agree). The codes themselves are in core/error.h. */
#include <stdio.h>

#include "cli.h"
#include "cli_json.h"
#include "core/error.h"
#include "core/kjson.h"

static const struct {
	int code;
	const char *name, *meaning;
} exit_codes[] = {
	{KCVE_OK, "ok", "success (for check: success whatever applies and whatever it warns about, unless --fail-if-affected or --strict)"},
	{KCVE_E_GENERIC, "generic", "internal failure with no better class"},
	{KCVE_E_USAGE, "usage", "bad command line: unknown option, missing value, bad number"},
	{KCVE_E_NOREPO, "no-repo", "--repo is not a git repository"},
	{KCVE_E_NOTAGS, "no-tags", "the repository has no kernel-style release tags"},
	{KCVE_E_INDEX, "index", "history index missing, unreadable or corrupt"},
	{KCVE_E_SCHEMA, "schema", "history index written by another schema version"},
	{KCVE_E_NOTFOUND, "not-found", "unknown sha, CVE id or file"},
	{KCVE_E_POLICY, "policy", "the CNA process forbids this (unfixed, same-release, ...)"},
	{KCVE_E_IO, "io", "read or write failure"},
	{KCVE_E_TREE, "tree", "record tree missing or inconsistent"},
	{KCVE_E_LOCK, "lock", "record tree locked by another process"},
	{KCVE_E_NET, "net", "network or remote service failure"},
	{KCVE_E_PARSE, "parse", "malformed input file"},
	{KCVE_E_DUPLICATE, "duplicate", "the commit already has a CVE"},
	{KCVE_E_EXHAUSTED, "exhausted", "no free reserved id"},
	{KCVE_E_DENIED, "denied", "not authorised (disputes)"},
	{KCVE_E_VERIFY, "verify", "kcve verify found problems"},
	{KCVE_E_VULNERABLE, "vulnerable", "kcve check --fail-if-affected: at least one CVE applies"},
	{KCVE_E_UNFIXED, "unfixed", "the fix is in no released tag (no CVEs for unfixed issues)"},
	{KCVE_E_UNSUPPORTED, "unsupported", "the fix is only on branches no longer supported"},
	{KCVE_E_COVERAGE, "coverage", "check --strict: the records do not cover a checked kernel (newer, nonexistent, unsupported branch, older than --max-age)"},
	{KCVE_E_ARCH, "arch", "--arch names another architecture than the .config was made for"},
	{KCVE_E_LIMIT, "limit", "the input is beyond a size kcve supports (a history of over 2^31 commits, a merge of over 65,535 parents)"},
	{KCVE_E_EMPTY, "empty", "check with a VEX output: no record was checked and none withdrawn, so the document would state nothing (none is written)"},
};

void cli_print_exit_codes(FILE *out)
{
	fprintf(out, "Exit status of kcve (stable: codes are never renumbered):\n");
	for (size_t i = 0; i < sizeof(exit_codes) / sizeof(exit_codes[0]); i++)
		fprintf(out, "  %3d  %-12s %s\n", exit_codes[i].code, exit_codes[i].name,
			exit_codes[i].meaning);
}

json_t *cli_exit_codes_json(void)
{
	json_t *a = json_array();
	for (size_t i = 0; i < sizeof(exit_codes) / sizeof(exit_codes[0]); i++)
		json_array_append_new(a, kj_pack("{s:i, s:s, s:s}", "code", exit_codes[i].code,
						   "name", exit_codes[i].name, "meaning",
						   exit_codes[i].meaning));
	return a;
}
