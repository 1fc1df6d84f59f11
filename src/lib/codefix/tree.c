/* Checking every fingerprint against a source tree: each named file read once, hunk
 * readings combined per fingerprint and per CVE (rules in match.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codefix/match.h"
#include "core/safefs.h"
#include "core/xalloc.h"

#define W_MIN 0.2f /* a hunk of only trivial lines still counts a little */

void cf_result_decide(struct cf_result *r, const struct cf_hres *hr, size_t n)
{
	float wf = 0, wv = 0, wall = 0;
	r->hunks = (uint32_t)n;
	r->found = 0;
	for (size_t i = 0; i < n; i++) {
		float w = hr[i].weight > W_MIN ? hr[i].weight : W_MIN;
		wall += w;
		wf += hr[i].state == CF_H_FIXED ? w : 0;
		wv += hr[i].state == CF_H_VULN ? w : 0;
		r->found += hr[i].state == CF_H_FIXED || hr[i].state == CF_H_VULN;
	}
	if (wf > 0 && wv > 0)
		r->verdict = CF_PARTIAL;
	else if (wf >= 1.0f && wf >= 0.5f * wall)
		r->verdict = CF_FIXED;
	else if (wv >= 1.0f || (wv > 0 && wv >= 0.5f * wall))
		r->verdict = CF_VULNERABLE;
	else
		r->verdict = CF_UNDECIDED;
}

struct ref {
	const char *path;
	uint32_t fp, file;
};

static int cmp_ref(const void *a, const void *b)
{
	const struct ref *x = a, *y = b;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	return x->fp != y->fp ? (x->fp < y->fp ? -1 : 1) : (x->file > y->file) - (x->file < y->file);
}

/* Read one file of the tree into f (its text into sb, kept while f is used): false when it is
 * missing or refused. */
static bool load_source(int dirfd, const char *path, struct cf_src *f, struct strbuf *sb)
{
	sb_reset(sb);
	bool ok = safe_relpath(path) && safe_read_at(dirfd, path, sb, CF_SRC_MAX) == 0;
	if (ok)
		cf_src_build(f, sb->buf, sb->len);
	return ok;
}

/* hr: every hunk's reading, fingerprint i's first at off[i], file j's hunks in order. */
static void match_files(const struct cf_set *s, int dirfd, const size_t *off, struct cf_hres *hr)
{
	size_t nref = 0;
	for (size_t i = 0; i < s->n; i++)
		nref += s->v[i].n;
	struct ref *refs = xcalloc(nref + 1, sizeof *refs);
	nref = 0;
	for (size_t i = 0; i < s->n; i++)
		for (uint32_t j = 0; j < s->v[i].n; j++)
			refs[nref++] = (struct ref){s->v[i].f[j].path, (uint32_t)i, j};
	if (nref)
		qsort(refs, nref, sizeof *refs, cmp_ref);
	struct strbuf text = STRBUF_INIT;
	for (size_t r = 0; r < nref;) {
		struct cf_src src;
		bool have = load_source(dirfd, refs[r].path, &src, &text);
		size_t e = r;
		while (e < nref && !strcmp(refs[e].path, refs[r].path))
			e++;
		for (; r < e; r++) {
			const struct cf_fp *fp = &s->v[refs[r].fp];
			size_t at = off[refs[r].fp];
			for (uint32_t j = 0; j < refs[r].file; j++)
				at += fp->f[j].n;
			const struct cf_file *cf = &fp->f[refs[r].file];
			for (uint32_t k = 0; k < cf->n; k++) {
				if (have)
					cf_match_hunk(s, cf, &cf->h[k], &src, &hr[at + k]);
				else
					hr[at + k] = (struct cf_hres){CF_H_MISSING, 0, 1.0f, 0, 0, false};
			}
		}
		if (have)
			cf_src_release(&src);
	}
	sb_release(&text);
	free(refs);
}

int cf_check_tree(const struct cf_set *s, const char *root, struct cf_result *out,
		  struct kcve_err *err)
{
	int dirfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return kcve_err_set(err, errno == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				    "cannot open source tree %s (%s); give the top directory of a "
				    "kernel source tree", root, strerror(errno));
	size_t *off = xcalloc(s->n + 1, sizeof *off);
	for (size_t i = 0; i < s->n; i++) {
		off[i + 1] = off[i];
		for (uint32_t j = 0; j < s->v[i].n; j++)
			off[i + 1] += s->v[i].f[j].n;
	}
	struct cf_hres *hr = xcalloc(off[s->n] + 1, sizeof *hr);
	match_files(s, dirfd, off, hr);
	close(dirfd);
	for (size_t i = 0; i < s->n; i++) {
		const struct cf_fp *fp = &s->v[i];
		struct cf_result *r = &out[i];
		memset(r, 0, sizeof *r);
		r->label = fp->label;
		r->ev = xcalloc(off[i + 1] - off[i] + 1, sizeof *r->ev);
		size_t at = off[i];
		for (uint32_t j = 0; j < fp->n; j++)
			for (uint32_t k = 0; k < fp->f[j].n; k++, at++)
				r->ev[r->nev++] = (struct cf_ev){fp->f[j].path, k, hr[at].state,
								 hr[at].line, hr[at].first,
								 hr[at].last, hr[at].ins};
		cf_result_decide(r, hr + off[i], off[i + 1] - off[i]);
	}
	free(hr);
	free(off);
	return 0;
}

size_t cf_combine(const struct cf_result *r, size_t n, struct cf_result *combined)
{
	size_t pick = 0;
	bool fixed = false, vuln = false;
	for (size_t i = 0; i < n; i++) {
		fixed |= r[i].verdict == CF_FIXED;
		vuln |= r[i].verdict == CF_VULNERABLE;
		if (r[i].found > r[pick].found ||
		    (r[i].verdict != CF_UNDECIDED && r[pick].verdict == CF_UNDECIDED))
			pick = i;
	}
	*combined = r[pick];
	if (fixed && vuln)
		combined->verdict = CF_UNDECIDED;
	return pick;
}

void cf_result_release(struct cf_result *r)
{
	free(r->ev);
	memset(r, 0, sizeof *r);
}
