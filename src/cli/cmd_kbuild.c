/* kcve kbuild: is a kernel source file compiled under a .config (Kbuild evaluator) or in a
 * build directory (.cmd files)?  One line per file: "path<TAB>verdict<TAB>reason". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/xalloc.h"
#include "kbuild/kbuild.h"
#include "core/fileio.h"
#include "core/kjson.h"

struct kbuild_args {
	const char *config, *source, *arch, *build, *files_from;
	bool list, stats, export, json;
};
#define A struct kbuild_args
static const struct cli_option opts[] = {
	CLI_OPT_STRING("config", A, config, "FILE",
		       "kernel .config (or a gzip-compressed one such as /proc/config.gz)"),
	CLI_OPT_STRING("source", A, source, "KSRC", "unpacked kernel source tree the config belongs to"),
	CLI_OPT_STRING("arch", A, arch, "ARCH", "arch/ directory name (default: from the config, else x86)"),
	CLI_OPT_STRING("build", A, build, "DIR",
		       "answer from a build directory's .*.cmd files instead (exact,\n"
		       "headers included)"),
	CLI_OPT_STRING("files-from", A, files_from, "FILE",
		       "read the FILE list from FILE, one per line ('-' = stdin)"),
	CLI_OPT_FLAG("list", A, list, "with --build: print every compiled source and header"),
	CLI_OPT_FLAG("stats", A, stats, "print evaluation statistics and time on stderr"),
	CLI_OPT_FLAG("export-conditions", A, export,
		     "print, for every .c of the tree, the CONFIG_ condition under\n"
		     "which it is built (config-independent; for compact databases)"),
	CLI_OPT_FLAG("json", A, json,
		     "[{\"file\", \"verdict\": \"compiled\"|\"not compiled\"|\"unknown\",\n"
		     "\"reason\"}] for the FILEs (not with --list/--export-conditions)"),
	CLI_OPT_END};
#undef A
static const struct cli_command kbuild_cmd = {
	"kbuild",
	"--config .config --source KSRC [--arch ARCH] [--json] [FILE...]\n"
	"--build BUILDDIR [--list] [--json] [FILE...]\n"
	"--config .config --source KSRC --export-conditions",
	"Say for each FILE (relative to the kernel source tree) whether it is compiled:\n"
	"  compiled / not compiled / unknown, with the reason (the makefile line, the disabled\n"
	"  CONFIG_ symbol, or why kcve cannot decide -- headers are always unknown without --build).\n",
	opts, false};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void read_list(const char *path, char ***files, size_t *n, size_t *alloc)
{
	struct strbuf sb = STRBUF_INIT; /* the bounded reader: a regular file or "-", 64 MiB */
	if (read_file(strcmp(path, "-") == 0 ? "/dev/stdin" : path, &sb) < 0)
		kcve_die(errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO, "cannot read the file list %s: %s; "
			 "give an existing file or '-'", path, read_file_reason(errno));
	char *save = NULL;
	for (char *line = strtok_r(sb.buf ? sb.buf : (char *)"", "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);
		while (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!len)
			continue;
		XGROW(*files, *n + 1, *alloc);
		(*files)[(*n)++] = xstrdup(line);
	}
	sb_release(&sb);
}

/* One file's answer: a "path<TAB>verdict<TAB>reason" line, or an element of out. */
static void answer(json_t *out, const char *file, enum kb_verdict v, const char *reason)
{
	if (out)
		json_array_append_new(out, kj_pack("{s:s, s:s, s:s}", "file", file, "verdict",
						     kb_verdict_name(v), "reason", reason));
	else { /* reason quotes makefile text: no ESC or other control reaches the terminal */
		struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
		sb_add_display(&a, file);
		sb_add_display(&b, reason);
		printf("%s\t%s\t%s\n", sb_str(&a), kb_verdict_name(v), sb_str(&b));
		sb_release(&a);
		sb_release(&b);
	}
}

int cmd_kbuild(int argc, char **argv, struct kcve_global *g)
{
	struct kbuild_args a = {0};
	char **files = NULL;
	size_t nfiles = 0, alloc = 0;
	struct cli_parser p;
	cli_begin(&p, &kbuild_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *config = a.config, *source = a.source, *arch = a.arch, *build = a.build;
	const char *files_from = a.files_from;
	bool list = a.list, stats = a.stats, export = a.export;
	json_t *out = a.json ? json_array() : NULL;
	char **ops;
	int nops = cli_done(&p, &ops, 0, -1, "");
	if (out && (list || export)) {
		json_decref(out);
		cli_usage_error(&p, "--json goes with the per-file answers, not --list or "
				"--export-conditions");
	}
	if (files_from)
		read_list(files_from, &files, &nfiles, &alloc);
	for (int i = 0; i < nops; i++) {
		XGROW(files, nfiles + 1, alloc);
		files[nfiles++] = xstrdup(ops[i]);
	}
	struct kcve_err err = {0};
	int rc = 0;
	if (build) {
		if (config || source || export)
			kcve_die(KCVE_E_USAGE, "--build cannot be combined with --config/--source/--export-conditions");
		double t0 = now();
		struct kb_build *b;
		if (kb_build_open(&b, build, NULL, &err) < 0)
			kcve_die(err.code, "%s", err.msg);
		if (stats)
			fprintf(stderr, "kbuild: %zu compiled files (sources and headers) in %.3f s\n",
				kb_build_count(b), now() - t0);
		if (list) /* paths quoted from .cmd files: shown as text */
			for (size_t i = 0; i < kb_build_count(b); i++) {
				struct strbuf p = STRBUF_INIT;
				sb_add_display(&p, kb_build_path(b, i));
				printf("%s\n", sb_str(&p));
				sb_release(&p);
			}
		for (size_t i = 0; i < nfiles; i++) {
			enum kb_verdict v = kb_build_verdict(b, files[i]);
			answer(out, files[i], v,
			       v == KB_COMPILED ? "named in the build's .cmd dependency files"
						: "not named in any .cmd file of the build");
		}
		kb_build_close(b);
		goto out;
	}
	if (!config || !source)
		kcve_die(KCVE_E_USAGE, "kcve kbuild needs --config FILE and --source KSRC (or --build DIR)");
	size_t cl = strlen(config);
	struct kb_config *cfg;
	double t0 = now();
	int r = cl > 3 && !strcmp(config + cl - 3, ".gz") ? kb_config_load_gz(&cfg, config, &err)
							   : kb_config_load(&cfg, config, &err);
	if (r < 0)
		kcve_die(err.code, "%s", err.msg);
	struct kb_tree *t;
	if (kb_tree_open(&t, source, cfg, arch, &err) < 0) {
		kb_config_free(cfg);
		kcve_die(err.code, "%s", err.msg);
	}
	if (export) {
		if (kb_tree_export_conditions(t, stdout, &err) < 0) {
			kb_tree_close(t);
			kb_config_free(cfg);
			kcve_die(err.code, "%s", err.msg);
		}
	} else {
		kb_tree_evaluate_all(t);
		double t1 = now();
		size_t counts[3] = {0};
		for (size_t i = 0; i < nfiles; i++) {
			const char *reason = NULL;
			enum kb_verdict v = kb_file_verdict(t, files[i], &reason);
			counts[v]++;
			answer(out, files[i], v, reason ? reason : "");
		}
		if (stats)
			fprintf(stderr,
				"kbuild: %zu config symbols, %zu objects; evaluation %.3f s, %zu verdicts %.3f s "
				"(%zu compiled, %zu not compiled, %zu unknown)\n",
				kb_config_count(cfg), kb_tree_object_count(t), t1 - t0, nfiles, now() - t1,
				counts[KB_COMPILED], counts[KB_NOT_COMPILED], counts[KB_UNKNOWN]);
	}
	kb_tree_close(t);
	kb_config_free(cfg);
out:
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
	if (out)
		return cli_json_print(out);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the output, check the disk or pipe");
	return rc;
}
