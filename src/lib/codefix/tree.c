/* Checking every fingerprint against a source tree: each named file read once, hunk
 * readings combined per fingerprint and per CVE (rules in match.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "codefix/match.h"
#include "codefix/moved.h"
#include "core/diag.h"
#include "core/error.h"
#include "core/safefs.h"
#include "core/testhooks.h"
#include "core/xalloc.h"

#define W_MIN 0.2f /* a hunk of only trivial lines still counts a little */

/* One run's time for matching (match.h: CF_MATCH_SECONDS): hunks read after it are unknown. */
static int match_seconds(void)
{
	/* a test may only shorten the limit: anything else (unset, garbage, out of range) is the
	 * default */
	const char *v = getenv(KCVE_HOOK_MATCH_SECONDS);
	char *end;
	long n = v && *v ? strtol(v, &end, 10) : 0;
	if (!v || !*v || *end || n < 1 || n > CF_MATCH_SECONDS)
		return CF_MATCH_SECONDS;
	return (int)n;
}

struct budget {
	struct timespec end;
	size_t cut, total; /* hunks left unread, hunks in all */
};

static bool out_of_time(struct budget *b)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > b->end.tv_sec ||
	       (now.tv_sec == b->end.tv_sec && now.tv_nsec >= b->end.tv_nsec);
}

/* cf_match_hunk within the run's time: once it is spent, the hunk is unknown. */
static void match_hunk(const struct cf_set *s, const struct cf_hunk *h, const struct cf_src *f,
		       struct cf_hres *out, struct budget *b)
{
	if (b->cut || out_of_time(b)) {
		*out = (struct cf_hres){.state = CF_H_UNKNOWN, .weight = 1.0f, .unread = true};
		b->cut++;
		return;
	}
	cf_match_hunk(s, h, f, out);
}

void cf_result_decide(struct cf_result *r, const struct cf_hres *hr, size_t n)
{
	float wf = 0, wv = 0, wall = 0;
	bool unread = false;
	r->hunks = (uint32_t)n;
	r->found = 0;
	for (size_t i = 0; i < n; i++) {
		unread |= hr[i].unread;
		float w = hr[i].weight > W_MIN ? hr[i].weight : W_MIN;
		wall += w;
		wf += hr[i].state == CF_H_FIXED ? w : 0;
		wv += hr[i].state == CF_H_VULN ? w : 0;
		r->found += hr[i].state == CF_H_FIXED || hr[i].state == CF_H_VULN;
	}
	r->unread = unread;
	if (wf > 0 && wv > 0)
		r->verdict = CF_PARTIAL;
	else if (wf >= 1.0f && wf >= 0.5f * wall && !unread)
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

/* Index in hr of the first hunk of the fingerprint file ref names. */
static size_t hunk_at(const struct cf_set *s, const size_t *off, const struct ref *ref)
{
	size_t at = off[ref->fp];
	for (uint32_t j = 0; j < ref->file; j++)
		at += s->v[ref->fp].f[j].n;
	return at;
}

/* Read the hunks of one fingerprint file in src; true when some hunk decides there. */
static bool read_file_hunks(const struct cf_set *s, const struct cf_file *cf,
			    const struct cf_src *src, struct cf_hres *out, struct budget *b)
{
	bool decides = false;
	for (uint32_t k = 0; k < cf->n; k++) {
		match_hunk(s, &cf->h[k], src, &out[k], b);
		decides |= out[k].state == CF_H_FIXED || out[k].state == CF_H_VULN;
	}
	return decides;
}

/* refs[r..e) name a file the tree lacks (their hunks read "missing" so far): read them in the
 * tree's files of the same basename.  A fingerprint file takes the one candidate where some of
 * its hunks decide; where two candidates decide, its hunks are undecided. */
static void match_moved(const struct cf_set *s, int dirfd, struct cf_names *names,
			const struct ref *refs, size_t r, size_t e, const size_t *off,
			struct cf_hres *hr, struct budget *b)
{
	const char *cand[CF_MOVED_MAX];
	cf_names_build(names, dirfd);
	size_t nc = cf_names_find(names, refs[r].path, cand);
	if (!nc)
		return;
	uint32_t most = 0;
	for (size_t i = r; i < e; i++)
		if (s->v[refs[i].fp].f[refs[i].file].n > most)
			most = s->v[refs[i].fp].f[refs[i].file].n;
	struct cf_hres *tmp = xcalloc(most + 1, sizeof *tmp);
	uint8_t *deciding = xcalloc(e - r, 1); /* candidates deciding so far, up to 2 */
	struct strbuf text = STRBUF_INIT;
	for (size_t c = 0; c < nc; c++) {
		struct cf_src src;
		if (!load_source(dirfd, cand[c], &src, &text))
			continue;
		for (size_t i = r; i < e; i++) {
			const struct cf_file *cf = &s->v[refs[i].fp].f[refs[i].file];
			struct cf_hres *out = hr + hunk_at(s, off, &refs[i]);
			if (!read_file_hunks(s, cf, &src, tmp, b) || deciding[i - r] == 2)
				continue;
			for (uint32_t k = 0; k < cf->n; k++) {
				out[k] = tmp[k];
				out[k].moved = cand[c];
				if (deciding[i - r])
					out[k] = (struct cf_hres){.state = CF_H_UNKNOWN, .weight = tmp[k].weight};
			}
			deciding[i - r]++;
		}
		cf_src_release(&src);
	}
	sb_release(&text);
	free(deciding);
	free(tmp);
}

/* Does the tree lack path (as opposed to refusing it: a link, a special file)? */
static bool lacks(int dirfd, const char *path)
{
	struct stat st;
	return safe_relpath(path) && safe_lstat_at(dirfd, path, &st) != 0 &&
	       (errno == ENOENT || errno == ENOTDIR);
}

/* hr: every hunk's reading, fingerprint i's first at off[i], file j's hunks in order. */
static void match_files(const struct cf_set *s, int dirfd, const size_t *off, struct cf_hres *hr,
			struct cf_names *names, struct budget *b)
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
		for (size_t i = r; i < e; i++) {
			const struct cf_file *cf = &s->v[refs[i].fp].f[refs[i].file];
			size_t at = hunk_at(s, off, &refs[i]);
			for (uint32_t k = 0; k < cf->n; k++) {
				if (have)
					match_hunk(s, &cf->h[k], &src, &hr[at + k], b);
				else
					hr[at + k] = (struct cf_hres){.state = CF_H_MISSING, .weight = 1.0f};
			}
		}
		if (have)
			cf_src_release(&src);
		else if (lacks(dirfd, refs[r].path))
			match_moved(s, dirfd, names, refs, r, e, off, hr, b);
		r = e;
	}
	sb_release(&text);
	free(refs);
}

int cf_check_tree(const struct cf_set *s, const char *root, const struct kcve_diag *diag,
		  struct cf_result *out, struct kcve_err *err)
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
	struct cf_names names = {0};
	struct budget b = {.total = off[s->n]};
	clock_gettime(CLOCK_MONOTONIC, &b.end);
	int secs = match_seconds();
	b.end.tv_sec += secs;
	match_files(s, dirfd, off, hr, &names, &b);
	close(dirfd);
	if (b.cut)
		diag_warn(diag, "code matching stopped at its time limit (%d s): %zu of %zu hunks "
			  "were not read and count as undecided", secs, b.cut, b.total);
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
								 hr[at].last, hr[at].ins,
								 hr[at].moved ? xstrdup(hr[at].moved) : NULL};
		cf_result_decide(r, hr + off[i], off[i + 1] - off[i]);
	}
	cf_names_release(&names);
	free(hr);
	free(off);
	return 0;
}

size_t cf_combine(const struct cf_result *r, size_t n, struct cf_result *combined)
{
	size_t pick = 0;
	bool fixed = false, vuln = false, unread = false;
	for (size_t i = 0; i < n; i++) {
		unread |= r[i].unread;
		fixed |= r[i].verdict == CF_FIXED;
		vuln |= r[i].verdict == CF_VULNERABLE;
		if (r[i].found > r[pick].found ||
		    (r[i].verdict != CF_UNDECIDED && r[pick].verdict == CF_UNDECIDED))
			pick = i;
	}
	*combined = r[pick];
	if ((fixed && vuln) || (combined->verdict == CF_FIXED && unread))
		combined->verdict = CF_UNDECIDED;
	return pick;
}

void cf_ev_free(struct cf_ev *ev, size_t n)
{
	for (size_t i = 0; ev && i < n; i++)
		free(ev[i].moved);
	free(ev);
}

void cf_result_release(struct cf_result *r)
{
	cf_ev_free(r->ev, r->nev);
	memset(r, 0, sizeof *r);
}
