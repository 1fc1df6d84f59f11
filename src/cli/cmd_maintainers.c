/* kcve maintainers: which MAINTAINERS sections (and people) cover files of a kernel tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "maintainers/getmaint.h"
#include "maintainers/maintainers.h"

enum { O_ROOT = CLI_LONG, O_MAINTAINERS, O_EMAILS, O_EACH, O_NOKEYWORDS, O_NOL };
static const struct cli_option opts[] = {
	{"file", 'f', false},           {"root", O_ROOT, true},     {"maintainers", O_MAINTAINERS, true},
	{"emails", O_EMAILS, false},    {"each", O_EACH, false},    {"nokeywords", O_NOKEYWORDS, false},
	{"nol", O_NOL, false},          {NULL, 0, false}};
static const struct cli_command maintainers_cmd = {
	"maintainers",
	"[-f] [--root DIR] [--maintainers FILE] [--emails [--each]] [--nokeywords] [--nol]\n"
	"FILE...",

	"Print the MAINTAINERS sections covering each FILE (most specific first) with their\n"
	"S:/M:/R:/L: lines, matched with scripts/get_maintainer.pl's rules.\n\n"
	"  --root DIR         kernel source tree (default: --repo, else .); FILEs are relative to it\n"
	"  --maintainers FILE MAINTAINERS to read (default: DIR/MAINTAINERS)\n"
	"  --emails           print the address list of `get_maintainer.pl --nogit\n"
	"                     --nogit-fallback --norolestats -f FILE...` instead\n"
	"  --each             with --emails: one list per FILE, each after a line '=== FILE'\n"
	"  --nokeywords       do not match K: patterns against file contents\n"
	"  --nol              leave mailing lists out of --emails\n"
	"  -f, --file         accepted for get_maintainer.pl compatibility (arguments are files)\n",
	opts, false};

static void print_sections(const struct maintainers *m, const char *file)
{
	struct mnt_hit *hits;
	size_t n = maintainers_match(m, file, &hits);
	printf("%s:\n", file);
	if (!n)
		printf("  (no section)\n");
	for (size_t i = 0; i < n; i++) {
		const struct mnt_section *s = &m->sec[hits[i].section];
		printf("  %s [depth %d, S: %s]\n", s->name, hits[i].depth,
		       s->status ? s->status : "-");
		for (size_t k = s->start + 1; k < s->end; k++) {
			char t = m->tv[k].tag;
			if (t == 'M' || t == 'R' || t == 'L')
				printf("    %c: %s\n", t, m->tv[k].value);
		}
	}
	free(hits);
}

int cmd_maintainers(int argc, char **argv, struct kcve_global *g)
{
	const char *root = NULL, *mfile = NULL;
	bool emails = false, each = false;
	struct gm_opts o = {.keywords = true};
	struct cli_parser p;
	cli_begin(&p, &maintainers_cmd, argc, argv, g);
	for (int c; (c = cli_next(&p)) != -1;) {
		switch (c) {
		case O_ROOT: root = p.arg; break;
		case O_MAINTAINERS: mfile = p.arg; break;
		case O_EMAILS: emails = true; break;
		case O_EACH: each = true; break;
		case O_NOKEYWORDS: o.keywords = false; break;
		case O_NOL: o.no_lists = true; break;
		}
	}
	char **ops;
	int nops = cli_done(&p, &ops, 1, -1, "at least one FILE of the kernel tree");
	if (!root)
		root = g->repo ? g->repo : ".";
	char *mpath = mfile ? xstrdup(mfile) : path_join(root, "MAINTAINERS");
	struct maintainers *m;
	struct kcve_err err = {0};
	if (maintainers_load(&m, mpath, root, &err))
		kcve_die(err.code, "%s, kcve maintainers, pass --root KERNEL_TREE or --maintainers FILE", err.msg);
	if (m->nbad)
		kcve_warn("%zu F:/X:/N:/K: patterns in %s are not valid regexes and never match", m->nbad, mpath);
	free(mpath);
	o.root = root;
	size_t nf = (size_t)nops;
	char **files = xmalloc(nf * sizeof(*files));
	for (size_t k = 0; k < nf; k++)
		files[k] = mnt_file_arg(root, ops[k]);
	if (emails && each) {
		for (size_t k = 0; k < nf; k++) {
			struct gm_result r = {0};
			gm_run(m, (const char *const *)&files[k], 1, &o, &r);
			printf("=== %s\n", files[k]);
			for (size_t j = 0; j < r.n; j++)
				printf("%s\n", r.v[j].text);
			gm_result_release(&r);
		}
	} else if (emails) {
		struct gm_result r = {0};
		gm_run(m, (const char *const *)files, nf, &o, &r);
		for (size_t j = 0; j < r.n; j++)
			printf("%s\n", r.v[j].text);
		gm_result_release(&r);
	} else {
		for (size_t k = 0; k < nf; k++)
			print_sections(m, files[k]);
	}
	for (size_t k = 0; k < nf; k++)
		free(files[k]);
	free(files);
	maintainers_free(m);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the result, standard output, check the output destination");
	return 0;
}
