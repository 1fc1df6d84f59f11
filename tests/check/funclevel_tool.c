/* Test driver of the function-level stage (check/stages/funclevel.h) on patches and trees without
 * history: for each DIR/CVE-*.patch (a unified diff), the functions it changes are read from
 * the files of the tree before the fix (--old) and after (--new), and decided against an
 * image's symbols (--build DIR, --system-map FILE or --running ROOT RELEASE).
 * Output, one line per CVE: CVE <TAB> verdict <TAB> name:flags:added,... <TAB> reason.
 * A test tool only: the hunk positions come from the "@@ -a,b +c,d @@" headers.
 * With --source TREE instead of --old/--new: the --patches route of `kcve check --source`
 * (check/stages/functree.h), every CVE's functions read in TREE where the code stage finds its hunks,
 * whatever its code verdict (the check itself only asks for the CVEs the code leaves kept). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/stages/funclevel.h"
#include "check/stages/functree.h"
#include "check/verdict/check.h"
#include "codefix/match.h"
#include "core/fileio.h"
#include "core/xalloc.h"

struct side {
	struct fl_range *r;
	size_t n, alloc;
};

static void add_line(struct side *s, unsigned line)
{
	if (s->n && s->r[s->n - 1].last + 1 == line) {
		s->r[s->n - 1].last = line;
		return;
	}
	XGROW(s->r, s->n + 1, s->alloc);
	s->r[s->n++] = (struct fl_range){line, line};
}

static char *read_or_null(const char *tree, const char *path, size_t *len)
{
	char *p = path_join(tree, path);
	struct strbuf sb = STRBUF_INIT;
	int rc = read_file(p, &sb);
	free(p);
	if (rc != 0) {
		sb_release(&sb);
		return NULL;
	}
	*len = sb.len;
	return sb_detach(&sb);
}

static void flush_file(struct fl_fix *fx, const char *path, bool old_null, bool new_null,
		       struct side *del, struct side *add, const char *oldtree, const char *newtree)
{
	size_t ol = 0, nl = 0;
	char *o = old_null ? NULL : read_or_null(oldtree, path, &ol);
	char *n = new_null ? NULL : read_or_null(newtree, path, &nl);
	fl_fix_add_file(fx, path, o, ol, del->r, del->n, n, nl, add->r, add->n);
	free(o);
	free(n);
	del->n = add->n = 0;
}

static int read_patch(struct fl_fix *fx, const char *file, const char *oldtree, const char *newtree)
{
	FILE *f = fopen(file, "r");
	if (!f)
		return -1;
	char line[8192], path[4096] = "";
	bool old_null = false, new_null = false, in_file = false;
	unsigned ol = 0, nl = 0;
	struct side del = {0}, add = {0};
	while (fgets(line, sizeof line, f)) {
		unsigned a, b, c, d;
		if (strncmp(line, "--- ", 4) == 0 && !(ol || nl)) {
			if (in_file)
				flush_file(fx, path, old_null, new_null, &del, &add, oldtree, newtree);
			old_null = strncmp(line + 4, "/dev/null", 9) == 0;
			in_file = false;
		} else if (strncmp(line, "+++ ", 4) == 0 && !(ol || nl)) {
			new_null = strncmp(line + 4, "/dev/null", 9) == 0;
			const char *p = line + 4;
			if (strncmp(p, "b/", 2) == 0)
				p += 2;
			snprintf(path, sizeof path, "%.*s", (int)strcspn(p, "\t\n"), p);
			in_file = true;
		} else if (sscanf(line, "@@ -%u,%u +%u,%u @@", &a, &b, &c, &d) == 4) {
			ol = a;
			nl = c;
		} else if (in_file && (ol || nl) && (line[0] == ' ' || line[0] == '-' || line[0] == '+')) {
			bool blank = strspn(line + 1, " \t\r\n") == strlen(line + 1);
			if (line[0] == '-' && !blank)
				add_line(&del, ol);
			if (line[0] == '+' && !blank)
				add_line(&add, nl);
			ol += line[0] != '+';
			nl += line[0] != '-';
		} else {
			ol = nl = 0; /* end of the hunks */
		}
	}
	if (in_file)
		flush_file(fx, path, old_null, new_null, &del, &add, oldtree, newtree);
	fclose(f);
	free(del.r);
	free(add.r);
	return 0;
}

static void one(const char *dir, const char *name, const char *oldtree, const char *newtree,
		const struct ksyms *k)
{
	char file[4096];
	snprintf(file, sizeof file, "%s/%s", dir, name);
	struct fl_fix fx = {0};
	if (read_patch(&fx, file, oldtree, newtree) != 0) {
		fprintf(stderr, "funclevel_tool: cannot read %s\n", file);
		exit(1);
	}
	struct strbuf why = STRBUF_INIT;
	enum fl_verdict v = fl_decide(&fx, k, NULL, NULL, &why);
	printf("%.*s\t%s\t", (int)strcspn(name, "."), name, fl_verdict_name(v));
	for (size_t i = 0; i < fx.n; i++)
		printf("%s%s:%u:%d", i ? "," : "", fx.fn[i].name, fx.fn[i].flags, fx.fn[i].added);
	printf("\t%s\n", sb_str(&why));
	sb_release(&why);
	fl_fix_release(&fx);
}

/* The --patches route over every CVE of the list (names: CVE-*.patch in dir). */
static void tree_route(const char *dir, char **names, size_t n, const char *source,
		       const struct ksyms *k)
{
	struct cf_set cs;
	cf_set_init(&cs);
	struct kcve_err err = {0};
	for (size_t j = 0; j < n; j++) {
		char file[4096];
		snprintf(file, sizeof file, "%s/%s", dir, names[j]);
		struct cf_patch p;
		if (cf_patch_read(&p, file, &err) != 0) {
			fprintf(stderr, "funclevel_tool: %s\n", err.msg);
			exit(1);
		}
		names[j][strcspn(names[j], ".")] = '\0';
		cf_set_add_patch(&cs, names[j], "patch", &p);
		cf_patch_release(&p);
	}
	cf_set_sort(&cs);
	struct cf_result *r = xcalloc(cs.n + 1, sizeof *r);
	if (cf_check_tree(&cs, source, NULL, r, &err) != 0) {
		fprintf(stderr, "funclevel_tool: %s\n", err.msg);
		exit(1);
	}
	for (size_t i = 0; i < cs.n; i++) {
		struct ck_code code = {true, r[i].verdict, r[i].hunks, r[i].found, r[i].label,
				       r[i].ev, r[i].nev};
		struct fl_fix fx = {0};
		struct strbuf why = STRBUF_INIT;
		enum fl_verdict v = FL_UNDECIDED;
		if (ck_fix_funcs_tree(source, &cs, &cs.v[i], &code, &fx))
			v = fl_decide(&fx, k, NULL, NULL, &why);
		printf("%s\t%s\t", cs.v[i].cve, fl_verdict_name(v));
		for (size_t f = 0; f < fx.n; f++)
			printf("%s%s:%u:%d", f ? "," : "", fx.fn[f].name, fx.fn[f].flags, fx.fn[f].added);
		printf("\t%s [code %s; hunks: %u placed, %u by header]\n", sb_str(&why),
		       cf_verdict_name(r[i].verdict), fx.from_place, fx.from_header);
		sb_release(&why);
		fl_fix_release(&fx);
		cf_result_release(&r[i]);
	}
	free(r);
	cf_set_release(&cs);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	const char *patches = NULL, *oldtree = NULL, *newtree = NULL, *source = NULL;
	struct ksyms k = {0};
	struct kcve_err err = {0};
	int rc = 1, i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "--build") == 0)
			rc = ksyms_open_build(&k, argv[i + 1], &err);
		else if (strcmp(argv[i], "--system-map") == 0)
			rc = ksyms_open_system_map(&k, argv[i + 1], &err);
		else if (strcmp(argv[i], "--running") == 0 && i + 2 < argc)
			rc = ksyms_open_running(&k, argv[i + 1], argv[i + 2], &err), i++;
		else if (strcmp(argv[i], "--patches") == 0)
			patches = argv[i + 1];
		else if (strcmp(argv[i], "--old") == 0)
			oldtree = argv[i + 1];
		else if (strcmp(argv[i], "--new") == 0)
			newtree = argv[i + 1];
		else if (strcmp(argv[i], "--source") == 0)
			source = argv[i + 1];
		if (rc < 0) {
			fprintf(stderr, "funclevel_tool: %s\n", err.msg);
			return 2;
		}
	}
	if (rc != 0 || !patches || (!source && (!oldtree || !newtree))) {
		fprintf(stderr, "usage: funclevel_tool (--build D | --system-map F | --running ROOT REL) "
				"--patches D (--old T --new T | --source T) [CVE.patch...]\n");
		return 2;
	}
	fprintf(stderr, "funclevel_tool: %zu symbols: %s\n", strset_count(&k.names), k.desc);
	char **names = NULL;
	size_t n = 0, alloc = 0;
	if (i < argc) {
		for (; i < argc; i++) {
			XGROW(names, n + 1, alloc);
			names[n++] = xstrdup(argv[i]);
		}
	} else {
		DIR *d = opendir(patches);
		for (struct dirent *de; d && (de = readdir(d));)
			if (strncmp(de->d_name, "CVE-", 4) == 0) {
				XGROW(names, n + 1, alloc);
				names[n++] = xstrdup(de->d_name);
			}
		if (d)
			closedir(d);
	}
	qsort(names, n, sizeof *names, cmp);
	if (source)
		tree_route(patches, names, n, source, &k);
	for (size_t j = 0; j < n && !source; j++) {
		one(patches, names[j], oldtree, newtree, &k);
	}
	for (size_t j = 0; j < n; j++)
		free(names[j]);
	free(names);
	ksyms_free(&k);
	return 0;
}
