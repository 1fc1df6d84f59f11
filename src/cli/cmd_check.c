/* kcve check: which CVE records apply to a kernel (version, git tree, .config, build, running). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/emit/fixed.h"
#include "check/emit/json.h"
#include "check/emit/output.h"
#include "check/emit/spdx3_vex.h"
#include "check/emit/vex.h"
#include "check/inputs/release.h"
#include "check/inputs/spdx3.h"
#include "check/records/gitdates.h"
#include "check/records/recset.h"
#include "check/records/treecache.h"
#include "check/run/entry.h"
#include "check/run/since.h"
#include "check/stages/gitscan.h"
#include "check/verdict/check.h"
#include "check/verdict/verdict.h"
#include "core/clock.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "cli.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "core/text.h"
#include "core/xalloc.h"
#include "policy/branches.h"

/* Everything the options say. */
struct check_args {
	const char *tree, *db, *gitdir, *ref, *git_cache, *config, *source, *arch, *build, *root;
	const char *files;
	const char *system_map;
	const char *batch, *fixed_from, *fixed_by, *sbom_path, *kev, *epss;
	bool running, json, openvex, cdx, ids, fixed_in, all, fail, no_git_cache, no_cache, strict;
	bool csaf, fixes; /* fixes: compute each entry's branch fix */
	bool spdx3;
	char **sboms;     /* --sbom FILE, repeatable (SPDX 3 documents of one kernel) */
	size_t nsboms, salloc;
	const char *since, *since_vex;
	long max_age;
	enum ck_reading reading;
	char **versions;
	size_t nversions, valloc;
	struct ck_vex_opts vo;
};

/* The options that are more than a value to store (cli_next() returns them). */
enum { O_VERSION = CLI_LONG, O_GIT, O_READING, O_MAX_AGE, O_SBOM };
#define FLAG(nm, field, hl) CLI_OPT_FLAG(nm, struct check_args, field, hl)
#define STRING(nm, field, mv, hl) CLI_OPT_STRING(nm, struct check_args, field, mv, hl)
static const struct cli_option opts[] = {
	CLI_OPT_HEADING("Inputs (combinable):"),
	CLI_OPT_LOGIC("version", O_VERSION, "V", "kernel release (6.1.107, v6.6.30, 6.1.192-3); repeat or use commas\n"
		      "to check several releases in one run"),
	CLI_OPT_LOGIC("git", O_GIT, "TREE", "kernel git tree: introducing commit present and no fix (ancestry or\n"
		      "a cherry-pick naming the upstream fix) -> affected"),
	STRING("ref", ref, "REF", "revision of --git to check (default HEAD)"),
	CLI_OPT_LOGIC("reading", O_READING, "R", "version verdict from the published JSON record read per branch\n"
		      "(json, default), the .dyad pairs (dyad), or affected when either\n"
		      "says so (either); records whose readings differ are marked"),
	STRING("git-cache", git_cache, "FILE", "what --git read from each commit is kept there, so the next run\n"
	       "reads only new commits (default: kcve-scan.cache in the tree's git dir)"),
	FLAG("no-git-cache", no_git_cache, "--git reads every commit and writes no scan cache"),
	STRING("config", config, "FILE", ".config (or .config.gz) of the kernel; needs --source or a --db\n"
	       "built with --source"),
	STRING("source", source, "KSRC", "kernel source tree for the Kbuild evaluation; with a --db\n"
	       "holding fix fingerprints, the fixes are also read in its code\n"
	       "(its Makefile gives the release when --version is absent)"),
	STRING("arch", arch, "ARCH", "SRCARCH for --source (default: from the config)"),
	STRING("files", files, "FILE", "per-file verdicts instead of a configuration:\n"
	       "'path<TAB>compiled|not-compiled|unknown' lines, as 'kcve db\n"
	       "files' prints them (files not listed are unknown)"),
	STRING("build", build, "DIR", "kernel build directory: exact compiled files (headers too) from\n"
	       "its .*.cmd files; its include/config/kernel.release gives the\n"
	       "version when none is given"),
	CLI_OPT_LOGIC("sbom", O_SBOM, "FILE", "the kernel's SBOM: SPDX 3.0 JSON-LD (repeat for the kernel's\n"
		      "sbom-source/-build/-output; Yocto's build and static documents):\n"
		      "its compiled files (exact, like --build) or its .config, version\n"
		      "and package; or CycloneDX / SPDX 2.3 JSON: version and component.\n"
		      "VEX statements are bound to it"),
	FLAG("running", running, "this machine: uname -r (+ /proc/version for distro kernels),\n"
	     "/proc/config.gz or /boot/config-RELEASE, /proc/modules, and the\n"
	     "modprobe.d rules (code only in modules an 'install M /bin/false'\n"
	     "rule blocks is not affected: mitigated)"),
	STRING("root", root, "DIR", "with --running: read proc/, boot/, etc/modprobe.d... under DIR\n"
	       "(also $KCVE_ROOT)"),
	STRING("system-map", system_map, "FILE", "the kernel's System.map (boot/System.map-R: with lib/modules/R\n"
	       "beside boot/): with a --db holding fix fingerprints, a CVE whose\n"
	       "changed functions are all missing from the image is not affected;\n"
	       "--build (vmlinux, .ko) and --running (kallsyms, modules) do the same"),
	STRING("batch", batch, "FILE", "a fleet: one 'VERSION [CONFIG|FILE-VERDICTS|- [ID]]\n"
	       "[system-map=F|build=D]' line per kernel (--source KSRC: its code too)\n"
	       "(- = stdin); JSON Lines out, one per kernel (docs/check.md)"),
	CLI_OPT_HEADING("Ranking (docs/check.md): KEV first, then exposure, EPSS, CVSS, id:"),
	STRING("kev", kev, "FILE", "CISA's known_exploited_vulnerabilities.json: mark listed CVEs (rank\n"
	       "first) and list its Linux kernel CVEs no record carries"),
	STRING("epss", epss, "FILE", "FIRST's EPSS scores (cve,epss,percentile CSV, plain or gzip)"),
	CLI_OPT_HEADING("Records (default: the global --tree, $KCVE_TREE, or found upward):"),
	STRING("tree", tree, "DIR", "the record tree; its records are cached as a compact db in\n"
	       "DIR/.kcve/check-cache (rebuilt when a record or kcve changes)"),
	STRING("db", db, "FILE", "the compact database (kcve db build) instead of a tree"),
	FLAG("no-cache", no_cache, "read the tree's records and leave its cache alone"),
	CLI_OPT_HEADING("Output (default: table grouped by subsystem and severity, stdout):"),
	FLAG("json", json, "one JSON document (docs/check.md)"),
	FLAG("openvex", openvex, "an OpenVEX document"),
	FLAG("cyclonedx", cdx, "a CycloneDX VEX document"),
	FLAG("csaf", csaf, "a CSAF 2.0 VEX document"),
	FLAG("spdx3", spdx3, "an SPDX 3.0.1 VEX document"),
	FLAG("ids", ids, "one line of CVE ids per kernel"),
	STRING("since", since, "OLD", "what changed since OLD (an older record tree or db): per kernel\n"
	       "added/removed/changed CVEs with why (table first, --json \"delta\");\n"
	       "--openvex, --csaf and --spdx3 write the next revision of OLD's\n"
	       "document (--cyclonedx: the same statements)"),
	STRING("since-vex", since_vex, "FILE", "with --since: the previous OpenVEX document to revise (default:\n"
	       "the one OLD's records give)"),
	FLAG("fixed-in", fixed_in, "smallest release on the same branch fixing everything found"),
	STRING("fixed-between", fixed_from, "V1 V2", "the CVEs fixed going from release V1 to V2, counted per\n"
	       "severity (table, --json or --ids)"),
	STRING("fixed-by", fixed_by, "V", "the CVEs release V fixed (from the release before it to V)"),
	FLAG("all", all, "JSON/VEX: include records that do not apply (fixed/not introduced;\n"
	     "a VEX document of kernels nothing applies to always does)"),
	FLAG("fail-if-affected", fail, "exit with status 18 when a CVE applies"),
	FLAG("strict", strict, "exit with status 21 when the records do not cover a checked release\n"
	     "(newer than the records know, nonexistent, unsupported branch,\n"
	     "records older than --max-age; the warnings are printed either way;\n"
	     "18 takes precedence; with --batch: any kernel)"),
	CLI_OPT_LOGIC("max-age", O_MAX_AGE, "DAYS", "warn when the records are older than DAYS days (default 30; 'off'\n"
		      "for never): the tree's git HEAD commit, else its newest record\n"
		      "date; a db's build time and the tree it was built from"),
	CLI_OPT_HEADING("VEX (--openvex, --cyclonedx, --csaf, --spdx3; see docs/check.md):"),
	STRING("product", vo.product, "PURL", "the kernel's purl (default pkg:generic/linux-kernel@RELEASE, as syft\n"
	       "names it); without '@' the release is appended"),
	STRING("cpe", vo.cpe, "CPE", "CPE 2.3 (default cpe:2.3:o:linux:linux_kernel:RELEASE:*:*:*:*:*:*:*)"),
	STRING("author", vo.author, "NAME", "document author (else $KCVE_VEX_AUTHOR, else a placeholder to replace)"),
	STRING("role", vo.role, "ROLE", "the author's role (OpenVEX; CSAF publisher category)"),
	CLI_OPT_END,
};
#undef FLAG
#undef STRING
static const struct cli_command check_cmd = {
	"check", "[--tree DIR | --db FILE] INPUT... [OUTPUT] [--fixed-in] [--all]",
	"Which published CVE records apply to a kernel.\n", opts, false};

static void die_err(const struct kcve_err *e)
{
	kcve_die(e->code ? e->code : KCVE_E_GENERIC, "%s", e->msg);
}

static void add_version(struct check_args *a, const char *v)
{
	XGROW(a->versions, a->nversions + 1, a->valloc);
	a->versions[a->nversions++] = xstrdup(v);
}

static void free_versions(struct check_args *a)
{
	for (size_t i = 0; i < a->nversions; i++)
		free(a->versions[i]);
	free(a->versions);
}

/* The options that are more than a value (the others are stored by the parser: cli_bind). */
static void parse_args(struct cli_parser *p, struct check_args *a)
{
	cli_bind(p, a);
	for (int c; (c = cli_next(p)) != -1;) {
		const char *v = p->arg;
		switch (c) {
		case O_VERSION: {
			char *copy = xstrdup(v), *save = NULL;
			for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
				add_version(a, t);
			free(copy);
			break;
		}
		case O_GIT:
#ifdef KCVE_NO_GIT
			cli_usage_error(p, "--git %s: this kcve-embedded build has no git support; "
					   "run 'kcve check --git' with the full kcve", v);
#endif
			a->gitdir = v;
			break;
		case O_SBOM:
			XGROW(a->sboms, a->nsboms + 1, a->salloc);
			a->sboms[a->nsboms++] = (char *)v;
			a->sbom_path = a->sboms[0];
			break;
		case O_MAX_AGE:
			a->max_age = !strcmp(v, "off") ? -1 : cli_num(p, "--max-age", v, 0, 36500);
			break;
		case O_READING:
			if (!ck_reading_parse(v, &a->reading))
				cli_usage_error(p, "--reading %s: give json, dyad or either", v);
			break;
		}
	}
}

/* Options that do not go together (after the parser is done). */
static void check_usage(const struct cli_parser *p, struct check_args *a)
{
	if ((int)a->json + (int)a->openvex + (int)a->cdx + (int)a->csaf + (int)a->ids +
	    (int)a->spdx3 > 1)
		cli_usage_error(p, "choose one of --json, --openvex, --cyclonedx, --csaf, --spdx3, --ids");
	if ((a->since && (a->ids || a->batch)) ||
	    (a->since_vex && (!(a->openvex || a->spdx3) || !a->since)))
		cli_usage_error(p, "--since goes with the table, --json, --openvex, --cyclonedx, --csaf "
				"or --spdx3; --since-vex with --since and --openvex or --spdx3");
	if (a->ref && !a->gitdir)
		cli_usage_error(p, "--ref needs --git TREE");
	if ((a->git_cache || a->no_git_cache) && !a->gitdir)
		cli_usage_error(p, "%s needs --git TREE",
				a->git_cache ? "--git-cache" : "--no-git-cache");
	if (a->git_cache && a->no_git_cache)
		cli_usage_error(p, "--git-cache and --no-git-cache exclude each other");
	if (a->files && (a->config || a->running))
		cli_usage_error(p, "--files gives the kernel's compiled files instead of a configuration: "
				"give it without --config and --running");
	if (a->batch && (a->nversions || a->gitdir || a->running || a->build || a->config || a->files ||
			 a->system_map || a->json || a->openvex || a->cdx || a->csaf || a->ids || a->all ||
			 a->spdx3 || a->nsboms))
		cli_usage_error(p, "--batch FILE lists the kernels and prints JSON Lines; it goes "
				"only with --tree/--db, --source/--arch, --reading, --fixed-in, "
				"--fail-if-affected, --strict, --max-age, --kev, --epss (an SBOM goes in "
				"a line's FILES)");
	if ((a->fixed_from || a->fixed_by) &&
	    (a->gitdir || a->running || a->batch || a->since || a->nsboms || a->openvex || a->cdx ||
	     a->csaf || a->spdx3 || a->all || a->fixed_in || a->fail))
		cli_usage_error(p, "--fixed-between and --fixed-by print what an upgrade fixes (the "
				"table, --json or --ids); they go with --tree/--db, --reading, a "
				"kernel's --config/--source/--arch/--build/--system-map, --kev, --epss, "
				"--strict and --max-age");
	if (a->no_cache && a->db)
		cli_usage_error(p, "--no-cache applies to a record tree, not to --db FILE");
	/* --source alone reads the fixes in the code: it needs a --db with fingerprints, checked
	 * once the records are loaded */
	if (a->root && a->root[0] == '\0')
		a->root = NULL;
	if ((a->vo.product || a->vo.cpe || a->vo.role) && !a->openvex && !a->cdx && !a->csaf &&
	    !a->spdx3)
		cli_usage_error(p, "--product, --cpe and --role go with --openvex, --cyclonedx, --csaf "
				"or --spdx3");
	/* the VEX documents name the first release that fixes an affected CVE; --since
	 * compares it */
	a->fixes = a->fixed_in || a->openvex || a->csaf || a->spdx3 || a->since;
	if (a->sbom_path && (a->vo.product || a->vo.cpe))
		cli_usage_error(p, "--sbom takes the kernel's identity from the SBOM; drop "
				"--product/--cpe");
}

/* The releases given: --version, else the SBOM's (ck_run adds the one --running, --build or
 * --source says when none is given). */
static void gather_versions(const struct cli_parser *p, struct check_args *a, struct ck_sbom *sbom)
{
	struct kcve_err err = {0};
	if (a->nsboms) {
		if (a->nversions > 1 || a->gitdir)
			cli_usage_error(p, "--sbom describes one kernel: give at most one --version "
					"and no --git");
		if (ck_sbom_load_all(sbom, a->sboms, a->nsboms, &err))
			die_err(&err);
		a->vo.sbom = sbom;
		if (sbom->sp3) { /* say what was read */
			char line[256];
			ck_spdx3_summary(sbom->sp3, line, sizeof line);
			diag_note(NULL, "%s", line); /* the SBOM's version is its own text: neutralised */
			if (sbom->sp3->warning[0])
				kcve_warn("%s", sbom->sp3->warning);
		}
		if (a->nversions == 0 && !sbom->kversion)
			kcve_die(KCVE_E_PARSE, "the %s %s names no kernel version; pass --version",
				 sbom->sp3 ? "SBOM" : "kernel component of", a->sbom_path);
		if (a->nversions == 0)
			add_version(a, sbom->kversion);
		char mine[64], theirs[64];
		if (a->nversions == 1 && sbom->kversion &&
		    ck_version_normalize(a->versions[0], mine, sizeof mine, &err) == 0 &&
		    ck_version_normalize(sbom->kversion, theirs, sizeof theirs, &err) == 0 &&
		    strcmp(mine, theirs))
			kcve_die(KCVE_E_USAGE, "--version %s and the SBOM's kernel %s (%s) disagree; "
				 "give the SBOM of the kernel to check", mine, sbom->kversion, theirs);
	}
	for (size_t i = 0; i < a->nversions; i++) {
		char norm[64];
		if (ck_version_normalize(a->versions[i], norm, sizeof norm, &err) != 0)
			die_err(&err);
		free(a->versions[i]);
		a->versions[i] = xstrdup(norm);
	}
	if (a->nversions == 0 && !a->gitdir && !a->batch && !a->running && !a->build && !a->source)
		kcve_die(KCVE_E_USAGE, "nothing to check: give --version, --git, --running or --build "
				       "(with include/config/kernel.release); see 'kcve check --help'");
	if (a->gitdir && a->nversions > 1)
		kcve_die(KCVE_E_USAGE, "--git checks one tree: give at most one --version with it");
}

/* The records: the compact database, or the tree (through its cache); exits on errors. */
static void load_set(struct kcve_global *g, const char *tree, const char *db, bool use_cache,
		     struct ck_set *set)
{
	struct kcve_err err = {0};
	int rc;
	if (db) {
		rc = ck_set_load_db(set, db, &err);
	} else {
		char *troot = ck_tree_find(tree ? tree : g->tree, &err);
		if (!troot)
			die_err(&err);
		struct ck_cache_info ci;
		rc = ck_set_load_tree_cached(set, troot, use_cache, &ci, &err);
		if (g->verbose)
			fprintf(stderr, "kcve: record cache of %s: %s%s%s\n", troot,
				ck_cache_state_name(ci.state), ci.why[0] ? ": " : "", ci.why);
#ifndef KCVE_NO_GIT
		/* the tree's age: its git HEAD commit, when it is a checkout (never the cache's) */
		if (rc == 0)
			ck_tree_head_time(troot, &set->tree_head, NULL);
#endif
		free(troot);
	}
	if (rc) {
		ck_set_release(set);
		die_err(&err);
	}
}

/* The printer: ck_run's sink (check/run/entry.h) for the chosen output. */
struct printer {
	const struct check_args *a;
	struct kcve_global *g;
	const struct kcve_diag *diag; /* the run's (the sink's) */
	bool affected, gaps;
};

static void print_warning(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "kcve: warning: %s\n", msg);
}

static void print_note(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "kcve: %s\n", msg);
}

/* --ids streams: each result is printed (and then freed), so that checking hundreds of
 * releases in one run stays small. */
static int print_kernel(void *ctx, const struct ck_set *set, struct ck_result *res)
{
	const struct printer *pr = ctx;
	if (pr->a->ids && !pr->a->fixed_from && !pr->a->fixed_by)
		ck_print_ids(stdout, set, res, 1);
	return 0;
}

static void print_results(const struct printer *pr, const struct ck_set *set,
			  struct ck_result *res, size_t nres, struct ck_since *since)
{
	const struct check_args *a = pr->a;
	struct ck_out_opts o = {.all = a->all, .fixed_in = a->fixed_in,
				.color = cli_use_color(stdout)};
	struct ck_vex_opts vo = a->vo;
	vo.all = a->all;
	vo.diag = pr->diag;
	struct kcve_err err = {0};
	if (since && ck_since_finish(since, set, res, nres, &vo, &err))
		die_err(&err);
	if (since) {
		o.deltas = since->deltas;
		o.since = since->label;
		vo.since = &since->vex;
	}
	/* a VEX document states something: every record when nothing applies (warned), else
	 * none is written (check/emit/vex.h) */
	if ((a->csaf || a->openvex || a->spdx3 || a->cdx) &&
	    ck_vex_scope_announce(res, nres, &vo, &err))
		die_err(&err);
	if (a->csaf)
		ck_print_csaf(stdout, set, res, nres, &vo, since ? &since->csaf : NULL);
	else if (a->json)
		ck_print_json(stdout, set, res, nres, &o);
	else if (a->openvex)
		ck_print_openvex(stdout, set, res, nres, &vo);
	else if (a->spdx3)
		ck_print_spdx3(stdout, set, res, nres, &vo);
	else if (a->cdx)
		ck_print_cyclonedx(stdout, set, res, nres, &vo);
	else if (!a->ids)
		ck_print_table(stdout, set, res, nres, &o);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the result to standard output");
}

static int print_end(void *ctx, const struct ck_set *set, const struct ck_run_end *end,
		     struct kcve_err *err)
{
	struct printer *pr = ctx;
	(void)err;
	pr->affected = end->affected;
	pr->gaps = end->gaps;
	if (pr->a->batch) {
		if (fflush(stdout) != 0)
			kcve_die(KCVE_E_IO, "cannot write the result to standard output");
		return 0;
	}
	if (end->fixed) {
		ck_print_fixed(stdout, end->fixed, pr->a->json  ? CK_FIXED_JSON
						   : pr->a->ids ? CK_FIXED_IDS
								: CK_FIXED_TABLE);
		if (fflush(stdout) != 0)
			kcve_die(KCVE_E_IO, "cannot write the result to standard output");
		return 0;
	}
	print_results(pr, set, end->res, end->nres, end->since);
	return 0;
}

int cmd_check(int argc, char **argv, struct kcve_global *g)
{
	struct check_args a = {.root = getenv("KCVE_ROOT"), .max_age = CK_COV_MAX_AGE,
			       .reading = CK_READ_JSON, .vo = {.author = getenv("KCVE_VEX_AUTHOR")}};
	struct ck_sbom sbom = {0};
	struct cli_parser p;
	cli_begin(&p, &check_cmd, argc, argv, g);
	parse_args(&p, &a);
	char **ops;
	int nops = cli_operands(&p, &ops);
	if (a.fixed_from || a.fixed_by) {
		if ((a.fixed_from && a.fixed_by) || a.nversions || (a.fixed_from && nops != 1) ||
		    (a.fixed_by && nops))
			cli_usage_error(&p, "give either --fixed-between V1 V2 or --fixed-by V (and no "
					"--version)");
		/* a request of its own kind (check/run/entry.h): the two releases' results */
		add_version(&a, a.fixed_from ? a.fixed_from : a.fixed_by);
		if (a.fixed_from)
			add_version(&a, ops[0]);
		nops = 0;
	}
	if (nops) {
		free_versions(&a);
		cli_end(&p);
		cli_usage_error(&p, "unexpected argument '%s', inputs are options (--version V, "
				    "--git DIR, ...)", ops[0]);
	}
	cli_end(&p);
	check_usage(&p, &a);
	gather_versions(&p, &a, &sbom);

	struct ck_set set;
	load_set(g, a.tree, a.db, !a.no_cache, &set);
	bool sbom_config = sbom.sp3 && sbom.sp3->config && !sbom.sp3->have_files;
	if (a.source && !a.config && !sbom_config && !a.running && !a.batch && !set.fprints)
		cli_usage_error(&p, "--source needs --config FILE (or --running, or an SPDX 3 --sbom with "
				"a kernel configuration), or a --db built with "
				"fix fingerprints ('kcve db build --patches DIR' or '--repo LINUX.git')");
	struct ck_request rq = {
		.kind = a.fixed_by ? CK_RQ_FIXED_BY : a.fixed_from ? CK_RQ_FIXED_BETWEEN : CK_RQ_CHECK,
		.set = &set, .releases = a.versions, .nreleases = a.nversions,
		.running = a.running, .root = a.root,
		.gitdir = a.gitdir, .ref = a.ref, .git_cache = a.git_cache,
		.git_cache_write = !a.no_git_cache,
#ifndef KCVE_NO_GIT
		.git = &ck_git_libgit2,
#endif
		.batch = a.batch, .config = a.config, .files = a.files, .source = a.source, .arch = a.arch,
		.build = a.build, .system_map = a.system_map, .kev = a.kev, .epss = a.epss,
		.reading = a.reading, .fixes = a.fixes, .max_age = a.max_age, .now = clock_now(),
		.since = a.since, .since_vex = a.since_vex, .stream = a.ids, .sbom = sbom.sp3,
	};
	struct printer pr = {.a = &a, .g = g};
	struct ck_sink sink = {.ctx = &pr, .diag = {print_warning, print_note, &pr},
			       .detail = g->verbose ? print_note : NULL, .kernel = print_kernel,
			       .end = print_end, .lines = stdout};
	pr.diag = &sink.diag;
	struct kcve_err err = {0};
	int rc = ck_run(&rq, &sink, &err);
	ck_set_release(&set);
	free_versions(&a);
	free(a.sboms);
	if (a.vo.sbom)
		ck_sbom_release(&sbom);
	if (rc)
		die_err(&err);
	if (a.fail && pr.affected)
		return KCVE_E_VULNERABLE;
	return a.strict && pr.gaps ? KCVE_E_COVERAGE : 0;
}
