/* A full index build in one pass.
 *
 * The per-range build (index_build.c) runs one libgit2 revwalk per release range, push the end
 * tag, hide the start tag: on a linux-stable history that is ~3,700 walks, each re-reading the
 * commits around its hidden tag, and every commit is read twice (the walk for its parents, the
 * writer for its message). Here instead:
 *
 *  1. Read: every commit reachable from the ranges' tags is read exactly once, by a pool of
 *     threads (one per core, the calling thread included) that share the object database
 *     (libgit2's odb locks internally; inflating runs outside its locks). Each read yields the
 *     commit's parents and committer time (the graph, kept in memory) and its index row data
 *     (trailers, subject, author, times), kept compactly in per-thread arenas.
 *  2. Walk: each range's revwalk is replayed in memory, in range order, with libgit2's own
 *     algorithm (revwalk.c of libgit2 1.5: date-ordered list, uninteresting marking, the "slop"
 *     cut-off, output filter), so each range yields exactly the commits, in exactly the order,
 *     that git_revwalk_next would; a commit belongs to the first range that yields it.
 *  3. Write: rows in that order (so rowids match the per-range build), the range rows,
 *     generation numbers per range as index_build.c computes them.
 *
 * The index is the same, row for row, as the per-range build's (tests/history/onepass.py
 * compares both on a generated history; KCVE_INDEX_PER_RANGE=1 selects the per-range build). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "history/history_internal.h"
#include "history/trailers.h"

#define NIL UINT32_MAX

enum { NODE_QUEUED, NODE_READ, NODE_BAD };

/* One commit of the graph. */
struct gnode {
	git_oid oid;
	uint16_t npar;
	uint8_t state;
	int64_t time;             /* committer time as libgit2 reads it (its revwalk's order) */
	uint32_t par;             /* parents: graph.par[par .. par + npar) */
	const unsigned char *rec; /* row data (record_put) in a reader's arena */
};

struct graph {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct gnode *v;
	size_t n, alloc;
	uint32_t *ht; /* node index + 1, 0 = empty; power-of-two capacity */
	size_t htcap;
	uint32_t *par;
	size_t npar, apar;
	uint32_t *todo; /* nodes to read (a stack: depth first keeps reads near each other) */
	size_t ntodo, atodo;
	int busy; /* readers holding a node they have not stored yet */
	git_odb *odb;
	bool progress;
	double t0, last;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t oid_slot(const git_oid *o, size_t cap)
{
	size_t h;
	memcpy(&h, o->id, sizeof h); /* object ids are uniformly distributed already */
	return h & (cap - 1);
}

static void ht_grow(struct graph *g)
{
	size_t cap = g->htcap ? g->htcap * 2 : 1 << 16;
	uint32_t *ht = xcalloc(cap, sizeof(*ht));
	for (size_t i = 0; i < g->n; i++) {
		size_t j = oid_slot(&g->v[i].oid, cap);
		while (ht[j])
			j = (j + 1) & (cap - 1);
		ht[j] = (uint32_t)i + 1;
	}
	free(g->ht);
	g->ht = ht;
	g->htcap = cap;
}

/* The node of o, added (and queued for reading) when new. Caller holds the lock. */
static uint32_t node_of(struct graph *g, const git_oid *o)
{
	if ((g->n + 1) * 2 > g->htcap)
		ht_grow(g);
	size_t j = oid_slot(o, g->htcap);
	for (; g->ht[j]; j = (j + 1) & (g->htcap - 1))
		if (git_oid_equal(&g->v[g->ht[j] - 1].oid, o))
			return g->ht[j] - 1;
	XGROW(g->v, g->n + 1, g->alloc);
	struct gnode *nd = &g->v[g->n];
	memset(nd, 0, sizeof(*nd));
	git_oid_cpy(&nd->oid, o);
	g->ht[j] = (uint32_t)g->n + 1;
	XGROW(g->todo, g->ntodo + 1, g->atodo);
	g->todo[g->ntodo++] = (uint32_t)g->n;
	return (uint32_t)g->n++;
}

/* Existing node of o or NIL (single-threaded phase). */
static uint32_t node_find(const struct graph *g, const git_oid *o)
{
	for (size_t j = oid_slot(o, g->htcap); g->ht[j]; j = (j + 1) & (g->htcap - 1))
		if (git_oid_equal(&g->v[g->ht[j] - 1].oid, o))
			return g->ht[j] - 1;
	return NIL;
}

/* ---- reading ---------------------------------------------------------------------------- */

/* Row data of one commit, packed: flags (1 upstream, 2 reverts), the raw ids present, then
 * fixes, subject, author as (u32 length, bytes), then author and commit time (i64). */
#define REC_UPSTREAM 1
#define REC_REVERTS 2
#define ARENA_CHUNK (4u << 20)

struct reader {
	struct graph *g;
	unsigned char **chunks;
	size_t nchunks, achunks, used;
	struct strbuf rec, tmp, fixes;
	git_oid *pbuf;
	size_t apbuf;
	bool main_thread;
	pthread_t th;
};

static unsigned char *arena_put(struct reader *r, const void *data, size_t n)
{
	if (!r->nchunks || r->used + n > ARENA_CHUNK) {
		XGROW(r->chunks, r->nchunks + 1, r->achunks);
		r->chunks[r->nchunks++] = xmalloc(n > ARENA_CHUNK ? n : ARENA_CHUNK);
		r->used = 0;
	}
	unsigned char *p = r->chunks[r->nchunks - 1] + r->used;
	memcpy(p, data, n);
	r->used += n;
	return p;
}

static void put_span(struct strbuf *sb, const char *p, size_t n)
{
	uint32_t l = (uint32_t)n;
	sb_add(sb, &l, sizeof l);
	sb_add(sb, p, n);
}

static void put_id(struct strbuf *sb, const char *hex40)
{
	git_oid o;
	git_oid_fromstrn(&o, hex40, GIT_OID_HEXSZ);
	sb_add(sb, o.id, GIT_OID_RAWSZ);
}

struct readout {
	uint8_t state;
	int64_t time;
	size_t npar;
	const unsigned char *rec;
};

/* Read and parse one commit (no lock held). */
static void read_commit(struct reader *r, const git_oid *oid, struct readout *out)
{
	git_odb_object *obj;
	memset(out, 0, sizeof(*out));
	out->state = NODE_BAD;
	if (git_odb_read(&obj, r->g->odb, oid) < 0)
		return;
	if (git_odb_object_type(obj) != GIT_OBJECT_COMMIT) {
		git_odb_object_free(obj);
		return;
	}
	struct raw_commit rc;
	struct trailers t;
	commit_raw_parse(git_odb_object_data(obj), git_odb_object_size(obj), &rc);
	out->npar = commit_raw_parents(&rc, r->pbuf, r->apbuf);
	if (out->npar > r->apbuf) {
		XGROW(r->pbuf, out->npar, r->apbuf);
		commit_raw_parents(&rc, r->pbuf, r->apbuf);
	}
	out->time = rc.walk_time;
	/* the upstream id is only stored for stable commits, but which range a commit belongs to
	 * is known only after the walk: parse it always (it changes nothing else) */
	trailers_parse(rc.msg, rc.msg_len, true, &t);
	sb_reset(&r->fixes);
	for (size_t i = 0; i < t.nfixes; i++)
		fixes_append(r->g->odb, t.fixes[i].p, t.fixes[i].len, &r->fixes);
	commit_summary(rc.msg, rc.msg_len, &r->tmp);
	sb_reset(&r->rec);
	unsigned char flags = (t.upstream[0] ? REC_UPSTREAM : 0) | (t.reverts[0] ? REC_REVERTS : 0);
	sb_addc(&r->rec, (char)flags);
	if (t.upstream[0])
		put_id(&r->rec, t.upstream);
	if (t.reverts[0])
		put_id(&r->rec, t.reverts);
	put_span(&r->rec, r->fixes.buf, r->fixes.len);
	put_span(&r->rec, sb_str(&r->tmp), r->tmp.len);
	put_span(&r->rec, rc.author, rc.author_len);
	int64_t times[2] = {rc.author_time, rc.commit_time};
	sb_add(&r->rec, times, sizeof times);
	git_odb_object_free(obj);
	out->rec = arena_put(r, r->rec.buf, r->rec.len);
	out->state = NODE_READ;
}

static void read_progress(struct graph *g, size_t nread)
{
	double t = now_s();
	if (t - g->last < 0.25)
		return;
	g->last = t;
	fprintf(stderr, "\rindexing: %zu commits read, %.0f commits/s", nread,
		t > g->t0 ? (double)nread / (t - g->t0) : 0.0);
	fflush(stderr);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct graph *g = r->g;
	size_t nread = 0;
	pthread_mutex_lock(&g->mu);
	for (;;) {
		while (!g->ntodo && g->busy)
			pthread_cond_wait(&g->cv, &g->mu);
		if (!g->ntodo)
			break; /* nothing queued and nobody can queue more: done */
		uint32_t idx = g->todo[--g->ntodo];
		git_oid oid = g->v[idx].oid;
		g->busy++;
		pthread_mutex_unlock(&g->mu);

		struct readout ro;
		read_commit(r, &oid, &ro);

		pthread_mutex_lock(&g->mu);
		g->busy--;
		size_t before = g->ntodo;
		uint16_t np = (uint16_t)(ro.npar > UINT16_MAX ? UINT16_MAX : ro.npar);
		struct gnode *nd = &g->v[idx];
		nd->state = ro.state;
		nd->time = ro.time;
		nd->rec = ro.rec;
		nd->npar = np;
		nd->par = (uint32_t)g->npar;
		XGROW(g->par, g->npar + np, g->apar);
		for (size_t k = 0; k < np; k++) {
			uint32_t p = node_of(g, &r->pbuf[k]); /* may move g->v: nd is stale now */
			g->par[g->npar++] = p;
		}
		if (r->main_thread && g->progress && (++nread & 1023) == 0)
			read_progress(g, g->n - g->ntodo);
		/* this thread takes the next node itself: wake another one only for a second node
		 * (waking it for the only one would hand a linear history back and forth) */
		if (!g->ntodo && !g->busy)
			pthread_cond_broadcast(&g->cv);
		else if (g->ntodo > 1 && g->ntodo > before)
			pthread_cond_signal(&g->cv);
	}
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

static void reader_release(struct reader *r)
{
	for (size_t i = 0; i < r->nchunks; i++)
		free(r->chunks[i]);
	free(r->chunks);
	free(r->pbuf);
	sb_release(&r->rec);
	sb_release(&r->tmp);
	sb_release(&r->fixes);
}

/* ---- libgit2's revwalk, replayed on the graph --------------------------------------------
 * Per-walk flags live in fl[] and are valid only where epoch[] equals the walk's number, so
 * starting a walk costs nothing. "parsed" is per walk as in libgit2 (each revwalk has its own
 * commit pool): marking parents uninteresting only goes through commits this walk parsed. */

enum { F_SEEN = 1, F_UNINT = 2, F_ADDED = 4, F_PARSED = 8 };

struct cell {
	uint32_t item, next;
};

struct walker {
	struct graph *g;
	uint32_t *epoch;
	uint8_t *fl;
	uint32_t cur;
	struct cell *cell; /* the linked lists (git_commit_list), with a free list */
	size_t ncell, acell;
	uint32_t freecell;
	uint32_t *stack; /* mark_parents_uninteresting's list */
	size_t astack;
	uint32_t *out; /* the walk's output */
	size_t nout, aout;
	uint32_t bad; /* a node the walk needed that could not be read, NIL if none */
};

static inline uint8_t F(const struct walker *w, uint32_t i)
{
	return w->epoch[i] == w->cur ? w->fl[i] : 0;
}

static inline void set_f(struct walker *w, uint32_t i, uint8_t f)
{
	if (w->epoch[i] != w->cur) {
		w->epoch[i] = w->cur;
		w->fl[i] = 0;
	}
	w->fl[i] |= f;
}

static inline const uint32_t *parents(const struct walker *w, uint32_t i)
{
	return w->g->par + w->g->v[i].par;
}

static uint32_t cell_new(struct walker *w, uint32_t item, uint32_t next)
{
	uint32_t c;
	if (w->freecell != NIL) {
		c = w->freecell;
		w->freecell = w->cell[c].next;
	} else {
		XGROW(w->cell, w->ncell + 1, w->acell);
		c = (uint32_t)w->ncell++;
	}
	w->cell[c].item = item;
	w->cell[c].next = next;
	return c;
}

static void list_push(struct walker *w, uint32_t *head, uint32_t item)
{
	*head = cell_new(w, item, *head);
}

static uint32_t list_pop(struct walker *w, uint32_t *head)
{
	uint32_t c = *head;
	if (c == NIL)
		return NIL;
	*head = w->cell[c].next;
	w->cell[c].next = w->freecell;
	w->freecell = c;
	return w->cell[c].item;
}

static void list_free(struct walker *w, uint32_t *head)
{
	while (list_pop(w, head) != NIL)
		;
}

/* git_commit_list_insert_by_date: before the first entry with an older time. */
static void list_insert_by_date(struct walker *w, uint32_t *head, uint32_t item)
{
	uint32_t c = cell_new(w, item, NIL); /* first: it may move w->cell */
	int64_t t = w->g->v[item].time;
	uint32_t *pp = head;
	while (*pp != NIL && !(w->g->v[w->cell[*pp].item].time < t))
		pp = &w->cell[*pp].next;
	w->cell[c].next = *pp;
	*pp = c;
}

static int parse(struct walker *w, uint32_t i)
{
	if (F(w, i) & F_PARSED)
		return 0;
	if (w->g->v[i].state != NODE_READ) {
		w->bad = i;
		return -1;
	}
	set_f(w, i, F_PARSED);
	return 0;
}

static void mark_parents_uninteresting(struct walker *w, uint32_t c)
{
	size_t sp = 0;
	for (uint32_t k = 0; k < w->g->v[c].npar; k++) {
		XGROW(w->stack, sp + 1, w->astack);
		w->stack[sp++] = parents(w, c)[k];
	}
	while (sp) {
		uint32_t x = w->stack[--sp];
		while (x != NIL) {
			if (F(w, x) & F_UNINT)
				break;
			set_f(w, x, F_UNINT);
			if (!(F(w, x) & F_PARSED))
				break;
			uint32_t np = w->g->v[x].npar;
			XGROW(w->stack, sp + np, w->astack);
			for (uint32_t k = 0; k < np; k++)
				w->stack[sp++] = parents(w, x)[k];
			x = np ? parents(w, x)[0] : NIL;
		}
	}
}

static int add_parents_to_list(struct walker *w, uint32_t c, uint32_t *list)
{
	if (F(w, c) & F_ADDED)
		return 0;
	set_f(w, c, F_ADDED);
	uint32_t np = w->g->v[c].npar;
	if (F(w, c) & F_UNINT) {
		for (uint32_t k = 0; k < np; k++) {
			uint32_t p = parents(w, c)[k];
			set_f(w, p, F_UNINT);
			if (parse(w, p))
				return -1;
			mark_parents_uninteresting(w, p);
			set_f(w, p, F_SEEN);
			list_insert_by_date(w, list, p);
		}
		return 0;
	}
	for (uint32_t k = 0; k < np; k++) {
		uint32_t p = parents(w, c)[k];
		if (parse(w, p))
			return -1;
		if (!(F(w, p) & F_SEEN)) {
			set_f(w, p, F_SEEN);
			list_insert_by_date(w, list, p);
		}
	}
	return 0;
}

#define SLOP 5

static int still_interesting(const struct walker *w, uint32_t list, int64_t time, int slop)
{
	if (list == NIL)
		return 0;
	if (time <= w->g->v[w->cell[list].item].time)
		return SLOP;
	for (uint32_t c = list; c != NIL; c = w->cell[c].next) {
		uint32_t i = w->cell[c].item;
		if (!(F(w, i) & F_UNINT) || w->g->v[i].time > time)
			return SLOP;
	}
	return slop - 1;
}

static void emit(struct walker *w, uint32_t i)
{
	XGROW(w->out, w->nout + 1, w->aout);
	w->out[w->nout++] = i;
}

static int limit_list(struct walker *w, uint32_t list)
{
	int slop = SLOP;
	int64_t time = INT64_MAX;
	uint32_t newlist = NIL, *tail = &newlist;
	int rc = 0;
	while (list != NIL) {
		uint32_t c = list_pop(w, &list);
		if ((rc = add_parents_to_list(w, c, &list)))
			break;
		if (F(w, c) & F_UNINT) {
			mark_parents_uninteresting(w, c);
			slop = still_interesting(w, list, time, slop);
			if (slop)
				continue;
			break;
		}
		time = w->g->v[c].time;
		*tail = cell_new(w, c, NIL);
		tail = &w->cell[*tail].next;
	}
	list_free(w, &list);
	for (uint32_t c; (c = list_pop(w, &newlist)) != NIL;)
		if (!rc && !(F(w, c) & F_UNINT)) /* some became uninteresting after being listed */
			emit(w, c);
	return rc;
}

/* The commits git_revwalk_next yields for push(to), hide(from), GIT_SORT_NONE, in order,
 * into w->out. */
static int walk_range(struct walker *w, uint32_t to, uint32_t from)
{
	uint32_t user_input = NIL, commits = NIL;
	bool limited = false;
	int rc = 0;
	w->nout = 0;
	if (++w->cur == 0) { /* 2^32 walks: start the epochs again */
		memset(w->epoch, 0, w->g->n * sizeof(*w->epoch));
		w->cur = 1;
	}
	/* git_revwalk_push, git_revwalk_hide: each prepends to the user input */
	list_push(w, &user_input, to);
	if (from != NIL && !(F(w, from) & F_UNINT)) {
		limited = true;
		set_f(w, from, F_UNINT);
		list_push(w, &user_input, from);
	}
	/* prepare_walk (libgit2 1.5: each new input is prepended to the list to walk) */
	for (uint32_t c = user_input; c != NIL && !rc; c = w->cell[c].next) {
		uint32_t i = w->cell[c].item;
		if ((rc = parse(w, i)))
			break;
		if (F(w, i) & F_UNINT)
			mark_parents_uninteresting(w, i);
		if (!(F(w, i) & F_SEEN)) {
			set_f(w, i, F_SEEN);
			list_push(w, &commits, i);
		}
	}
	list_free(w, &user_input);
	if (rc) {
		list_free(w, &commits);
		return rc;
	}
	if (limited)
		return limit_list(w, commits);
	/* unlimited, unsorted: parents are added as commits are popped */
	for (uint32_t c; (c = list_pop(w, &commits)) != NIL;) {
		if ((rc = add_parents_to_list(w, c, &commits)))
			break;
		if (!(F(w, c) & F_UNINT))
			emit(w, c);
	}
	list_free(w, &commits);
	return rc;
}

/* ---- writing ---------------------------------------------------------------------------- */

struct builder1 {
	struct graph *g;
	const struct range_list *ranges;
	struct walker w;
	uint32_t *range_of; /* range index + 1 of the range that stored the node, 0 = none */
	uint32_t *gen;      /* generation number, 0 = unknown */
	uint8_t *gstate;
	uint32_t *stack;
	size_t astack;
	size_t commits;
};

static uint32_t rd32(const unsigned char **p)
{
	uint32_t v;
	memcpy(&v, *p, sizeof v);
	*p += sizeof v;
	return v;
}

static int write_node(sqlite3_stmt *ins, const struct gnode *nd, const struct tag_range *tr)
{
	const unsigned char *p = nd->rec;
	unsigned char flags = *p++;
	char hex[GIT_OID_HEXSZ + 1], up[GIT_OID_HEXSZ + 1], rv[GIT_OID_HEXSZ + 1];
	git_oid o;
	struct index_row row = {.id = hex, .range = tr};
	git_oid_tostr(hex, sizeof(hex), &nd->oid);
	if (flags & REC_UPSTREAM) {
		memcpy(o.id, p, GIT_OID_RAWSZ);
		p += GIT_OID_RAWSZ;
		git_oid_tostr(up, sizeof(up), &o);
		if (!tr->mainline) /* the upstream rule is for stable commits only */
			row.upstream = up;
	}
	if (flags & REC_REVERTS) {
		memcpy(o.id, p, GIT_OID_RAWSZ);
		p += GIT_OID_RAWSZ;
		git_oid_tostr(rv, sizeof(rv), &o);
		row.reverts = rv;
	}
	row.fixes_len = rd32(&p);
	row.fixes = (const char *)p;
	p += row.fixes_len;
	row.subject_len = rd32(&p);
	row.subject = (const char *)p;
	p += row.subject_len;
	row.author_len = rd32(&p);
	row.author = (const char *)p;
	p += row.author_len;
	int64_t times[2];
	memcpy(times, p, sizeof times);
	row.author_time = times[0];
	row.commit_time = times[1];
	return index_row_insert(ins, &row);
}

/* Generation numbers of the range's new commits (w->out entries with range_of == r + 1),
 * exactly as index_build.c's range_generations: parents stored by earlier ranges give their
 * number, parents stored by no range so far count as unknown (0), which propagates. */
static void range_generations(struct builder1 *b, uint32_t r)
{
	const struct graph *g = b->g;
	for (size_t s = 0; s < b->w.nout; s++) {
		uint32_t root = b->w.out[s];
		if (b->range_of[root] != r + 1 || b->gstate[root])
			continue;
		size_t sp = 0;
		XGROW(b->stack, 1, b->astack);
		b->stack[sp++] = root;
		b->gstate[root] = 1;
		while (sp) {
			uint32_t t = b->stack[sp - 1];
			const struct gnode *nd = &g->v[t];
			uint32_t gv = 1;
			bool pushed = false;
			for (uint32_t k = 0; k < nd->npar; k++) {
				uint32_t p = g->par[nd->par + k];
				if (b->range_of[p] == r + 1 && b->gstate[p] == 0) {
					b->gstate[p] = 1;
					XGROW(b->stack, sp + 1, b->astack);
					b->stack[sp++] = p;
					pushed = true;
					break;
				}
				uint32_t pg = b->gen[p]; /* done (a DAG never has a parent on the stack) */
				if (gv && pg == 0)
					gv = 0;
				else if (gv && pg + 1 > gv)
					gv = pg + 1;
			}
			if (pushed)
				continue;
			b->gen[t] = gv;
			b->gstate[t] = 2;
			sp--;
		}
	}
}

static int fail_sql(struct history *h, const char *what, struct kcve_err *err)
{
	return kcve_err_set(err, KCVE_E_IO, "cannot write history index %s (%s: %s), check the disk and rerun 'kcve index --rebuild'",
			    h->index_path, what, sqlite3_errmsg(h->db));
}

static int write_ranges(struct history *h, struct builder1 *b, sqlite3_stmt *ins,
			sqlite3_stmt *rins, bool progress, struct kcve_err *err)
{
	const struct range_list *rl = b->ranges;
	struct graph *g = b->g;
	double last = 0;
	for (size_t r = 0; r < rl->n; r++) {
		const struct tag_range *tr = &rl->v[r];
		uint32_t to = node_find(g, &tr->to_oid);
		uint32_t from = tr->from[0] ? node_find(g, &tr->from_oid) : NIL;
		b->w.bad = NIL;
		if (to == NIL || (tr->from[0] && from == NIL) || walk_range(&b->w, to, from))
			return kcve_err_set(err, KCVE_E_NOREPO,
					    "cannot walk %s..%s (commit %s is missing or not a commit), check the repository with 'git fsck'",
					    tr->from, tr->to,
					    b->w.bad != NIL ? git_oid_tostr_s(&g->v[b->w.bad].oid) : "?");
		size_t count = 0;
		for (size_t s = 0; s < b->w.nout; s++) {
			uint32_t i = b->w.out[s];
			if (b->range_of[i])
				continue; /* stored by an earlier range */
			b->range_of[i] = (uint32_t)r + 1;
			if (write_node(ins, &g->v[i], tr))
				return fail_sql(h, "insert", err);
			count++;
		}
		range_generations(b, (uint32_t)r);
		if (index_range_insert(rins, tr, count))
			return fail_sql(h, "range insert", err);
		b->commits += count;
		double t = now_s();
		if (progress && (t - last >= 0.25 || r + 1 == rl->n)) {
			last = t;
			fprintf(stderr, "\rindexing: %zu/%zu ranges, %zu commits            ", r + 1,
				rl->n, b->commits);
			fflush(stderr);
		}
	}
	return 0;
}

static int write_generations(struct history *h, struct builder1 *b, sqlite3_stmt *gins,
			     struct kcve_err *err)
{
	if (!gins)
		return 0;
	const struct graph *g = b->g;
	struct gen_row *v = xmalloc((g->n + 1) * sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++)
		if (b->range_of[i] && b->gen[i]) {
			memcpy(v[n].id, g->v[i].oid.id, GIT_OID_RAWSZ);
			v[n++].gen = b->gen[i];
		}
	int rc = index_generations_insert(gins, v, n) ? fail_sql(h, "generation insert", err) : 0;
	free(v);
	return rc;
}

/* Read the graph with nthreads readers, this thread being one of them. */
static void read_all(struct reader *rd, int nthreads)
{
	int started = 1;
	while (started < nthreads && pthread_create(&rd[started].th, NULL, reader_main, &rd[started]) == 0)
		started++;
	rd[0].main_thread = true;
	reader_main(&rd[0]);
	for (int t = 1; t < started; t++)
		pthread_join(rd[t].th, NULL);
}

int index_build_onepass(struct history *h, const struct range_list *ranges, sqlite3_stmt *ins,
			sqlite3_stmt *rins, sqlite3_stmt *gins, bool progress, size_t *commits,
			struct kcve_err *err)
{
	struct graph g = {0};
	struct builder1 b = {0};
	int rc;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nthreads = ncpu < 1 ? 1 : ncpu > 4 ? 4 : (int)ncpu;
	struct reader rd[4];
	memset(rd, 0, sizeof(rd));
	*commits = 0;
	if (git_repository_odb(&g.odb, h->repo) < 0)
		return kcve_err_set(err, KCVE_E_NOREPO, "cannot open the object database of %s",
				    git_repository_path(h->repo));
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.cv, NULL);
	g.progress = progress;
	g.t0 = now_s();
	/* Every object is read once and each commit's id was just read from its child: checking
	 * the SHA-1 of every object read (libgit2's default, which git itself does not do when
	 * reading) would cost more than the rest of the parsing. Restored below. */
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
	/* seeds: every range's tags, the oldest range last so that it is read first (the read
	 * queue is a stack) */
	for (size_t r = ranges->n; r-- > 0;) {
		node_of(&g, &ranges->v[r].to_oid);
		if (ranges->v[r].from[0])
			node_of(&g, &ranges->v[r].from_oid);
	}
	for (int t = 0; t < nthreads; t++)
		rd[t].g = &g;
	read_all(rd, nthreads);
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
	if (progress) {
		g.last = 0;
		read_progress(&g, g.n);
		fputc('\n', stderr);
	}
	b.g = &g;
	b.ranges = ranges;
	b.w.g = &g;
	b.w.epoch = xcalloc(g.n + 1, sizeof(*b.w.epoch));
	b.w.fl = xcalloc(g.n + 1, sizeof(*b.w.fl));
	b.w.freecell = NIL;
	b.range_of = xcalloc(g.n + 1, sizeof(*b.range_of));
	b.gen = xcalloc(g.n + 1, sizeof(*b.gen));
	b.gstate = xcalloc(g.n + 1, 1);
	rc = write_ranges(h, &b, ins, rins, progress, err);
	if (progress)
		fputc('\n', stderr);
	if (!rc)
		rc = write_generations(h, &b, gins, err);
	*commits = b.commits;
	free(b.w.epoch);
	free(b.w.fl);
	free(b.w.cell);
	free(b.w.stack);
	free(b.w.out);
	free(b.range_of);
	free(b.gen);
	free(b.gstate);
	free(b.stack);
	for (int t = 0; t < nthreads; t++)
		reader_release(&rd[t]);
	free(g.v);
	free(g.ht);
	free(g.par);
	free(g.todo);
	pthread_mutex_destroy(&g.mu);
	pthread_cond_destroy(&g.cv);
	git_odb_free(g.odb);
	return rc;
}
