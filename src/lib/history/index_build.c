/* Building and updating the history index. A full build of a fresh index goes through
 * index_walk.c (every commit read once, the ranges' walks replayed in memory). Updates, which
 * add a few new ranges to an existing index, run one revwalk per new tag range (push the end
 * tag, hide the start tag) on one thread; on the other, each new commit's raw object is read
 * through the odb, parsed by hand, inserted with one prepared statement inside one
 * transaction, and given its generation number once its range is complete. Both write the
 * same rows in the same order (tests/history/onepass.py; KCVE_INDEX_PER_RANGE=1 makes a full
 * build take the per-range path too). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <unistd.h>

#include "core/assert.h"
#include "core/diag.h"
#include "core/sha.h"
#include "core/strbuf.h"
#include "core/progress.h"
#include "core/testhooks.h"
#include "core/xalloc.h"
#include "history/gitguard.h"
#include "history/history_internal.h"
#include "history/trailers.h"
#include "core/text.h"

/* ---- a set of object ids (dedup across ranges within one run) ------------------------- */

struct oidset {
	git_oid *v;
	unsigned char *used;
	uint32_t *gen; /* generation number of each member (0 = not known yet) */
	size_t n, cap;
};

static size_t oid_hash(const git_oid *o)
{
	size_t h;
	memcpy(&h, o->id, sizeof h); /* object ids are uniformly distributed already */
	return h;
}

static void oidset_grow(struct oidset *s)
{
	struct oidset ns = {0};
	ns.cap = s->cap ? s->cap * 2 : 1 << 16;
	ns.v = xmalloc(ns.cap * sizeof(*ns.v));
	ns.used = xcalloc(ns.cap, 1);
	ns.gen = xcalloc(ns.cap, sizeof(*ns.gen));
	for (size_t i = 0; i < s->cap; i++) {
		if (!s->used[i])
			continue;
		size_t j = oid_hash(&s->v[i]) & (ns.cap - 1);
		while (ns.used[j])
			j = (j + 1) & (ns.cap - 1);
		ns.used[j] = 1;
		ns.v[j] = s->v[i];
		ns.gen[j] = s->gen[i];
	}
	ns.n = s->n;
	free(s->v);
	free(s->used);
	free(s->gen);
	*s = ns;
}

/* Insert; returns false if it was already there. Load factor up to 3/4: on a full build the
 * set holds every commit (1.4 M on the benchmark history), so its size counts against RSS. */
static bool oidset_add(struct oidset *s, const git_oid *o)
{
	if ((s->n + 1) * 4 > s->cap * 3)
		oidset_grow(s);
	size_t j = oid_hash(o) & (s->cap - 1);
	while (s->used[j]) {
		if (git_oid_equal(&s->v[j], o))
			return false;
		j = (j + 1) & (s->cap - 1);
	}
	s->used[j] = 1;
	s->v[j] = *o;
	s->n++;
	return true;
}

/* The generation slot of a member, NULL if o is not in the set. */
static uint32_t *oidset_gen(const struct oidset *s, const git_oid *o)
{
	if (!s->cap)
		return NULL;
	for (size_t j = oid_hash(o) & (s->cap - 1); s->used[j]; j = (j + 1) & (s->cap - 1))
		if (git_oid_equal(&s->v[j], o))
			return &s->gen[j];
	return NULL;
}

static void oidset_release(struct oidset *s)
{
	free(s->v);
	free(s->used);
	free(s->gen);
	memset(s, 0, sizeof(*s));
}

/* ---- the update itself ----------------------------------------------------------------- */

/* ---- the pipeline -------------------------------------------------------------------------
 * The walking thread (revwalk: reads and inflates every commit once for its parents) fills
 * batches of commit ids; the writer thread de-duplicates, reads and parses each new commit,
 * expands short Fixes: ids, inserts, and computes generation numbers. The two halves cost
 * about the same, so on two cores a full build takes roughly half the CPU time in wall time. */

#define BATCH_RECS 2048
#define QUEUE_DEPTH 4

struct rec {
	git_oid oid;
	int range;          /* index into the range list; -1 = end of range `end_range` */
	int end_range;
	char upstream[41], reverts[41];
	size_t par_off, npar; /* parents: bt->par[par_off .. par_off + npar) */
	size_t fixes_off, nfixes, subj_off, subj_len, author_off, author_len;
	long long author_time, commit_time;
};

struct batch {
	struct rec v[BATCH_RECS];
	size_t n;
	struct strbuf arena; /* fixes spans ("off len" pairs as text-free offsets), subjects, authors */
	size_t *spans;       /* 2 per fix: offset, length into arena */
	size_t nspans, aspans;
	git_oid *par; /* parent ids of the batch's commits */
	size_t npar, apar;
	bool last;
};

struct queue {
	pthread_mutex_t mu;
	pthread_cond_t can_put, can_get;
	struct batch *q[QUEUE_DEPTH];
	size_t head, count;
	struct batch *free_list[QUEUE_DEPTH + 2];
	size_t nfree;
	bool failed;
	size_t committed; /* commits written so far (progress) */
};

struct builder {
	struct history *h;
	const struct range_list *ranges;
	git_odb *odb;         /* the writer's own odb, for short-id lookups */
	git_repository *wrepo;
	sqlite3_stmt *ins, *rins;
	struct oidset seen;
	struct strbuf fixes, wtmp;
	/* the current range's new commits and their parents, for generation numbers */
	struct pend {
		git_oid oid;
		size_t par_off, npar;
	} *pend;
	size_t npend, apend;
	git_oid *ppar;
	size_t nppar, appar;
	sqlite3_stmt *gget, *gins; /* generations table; NULL when the index has none */
	size_t commits, ranges_done, ranges_todo, range_count;
	bool progress;
	double t0, last_progress;
	struct queue qu;
	struct kcve_err werr; /* the writer's failure */
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void show_progress(struct builder *b, bool final)
{
	double t = now_s();
	if (!b->progress || (!final && t - b->last_progress < 0.25))
		return;
	b->last_progress = t;
	pthread_mutex_lock(&b->qu.mu);
	size_t done = b->qu.committed;
	pthread_mutex_unlock(&b->qu.mu);
	double el = t - b->t0;
	progress_draw("indexing: %zu/%zu ranges, %zu commits, %.0f commits/s", b->ranges_done,
		      b->ranges_todo, done, el > 0 ? (double)done / el : 0.0);
	if (final)
		progress_newline();
}

static int sql_fail(struct builder *b, const char *what, struct kcve_err *err)
{
	return kcve_err_set(err, KCVE_E_IO, "cannot write history index %s (%s: %s), check the disk and rerun 'kcve index --rebuild'",
			    b->h->index_path, what, sqlite3_errmsg(b->h->db));
}

/* -- queue -- */

static struct batch *batch_get_free(struct builder *b)
{
	struct batch *bt = NULL;
	pthread_mutex_lock(&b->qu.mu);
	if (b->qu.nfree)
		bt = b->qu.free_list[--b->qu.nfree];
	pthread_mutex_unlock(&b->qu.mu);
	if (!bt)
		bt = xcalloc(1, sizeof(*bt));
	bt->n = 0;
	bt->nspans = 0;
	bt->npar = 0;
	bt->last = false;
	sb_reset(&bt->arena);
	return bt;
}

static void batch_free(struct batch *bt)
{
	if (!bt)
		return;
	sb_release(&bt->arena);
	free(bt->spans);
	free(bt->par);
	free(bt);
}

/* Hand a batch to the writer; false if the writer failed (stop walking). */
static bool batch_put(struct builder *b, struct batch *bt)
{
	struct queue *q = &b->qu;
	pthread_mutex_lock(&q->mu);
	while (q->count == QUEUE_DEPTH && !q->failed)
		pthread_cond_wait(&q->can_put, &q->mu);
	bool ok = !q->failed;
	if (ok) {
		q->q[(q->head + q->count) % QUEUE_DEPTH] = bt;
		q->count++;
		pthread_cond_signal(&q->can_get);
	}
	pthread_mutex_unlock(&q->mu);
	if (!ok)
		batch_free(bt);
	return ok;
}

static struct batch *batch_take(struct queue *q)
{
	pthread_mutex_lock(&q->mu);
	while (q->count == 0)
		pthread_cond_wait(&q->can_get, &q->mu);
	struct batch *bt = q->q[q->head];
	q->head = (q->head + 1) % QUEUE_DEPTH;
	q->count--;
	pthread_cond_signal(&q->can_put);
	pthread_mutex_unlock(&q->mu);
	return bt;
}

static void batch_recycle(struct queue *q, struct batch *bt, size_t committed)
{
	pthread_mutex_lock(&q->mu);
	q->committed = committed;
	if (q->nfree < QUEUE_DEPTH + 2) {
		q->free_list[q->nfree++] = bt;
		bt = NULL;
	}
	pthread_mutex_unlock(&q->mu);
	batch_free(bt);
}

/* -- writer -- */

static void add_fixes(struct builder *b, const struct batch *bt, const struct rec *r)
{
	sb_reset(&b->fixes);
	for (size_t i = 0; i < r->nfixes; i++)
		fixes_append(b->odb, NULL, bt->arena.buf + bt->spans[2 * (r->fixes_off + i)],
			     bt->spans[2 * (r->fixes_off + i) + 1], &b->fixes);
}

static void parse_into(struct batch *bt, struct rec *r, const char *data, size_t len, bool stable,
		       struct strbuf *tmp);

static int write_rec(struct builder *b, struct batch *bt, struct rec *r)
{
	const struct tag_range *tr = &b->ranges->v[r->range];
	if (!oidset_add(&b->seen, &r->oid))
		return 0; /* already stored by an earlier range of this run: not even read */
	/* The commit is read and parsed here rather than on the walking thread: the revwalk
	 * already inflates every commit once to find its parents, and the second read plus the
	 * parsing would otherwise leave the walker with ~90% of the CPU work (perf, 1.4 M-commit
	 * benchmark) while this thread idles. */
	git_odb_object *obj;
	if (git_odb_read(&obj, b->odb, &r->oid) < 0)
		return kcve_err_set(&b->werr, KCVE_E_NOREPO,
				    "cannot read commit %s from the repository (%s)", git_oid_tostr_s(&r->oid),
				    git_error_last() ? git_error_last()->message : "?");
	parse_into(bt, r, git_odb_object_data(obj), git_odb_object_size(obj), !tr->mainline, &b->wtmp);
	git_odb_object_free(obj);
	XGROW(b->pend, b->npend + 1, b->apend);
	struct pend *pe = &b->pend[b->npend++];
	pe->oid = r->oid;
	pe->par_off = b->nppar;
	pe->npar = r->npar;
	XGROW(b->ppar, b->nppar + r->npar, b->appar);
	if (r->npar) /* a root commit has none, and ppar may still be NULL */
		memcpy(b->ppar + b->nppar, bt->par + r->par_off, r->npar * sizeof(*b->ppar));
	b->nppar += r->npar;
	add_fixes(b, bt, r);
	char hex[GIT_OID_HEXSZ + 1];
	git_oid_tostr(hex, sizeof(hex), &r->oid);
	struct index_row row = {
		.id = hex, .range = tr,
		.upstream = r->upstream[0] ? r->upstream : NULL,
		.reverts = r->reverts[0] ? r->reverts : NULL,
		.fixes = b->fixes.buf, .fixes_len = b->fixes.len,
		.subject = bt->arena.buf + r->subj_off, .subject_len = r->subj_len,
		.author = bt->arena.buf + r->author_off, .author_len = r->author_len,
		.author_time = r->author_time, .commit_time = r->commit_time,
	};
	if (index_row_insert(b->ins, &row))
		return sql_fail(b, "insert", &b->werr);
	b->commits++;
	b->range_count++;
	return 0;
}

/* ---- generation numbers ---------------------------------------------------------------
 * gen(c) = 1 + max(gen(parents)), 1 for a root: if a is an ancestor of c then
 * gen(a) < gen(c), which lets dyad answer most "is A a descendant of B" questions without a
 * graph walk and bound the rest (history.c). 0 = unknown (a parent outside the index, e.g.
 * below the skipped 3.16.35 range); unknown propagates to descendants and makes dyad ask
 * libgit2 instead. A commit's generation never changes, so stored values never go stale. */

/* Generation of a commit outside the current range: this run's earlier ranges, else the
 * index (incremental runs). */
static uint32_t outer_gen(struct builder *b, const git_oid *o)
{
	const uint32_t *g = oidset_gen(&b->seen, o);
	if (g)
		return *g;
	if (!b->gget)
		return 0;
	uint32_t v = 0;
	sqlite3_bind_blob(b->gget, 1, o->id, GIT_OID_RAWSZ, SQLITE_STATIC);
	if (sqlite3_step(b->gget) == SQLITE_ROW)
		v = (uint32_t)sqlite3_column_int64(b->gget, 0);
	sqlite3_reset(b->gget);
	return v;
}

/* Compute the generations of the range's new commits (b->pend) into b->seen. Parents are
 * either in the range or in an earlier range (ranges are processed oldest first, mainline
 * before stable), so everything outside the range is already known. */
static void range_generations(struct builder *b)
{
	size_t n = b->npend, cap = 16;
	if (!n)
		return;
	while (cap < 2 * n)
		cap *= 2;
	size_t *map = xcalloc(cap, sizeof(*map)); /* pend index + 1, 0 = empty */
	for (size_t i = 0; i < n; i++) {
		size_t j = oid_hash(&b->pend[i].oid) & (cap - 1);
		while (map[j])
			j = (j + 1) & (cap - 1);
		map[j] = i + 1;
	}
	uint32_t *gen = xcalloc(n, sizeof(*gen));
	unsigned char *state = xcalloc(n, 1); /* 0 new, 1 on the stack, 2 done */
	size_t *stack = xmalloc(n * sizeof(*stack)), sp = 0;
	for (size_t root = 0; root < n; root++) {
		if (state[root])
			continue;
		stack[sp++] = root;
		state[root] = 1;
		while (sp) {
			size_t t = stack[sp - 1];
			const struct pend *pe = &b->pend[t];
			uint32_t g = 1;
			bool pushed = false;
			for (size_t k = 0; k < pe->npar; k++) {
				const git_oid *po = &b->ppar[pe->par_off + k];
				size_t j = oid_hash(po) & (cap - 1), q = 0;
				for (; map[j]; j = (j + 1) & (cap - 1))
					if (git_oid_equal(&b->pend[map[j] - 1].oid, po)) {
						q = map[j];
						break;
					}
				uint32_t pg;
				if (q) {
					if (state[q - 1] == 0) {
						state[q - 1] = 1;
						stack[sp++] = q - 1;
						pushed = true;
						break;
					}
					pg = gen[q - 1]; /* done: a DAG never has a parent on the stack */
				} else {
					pg = outer_gen(b, po);
				}
				if (g && pg == 0)
					g = 0; /* unknown, but keep pushing parents so the walk completes */
				else if (g && pg + 1 > g)
					g = pg + 1;
			}
			if (pushed)
				continue;
			gen[t] = g;
			state[t] = 2;
			sp--;
		}
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t *slot = oidset_gen(&b->seen, &b->pend[i].oid);
		if (slot)
			*slot = gen[i];
	}
	free(map);
	free(gen);
	free(state);
	free(stack);
	b->npend = b->nppar = 0;
}

/* Store this run's known generations. */
static int store_generations(struct builder *b, struct kcve_err *err)
{
	if (!b->gins || !b->seen.n)
		return 0;
	struct gen_row *v = xmalloc(b->seen.n * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < b->seen.cap; i++)
		if (b->seen.used[i] && b->seen.gen[i]) {
			memcpy(v[n].id, b->seen.v[i].id, GIT_OID_RAWSZ);
			v[n++].gen = b->seen.gen[i];
		}
	int rc = index_generations_insert(b->gins, v, n) ? sql_fail(b, "generation insert", err) : 0;
	free(v);
	return rc;
}

static int write_range_end(struct builder *b, int idx)
{
	range_generations(b);
	const struct tag_range *r = &b->ranges->v[idx];
	int src = index_range_insert(b->rins, r, b->range_count);
	b->range_count = 0;
	if (src)
		return sql_fail(b, "range insert", &b->werr);
	return 0;
}

static void *writer_main(void *arg)
{
	struct builder *b = arg;
	for (;;) {
		struct batch *bt = batch_take(&b->qu);
		bool last = bt->last;
		for (size_t i = 0; i < bt->n; i++) {
			struct rec *r = &bt->v[i];
			int rc = r->range < 0 ? write_range_end(b, r->end_range) : write_rec(b, bt, r);
			if (rc) {
				/* stop at once: the walker sees `failed` and stops feeding us */
				pthread_mutex_lock(&b->qu.mu);
				b->qu.failed = true;
				pthread_cond_broadcast(&b->qu.can_put);
				pthread_mutex_unlock(&b->qu.mu);
				batch_recycle(&b->qu, bt, b->commits);
				return NULL;
			}
		}
		batch_recycle(&b->qu, bt, b->commits);
		if (last)
			return NULL;
	}
}

/* -- walker -- */

static struct rec *next_rec(struct builder *b, struct batch **bt)
{
	if ((*bt)->n == BATCH_RECS) {
		if (!batch_put(b, *bt)) {
			*bt = NULL;
			return NULL;
		}
		*bt = batch_get_free(b);
		show_progress(b, false);
	}
	struct rec *r = &(*bt)->v[(*bt)->n++];
	memset(r, 0, sizeof(*r));
	return r;
}

static void parse_into(struct batch *bt, struct rec *r, const char *data, size_t len, bool stable,
		       struct strbuf *tmp)
{
	struct raw_commit rc;
	struct trailers t;
	commit_raw_parse(data, len, &rc);
	trailers_parse(rc.msg, rc.msg_len, stable, &t);
	r->par_off = bt->npar;
	r->npar = commit_raw_parents(&rc, NULL, 0);
	if (r->npar) { /* a root commit has none, and par may still be NULL */
		XGROW(bt->par, bt->npar + r->npar, bt->apar);
		commit_raw_parents(&rc, bt->par + bt->npar, r->npar);
		bt->npar += r->npar;
	}
	memcpy(r->upstream, t.upstream, sizeof(r->upstream));
	memcpy(r->reverts, t.reverts, sizeof(r->reverts));
	r->fixes_off = bt->nspans;
	r->nfixes = t.nfixes;
	for (size_t i = 0; i < t.nfixes; i++) {
		XGROW(bt->spans, 2 * (bt->nspans + 1), bt->aspans);
		bt->spans[2 * bt->nspans] = bt->arena.len;
		bt->spans[2 * bt->nspans + 1] = t.fixes[i].len;
		bt->nspans++;
		sb_add(&bt->arena, t.fixes[i].p, t.fixes[i].len);
	}
	commit_summary(rc.msg, rc.msg_len, tmp);
	r->subj_off = bt->arena.len;
	r->subj_len = tmp->len;
	sb_add(&bt->arena, sb_str(tmp), tmp->len);
	r->author_off = bt->arena.len;
	r->author_len = rc.author_len;
	if (rc.author_len)
		sb_add(&bt->arena, rc.author, rc.author_len);
	r->author_time = rc.author_time;
	r->commit_time = rc.commit_time;
}

static int walk_range(struct builder *b, int idx, struct batch **bt, struct kcve_err *err)
{
	const struct tag_range *r = &b->ranges->v[idx];
	git_revwalk *w;
	int rc = 0;
	if (git_revwalk_new(&w, b->h->repo) < 0 || git_revwalk_push(w, &r->to_oid) < 0 ||
	    (r->from[0] && git_revwalk_hide(w, &r->from_oid) < 0))
		return kcve_err_set(err, KCVE_E_NOREPO, "cannot walk %s..%s (%s)", r->from, r->to,
				    git_error_last() ? git_error_last()->message : "?");
	git_revwalk_sorting(w, GIT_SORT_NONE);
	git_oid oid;
	int wrc;
	while ((wrc = git_revwalk_next(&oid, w)) == 0) {
		struct rec *rr = next_rec(b, bt); /* read and parsed by the writer (write_rec) */
		if (!rr) {
			rc = -1;
			break;
		}
		rr->oid = oid;
		rr->range = idx;
	}
	if (!rc && wrc != GIT_ITEROVER)
		rc = kcve_err_set(err, KCVE_E_NOREPO, "cannot walk %s..%s (%s)", r->from, r->to,
				  git_error_last() ? git_error_last()->message : "?");
	git_revwalk_free(w);
	if (!rc) {
		struct rec *end = next_rec(b, bt);
		if (!end)
			return -1;
		end->range = -1;
		end->end_range = idx;
	}
	return rc;
}

/* Walk every range in todo[] on this thread while the writer thread stores the commits. */
static int run_pipeline(struct builder *b, const int *todo, size_t ntodo, struct kcve_err *err)
{
	pthread_t th;
	int rc = 0;
	pthread_mutex_init(&b->qu.mu, NULL);
	pthread_cond_init(&b->qu.can_put, NULL);
	pthread_cond_init(&b->qu.can_get, NULL);
	if (pthread_create(&th, NULL, writer_main, b) != 0)
		return kcve_err_set(err, KCVE_E_GENERIC, "cannot start the index writer thread");
	struct batch *bt = batch_get_free(b);
	for (size_t i = 0; i < ntodo && !rc; i++) {
		rc = walk_range(b, todo[i], &bt, err);
		b->ranges_done++;
	}
	if (!bt)
		bt = batch_get_free(b);
	bt->last = true;
	batch_put(b, bt); /* frees the batch itself when the writer has already stopped */
	pthread_join(th, NULL);
	if (b->qu.failed) {
		*err = b->werr;
		rc = err->code ? err->code : KCVE_E_IO;
	}
	for (size_t i = 0; i < b->qu.nfree; i++)
		batch_free(b->qu.free_list[i]);
	for (size_t i = 0; i < b->qu.count; i++)
		batch_free(b->qu.q[(b->qu.head + i) % QUEUE_DEPTH]);
	pthread_mutex_destroy(&b->qu.mu);
	pthread_cond_destroy(&b->qu.can_put);
	pthread_cond_destroy(&b->qu.can_get);
	return rc;
}

struct stored_range {
	char from[32], to[32];
	bool mainline;
};

static int stored_cmp(const void *a, const void *b)
{
	const struct stored_range *x = a, *y = b;
	int c = strcmp(x->to, y->to);
	return c ? c : strcmp(x->from, y->from);
}

/* Is (from, to) among the n stored ranges? s must be sorted with stored_cmp. */
static bool in_sorted(const struct stored_range *s, size_t n, const char *from, const char *to)
{
	KCVE_ASSERT(kcve_is_sorted(s, n, sizeof(*s), stored_cmp));
	struct stored_range key;
	text_snprintf(key.from, sizeof(key.from), "%s", from);
	text_snprintf(key.to, sizeof(key.to), "%s", to);
	return n && bsearch(&key, s, n, sizeof(*s), stored_cmp) != NULL;
}

static bool range_in(const struct tag_range *r, const struct stored_range *s, size_t n)
{
	return in_sorted(s, n, r->from, r->to);
}

/* The desired ranges as a sorted stored_range array, for membership tests. */
static struct stored_range *sorted_copy(const struct range_list *l)
{
	struct stored_range *v = xcalloc(l->n + 1, sizeof(*v));
	for (size_t i = 0; i < l->n; i++) {
		text_snprintf(v[i].from, sizeof(v[i].from), "%s", l->v[i].from);
		text_snprintf(v[i].to, sizeof(v[i].to), "%s", l->v[i].to);
		v[i].mainline = l->v[i].mainline;
	}
	qsort(v, l->n, sizeof(*v), stored_cmp);
	return v;
}

static int load_stored(sqlite3 *db, struct stored_range **out, size_t *n, struct kcve_err *err)
{
	sqlite3_stmt *s;
	size_t alloc = 0;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT version_from, version_to, mainline FROM ranges", -1, &s,
			       NULL) != SQLITE_OK)
		return kcve_err_set(err, KCVE_E_INDEX,
				    "history index %s is unreadable (%s), rerun 'kcve index --rebuild'",
				    sqlite3_db_filename(db, "main"), sqlite3_errmsg(db));
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		XGROW(*out, *n + 1, alloc);
		struct stored_range *r = &(*out)[(*n)++];
		text_snprintf(r->from, sizeof(r->from), "%s", (const char *)sqlite3_column_text(s, 0));
		text_snprintf(r->to, sizeof(r->to), "%s", (const char *)sqlite3_column_text(s, 1));
		r->mainline = sqlite3_column_int(s, 2);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return kcve_err_set(err, KCVE_E_INDEX,
				    "history index %s is unreadable (%s), rerun 'kcve index --rebuild'",
				    sqlite3_db_filename(db, "main"), sqlite3_errmsg(db));
	if (*n)
		qsort(*out, *n, sizeof(**out), stored_cmp);
	return 0;
}

int index_is_current(sqlite3 *db, const struct range_list *ranges, bool *current,
		     struct kcve_err *err)
{
	struct stored_range *st;
	size_t n;
	int rc = load_stored(db, &st, &n, err);
	if (rc)
		return rc;
	*current = true;
	for (size_t i = 0; i < ranges->n && *current; i++)
		if (!range_in(&ranges->v[i], st, n))
			*current = false;
	struct stored_range *want = sorted_copy(ranges);
	for (size_t i = 0; i < n && *current; i++)
		if (!in_sorted(want, ranges->n, st[i].from, st[i].to))
			*current = false;
	free(want);
	free(st);
	return 0;
}

/* Drop the rows of a range that no longer exists (e.g. -rc ranges once the final release is
 * tagged, or a range split because a missing tag appeared). */
static int drop_range(struct builder *b, const struct stored_range *s, struct kcve_err *err)
{
	sqlite3_stmt *d;
	const char *sqls[2] = {"DELETE FROM commits WHERE release = ?1 AND mainline = ?2",
			       "DELETE FROM ranges WHERE version_from = ?3 AND version_to = ?1"};
	for (int i = 0; i < 2; i++) {
		if (sqlite3_prepare_v2(b->h->db, sqls[i], -1, &d, NULL) != SQLITE_OK)
			return sql_fail(b, "prepare delete", err);
		sqlite3_bind_text(d, 1, s->to, -1, SQLITE_STATIC);
		if (i == 0)
			sqlite3_bind_int(d, 2, s->mainline);
		else
			sqlite3_bind_text(d, 3, s->from, -1, SQLITE_STATIC);
		int rc = sqlite3_step(d);
		sqlite3_finalize(d);
		if (rc != SQLITE_DONE)
			return sql_fail(b, "delete", err);
	}
	return 0;
}

int index_update(struct history *h, const struct range_list *ranges, const char *fp,
		 unsigned flags, struct history_index_stats *st, struct kcve_err *err)
{
	struct builder b = {0};
	struct stored_range *stored = NULL;
	size_t nstored = 0;
	int rc;
	bool fresh;
	sqlite3_stmt *q;
	int *todo = NULL;
	size_t ntodo = 0;
	b.h = h;
	b.ranges = ranges;
	b.t0 = now_s();
	b.progress = (flags & HISTORY_PROGRESS) && isatty(2);
	if ((rc = load_stored(h->db, &stored, &nstored, err)))
		return rc;
	if (sqlite3_prepare_v2(h->db, "SELECT 1 FROM commits LIMIT 1", -1, &q, NULL) != SQLITE_OK) {
		free(stored);
		return sql_fail(&b, "probe", err);
	}
	fresh = sqlite3_step(q) != SQLITE_ROW;
	sqlite3_finalize(q);

	/* the writer thread gets its own repository handle: libgit2 objects are not shared
	 * between threads */
	if (git_repository_open(&b.wrepo, git_repository_path(h->repo)) < 0 ||
	    gitguard_install(b.wrepo, err) || git_repository_odb(&b.odb, b.wrepo) < 0) {
		free(stored);
		git_repository_free(b.wrepo);
		return kcve_err_set(err, KCVE_E_NOREPO, "cannot open the object database of %s",
				    git_repository_path(h->repo));
	}
	/* No object cache while indexing: every commit is used once (revwalk parses it, the walker
	 * reads it once more), and once the capped cache is full libgit2's eviction scans its
	 * hash table from the start on every insert, which took ~40% of a full build's CPU on the
	 * 1.4 M-commit benchmark history (perf: git_oid_equal and oidmap iteration). Reading a
	 * commit twice from the pack costs less. Re-enabled at the end for dyad's lookups. */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	if ((rc = index_db_exec(h->db, "BEGIN IMMEDIATE", err)))
		goto out;
	if (sqlite3_prepare_v2(h->db,
			       fresh ? "INSERT INTO commits VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)"
				     : "INSERT OR IGNORE INTO commits VALUES(?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
			       -1, &b.ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h->db, "INSERT OR REPLACE INTO ranges VALUES(?1,?2,?3,?4)", -1, &b.rins,
			       NULL) != SQLITE_OK) {
		rc = sql_fail(&b, "prepare insert", err);
		goto rollback;
	}
	/* indexes built before generation numbers existed have no table: no generations then
	 * (dyad falls back to libgit2 for ancestry), the index stays usable */
	if (sqlite3_prepare_v2(h->db, "SELECT gen FROM generations WHERE id = ?1", -1, &b.gget,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h->db, "INSERT OR REPLACE INTO generations VALUES(?1, ?2)", -1,
			       &b.gins, NULL) != SQLITE_OK) {
		sqlite3_finalize(b.gget);
		sqlite3_finalize(b.gins);
		b.gget = b.gins = NULL;
		diag_warn(h->diag, "history index %s predates generation numbers: ancestry "
			  "questions (dyad, update) go through git and are much slower; 'kcve index "
			  "--rebuild' adds them", h->index_path);
	}
	struct stored_range *want = sorted_copy(ranges);
	for (size_t i = 0; i < nstored && !rc; i++)
		if (!in_sorted(want, ranges->n, stored[i].from, stored[i].to))
			rc = drop_range(&b, &stored[i], err);
	free(want);
	if (rc)
		goto rollback;
	todo = xcalloc(ranges->n + 1, sizeof(*todo));
	for (size_t i = 0; i < ranges->n; i++)
		if (!range_in(&ranges->v[i], stored, nstored))
			todo[ntodo++] = (int)i;
	b.ranges_todo = ntodo;
	if (ntodo && fresh && !nstored && ntodo == ranges->n && !getenv(KCVE_HOOK_INDEX_PER_RANGE)) {
		/* a full build: one pass over the history (index_walk.c), same rows */
		rc = index_build_onepass(h, ranges, b.ins, b.rins, b.gins, b.progress, &b.commits, err);
		b.ranges_done = ntodo;
		b.progress = false; /* it printed its own progress */
		if (rc)
			goto rollback;
	} else if (ntodo && (rc = run_pipeline(&b, todo, ntodo, err))) {
		goto rollback;
	}
	if ((rc = store_generations(&b, err)))
		goto rollback;
	if (fresh &&
	    (rc = index_db_exec(h->db,
				"CREATE UNIQUE INDEX IF NOT EXISTS commits_id ON commits(id);"
				"CREATE INDEX IF NOT EXISTS commits_mainline_id ON commits(mainline_id)"
				" WHERE mainline_id IS NOT NULL;"
				"CREATE INDEX IF NOT EXISTS commits_reverts ON commits(reverts)"
				" WHERE reverts IS NOT NULL;",
				err)))
		goto rollback;
	if (fp && (rc = index_meta_set(h->db, "tags_fingerprint", fp, err)))
		goto rollback;
	if ((rc = index_db_exec(h->db, "COMMIT", err)))
		goto rollback;
	show_progress(&b, true);
	if (st) {
		st->ranges_total = ranges->n;
		st->ranges_new = b.ranges_done;
		st->commits_new = b.commits;
		st->seconds = now_s() - b.t0;
	}
	goto out;
rollback:
	sqlite3_exec(h->db, "ROLLBACK", NULL, NULL, NULL);
out:
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 1);
	if (b.progress && rc)
		progress_newline();
	sqlite3_finalize(b.ins);
	sqlite3_finalize(b.rins);
	sqlite3_finalize(b.gget);
	sqlite3_finalize(b.gins);
	free(b.pend);
	free(b.ppar);
	git_odb_free(b.odb);
	git_repository_free(b.wrepo);
	oidset_release(&b.seen);
	sb_release(&b.fixes);
	sb_release(&b.wtmp);
	free(todo);
	free(stored);
	return rc;
}
