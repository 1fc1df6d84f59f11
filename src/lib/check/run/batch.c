/* kcve check --batch (format and sharing rules in check/run/batch.h). */
#include "check/run/batch.h"
#include "check/stages/rank.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/emit/json.h"
#include "check/inputs/release.h"
#include "check/inputs/spdx3.h"
#include "check/run/kernel.h"
#include "check/run/pipeline.h"
#include "check/stages/codestage.h"
#include "check/stages/filelist.h"
#include "check/stages/filestage.h"
#include "check/stages/funclevel.h"
#include "check/verdict/check.h"
#include "check/verdict/verdict.h"
#include "codefix/match.h"
#include "core/assert.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "core/kjson.h"
#include "core/safefs.h"
#include "core/strmap.h"
#include "core/text.h"
#include "core/xalloc.h"
#include "record/json_writer.h"

#include <jansson.h>

struct kernel {
	size_t line;
	char *version, *files, *id; /* point into the list's buffer */
	char *syms;                 /* "system-map=FILE" or "build=DIR" (into the buffer), NULL */
	char release[64];
	int fs;                     /* index into the distinct FILES contents, -1 none */
	int sym;                    /* index into the distinct symbol sources, -1 none */
	size_t rel;                 /* index into the distinct releases */
	size_t key;                 /* index into the distinct (release, FILES) results */
	char *error;
};

struct fileset {
	const char *path;           /* first path seen with this content */
	struct strbuf content;
	int canon;                  /* index of the first fileset with the same bytes */
	struct ck_files *cf;        /* a .config */
	struct ck_filelist *fl;     /* or a per-file verdict list */
	struct ck_spdx3 *sbom;      /* or an SPDX 3 SBOM's compiled files (check/inputs/spdx3.h) */
	char sbom_release[64];      /* that SBOM's kernel release ("": none) */
	unsigned char *verdict;     /* per record file (struct filemap index), from cf or fl */
	char *error;
};

/* Every record file's path pointer -> a small index (open addressing), so that each FILES
 * input is asked once per file and the evaluations read a table: cheap, and safe to share
 * between threads (a file stage may keep per-call state). */
struct filemap {
	const char **key;
	size_t *idx;
	size_t mask, n;
};

struct table_ctx {
	const struct filemap *map;
	const unsigned char *verdict;
};

/* A line's system-map= or build=, read once for every line naming it: the image's symbols
 * (with fix fingerprints), and a build directory's compiled files, as --system-map and --build
 * give them. */
struct symsrc {
	const char *spec; /* the field as given */
	struct ksyms k;
	bool have_syms;   /* k was read */
	struct ck_files *bf;      /* build=: the build directory's .cmd files */
	unsigned char *verdict;   /* their verdict per record file (struct filemap index) */
	char *error;
};

struct batch {
	const struct ck_request *rq; /* the fleet's: each line is it with the line's inputs */
	struct ck_set *s;
	const struct ck_batch_opts *o;
	struct kernel *k;
	size_t nk;
	struct fileset *fs;
	size_t nfs;
	struct symsrc *sy;
	size_t nsy;
	const struct ck_code_reading *code; /* --source with fingerprints: read once */
	char code_release[64];      /* the release of that tree's Makefile ("": unknown): the
				     * only release its code (and functions) may decide */
	char **rels;
	size_t nrels;
	uint64_t *keys;             /* (rel * (nfs + 1) + fs + 1) * (nsy + 1) + sym + 1, sorted,
				     * distinct (key_of) */
	size_t nkeys;
	char **frag;                /* per key: the JSON members of its result */
	bool *gap;                  /* per key: the release has a coverage warning */
	bool *affected;             /* per key: a CVE applies */
	struct ck_cov_index cov;
	struct filemap map;
	size_t next_key;            /* evaluate(): next key to claim (under lock) */
	pthread_mutex_t lock;
};

static size_t ptr_hash(const void *p, size_t mask)
{
	return (size_t)(((uintptr_t)p >> 3) * 0x9E3779B97F4A7C15ULL >> 17) & mask;
}

/* The key of a (release, FILES, symbols) triple, and its parts. */
static uint64_t key_of(const struct batch *b, size_t rel, int fs, int sym)
{
	return ((uint64_t)rel * (b->nfs + 1) + (uint64_t)(fs + 1)) * (b->nsy + 1) +
	       (uint64_t)(sym + 1);
}

static size_t key_rel(const struct batch *b, uint64_t key)
{
	return (size_t)(key / (b->nsy + 1) / (b->nfs + 1));
}

static int key_fs(const struct batch *b, uint64_t key)
{
	return (int)(key / (b->nsy + 1) % (b->nfs + 1)) - 1;
}

static int key_sym(const struct batch *b, uint64_t key)
{
	return (int)(key % (b->nsy + 1)) - 1;
}

static void filemap_build(struct filemap *m, const struct ck_set *s)
{
	size_t total = 0;
	for (size_t i = 0; i < s->n; i++)
		total += s->v[i].nfiles;
	size_t cap = 16;
	while (cap < 2 * total + 2)
		cap *= 2;
	m->key = xcalloc(cap, sizeof *m->key);
	m->idx = xcalloc(cap, sizeof *m->idx);
	m->mask = cap - 1;
	m->n = 0;
	for (size_t i = 0; i < s->n; i++)
		for (size_t f = 0; f < s->v[i].nfiles; f++) {
			const char *p = s->v[i].files[f];
			size_t h = ptr_hash(p, m->mask);
			while (m->key[h] && m->key[h] != p)
				h = (h + 1) & m->mask;
			if (!m->key[h]) {
				m->key[h] = p;
				m->idx[h] = m->n++;
			}
		}
}

static enum ck_filev table_verdict(void *ctx, const char *path, const char **reason)
{
	const struct table_ctx *t = ctx;
	size_t h = ptr_hash(path, t->map->mask);
	while (t->map->key[h] && t->map->key[h] != path)
		h = (h + 1) & t->map->mask;
	if (reason)
		*reason = NULL; /* batch output lists CVE ids, not reasons */
	return t->map->key[h] ? (enum ck_filev)t->verdict[t->map->idx[h]] : CK_FILE_UNKNOWN;
}

/* Ask a file input about every record file once. */
static unsigned char *verdict_table(const struct filemap *m, ck_file_fn fn, void *ctx)
{
	unsigned char *t = xcalloc(m->n + 1, 1);
	for (size_t h = 0; h <= m->mask; h++)
		if (m->key[h])
			t[m->idx[h]] = (unsigned char)fn(ctx, m->key[h], NULL);
	return t;
}

static void fill_verdicts(struct fileset *f, const struct filemap *m)
{
	if (f->cf)
		f->verdict = verdict_table(m, ck_files_verdict, f->cf);
	else if (f->sbom && f->sbom->have_files)
		f->verdict = verdict_table(m, ck_sbom_files_verdict, f->sbom);
	else if (f->fl)
		f->verdict = verdict_table(m, ck_filelist_verdict, f->fl);
}

/* What a FILES input is (check/run/kernel.h): a .config or an SBOM's configuration, an SBOM's
 * compiled files, a per-file verdict list; none when an SBOM's configuration was skipped. */
static enum ck_input_kind fileset_kind(const struct fileset *f)
{
	return f->cf ? CK_IN_CONFIG : f->sbom ? (f->sbom->have_files ? CK_IN_SBOM : CK_IN_NONE)
		     : f->fl ? CK_IN_LIST : CK_IN_NONE;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char *next_field(char **p)
{
	while (blank(**p))
		(*p)++;
	if (!**p)
		return NULL;
	char *f = *p;
	while (**p && !blank(**p))
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return f;
}

/* A field naming the kernel image's symbols: "system-map=FILE" or "build=DIR". */
static bool syms_field(const char *f)
{
	return !strncmp(f, "system-map=", 11) || !strncmp(f, "build=", 6);
}

/* The fields after VERSION: FILES and ID in this order, a symbols field anywhere. */
static void parse_fields(struct kernel *k, char **p)
{
	size_t pos = 0;
	for (char *f; (f = next_field(p)) && !k->error;) {
		if (syms_field(f) && !k->syms)
			k->syms = f;
		else if (syms_field(f))
			k->error = xstrdup("two symbol sources: give one system-map= or build=");
		else if (pos++ == 0)
			k->files = strcmp(f, "-") ? f : NULL;
		else if (pos == 2)
			k->id = f;
		else
			k->error = xstrdup("too many fields: expected VERSION [FILES [ID]]");
	}
}

static void parse_list(struct batch *b, char *buf)
{
	size_t alloc = 0, lineno = 0;
	for (char *line = buf; line;) {
		char *eol = strchr(line, '\n');
		if (eol)
			*eol = '\0';
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *p = line;
		char *v = next_field(&p);
		if (v) {
			XGROW(b->k, b->nk + 1, alloc);
			struct kernel *k = &b->k[b->nk++];
			memset(k, 0, sizeof *k);
			k->line = lineno;
			k->version = v;
			k->fs = k->sym = -1;
			parse_fields(k, &p);
		}
		line = eol ? eol + 1 : NULL;
	}
}

/* Sort v and drop repeated strings; returns the new count. */
static size_t sort_unique(char **v, size_t n)
{
	if (n)
		qsort(v, n, sizeof *v, cmp_str);
	size_t u = 0;
	for (size_t i = 0; i < n; i++)
		if (!u || strcmp(v[u - 1], v[i]))
			v[u++] = v[i];
	return u;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* An SPDX 3 SBOM as FILES: its compiled files (exact), else its kernel configuration. */
static void open_sbom(struct batch *b, struct fileset *f)
{
	struct kcve_err err = {0};
	f->sbom = xcalloc(1, sizeof *f->sbom);
	ck_spdx3_init(f->sbom);
	char *shown = safe_printable(f->path);
	int rc = ck_spdx3_add_text(f->sbom, f->content.buf, f->content.len, shown, &err);
	if (rc == 0)
		rc = ck_spdx3_finish(f->sbom, &err);
	if (rc == 0 && f->sbom->kversion &&
	    ck_version_normalize(f->sbom->kversion, f->sbom_release, sizeof f->sbom_release, &err))
		rc = err.code;
	if (rc == 0 && !f->sbom->have_files && f->sbom->config) /* as --sbom opens it */
		rc = ck_open_sbom_config(&f->cf, f->sbom, shown, b->rq, b->o->diag, &err);
	else if (rc == 0 && !f->sbom->have_files)
		rc = kcve_err_set(&err, KCVE_E_PARSE, "the SBOM %s lists no compiled files and no "
				  "kernel configuration%s%s", shown, f->sbom->warning[0] ? ": " : "",
				  f->sbom->warning);
	if (rc == 0 && f->sbom->warning[0]) /* as --sbom says it: once per SBOM */
		diag_warn(b->o->diag, "%s: %s", shown, f->sbom->warning);
	free(shown);
	if (rc)
		f->error = xstrdup(err.msg);
}

static bool looks_like_json(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return *s == '{';
}

/* Distinct FILES paths, read once each, then merged by content. */
static void load_files(struct batch *b)
{
	char **paths = xcalloc(b->nk + 1, sizeof *paths);
	size_t np = 0;
	for (size_t i = 0; i < b->nk; i++)
		if (b->k[i].files && !b->k[i].error)
			paths[np++] = b->k[i].files;
	size_t u = sort_unique(paths, np);
	b->nfs = u;
	b->fs = xcalloc(u + 1, sizeof *b->fs);
	for (size_t i = 0; i < u; i++) {
		struct fileset *f = &b->fs[i];
		f->path = paths[i];
		f->canon = (int)i;
		if (read_file(f->path, &f->content) < 0) {
			char msg[256];
			text_snprintf(msg, sizeof msg, "cannot read %s (%s)", f->path, strerror(errno));
			f->error = xstrdup(msg);
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			const struct fileset *g = &b->fs[j];
			if (!g->error && g->canon == (int)j && g->content.len == f->content.len &&
			    !memcmp(g->content.buf, f->content.buf, f->content.len)) {
				f->canon = (int)j;
				break;
			}
		}
		if (f->canon != (int)i)
			continue;
		size_t l = strlen(f->path);
		bool gz = l > 3 && !strcmp(f->path + l - 3, ".gz");
		struct kcve_err err = {0};
		if (!gz && looks_like_json(sb_str(&f->content)))
			open_sbom(b, f);
		else if (!gz && ck_filelist_looks(sb_str(&f->content)))
			f->fl = ck_filelist_parse(f->content.buf, f->content.len, &f->error);
		else if (ck_files_open_config(&f->cf, f->path, gz, b->rq->source, b->rq->arch, b->s,
					      &err) != 0)
			f->error = xstrdup(err.msg);
		if (!f->error)
			fill_verdicts(f, &b->map);
	}
	for (size_t i = 0; i < b->nk; i++) {
		struct kernel *k = &b->k[i];
		if (!k->files || k->error)
			continue;
		char **hit = bsearch(&k->files, paths, u, sizeof *paths, cmp_str);
		const struct fileset *f = &b->fs[hit - paths];
		k->fs = f->canon;
		if (f->error || b->fs[f->canon].error)
			k->error = xstrdup(f->error ? f->error : b->fs[f->canon].error);
	}
	free(paths);
}

static int cmp_spec(const void *a, const void *b)
{
	return strcmp(((const struct symsrc *)a)->spec, ((const struct symsrc *)b)->spec);
}

/* Distinct system-map= and build= fields, each read once, as a single check reads --system-map
 * and --build (check/run/entry.c): a build directory's compiled files are its build stage;
 * the image's symbols (the function level) need fix fingerprints: a System.map without them,
 * or one that cannot be read, is the line's error, a build directory's unreadable symbols a
 * warning (the line is checked without the function level). */
static void load_syms(struct batch *b)
{
	char **specs = xcalloc(b->nk + 1, sizeof *specs);
	size_t n = 0;
	for (size_t i = 0; i < b->nk; i++)
		if (b->k[i].syms && !b->k[i].error)
			specs[n++] = b->k[i].syms;
	size_t u = sort_unique(specs, n);
	b->sy = xcalloc(u + 1, sizeof *b->sy);
	for (size_t i = 0; i < u; i++) /* sorted: found again with bsearch below */
		b->sy[i].spec = specs[i];
	b->nsy = u;
	free(specs);
	for (size_t i = 0; i < u; i++) {
		struct symsrc *y = &b->sy[i];
		struct kcve_err err = {0};
		bool map = !strncmp(y->spec, "system-map=", 11);
		const char *path = strchr(y->spec, '=') + 1;
		if (!map && ck_files_open_build(&y->bf, path, b->o->diag, &err) != 0) {
			y->error = xstrdup(err.msg);
			continue;
		}
		if (y->bf)
			y->verdict = verdict_table(&b->map, ck_files_verdict, y->bf);
		if (map && !b->s->fprints) {
			y->error = xstrdup("system-map= needs a --db holding fix fingerprints with their "
					   "functions ('kcve db build --repo LINUX.git')");
			continue;
		}
		if (!b->s->fprints)
			continue;
		if ((map ? ksyms_open_system_map(&y->k, path, &err)
			 : ksyms_open_build(&y->k, path, &err)) != 0) {
			if (map)
				y->error = xstrdup(err.msg);
			else
				diag_warn(b->o->diag, "function level skipped: %s", err.msg);
			ksyms_free(&y->k);
			continue;
		}
		y->have_syms = true;
		if (y->k.warning[0]) /* module files left out: once per symbol source */
			diag_warn(b->o->diag, "%s", y->k.warning);
	}
	for (size_t i = 0; i < b->nk; i++) {
		struct kernel *k = &b->k[i];
		if (!k->syms || k->error)
			continue;
		struct symsrc key = {.spec = k->syms};
		const struct symsrc *y = bsearch(&key, b->sy, u, sizeof *b->sy, cmp_spec);
		k->sym = (int)(y - b->sy);
		if (y->error)
			k->error = xstrdup(y->error);
	}
}

/* Distinct releases and distinct (release, FILES, symbols) keys. */
static void index_kernels(struct batch *b)
{
	char **rels = xcalloc(b->nk + 1, sizeof *rels);
	size_t nr = 0;
	for (size_t i = 0; i < b->nk; i++) {
		struct kernel *k = &b->k[i];
		struct kcve_err err = {0};
		if (k->error)
			continue;
		if (ck_version_normalize(k->version, k->release, sizeof k->release, &err) != 0) {
			k->error = xstrdup(err.msg);
			continue;
		}
		const char *sr = k->fs >= 0 ? b->fs[k->fs].sbom_release : "";
		if (*sr && strcmp(sr, k->release)) {
			char msg[256];
			snprintf(msg, sizeof msg, "version %s and the SBOM's kernel %s disagree",
				 k->release, sr);
			k->error = xstrdup(msg);
			continue;
		}
		rels[nr++] = k->release;
	}
	size_t u = sort_unique(rels, nr);
	b->rels = rels;
	b->nrels = u;
	b->keys = xcalloc(b->nk + 1, sizeof *b->keys);
	size_t nk = 0;
	for (size_t i = 0; i < b->nk; i++) {
		struct kernel *k = &b->k[i];
		if (k->error)
			continue;
		char *rp = k->release;
		char **hit = bsearch(&rp, rels, u, sizeof *rels, cmp_str);
		k->rel = (size_t)(hit - rels);
		b->keys[nk++] = key_of(b, k->rel, k->fs, k->sym);
	}
	if (nk)
		qsort(b->keys, nk, sizeof *b->keys, cmp_u64);
	size_t uk = 0;
	for (size_t i = 0; i < nk; i++)
		if (!uk || b->keys[uk - 1] != b->keys[i])
			b->keys[uk++] = b->keys[i];
	b->nkeys = uk;
	for (size_t i = 0; i < b->nk; i++) {
		struct kernel *k = &b->k[i];
		if (k->error)
			continue;
		uint64_t key = key_of(b, k->rel, k->fs, k->sym);
		uint64_t *hit = bsearch(&key, b->keys, uk, sizeof *b->keys, cmp_u64);
		k->key = (size_t)(hit - b->keys);
	}
}

/* The JSON members of one evaluated result, without the braces (the one writer:
 * check/emit/json.h); funcs: the function level ran. */
static char *fragment(const struct ck_set *s, const struct ck_result *r, bool funcs)
{
	json_t *o = ck_result_line_json(s, r, funcs);
	char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	KCVE_ASSERT(text && text[0] == '{' && text[strlen(text) - 1] == '}');
	size_t n = strlen(text);
	memmove(text, text + 1, n - 2);
	text[n - 2] = '\0';
	return text;
}

/* Evaluate the keys of one release: the pipeline's release stages once, then its kernel
 * stages for each distinct (FILES, symbols) of its lines, each kernel described by the code a
 * single check uses (check/run/kernel.h) from the line's opened inputs.  A kernel's
 * "uncovered" counts only the release's own warnings, not the records' age (the same for every
 * kernel). */
static void evaluate_release(struct batch *b, size_t first, size_t end)
{
	size_t rel = key_rel(b, b->keys[first]);
	struct ck_pipeline p = {.set = b->s, .cov = &b->cov, .now = b->rq->now,
				.age = b->o->age, .triage = b->o->triage, .diag = b->o->diag};
	/* the tree's code decides only the kernels of its release (check/run/kernel.h) */
	struct ck_opened in = {.release = b->rels[rel], .code = b->code,
			       .code_release = b->code_release};
	struct ck_kernel_scratch sc;
	struct ck_kernel k;
	ck_kernel_describe(b->rq, &in, &sc, &k);
	struct ck_result base;
	/* no stage of a batch can fail: its code stage applies a reading made before (the errors
	 * of reading the tree are ck_batch_run's) */
	struct kcve_err err = {0};
	int rc = ck_pipeline_run_scope(&p, &k, &base, CK_STAGE_RELEASE, &err);
	KCVE_ASSERT(rc == 0);
	for (size_t i = first; i < end; i++) {
		int fs = key_fs(b, b->keys[i]), sym = key_sym(b, b->keys[i]);
		struct ck_result r;
		ck_result_copy(&r, &base);
		struct table_ctx tf = {&b->map, fs >= 0 ? b->fs[fs].verdict : NULL};
		struct table_ctx tb = {&b->map, sym >= 0 ? b->sy[sym].verdict : NULL};
		in.config = in.build = (struct ck_answers){0};
		in.syms = NULL;
		enum ck_input_kind kind = fs >= 0 ? fileset_kind(&b->fs[fs]) : CK_IN_NONE;
		if (kind == CK_IN_SBOM)
			in.build = (struct ck_answers){kind, table_verdict, &tf};
		else if (kind != CK_IN_NONE)
			in.config = (struct ck_answers){kind, table_verdict, &tf};
		if (tb.verdict) /* a build directory wins over an SBOM's files */
			in.build = (struct ck_answers){CK_IN_BUILD, table_verdict, &tb};
		if (sym >= 0 && b->sy[sym].have_syms)
			in.syms = &b->sy[sym].k;
		ck_kernel_describe(b->rq, &in, &sc, &k);
		rc = ck_pipeline_run_scope(&p, &k, &r, CK_STAGE_KERNEL, &err);
		KCVE_ASSERT(rc == 0);
		b->frag[i] = fragment(b->s, &r, in.syms != NULL);
		for (size_t w = 0; w < r.ncov; w++)
			b->gap[i] |= !ck_coverage_is_age(&r.cov[w]);
		for (size_t e = 0; e < r.n; e++)
			b->affected[i] |= r.e[e].outcome == CK_OUT_AFFECTED;
		ck_result_release(&r);
	}
	ck_result_release(&base);
	(void)rc;
}

/* Workers claim one release (all its keys) at a time. */
static void *worker(void *arg)
{
	struct batch *b = arg;
	for (;;) {
		pthread_mutex_lock(&b->lock);
		size_t first = b->next_key, end = first;
		if (first < b->nkeys) {
			size_t rel = key_rel(b, b->keys[first]);
			while (end < b->nkeys && key_rel(b, b->keys[end]) == rel)
				end++;
		}
		b->next_key = end;
		pthread_mutex_unlock(&b->lock);
		if (first == end)
			return NULL;
		evaluate_release(b, first, end);
	}
}

/* Evaluate every distinct key on all cores (the record set and the verdict tables are only
 * read; each key's fragment is written by the one worker that claimed it). */
static void evaluate(struct batch *b)
{
	b->frag = xcalloc(b->nkeys + 1, sizeof *b->frag);
	b->gap = xcalloc(b->nkeys + 1, sizeof *b->gap);
	b->affected = xcalloc(b->nkeys + 1, sizeof *b->affected);
	/* The version verdict compiles each record's ranges on first use and keeps them in the
	 * record: do that for every record here, before the workers share the set. */
	struct kver any;
	ck_kver_parse(&any, "6.1");
	for (size_t i = 0; i < b->s->n; i++)
		ck_record_dyad_verdict(&b->s->v[i], &any, NULL);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t nt = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (size_t)ncpu;
	if (nt > b->nrels)
		nt = b->nrels ? b->nrels : 1;
	pthread_t th[16];
	size_t started = 0;
	pthread_mutex_init(&b->lock, NULL);
	for (size_t i = 1; i < nt; i++)
		if (pthread_create(&th[started], NULL, worker, b) == 0)
			started++;
	worker(b);
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&b->lock);
}

static void print_kernel(struct strbuf *sb, const struct batch *b, const struct kernel *k)
{
	sb_addf(sb, "{\"line\":%zu,\"id\":", k->line);
	if (k->id)
		json_escape_string(sb, k->id, strlen(k->id));
	else
		sb_adds(sb, "null");
	sb_adds(sb, ",\"version\":");
	json_escape_string(sb, k->version, strlen(k->version));
	if (k->error) {
		sb_adds(sb, ",\"error\":");
		json_escape_string(sb, k->error, strlen(k->error));
	} else {
		sb_adds(sb, ",\"release\":");
		json_escape_string(sb, k->release, strlen(k->release));
		sb_adds(sb, ",\"files\":");
		if (k->files)
			json_escape_string(sb, k->files, strlen(k->files));
		else
			sb_adds(sb, "null");
		sb_addc(sb, ',');
		sb_adds(sb, b->frag[k->key]);
	}
	sb_adds(sb, "}\n");
}

int ck_batch_run(const struct ck_request *rq, FILE *out, const struct ck_batch_opts *o,
		 struct ck_batch_stats *st, struct kcve_err *err)
{
	struct ck_set *s = rq->set;
	const char *path = rq->batch;
	memset(st, 0, sizeof *st);
	/* the code stage reads the one source tree once for every kernel */
	struct ck_code_reading code = {0};
	if (rq->source && s->fprints && ck_code_read(s, rq->source, o->diag, &code, err) != 0) {
		ck_code_reading_release(&code);
		return err->code;
	}
	struct strbuf list = STRBUF_INIT;
	/* standard input has the same cap as a named list: a fleet list is input like any other */
	int rc = strcmp(path, "-") ? read_file(path, &list)
				   : read_fd_capped(STDIN_FILENO, &list, SAFEFS_READ_MAX);
	if (rc < 0) {
		int e = errno;
		sb_release(&list);
		ck_code_reading_release(&code);
		char *shown = safe_printable(strcmp(path, "-") ? path : "(standard input)");
		kcve_err_set(err, KCVE_E_IO, "cannot read the kernel list %s (%s); give a file of at "
			     "most %zu MiB with one 'VERSION [FILES [ID]]' line per kernel", shown,
			     read_file_reason(e), (size_t)SAFEFS_READ_MAX >> 20);
		free(shown);
		return err->code;
	}
	struct batch b = {.rq = rq, .s = s, .o = o};
	parse_list(&b, list.buf ? list.buf : (char[]){""});
	filemap_build(&b.map, s);
	ck_cov_index_build(&b.cov, s);
	load_files(&b);
	load_syms(&b);
	if (code.code) {
		b.code = &code;
		struct kcve_err rerr = {0};
		char mk[64];
		if (ck_source_release(rq->source, mk, sizeof mk, &rerr) != 0 ||
		    ck_version_normalize(mk, b.code_release, sizeof b.code_release, &rerr) != 0)
			b.code_release[0] = '\0';
		text_snprintf(st->code_release, sizeof st->code_release, "%s", b.code_release);
	}
	index_kernels(&b);
	evaluate(&b);
	struct strbuf line = STRBUF_INIT;
	for (size_t i = 0; i < b.nk; i++) {
		const struct kernel *k = &b.k[i];
		sb_reset(&line);
		print_kernel(&line, &b, k);
		fwrite(line.buf, 1, line.len, out);
		if (k->error)
			st->errors++;
		else if (b.affected[k->key])
			st->affected++;
		if (!k->error && b.gap[k->key])
			st->uncovered++;
		if (!k->error && b.code && strcmp(k->release, b.code_release))
			st->code_other++;
	}
	sb_release(&line);
	st->kernels = b.nk;
	st->releases = b.nrels;
	st->evaluated = b.nkeys;
	for (size_t i = 0; i < b.nfs; i++)
		st->files += b.fs[i].canon == (int)i && !b.fs[i].error;
	rc = 0;
	if (fflush(out) != 0 || ferror(out))
		rc = kcve_err_set(err, KCVE_E_IO, "cannot write the results (%s)", strerror(errno));
	for (size_t i = 0; i < b.nkeys; i++)
		free(b.frag[i]);
	free(b.frag);
	free(b.gap);
	free(b.affected);
	ck_cov_index_release(&b.cov);
	ck_code_reading_release(&code);
	for (size_t i = 0; i < b.nsy; i++) {
		ksyms_free(&b.sy[i].k);
		ck_files_close(b.sy[i].bf);
		free(b.sy[i].verdict);
		free(b.sy[i].error);
	}
	free(b.sy);
	for (size_t i = 0; i < b.nfs; i++) {
		sb_release(&b.fs[i].content);
		ck_files_close(b.fs[i].cf);
		ck_filelist_free(b.fs[i].fl);
		if (b.fs[i].sbom)
			ck_spdx3_release(b.fs[i].sbom);
		free(b.fs[i].sbom);
		free(b.fs[i].verdict);
		free(b.fs[i].error);
	}
	free(b.fs);
	for (size_t i = 0; i < b.nk; i++)
		free(b.k[i].error);
	free(b.k);
	free(b.rels);
	free(b.keys);
	free(b.map.key);
	free(b.map.idx);
	sb_release(&list);
	return rc;
}
