/* kcve check: which CVE records apply to a kernel (version, git tree, .config, build, running). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check/batch.h"
#include "check/check.h"
#include "check/codestage.h"
#include "check/filestage.h"
#include "check/gitdates.h"
#include "check/gitscan.h"
#include "check/output.h"
#include "check/recset.h"
#include "check/treecache.h"
#include "check/upgrade.h"
#include "check/verdict.h"
#include "check/vex.h"
#include "cli.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "store/branches.h"

enum {
	O_TREE = CLI_LONG, O_DB, O_VERSION, O_GIT, O_REF, O_GIT_CACHE, O_NO_GIT_CACHE, O_CONFIG,
	O_SOURCE, O_ARCH, O_BUILD, O_ROOT, O_RUNNING, O_JSON, O_OPENVEX, O_CYCLONEDX, O_IDS,
	O_FIXED_IN, O_ALL, O_FAIL_IF_AFFECTED, O_PRODUCT, O_CPE, O_SBOM, O_AUTHOR, O_ROLE,
	O_NO_CACHE, O_BATCH,
	O_READING, O_FIXED_BETWEEN, O_FIXED_BY, O_STRICT, O_MAX_AGE,
};
static const struct cli_option opts[] = {
	{"tree", O_TREE, true},
	{"db", O_DB, true},
	{"version", O_VERSION, true},
	{"git", O_GIT, true},
	{"ref", O_REF, true},
	{"git-cache", O_GIT_CACHE, true},
	{"no-git-cache", O_NO_GIT_CACHE, false},
	{"config", O_CONFIG, true},
	{"source", O_SOURCE, true},
	{"arch", O_ARCH, true},
	{"build", O_BUILD, true},
	{"root", O_ROOT, true},
	{"running", O_RUNNING, false},
	{"json", O_JSON, false},
	{"openvex", O_OPENVEX, false},
	{"cyclonedx", O_CYCLONEDX, false},
	{"ids", O_IDS, false},
	{"fixed-in", O_FIXED_IN, false},
	{"all", O_ALL, false},
	{"fail-if-affected", O_FAIL_IF_AFFECTED, false},
	{"product", O_PRODUCT, true},
	{"cpe", O_CPE, true},
	{"sbom", O_SBOM, true},
	{"author", O_AUTHOR, true},
	{"role", O_ROLE, true},
	{"no-cache", O_NO_CACHE, false},
	{"batch", O_BATCH, true},
	{"reading", O_READING, true},
	{"fixed-between", O_FIXED_BETWEEN, true},
	{"fixed-by", O_FIXED_BY, true},
	{"strict", O_STRICT, false},
	{"max-age", O_MAX_AGE, true},
	{NULL, 0, false},
};
static const struct cli_command check_cmd = {
	"check", "[--tree DIR | --db FILE] INPUT... [OUTPUT] [--fixed-in] [--all]",
	"Which published CVE records apply to a kernel.  Inputs (combinable):\n"
	"  --version V        kernel release (6.1.107, v6.6.30, 6.1.192-3); repeat or use commas\n"
	"                     to check several releases in one run\n"
	"  --git TREE         kernel git tree: introducing commit present and no fix (ancestry or\n"
	"                     a cherry-pick naming the upstream fix) -> affected\n"
	"  --ref REF          revision of --git to check (default HEAD)\n"
	"  --reading R        version verdict from the published JSON record read per branch\n"
	"                     (json, default), the .dyad pairs (dyad), or affected when either\n"
	"                     says so (either); records whose readings differ are marked\n"
	"  --git-cache FILE   what --git read from each commit is kept there, so the next run\n"
	"                     reads only new commits (default: kcve-scan.cache in the tree's\n"
	"                     git dir); --no-git-cache reads every commit and writes nothing\n"
	"  --config FILE      .config (or .config.gz) of the kernel; needs --source or a --db\n"
	"                     built with --source\n"
	"  --source KSRC      kernel source tree for the Kbuild evaluation\n"
	"  --arch ARCH        SRCARCH for --source (default: from the config)\n"
	"  --build DIR        kernel build directory: exact compiled files (headers too) from\n"
	"                     its .*.cmd files; its include/config/kernel.release gives the\n"
	"                     version when none is given\n"
	"  --running          this machine: uname -r (+ /proc/version for distro kernels),\n"
	"                     /proc/config.gz or /boot/config-RELEASE, /proc/modules\n"
	"  --root DIR         with --running: read proc/ and boot/ under DIR (also $KCVE_ROOT)\n"
	"  --batch FILE       a fleet: one 'VERSION [CONFIG|FILE-VERDICTS|- [ID]]' line per kernel\n"
	"                     (- = stdin); JSON Lines out, one per kernel (docs/check.md)\n"
	"Records: --tree DIR (else global --tree, $KCVE_TREE, or found upward) or --db FILE.\n"
	"  A tree's records are cached as a compact db in DIR/.kcve/check-cache (rebuilt when\n"
	"  a record or kcve changes); --no-cache reads the records and leaves the cache alone\n"
	"Output (default: table grouped by subsystem and severity, stdout):\n"
	"  --json | --openvex | --cyclonedx | --ids (one line of CVE ids per kernel)\n"
	"  --fixed-in         smallest release on the same branch fixing everything found\n"
	"  --fixed-between V1 V2  the CVEs fixed going from release V1 to V2, counted per\n"
	"                     severity (table, --json or --ids)\n"
	"  --fixed-by V       the CVEs release V fixed (from the release before it to V)\n"
	"  --all              JSON/VEX: include records that do not apply (fixed/not introduced)\n"
	"  --fail-if-affected exit with status 18 when a CVE applies\n"
	"  --strict           exit with status 21 when the records do not cover a checked release\n"
	"                     (newer than the records know, nonexistent, unsupported branch,\n"
	"                     records older than --max-age; the warnings are printed either way;\n"
	"                     18 takes precedence; with --batch: any kernel)\n"
	"  --max-age DAYS     warn when the records are older than DAYS days (default 30; 'off'\n"
	"                     for never): the tree's git HEAD commit, else its newest record\n"
	"                     date; a db's build time and the tree it was built from\n"
	"VEX (--openvex, --cyclonedx; see docs/check.md):\n"
	"  --product PURL     the kernel's purl (default pkg:generic/linux-kernel@RELEASE, as syft\n"
	"                     names it); without '@' the release is appended\n"
	"  --cpe CPE          CPE 2.3 (default cpe:2.3:o:linux:linux_kernel:RELEASE:*:*:*:*:*:*:*)\n"
	"  --sbom FILE        CycloneDX or SPDX 2.3 JSON SBOM: check its kernel component's version\n"
	"                     and bind the statements to it (BOM-Link / its purl)\n"
	"  --author NAME      document author (else $KCVE_VEX_AUTHOR, else a placeholder to replace)\n"
	"  --role ROLE        the author's role (OpenVEX)\n",
	opts, false};

static void die_err(const struct kcve_err *e)
{
	kcve_die(e->code ? e->code : KCVE_E_GENERIC, "%s", e->msg);
}

/* Read a one-line file (trimmed) into sb; false if missing. */
static bool read_line_file(const char *path, struct strbuf *sb)
{
	sb_reset(sb);
	if (read_file(path, sb) < 0)
		return false;
	sb_rtrim(sb);
	return true;
}

struct running {
	char release[64];     /* normalised */
	char uname_r[128];
	char *config;         /* path of the config to use, NULL if none */
	bool config_gz;
	char **modules;
	size_t nmodules;
};

static void running_probe(struct running *rn, const char *root)
{
	memset(rn, 0, sizeof *rn);
	struct strbuf sb = STRBUF_INIT;
	char path[4096];
	const char *r = root ? root : "";
	/* uname -r: from the root's proc or the system call.  With --root nothing of this machine is
	 * read: a missing file is an error, never a fallback to the host kernel. */
	snprintf(path, sizeof path, "%s/proc/sys/kernel/osrelease", r);
	if (root) {
		struct stat st;
		if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode))
			kcve_die(KCVE_E_NOTFOUND, "--root %s: not a directory; give the root of the system image to check",
				 root);
		if (!read_line_file(path, &sb) || !sb.len || strchr(sb.buf, '\n'))
			kcve_die(KCVE_E_NOTFOUND,
				 "--root %s: %s is missing or not one line; it must hold the image's kernel release "
				 "(uname -r), or pass --version instead of --running",
				 root, path);
		snprintf(rn->uname_r, sizeof rn->uname_r, "%s", sb.buf);
	} else {
		struct utsname u;
		if (uname(&u) < 0)
			kcve_die(KCVE_E_IO, "uname() failed; pass --version instead of --running");
		snprintf(rn->uname_r, sizeof rn->uname_r, "%s", u.release);
	}
	snprintf(path, sizeof path, "%s/proc/version", r);
	struct kcve_err err = {0};
	if (read_line_file(path, &sb) && ck_version_from_proc(sb.buf, rn->release, sizeof rn->release)) {
		/* distro kernel: the upstream release comes from /proc/version */
	} else if (ck_version_normalize(rn->uname_r, rn->release, sizeof rn->release, &err) != 0) {
		kcve_die(KCVE_E_USAGE,
			 "cannot tell the upstream release of the running kernel '%s' (%s/proc/version has no "
			 "distribution release text); pass --version X.Y.Z",
			 rn->uname_r, r);
	}
	snprintf(path, sizeof path, "%s/proc/config.gz", r);
	if (path_exists(path)) {
		rn->config = xstrdup(path);
		rn->config_gz = true;
	} else {
		snprintf(path, sizeof path, "%s/boot/config-%s", r, rn->uname_r);
		if (path_exists(path))
			rn->config = xstrdup(path);
		else
			fprintf(stderr,
				"kcve: warning: neither %s/proc/config.gz nor %s exists; the configuration "
				"stage is skipped (load the configs module or pass --config FILE)\n",
				r, path);
	}
	snprintf(path, sizeof path, "%s/proc/modules", r);
	sb_reset(&sb);
	if (read_file(path, &sb) == 0) {
		size_t alloc = 0;
		char *p = sb.buf;
		while (p && *p) {
			char *eol = strchr(p, '\n');
			size_t n = strcspn(p, " \n");
			if (n) {
				XGROW(rn->modules, rn->nmodules + 1, alloc);
				rn->modules[rn->nmodules++] = xstrndup(p, n);
			}
			p = eol ? eol + 1 : NULL;
		}
	}
	sb_release(&sb);
}

static bool module_loaded(const struct running *rn, const char *name)
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
static bool file_in_loaded_module(const struct running *rn, const struct ck_files *cf,
				  const struct ck_set *set, const char *file)
{
	if (ck_files_have_modules(cf, set)) {
		char mod[256];
		return ck_files_module(cf, set, file, mod, sizeof mod) && module_loaded(rn, mod);
	}
	char cand[2][128];
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	snprintf(cand[0], sizeof cand[0], "%.*s", (int)strcspn(base, "."), base);
	cand[1][0] = '\0';
	if (slash) {
		const char *d = slash;
		while (d > file && d[-1] != '/')
			d--;
		snprintf(cand[1], sizeof cand[1], "%.*s", (int)(slash - d), d);
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
			ck_tree_head_time(troot, &set->tree_head);
#endif
		free(troot);
	}
	if (rc) {
		ck_set_release(set);
		die_err(&err);
	}
}

/* --fixed-between / --fixed-by: two version runs and their difference (check/upgrade.h). */
static void check_fixed(struct kcve_global *g, const char *tree, const char *db, const char *v1,
			const char *v2, bool by, enum ck_reading rd, enum ck_fixed_format fmt)
{
	struct kcve_err err = {0};
	char a[64], b[64];
	if (ck_version_normalize(v2, b, sizeof b, &err) != 0 ||
	    (by ? ck_previous_release(b, a, sizeof a, &err)
		: ck_version_normalize(v1, a, sizeof a, &err)) != 0)
		die_err(&err);
	struct ck_set set;
	load_set(g, tree, db, true, &set);
	int rc = ck_print_fixed_between(stdout, &set, a, b, rd, fmt, &err);
	ck_set_release(&set);
	if (rc)
		die_err(&err);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the result to standard output");
}

/* --batch: every kernel of the list, JSON Lines on stdout; frees the record set. */
static int check_batch(struct ck_set *set, const char *list, const char *source,
		       const char *arch, bool fixed_in, enum ck_reading reading, bool fail,
		       bool strict, long max_age, struct kcve_global *g)
{
	struct ck_coverage age;
	long long now = (long long)store_now();
	bool has_age = ck_coverage_age(set, now, max_age, &age);
	struct ck_batch_opts bo = {.source = source, .arch = arch, .fixed_in = fixed_in,
				   .reading = reading, .now = now, .age = has_age ? &age : NULL};
	struct ck_batch_stats st;
	struct kcve_err err = {0};
	int rc = ck_batch_run(set, list, stdout, &bo, &st, &err);
	ck_set_release(set);
	if (rc)
		die_err(&err);
	if (has_age) /* once, after the list could be read (in every line's "coverage") */
		fprintf(stderr, "kcve: warning: %s\n", age.message);
	if (st.uncovered)
		fprintf(stderr, "kcve: warning: the records do not cover %zu of the %zu kernels "
			"(newer than the records know, nonexistent or on an unsupported branch: see "
			"the \"coverage\" of their lines)\n", st.uncovered, st.kernels);
	if (g->verbose)
		fprintf(stderr, "kcve: %zu kernels (%zu releases, %zu distinct file inputs, %zu "
			"evaluations), %zu with a CVE, %zu not checked\n", st.kernels, st.releases,
			st.files, st.evaluated, st.affected, st.errors);
	if (st.errors)
		kcve_die(KCVE_E_PARSE, "%zu of the %zu kernels in %s could not be checked (their "
			 "lines carry an \"error\"); fix those lines", st.errors, st.kernels, list);
	if (fail && st.affected)
		return KCVE_E_VULNERABLE;
	bool gaps = st.uncovered || (has_age && ck_coverage_strict(&age));
	return strict && gaps ? KCVE_E_COVERAGE : 0;
}

/* --running: is the record's code in a module, and is that module loaded?  Loaded when one of
 * its files links into a loaded module.  Not loaded when every file the configuration compiles
 * links into a module and none of them is loaded: the code is built but not in the kernel now
 * (the verdict stays, modules can be autoloaded).  Deciding "not loaded" needs the exact
 * file-to-module mapping (--source, or a database built with --source); the name guess only
 * ever says "loaded". */
static enum ck_module module_state(const struct running *rn, struct ck_files *cf,
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

int cmd_check(int argc, char **argv, struct kcve_global *g)
{
	const char *tree = NULL, *db = NULL, *gitdir = NULL, *ref = NULL, *config = NULL;
	const char *source = NULL, *arch = NULL, *build = NULL, *root = getenv("KCVE_ROOT");
	bool running = false, json = false, openvex = false, cdx = false, ids = false;
	bool fixed_in = false, all = false, fail = false, no_git_cache = false, no_cache = false;
	bool strict = false;
	long max_age = CK_COV_MAX_AGE;
	const char *git_cache = NULL, *batch = NULL;
	enum ck_reading reading = CK_READ_JSON;
	const char *fixed_from = NULL, *fixed_by = NULL;
	char **versions = NULL;
	size_t nversions = 0, valloc = 0;
	struct ck_vex_opts vo = {.author = getenv("KCVE_VEX_AUTHOR")};
	const char *sbom_path = NULL;
	struct ck_sbom sbom;
	struct cli_parser p;
	cli_begin(&p, &check_cmd, argc, argv, g);
	for (int c; (c = cli_next(&p)) != -1;) {
		const char *v = p.arg;
		switch (c) {
		case O_TREE: tree = v; break;
		case O_DB: db = v; break;
		case O_VERSION: {
			char *copy = xstrdup(v), *save = NULL;
			for (char *t = strtok_r(copy, ", ", &save); t; t = strtok_r(NULL, ", ", &save)) {
				XGROW(versions, nversions + 1, valloc);
				versions[nversions++] = xstrdup(t);
			}
			free(copy);
			break;
		}
		case O_GIT:
#ifdef KCVE_NO_GIT
			cli_usage_error(&p, "--git %s: this kcve-embedded build has no git support; "
					    "run 'kcve check --git' with the full kcve", v);
#endif
			gitdir = v;
			break;
		case O_REF: ref = v; break;
		case O_GIT_CACHE: git_cache = v; break;
		case O_NO_GIT_CACHE: no_git_cache = true; break;
		case O_NO_CACHE: no_cache = true; break;
		case O_BATCH: batch = v; break;
		case O_CONFIG: config = v; break;
		case O_SOURCE: source = v; break;
		case O_ARCH: arch = v; break;
		case O_BUILD: build = v; break;
		case O_ROOT: root = v; break;
		case O_RUNNING: running = true; break;
		case O_JSON: json = true; break;
		case O_OPENVEX: openvex = true; break;
		case O_CYCLONEDX: cdx = true; break;
		case O_IDS: ids = true; break;
		case O_FIXED_IN: fixed_in = true; break;
		case O_ALL: all = true; break;
		case O_FAIL_IF_AFFECTED: fail = true; break;
		case O_STRICT: strict = true; break;
		case O_MAX_AGE:
			max_age = !strcmp(v, "off") ? -1 : cli_num(&p, "--max-age", v, 0, 36500);
			break;
		case O_PRODUCT: vo.product = v; break;
		case O_CPE: vo.cpe = v; break;
		case O_SBOM: sbom_path = v; break;
		case O_AUTHOR: vo.author = v; break;
		case O_ROLE: vo.role = v; break;
		case O_FIXED_BETWEEN: fixed_from = v; break;
		case O_FIXED_BY: fixed_by = v; break;
		case O_READING:
			if (!ck_reading_parse(v, &reading))
				cli_usage_error(&p, "--reading %s: give json, dyad or either", v);
			break;
		}
	}
	char **ops;
	int nops = cli_operands(&p, &ops);
	if (fixed_from || fixed_by) {
		if ((fixed_from && fixed_by) || nversions || (fixed_from && nops != 1) ||
		    (fixed_by && nops))
			cli_usage_error(&p, "give either --fixed-between V1 V2 or --fixed-by V (and no "
					"--version)");
		check_fixed(g, tree, db, fixed_from, fixed_from ? ops[0] : fixed_by, fixed_by != NULL,
			    reading, json ? CK_FIXED_JSON : ids ? CK_FIXED_IDS : CK_FIXED_TABLE);
		cli_end(&p);
		return 0;
	}
	if (nops) {
		for (size_t i = 0; i < nversions; i++)
			free(versions[i]);
		free(versions);
		cli_end(&p);
		cli_usage_error(&p, "unexpected argument '%s', inputs are options (--version V, "
				    "--git DIR, ...)", ops[0]);
	}
	cli_end(&p);
	if ((int)json + (int)openvex + (int)cdx + (int)ids > 1)
		cli_usage_error(&p, "choose one of --json, --openvex, --cyclonedx, --ids");
	if (ref && !gitdir)
		cli_usage_error(&p, "--ref needs --git TREE");
	if ((git_cache || no_git_cache) && !gitdir)
		cli_usage_error(&p, "%s needs --git TREE",
				git_cache ? "--git-cache" : "--no-git-cache");
	if (git_cache && no_git_cache)
		cli_usage_error(&p, "--git-cache and --no-git-cache exclude each other");
	if (batch && (nversions || gitdir || running || build || config || json || openvex ||
		      cdx || ids || all))
		cli_usage_error(&p, "--batch FILE lists the kernels and prints JSON Lines; it goes "
				"only with --tree/--db, --source/--arch, --reading, --fixed-in, "
				"--fail-if-affected, --strict, --max-age");
	if (no_cache && db)
		cli_usage_error(&p, "--no-cache applies to a record tree, not to --db FILE");
	bool code_only = source && !config && !running; /* needs a db with fingerprints */
	if (root && root[0] == '\0')
		root = NULL;
	if ((vo.product || vo.cpe || sbom_path || vo.role) && !openvex && !cdx)
		cli_usage_error(&p, "--product, --cpe, --sbom and --role go with --openvex or "
				"--cyclonedx");
	if (sbom_path && (vo.product || vo.cpe))
		cli_usage_error(&p, "--sbom takes the kernel's identity from the SBOM; drop "
				"--product/--cpe");

	/* normalise versions */
	struct kcve_err err = {0};
	if (sbom_path) {
		if (ck_sbom_load(&sbom, sbom_path, &err))
			die_err(&err);
		vo.sbom = &sbom;
		if (nversions > 1 || gitdir)
			cli_usage_error(&p, "--sbom binds one kernel: give at most one --version "
					"and no --git");
		if (nversions == 0 && !sbom.kversion)
			kcve_die(KCVE_E_PARSE, "the kernel component of %s has no version; pass "
				 "--version", sbom_path);
		if (nversions == 0) {
			XGROW(versions, nversions + 1, valloc);
			versions[nversions++] = xstrdup(sbom.kversion);
		}
	}
	for (size_t i = 0; i < nversions; i++) {
		char norm[64];
		if (ck_version_normalize(versions[i], norm, sizeof norm, &err) != 0)
			die_err(&err);
		free(versions[i]);
		versions[i] = xstrdup(norm);
	}
	struct running rn;
	memset(&rn, 0, sizeof rn);
	if (running) {
		running_probe(&rn, root);
		/* say what was read, so a user (and the QEMU boot test) can see the inputs used */
		fprintf(stderr, "kcve: running kernel %s (release %s), configuration %s, %zu modules loaded\n",
			rn.uname_r, rn.release, rn.config ? rn.config : "none", rn.nmodules);
		if (nversions == 0) {
			XGROW(versions, nversions + 1, valloc);
			versions[nversions++] = xstrdup(rn.release);
		}
		if (!config && rn.config)
			config = rn.config;
	}
	if (build && nversions == 0 && !gitdir) {
		char p[4096];
		struct strbuf sb = STRBUF_INIT;
		snprintf(p, sizeof p, "%s/include/config/kernel.release", build);
		char norm[64];
		if (read_line_file(p, &sb) && ck_version_normalize(sb.buf, norm, sizeof norm, &err) == 0) {
			XGROW(versions, nversions + 1, valloc);
			versions[nversions++] = xstrdup(norm);
		}
		sb_release(&sb);
	}
	if (source && nversions == 0 && !gitdir && !batch && !running) {
		char rel[64];
		if (ck_source_release(source, rel, sizeof rel, &err) != 0)
			die_err(&err);
		XGROW(versions, nversions + 1, valloc);
		versions[nversions++] = xstrdup(rel);
	}
	if (nversions == 0 && !gitdir && !batch)
		kcve_die(KCVE_E_USAGE, "nothing to check: give --version, --git, --running or --build "
				       "(with include/config/kernel.release); see 'kcve check --help'");
	if (gitdir && nversions > 1)
		kcve_die(KCVE_E_USAGE, "--git checks one tree: give at most one --version with it");

	/* records */
	struct ck_set set;
	load_set(g, tree, db, !no_cache, &set);

	if (code_only && !set.fprints)
		cli_usage_error(&p, "--source needs --config FILE (or --running), or a --db built "
				"with fix fingerprints ('kcve db build --patches DIR')");
	if (batch)
		return check_batch(&set, batch, source, arch, fixed_in, reading, fail, strict, max_age,
				   g);

	/* coverage: the newest release per branch the records name (one scan), the records' age */
	struct ck_cov_index covix;
	ck_cov_index_build(&covix, &set);
	long long now = (long long)store_now();
	struct ck_coverage age;
	bool has_age = ck_coverage_age(&set, now, max_age, &age);

	/* file stages are opened once and applied to every checked kernel */
	struct ck_files *cf = NULL, *bf = NULL;
	if (config) {
		bool gz = running && config == rn.config ? rn.config_gz : false;
		size_t cl = strlen(config);
		if (cl > 3 && strcmp(config + cl - 3, ".gz") == 0)
			gz = true;
		if (running && !source && !set.nconds && config == rn.config)
			fprintf(stderr, "kcve: warning: no kernel source (--source) and the records carry no "
					"file conditions (build the db with --source); configuration stage skipped\n");
		else if (ck_files_open_config(&cf, config, gz, source, arch, &set, &err) != 0)
			die_err(&err);
	}
	if (build && ck_files_open_build(&bf, build, &err) != 0)
		die_err(&err);
#ifndef KCVE_NO_GIT
	struct ck_git *gt = NULL;
	char glabel[128];
	if (gitdir) {
		if (ck_git_open(&gt, gitdir, ref, git_cache, !no_git_cache, &err) != 0)
			die_err(&err);
		snprintf(glabel, sizeof glabel, "git:%s@%s", gitdir, ref ? ref : "HEAD");
		if (g->verbose)
			fprintf(stderr, "kcve: %zu commits (%zu read, %zu from the scan cache), %zu "
				"upstream references in %s\n", ck_git_commit_count(gt),
				ck_git_read_count(gt), ck_git_cached_count(gt),
				ck_git_reference_count(gt), glabel);
	}
#endif

	/* One result per checked kernel.  --ids streams (print and free each result), so that
	 * checking hundreds of releases in one run stays small. */
	size_t nres = gitdir ? 1 : nversions;
	set.compile_once = nres == 1 && !fixed_in;
	struct ck_result *res = xcalloc(nres, sizeof *res);
	struct ck_out_opts o = {.all = all, .fixed_in = fixed_in, .color = cli_use_color(stdout)};
	bool any = false, gaps = false;
	if (has_age)
		fprintf(stderr, "kcve: warning: %s\n", age.message);
	for (size_t i = 0; i < nres; i++) {
		struct ck_result *R = &res[i];
#ifndef KCVE_NO_GIT
		if (gt)
			ck_run_git(&set, gt, glabel, nversions ? versions[0] : NULL, R);
		else
#endif
			ck_run_version(&set, versions[i], reading, R);
		if (R->release[0])
			R->ncov = ck_coverage_of(&covix, &set, R->release, now, R->cov, CK_COV_MAX - 1);
		for (size_t w = 0; w < R->ncov; w++)
			fprintf(stderr, "kcve: warning: %s\n", R->cov[w].message);
		if (has_age) /* said once on stderr, before the results; in every result's JSON */
			R->cov[R->ncov++] = age;
		for (size_t w = 0; w < R->ncov; w++)
			gaps |= ck_coverage_strict(&R->cov[w]);
		if (cf)
			ck_run_files(&set, R, "config", ck_files_verdict, cf);
		if (bf)
			ck_run_files(&set, R, "build", ck_files_verdict, bf);
		if (source && set.fprints && ck_run_code(&set, R, source, &err) != 0)
			die_err(&err);
		if (running)
			for (size_t k = 0; k < R->n; k++) {
				struct ck_entry *e = &R->e[k];
				if (ck_outcome_kept(e->outcome))
					e->module = module_state(&rn, cf, &set, &set.v[e->rec]);
			}
		if (fixed_in)
			ck_compute_fixed_in(&set, R);
		for (size_t k = 0; k < R->n; k++)
			if (R->e[k].outcome == CK_OUT_AFFECTED)
				any = true;
		if (ids) {
			ck_print_ids(stdout, &set, R, 1);
			ck_result_release(R);
		}
	}
#ifndef KCVE_NO_GIT
	ck_git_close(gt);
#endif
	ck_files_close(cf);
	ck_files_close(bf);
	ck_cov_index_release(&covix);

	if (json)
		ck_print_json(stdout, &set, res, nres, &o);
	else if (openvex || cdx) {
		vo.all = all;
		if (openvex)
			ck_print_openvex(stdout, &set, res, nres, &vo);
		else
			ck_print_cyclonedx(stdout, &set, res, nres, &vo);
	}
	else if (!ids)
		ck_print_table(stdout, &set, res, nres, &o);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the result to standard output");

	for (size_t i = 0; i < nres; i++)
		ck_result_release(&res[i]);
	free(res);
	ck_set_release(&set);
	for (size_t i = 0; i < nversions; i++)
		free(versions[i]);
	free(versions);
	for (size_t i = 0; i < rn.nmodules; i++)
		free(rn.modules[i]);
	free(rn.modules);
	free(rn.config);
	if (vo.sbom)
		ck_sbom_release(&sbom);
	if (fail && any)
		return KCVE_E_VULNERABLE;
	return strict && gaps ? KCVE_E_COVERAGE : 0;
}
