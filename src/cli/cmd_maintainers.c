/* kcve maintainers: which MAINTAINERS sections (and people) cover files of a kernel tree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/xalloc.h"
#include "maintainers/getmaint.h"
#include "maintainers/maintainers.h"
#include "core/kjson.h"

struct maintainers_args {
	const char *root, *mfile;
	bool file, emails, each, nokeywords, nol, json;
};
#define FLAG(nm, field, hl) CLI_OPT_FLAG(nm, struct maintainers_args, field, hl)
static const struct cli_option opts[] = {
	CLI_OPT_STRING("root", struct maintainers_args, root, "DIR",
		       "kernel source tree (default: --repo, else .); FILEs are relative to it"),
	CLI_OPT_STRING("maintainers", struct maintainers_args, mfile, "FILE",
		       "MAINTAINERS to read (default: DIR/MAINTAINERS)"),
	FLAG("emails", emails, "print the address list of `get_maintainer.pl --nogit\n"
	     "--nogit-fallback --norolestats -f FILE...` instead"),
	FLAG("each", each, "with --emails: one list per FILE, each after a line '=== FILE'"),
	FLAG("nokeywords", nokeywords, "do not match K: patterns against file contents"),
	FLAG("nol", nol, "leave mailing lists out of --emails"),
	{.name = "file", .key = 'f', .type = CLI_FLAG, .target = offsetof(struct maintainers_args, file),
	 .help = "accepted for get_maintainer.pl compatibility (arguments are files)"},
	FLAG("json", json, "[{\"file\", \"sections\": [{\"name\", \"depth\", \"status\",\n"
	     "\"maintainers\", \"reviewers\", \"lists\"}]}]; with --emails\n"
	     "[{\"file\" (null without --each), \"addresses\": [...]}]"),
	CLI_OPT_END};
#undef FLAG
static const struct cli_command maintainers_cmd = {
	"maintainers",
	"[-f] [--root DIR] [--maintainers FILE] [--emails [--each]] [--nokeywords] [--nol]\n"
	"[--json] FILE...",

	"Print the MAINTAINERS sections covering each FILE (most specific first) with their\n"
	"S:/M:/R:/L: lines, matched with scripts/get_maintainer.pl's rules.\n",
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

static json_t *sections_json(const struct maintainers *m, const char *file)
{
	struct mnt_hit *hits;
	size_t n = maintainers_match(m, file, &hits);
	json_t *secs = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct mnt_section *s = &m->sec[hits[i].section];
		json_t *who[3] = {json_array(), json_array(), json_array()};
		for (size_t k = s->start + 1; k < s->end; k++) {
			const char *p = strchr("MRL", m->tv[k].tag);
			if (m->tv[k].tag && p)
				json_array_append_new(who[p - "MRL"], kj_str(m->tv[k].value));
		}
		json_array_append_new(secs, kj_pack("{s:s, s:i, s:o, s:o, s:o, s:o}", "name", s->name,
						      "depth", hits[i].depth, "status",
						      cli_json_str_or_null(s->status), "maintainers",
						      who[0], "reviewers", who[1], "lists", who[2]));
	}
	free(hits);
	return kj_pack("{s:s, s:o}", "file", file, "sections", secs);
}

int cmd_maintainers(int argc, char **argv, struct kcve_global *g)
{
	struct maintainers_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &maintainers_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *root = a.root, *mfile = a.mfile;
	bool emails = a.emails, each = a.each, json = a.json;
	struct gm_opts o = {.keywords = !a.nokeywords, .no_lists = a.nol};
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
	json_t *out = json ? json_array() : NULL;
	if (emails) {
		/* one address list per file with --each, else one for all the files */
		for (size_t k = 0; k < (each ? nf : 1); k++) {
			struct gm_result r = {0};
			gm_run(m, (const char *const *)(each ? &files[k] : files), each ? 1 : nf, &o, &r);
			json_t *addrs = out ? json_array() : NULL;
			if (each && !out)
				printf("=== %s\n", files[k]);
			for (size_t j = 0; j < r.n; j++)
				if (out)
					json_array_append_new(addrs, kj_str(r.v[j].text));
				else
					printf("%s\n", r.v[j].text);
			if (out)
				json_array_append_new(out, kj_pack("{s:o, s:o}", "file",
								     each ? kj_str(files[k])
									  : json_null(),
								     "addresses", addrs));
			gm_result_release(&r);
		}
	} else {
		for (size_t k = 0; k < nf; k++)
			if (out)
				json_array_append_new(out, sections_json(m, files[k]));
			else
				print_sections(m, files[k]);
	}
	for (size_t k = 0; k < nf; k++)
		free(files[k]);
	free(files);
	maintainers_free(m);
	if (out)
		return cli_json_print(out);
	if (fflush(stdout) != 0)
		kcve_die(KCVE_E_IO, "cannot write the result, standard output, check the output destination");
	return 0;
}
