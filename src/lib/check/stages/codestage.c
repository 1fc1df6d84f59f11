/* The code stage (see check/stages/codestage.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/stages/codestage.h"
#include "codefix/match.h"
#include "codefix/patch.h"
#include "core/cveid.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/xalloc.h"
#include "core/kjson.h"

int ck_set_add_patches(struct ck_set *s, const char *dir, const struct kcve_diag *diag,
		       size_t *added, size_t *skipped, struct kcve_err *err)
{
	*added = *skipped = 0;
	if (!is_dir(dir))
		return kcve_err_set(err, KCVE_E_NOTFOUND, "patch directory %s not found; give the "
				    "directory holding CVE-YYYY-NNNN.patch files", dir);
	if (!s->fprints) {
		s->fprints = xcalloc(1, sizeof *s->fprints);
		cf_set_init(s->fprints);
	}
	struct strbuf name = STRBUF_INIT;
	for (size_t i = 0; i < s->n; i++) {
		sb_reset(&name);
		sb_addf(&name, "%s.patch", s->v[i].id);
		char *path = path_join(dir, name.buf);
		struct stat st;
		if (lstat(path, &st) != 0 && errno == ENOENT) { /* no patch for this record */
			free(path);
			continue;
		}
		struct cf_patch p;
		struct kcve_err perr = {0};
		if (cf_patch_read(&p, path, &perr) == 0) {
			if (cf_set_add_patch(s->fprints, s->v[i].id, "patch", &p) > 0)
				++*added;
		} else { /* one unusable patch: said, counted, and the others still read */
			++*skipped;
			diag_warn(diag, "%s left out: %s", name.buf, perr.msg);
		}
		cf_patch_release(&p);
		free(path);
	}
	sb_release(&name);
	cf_set_sort(s->fprints);
	return 0;
}

static const struct ck_set *sort_set;

static int cmp_rec_id(const void *a, const void *b)
{
	return cveid_cmp(sort_set->v[*(const size_t *)a].id, sort_set->v[*(const size_t *)b].id);
}

/* Entry index of each record id, sorted by id (records are in year/number order). */
static size_t *ids_sorted(const struct ck_set *s)
{
	size_t *ix = xcalloc(s->n + 1, sizeof *ix);
	for (size_t i = 0; i < s->n; i++)
		ix[i] = i;
	sort_set = s;
	if (s->n)
		qsort(ix, s->n, sizeof *ix, cmp_rec_id);
	sort_set = NULL;
	return ix;
}

static long find_rec(const struct ck_set *s, const size_t *ix, const char *id)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cveid_cmp(s->v[ix[mid]].id, id);
		if (!c)
			return (long)ix[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Apply one CVE's code reading to its entry. */
static void apply(struct ck_result *res, struct ck_entry *e, const struct ck_code *c)
{
	if (c->verdict == CF_UNDECIDED || e->outcome == CK_OUT_NOT_COMPILED)
		return;
	e->outcome = c->verdict == CF_FIXED ? CK_OUT_FIXED : CK_OUT_AFFECTED;
	struct strbuf sb = STRBUF_INIT;
	ck_code_text(c, &sb);
	free(e->reason);
	e->reason = sb_detach(&sb);
	e->stage = "code";
	res->ncode_decided++;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A fix's file that the tree holds as something else than a regular file (a FIFO, a device, a
 * symbolic link) is read as missing, never followed or waited on: said in one warning naming
 * the first such file and the count. */
static void warn_refused_sources(const struct cf_set *fs, const char *srcdir,
				 const struct kcve_diag *diag)
{
	int dirfd = open(srcdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return;
	size_t n = 0;
	for (size_t i = 0; i < fs->n; i++)
		n += fs->v[i].n;
	const char **paths = xcalloc(n + 1, sizeof *paths);
	n = 0;
	for (size_t i = 0; i < fs->n; i++)
		for (uint32_t j = 0; j < fs->v[i].n; j++)
			paths[n++] = fs->v[i].f[j].path;
	if (n)
		qsort(paths, n, sizeof *paths, cmp_strp);
	size_t refused = 0;
	const char *first = NULL, *why = NULL;
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(paths[i], paths[i - 1]))
			continue;
		struct stat st;
		int rc = safe_lstat_at(dirfd, paths[i], &st);
		int e = errno;
		const char *w = rc == 0 ? (S_ISREG(st.st_mode) ? NULL : S_ISLNK(st.st_mode)
					   ? "a symbolic link (not followed)" : read_file_reason(ENODEV))
				: e == ENOENT || e == ENOTDIR ? NULL : read_file_reason(e);
		if (w && refused++ == 0) {
			first = paths[i];
			why = w;
		}
	}
	close(dirfd);
	if (refused > 1)
		diag_warn(diag, "--source %s: %s is %s, read as missing; and %zu more files of the "
			  "fixes", srcdir, first, why, refused - 1);
	else if (refused)
		diag_warn(diag, "--source %s: %s is %s, read as missing", srcdir, first, why);
	free(paths);
}

int ck_code_read(const struct ck_set *s, const char *srcdir, const struct kcve_diag *diag,
		 struct ck_code_reading *out, struct kcve_err *err)
{
	const struct cf_set *fs = s->fprints;
	out->code = xcalloc(s->n + 1, sizeof *out->code);
	out->n = s->n;
	if (!is_dir(srcdir))
		return kcve_err_set(err, KCVE_E_NOTFOUND, "source tree %s not found; give the top "
				    "directory of a kernel source tree", srcdir);
	if (!fs || !fs->n)
		return 0;
	struct cf_result *r = xcalloc(fs->n + 1, sizeof *r);
	int rc = cf_check_tree(fs, srcdir, diag, r, err);
	if (rc == 0)
		warn_refused_sources(fs, srcdir, diag);
	size_t *ix = ids_sorted(s);
	for (size_t i = 0; rc == 0 && i < fs->n;) {
		size_t j = i;
		while (j < fs->n && !strcmp(fs->v[j].cve, fs->v[i].cve))
			j++;
		long rec = find_rec(s, ix, fs->v[i].cve);
		struct cf_result comb;
		size_t pick = i + cf_combine(r + i, j - i, &comb);
		if (rec >= 0) {
			out->code[rec] = (struct ck_code){true, comb.verdict, comb.hunks, comb.found,
							 comb.label, r[pick].ev, r[pick].nev};
			r[pick].ev = NULL;
		}
		i = j;
	}
	for (size_t i = 0; i < fs->n; i++)
		cf_result_release(&r[i]);
	free(r);
	free(ix);
	return rc;
}

void ck_code_reading_release(struct ck_code_reading *rd)
{
	for (size_t i = 0; rd->code && i < rd->n; i++)
		cf_ev_free(rd->code[i].ev, rd->code[i].nev);
	free(rd->code);
	memset(rd, 0, sizeof *rd);
}

void ck_code_apply(const struct ck_code_reading *rd, struct ck_result *res, bool shared)
{
	res->code = rd->code;
	res->code_shared = shared;
	for (size_t i = 0; i < res->n && i < rd->n; i++)
		if (res->e[i].rec == i && rd->code[i].checked)
			apply(res, &res->e[i], &rd->code[i]);
	ck_result_push_stage(res, "code");
}

int ck_run_code(struct ck_set *s, struct ck_result *res, const char *srcdir,
		const struct kcve_diag *diag, struct kcve_err *err)
{
	struct ck_code_reading rd;
	int rc = ck_code_read(s, srcdir, diag, &rd, err);
	ck_code_apply(&rd, res, false); /* res owns the reading */
	return rc;
}

void ck_code_text(const struct ck_code *c, struct strbuf *sb)
{
	sb_addf(sb, "code: %s, %u of %u hunks found (fix '%s')", cf_verdict_name(c->verdict),
		c->found, c->hunks, c->label ? c->label : "");
	size_t shown = 0;
	for (size_t i = 0; i < c->nev; i++) {
		const struct cf_ev *v = &c->ev[i];
		if (v->state != CF_H_FIXED && v->state != CF_H_VULN)
			continue;
		if (shown++ == 6) {
			sb_adds(sb, ", ...");
			break;
		}
		sb_addf(sb, "%s%s:%u %s", shown == 1 ? ": " : ", ", v->moved ? v->moved : v->file,
			v->line, cf_hstate_name(v->state));
	}
}

json_t *ck_code_json(const struct ck_code *c)
{
	json_t *ev = json_array();
	for (size_t i = 0; i < c->nev; i++) {
		const struct cf_ev *v = &c->ev[i];
		json_t *o = kj_pack("{s:s, s:I, s:s, s:o}", "file", v->moved ? v->moved : v->file,
				      "hunk", (json_int_t)v->hunk + 1, "state",
				      cf_hstate_name(v->state), "line",
				      v->line ? json_integer(v->line) : json_null());
		if (v->moved) /* the file read is not the one the fix named (renamed or moved) */
			json_object_set_new(o, "fingerprint_file", kj_str(v->file));
		json_array_append_new(ev, o);
	}
	return kj_pack("{s:s, s:I, s:I, s:s, s:o}", "verdict", cf_verdict_name(c->verdict),
			 "hunks", (json_int_t)c->hunks, "found", (json_int_t)c->found, "fix",
			 c->label ? c->label : "", "evidence", ev);
}
