/* kcve cvss: score a CVSS v3.1 vector, write a CVE's .cvss file, validate .cvss files
 * (docs/spec/tree.md ".cvss files"). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_report.h"
#include "cli_store.h"
#include "core/cveid.h"
#include "core/error.h"
#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "record/cvss.h"
#include "record/cvss_file.h"
#include "record/json_writer.h"
#include "record/record.h"
#include "record/render.h"
#include "store/ops.h"
#include "store/tree.h"
#include "core/kjson.h"
#include "core/text.h"

struct cvss_args {
	const char *vector_only, *rationale, *cna_id;
	bool json, check, canonical;
};
static const struct cli_option opts[] = {
	CLI_OPT_STRING("rationale", struct cvss_args, rationale, "FILE|-",
		       "the rationale to write with the vector ('-' = stdin)"),
	CLI_OPT_STRING("vector-only", struct cvss_args, vector_only, "VECTOR",
		       "just print score, severity and canonical vector"),
	CLI_OPT_FLAG("check", struct cvss_args, check,
		     "validate .cvss files (the PATH operands; default: every one under the\n"
		     "tree's cve/); failures are listed on stdout, exit status 13"),
	CLI_OPT_FLAG("canonical", struct cvss_args, canonical,
		     "with --check: also require the canonical byte layout"),
	CLI_OPT_STRING("cna-id", struct cvss_args, cna_id, "ID",
		       "CNA org id for the header (default scripts/linux.uuid)"),
	CLI_OPT_FLAG("json", struct cvss_args, json,
		     "machine-readable output: {\"cveId\", \"score\", \"severity\",\n"
		     "\"vectorString\", \"path\", \"rationale\"}; with --check\n"
		     "{\"checked\", \"with_rationale\", \"bad\": [{\"file\", \"error\"}]}"),
	CLI_OPT_END};
static const struct cli_command cvss_cmd = {
	"cvss",
	"CVE-YYYY-NNNNN VECTOR [--rationale FILE|-] [--cna-id ID] [--json]\n"
	"--vector-only VECTOR [--json]\n"
	"--check [--canonical] [--json] [PATH...]",
	"Score a CVSS:3.1 base vector (canonical order AV/AC/PR/UI/S/C/I/A, the spec's\n"
	"Roundup) and write it with its rationale to the CVE's .cvss file beside its .sha1\n"
	"in the record tree (--tree / $KCVE_TREE, else found upward from here). Without\n"
	"--rationale an existing rationale is kept, but only if it still matches the vector.\n"
	"A rationale is per metric (\"AV:L - why ...\" for all 8 metrics in vector order) or\n"
	"free prose; its published form may not exceed 4096 characters.\n"
	"Output: CVE  SCORE  SEVERITY  VECTOR\n",
	opts, false};

static void print_result(const char *cve, const struct cvss_vector *v, const char *path,
			 const struct cvss_rationale *rat, bool json)
{
	char vec[CVSS_VECTOR_MAX], score[32];
	double s = cvss_score(v);
	cvss_vector_format(v, vec);
	if (!json) {
		text_snprintf(score, sizeof(score), "%.1f", s);
		if (cve)
			printf("%s  %s  %s  %s\n", cve, score, cvss_severity(s), vec);
		else
			printf("%s  %s  %s\n", score, cvss_severity(s), vec);
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;
	jw_init(&w, &sb);
	jw_begin_object(&w);
	if (cve)
		jw_kv_string(&w, "cveId", cve);
	jw_key(&w, "score");
	jw_double(&w, s);
	jw_kv_string(&w, "severity", cvss_severity(s));
	jw_kv_string(&w, "vectorString", vec);
	if (path)
		jw_kv_string(&w, "path", path);
	if (rat && rat->kind != CVSS_RAT_NONE) {
		struct strbuf r = STRBUF_INIT;
		cvss_rationale_scenario(rat, &r);
		jw_key(&w, "rationale");
		jw_string_n(&w, r.buf, r.len);
		sb_release(&r);
	}
	jw_end_object(&w);
	jw_finish(&w);
	fwrite(sb.buf, 1, sb.len, stdout);
	sb_release(&sb);
}

static int read_rationale(const char *path, struct cvss_rationale *out, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	int rc;
	if (strcmp(path, "-") == 0) {
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
			sb_add(&sb, buf, n);
		if (ferror(stdin)) {
			sb_release(&sb);
			return kcve_err_set(err, KCVE_E_IO, "cannot read the rationale from stdin");
		}
	} else if (read_file(path, &sb) < 0) {
		int e = errno;
		sb_release(&sb);
		return kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				    "cannot read rationale file %s (%s)", path, strerror(e));
	}
	struct cvss_file whole;
	struct kcve_err ignore = {0};
	if (cvss_file_parse(sb_str(&sb), sb.len, &whole, &ignore) == 0) {
		cvss_file_release(&whole);
		sb_release(&sb);
		return kcve_err_set(err, KCVE_E_PARSE,
				    "%s is a whole .cvss file, not a rationale; pass only the explanation",
				    path);
	}
	rc = cvss_rationale_parse(sb_str(&sb), sb.len, out, err);
	sb_release(&sb);
	return rc;
}

static char *read_uuid(const char *tree)
{
	char *path = path_join(tree, "scripts/linux.uuid");
	struct strbuf sb = STRBUF_INIT;
	char *id = NULL;
	if (read_file(path, &sb) == 0) {
		sb_rtrim(&sb);
		const char *s = sb_str(&sb);
		s += strspn(s, " \t\n");
		if (*s)
			id = xstrdup(s);
	}
	sb_release(&sb);
	free(path);
	return id ? id : xstrdup(RECORD_DEFAULT_ORG_UUID);
}

static int write_cvss(const char *cve, const char *vector, const char *rationale_path,
		      const char *cna_id, bool json, struct kcve_global *g)
{
	struct kcve_err err = {0};
	struct cvss_vector v;
	if (!cveid_valid(cve))
		kcve_die(KCVE_E_USAGE, "malformed CVE id '%s', expected CVE-YYYY-NNNNN", cve);
	if (cvss_vector_parse(vector, &v, &err))
		kcve_die(err.code, "%s; give a CVSS:3.1 base vector such as "
			 "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", err.msg);
	/* a writer like any other: the tree lock (the old file and the new one are read and
	 * written in one critical section) and a journaled write */
	struct cve_tree *t = cli_open_tree(g);
	const char *tree = tree_root(t);
	struct cve_entry e;
	if (tree_lock(t, &err))
		kcve_die(cli_fail(&err), "%s", err.msg);
	if (tree_find_cve(t, cve, &e) || (e.state != CVE_PUBLISHED && e.state != CVE_REJECTED))
		kcve_die(KCVE_E_NOTFOUND, "%s is not published or rejected in %s; check the id", cve, tree);
	char *path = tree_cve_path(&e, ".cvss");
	struct cvss_file f = {0};
	struct cvss_rationale rat = {0};
	int rc = 0;
	if (rationale_path) {
		rc = read_rationale(rationale_path, &rat, &err);
	} else if (path_exists(path)) {
		struct cvss_file old;
		rc = cvss_file_read(path, &old, &err);
		if (!rc) { /* keep the existing explanation */
			rat = old.rat;
			memset(&old.rat, 0, sizeof(old.rat));
			cvss_file_release(&old);
		}
	}
	if (!rc && rat.kind != CVSS_RAT_NONE && cvss_rationale_check(&rat, &v, &err)) {
		char msg[sizeof(err.msg)];
		text_snprintf(msg, sizeof(msg), "%s", err.msg);
		rc = kcve_err_set(&err, KCVE_E_PARSE, "the rationale does not describe this vector (%s); "
				  "update it along with the score with --rationale", msg);
	}
	char *id = cna_id ? xstrdup(cna_id) : read_uuid(tree);
	if (!rc) {
		cvss_file_add_header(&f, id, &v);
		f.rat = rat;
		memset(&rat, 0, sizeof(rat));
		rc = cvss_file_validate(&f, &err);
	}
	if (!rc) {
		struct strbuf sb = STRBUF_INIT;
		cvss_file_render(&f, &sb);
		rc = store_write_file(t, cve, ".cvss", sb.buf, sb.len, &err);
		sb_release(&sb);
	}
	if (rc)
		kcve_error("%s", err.msg);
	else
		print_result(cve, &v, path, &f.rat, json);
	cvss_rationale_release(&rat);
	cvss_file_release(&f);
	free(id);
	free(path);
	cve_entry_release(&e);
	tree_unlock(t);
	tree_close(t);
	return rc;
}

/* ---- --check -------------------------------------------------------------------------- */

struct check_state {
	size_t files, bad, with_rationale;
	bool canonical;
	json_t *bad_files; /* --json: [{"file", "error"}], else NULL (one line each on stdout) */
};

static void check_one(const char *path, struct check_state *st)
{
	struct cvss_file f;
	struct kcve_err err = {0};
	st->files++;
	int rc = cvss_file_read(path, &f, &err);
	bool parsed = rc == 0;
	if (!rc)
		rc = cvss_file_validate(&f, &err);
	if (!rc && st->canonical) {
		struct strbuf have = STRBUF_INIT, want = STRBUF_INIT;
		read_file(path, &have);
		cvss_file_render(&f, &want);
		if (have.len != want.len || memcmp(have.buf, want.buf, want.len) != 0)
			rc = kcve_err_set(&err, KCVE_E_PARSE, "not in canonical form (re-render differs)");
		sb_release(&have);
		sb_release(&want);
	}
	if (rc) {
		st->bad++;
		if (st->bad_files)
			json_array_append_new(st->bad_files, kj_pack("{s:o, s:o}", "file",
								       cli_json_text(path), "error",
								       cli_json_text(err.msg)));
		else
			printf("%s: %s\n", path, err.msg);
	} else if (f.rat.kind != CVSS_RAT_NONE) {
		st->with_rationale++;
	}
	if (parsed)
		cvss_file_release(&f);
}

static int walk(const char *dir, char ***list, size_t *n, size_t *alloc)
{
	DIR *d = dir_open(dir); /* inside the tree: never through a link */
	if (!d)
		return -1;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *p = path_join(dir, e->d_name);
		struct stat st;
		if (file_stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (walk(p, list, n, alloc) < 0)
				rc = -1;
			free(p);
		} else if (strlen(e->d_name) > 5 &&
			   strcmp(e->d_name + strlen(e->d_name) - 5, ".cvss") == 0) {
			XGROW(*list, *n + 1, *alloc);
			(*list)[(*n)++] = p;
		} else {
			free(p);
		}
	}
	closedir(d);
	return rc;
}

static int check(char **paths, size_t npaths, bool canonical, bool json, struct kcve_global *g)
{
	char **list = NULL;
	size_t n = 0, alloc = 0;
	struct cve_tree *t = npaths ? NULL : cli_open_tree(g);
	const char *tree = t ? tree_root(t) : NULL;
	for (size_t i = 0; i < (npaths ? npaths : 1); i++) {
		char *root = npaths ? xstrdup(paths[i]) : path_join(tree, "cve");
		if (is_dir(root)) {
			if (walk(root, &list, &n, &alloc) < 0)
				kcve_die(KCVE_E_IO, "cannot read directory tree %s; check permissions", root);
		} else if (path_exists(root)) {
			XGROW(list, n + 1, alloc);
			list[n++] = xstrdup(root);
		} else {
			kcve_die(KCVE_E_NOTFOUND, "no such file or directory %s; check the path", root);
		}
		free(root);
	}
	qsort(list, n, sizeof(*list), cmp_str);
	struct check_state st = {.canonical = canonical, .bad_files = json ? json_array() : NULL};
	for (size_t i = 0; i < n; i++) {
		check_one(list[i], &st);
		free(list[i]);
	}
	free(list);
	tree_close(t);
	if (json && cli_json_print(kj_pack("{s:I, s:I, s:o}", "checked", (json_int_t)st.files,
					     "with_rationale", (json_int_t)st.with_rationale,
					     "bad", st.bad_files)))
		return KCVE_E_IO;
	if (g->verbose || st.bad)
		fprintf(stderr, "checked %zu files, %zu with a rationale, %zu bad\n", st.files,
			st.with_rationale, st.bad);
	if (st.bad) {
		kcve_error("%zu of %zu .cvss files failed validation, see the list above; fix them "
			   "with 'kcve cvss CVE VECTOR --rationale FILE'", st.bad, st.files);
		return KCVE_E_PARSE;
	}
	return 0;
}

int cmd_cvss(int argc, char **argv, struct kcve_global *g)
{
	struct cvss_args a = {0};
	struct cli_parser p;
	cli_begin(&p, &cvss_cmd, argc, argv, g);
	cli_bind(&p, &a);
	while (cli_next(&p) != -1)
		;
	const char *vector_only = a.vector_only, *rationale = a.rationale, *cna_id = a.cna_id;
	bool json = a.json, do_check = a.check, canonical = a.canonical;
	char **pos;
	size_t npos = (size_t)cli_done(&p, &pos, 0, -1, "");
	int rc;
	if (do_check) {
		rc = check(pos, npos, canonical, json, g);
	} else if (vector_only) {
		struct cvss_vector v;
		struct kcve_err err = {0};
		if (npos)
			kcve_die(KCVE_E_USAGE, "--vector-only takes no other arguments; drop '%s'", pos[0]);
		if (cvss_vector_parse(vector_only, &v, &err))
			kcve_die(err.code, "%s; give a CVSS:3.1 base vector such as "
				 "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H", err.msg);
		print_result(NULL, &v, NULL, NULL, json);
		rc = 0;
	} else {
		if (npos != 2)
			kcve_die(KCVE_E_USAGE, "expected a CVE id and a vector; usage: kcve cvss CVE VECTOR "
					       "(or --vector-only VECTOR, or --check)");
		rc = write_cvss(pos[0], pos[1], rationale, cna_id, json, g);
	}
	return rc;
}
