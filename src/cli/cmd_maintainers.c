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

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: kcve maintainers [-f] [--root DIR] [--maintainers FILE] [--emails [--each]]\n"
	        "                        [--nokeywords] [--nol] FILE...\n\n"
	        "Print the MAINTAINERS sections covering each FILE (most specific first) with their\n"
	        "S:/M:/R:/L: lines, matched with scripts/get_maintainer.pl's rules.\n\n"
	        "  --root DIR         kernel source tree (default: --repo, else .); FILEs are relative to it\n"
	        "  --maintainers FILE MAINTAINERS to read (default: DIR/MAINTAINERS)\n"
	        "  --emails           print the address list of `get_maintainer.pl --nogit\n"
	        "                     --nogit-fallback --norolestats -f FILE...` instead\n"
	        "  --each             with --emails: one list per FILE, each after a line '=== FILE'\n"
	        "  --nokeywords       do not match K: patterns against file contents\n"
	        "  --nol              leave mailing lists out of --emails\n"
	        "  -f, --file         accepted for get_maintainer.pl compatibility (arguments are files)\n");
}

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
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "-f") == 0 || strcmp(a, "--file") == 0) {
			continue;
		} else if (strcmp(a, "--root") == 0 && i + 1 < argc) {
			root = argv[++i];
		} else if (strncmp(a, "--root=", 7) == 0) {
			root = a + 7;
		} else if (strcmp(a, "--maintainers") == 0 && i + 1 < argc) {
			mfile = argv[++i];
		} else if (strncmp(a, "--maintainers=", 14) == 0) {
			mfile = a + 14;
		} else if (strcmp(a, "--emails") == 0) {
			emails = true;
		} else if (strcmp(a, "--each") == 0) {
			each = true;
		} else if (strcmp(a, "--nokeywords") == 0) {
			o.keywords = false;
		} else if (strcmp(a, "--nol") == 0) {
			o.no_lists = true;
		} else if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (a[0] == '-' && a[1]) {
			kcve_die(KCVE_E_USAGE, "unknown or incomplete option '%s', kcve maintainers, see 'kcve maintainers --help'", a);
		} else {
			break;
		}
	}
	if (i >= argc)
		kcve_die(KCVE_E_USAGE, "no FILE given, kcve maintainers, name at least one file of the kernel tree");
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
	size_t nf = (size_t)(argc - i);
	char **files = xmalloc(nf * sizeof(*files));
	for (size_t k = 0; k < nf; k++)
		files[k] = mnt_file_arg(root, argv[i + (int)k]);
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
