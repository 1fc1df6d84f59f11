/* A full index build in one pass.
 *
 * The per-range build (index_build.c) runs one libgit2 revwalk per release range, push the end
 * tag, hide the start tag: on a linux-stable history that is ~3,700 walks, each re-reading the
 * commits around its hidden tag, and every commit is read twice (the walk for its parents, the
 * writer for its message). Here every commit is read once:
 *
 *  - Read: a commit's raw object gives its parents and committer time (the graph, kept in
 *    memory) and its row data (trailers, subject, author, times), kept compactly in the
 *    reading thread's arena. Reader threads (one per core) read everything reachable from
 *    the ranges' tags, depth first from the oldest range's tag up, sharing the object database
 *    (libgit2's odb locks internally; inflating runs outside its locks).
 *  - Walk: meanwhile this thread replays each range's revwalk on the graph, in range order,
 *    with libgit2's own algorithm (revwalk.c of libgit2 1.5: the date-ordered list,
 *    uninteresting marking, the "slop" cut-off, the output filter), so each range yields
 *    exactly the commits, in exactly the order, that git_revwalk_next would; a commit belongs
 *    to the first range that yields it. A commit the walk needs that no reader has started
 *    on is read here.
 *  - Write: rows in that order (the rowids of the per-range build), the range rows, and the
 *    generation numbers, per range as index_build.c computes them.
 *
 * The index is the per-range build's, row for row (tests/history/onepass.py compares both on
 * random histories; KCVE_INDEX_PER_RANGE=1 selects the per-range build). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/progress.h"
#include "core/testhooks.h"
#include "core/xalloc.h"
#include "history/history_internal.h"
#include "history/trailers.h"
#include "core/text.h"

#define NIL UINT32_MAX

/* node states, in this order: a state >= NODE_READ is final */
enum { NODE_QUEUED, NODE_READING, NODE_READ, NODE_BAD };

/* One commit of the graph. Nodes live in fixed pages and never move, so the walking thread
 * reads a node without the lock once its state (stored last, with release order) is final. */
struct gnode {
	git_oid oid;
	uint16_t npar;
	uint8_t state;            /* atomic */
	uint8_t fl;               /* walk flags (walking thread only), valid when epoch matches */
	int64_t time;             /* committer time as libgit2 reads it (its revwalk's order) */
	const uint32_t *par;      /* parent nodes */
	const unsigned char *rec; /* row data (read_commit) in a reader's arena */
	uint32_t epoch;           /* the walk that fl belongs to */
	uint32_t range_of;        /* range index + 1 of the range that stored it, 0 = none */
	uint32_t gen;             /* generation number, 0 = unknown */
	uint8_t gstate;           /* generation DFS: 0 new, 1 on the stack, 2 done */
};

#define PAGE_BITS 16
#define PAGE_NODES (1u << PAGE_BITS)
#define MAX_PAGES (1u << 15) /* at most 2^31 nodes: node indexes are uint32_t, NIL excluded */
#define PAR_PAGE (1u << 20)

struct graph {
	pthread_mutex_t mu;
	pthread_cond_t cv;      /* readers: work queued, or stop */
	pthread_cond_t cv_main; /* the walking thread: the node it waits for is read */
	struct gnode **pages;   /* MAX_PAGES slots */
	size_t n;
	size_t max_nodes; /* MAX_PAGES * PAGE_NODES, or less for tests (KCVE_HOOK_MAX_COMMITS) */
	bool full;        /* a node was refused: the history has more commits than max_nodes */
	uint32_t *ht; /* node index + 1, 0 = empty; power-of-two capacity */
	size_t htcap;
	uint32_t **par_pages, *par_cur; /* parent lists, in pages that never move */
	size_t npar_pages, apar_pages, par_left;
	uint32_t *todo; /* nodes to read: a stack, so reads go depth first */
	size_t ntodo, atodo;
	uint32_t want; /* the node the walking thread waits for, NIL if none */
	bool stop;
	size_t nread;
	git_odb *odb;
	struct packset *pk; /* lock-free reads (packread.c), NULL: libgit2 only */
};

static inline struct gnode *node(const struct graph *g, uint32_t i)
{
	return &g->pages[i >> PAGE_BITS][i & (PAGE_NODES - 1)];
}

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

/* Caller holds the lock (from here down to node_find). */
static void ht_grow(struct graph *g)
{
	size_t cap = g->htcap ? g->htcap * 2 : 1 << 16;
	uint32_t *ht = xcalloc(cap, sizeof(*ht));
	for (uint32_t i = 0; i < g->n; i++) {
		size_t j = oid_slot(&node(g, i)->oid, cap);
		while (ht[j])
			j = (j + 1) & (cap - 1);
		ht[j] = i + 1;
	}
	free(g->ht);
	g->ht = ht;
	g->htcap = cap;
}

/* The node of o, added (and queued for reading) when new; NIL, with g->full set, when the graph
 * already holds max_nodes commits (a hostile or just enormous repository: the build then ends
 * with an error, see write_ranges). */
static uint32_t node_of(struct graph *g, const git_oid *o)
{
	if ((g->n + 1) * 2 > g->htcap)
		ht_grow(g);
	size_t j = oid_slot(o, g->htcap);
	for (; g->ht[j]; j = (j + 1) & (g->htcap - 1))
		if (git_oid_equal(&node(g, g->ht[j] - 1)->oid, o))
			return g->ht[j] - 1;
	if (g->n >= g->max_nodes) {
		g->full = true;
		return NIL;
	}
	uint32_t i = (uint32_t)g->n++;
	if (!(i & (PAGE_NODES - 1)))
		g->pages[i >> PAGE_BITS] = xcalloc(PAGE_NODES, sizeof(struct gnode));
	git_oid_cpy(&node(g, i)->oid, o);
	g->ht[j] = i + 1;
	XGROW(g->todo, g->ntodo + 1, g->atodo);
	g->todo[g->ntodo++] = i;
	return i;
}

static uint32_t node_find(const struct graph *g, const git_oid *o)
{
	for (size_t j = oid_slot(o, g->htcap); g->ht[j]; j = (j + 1) & (g->htcap - 1))
		if (git_oid_equal(&node(g, g->ht[j] - 1)->oid, o))
			return g->ht[j] - 1;
	return NIL;
}

static uint32_t *par_alloc(struct graph *g, size_t n)
{
	if (!n)
		return NULL;
	if (g->par_left < n) {
		size_t sz = n > PAR_PAGE ? n : PAR_PAGE;
		XGROW(g->par_pages, g->npar_pages + 1, g->apar_pages);
		g->par_cur = g->par_pages[g->npar_pages++] = xmalloc(sz * sizeof(uint32_t));
		g->par_left = sz;
	}
	uint32_t *p = g->par_cur;
	g->par_cur += n;
	g->par_left -= n;
	return p;
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
	struct strbuf rec, tmp, fixes, obj;
	struct pack_cursor pc;
	git_oid *pbuf; /* parents of the nodes read since the last store */
	size_t npbuf, apbuf;
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
	if (n)
		sb_add(sb, p, n);
}

static void put_id(struct strbuf *sb, const char *hex40)
{
	git_oid o;
	git_oid_fromstrn(&o, hex40, GIT_OID_HEXSZ);
	sb_add(sb, o.id, GIT_OID_RAWSZ);
}

struct readout {
	uint32_t idx;
	uint8_t state;
	int64_t time;
	size_t par_off, npar; /* parents: reader.pbuf[par_off ..] */
	const unsigned char *rec;
};

/* Read and parse one commit (no lock held). */
static void read_commit(struct reader *r, const git_oid *oid, struct readout *out)
{
	git_odb_object *obj = NULL;
	git_object_t type;
	const char *data;
	size_t len;
	uint32_t idx = out->idx;
	memset(out, 0, sizeof(*out));
	out->idx = idx;
	out->state = NODE_BAD;
	XGROW(r->pbuf, r->npbuf + 64, r->apbuf);
	if (packset_read(r->g->pk, &r->pc, oid, &r->obj, &type) == 0) {
		data = r->obj.buf;
		len = r->obj.len;
	} else if (git_odb_read(&obj, r->g->odb, oid) == 0) {
		type = git_odb_object_type(obj);
		data = git_odb_object_data(obj);
		len = git_odb_object_size(obj);
	} else {
		return;
	}
	if (type != GIT_OBJECT_COMMIT) {
		if (obj)
			git_odb_object_free(obj);
		return;
	}
	struct raw_commit rc;
	struct trailers t;
	commit_raw_parse(data, len, &rc);
	out->par_off = r->npbuf;
	out->npar = commit_raw_parents(&rc, r->pbuf + r->npbuf, r->apbuf - r->npbuf);
	if (r->npbuf + out->npar > r->apbuf) {
		XGROW(r->pbuf, r->npbuf + out->npar, r->apbuf);
		commit_raw_parents(&rc, r->pbuf + r->npbuf, out->npar);
	}
	r->npbuf += out->npar;
	if (out->npar > UINT16_MAX) { /* refused, never truncated: see store_locked */
		if (obj)
			git_odb_object_free(obj);
		return;
	}
	out->time = rc.walk_time;
	/* the upstream id is only stored for stable commits, but which range a commit belongs to
	 * is known only after the walk: parse it always (it changes nothing else) */
	trailers_parse(rc.msg, rc.msg_len, true, &t);
	sb_reset(&r->fixes);
	for (size_t i = 0; i < t.nfixes; i++)
		fixes_append(r->g->odb, r->g->pk, t.fixes[i].p, t.fixes[i].len, &r->fixes);
	commit_summary(rc.msg, rc.msg_len, &r->tmp);
	sb_reset(&r->rec);
	unsigned char flags = (t.upstream[0] ? REC_UPSTREAM : 0) | (t.reverts[0] ? REC_REVERTS : 0);
	sb_addc(&r->rec, (char)flags);
	if (t.upstream[0])
		put_id(&r->rec, t.upstream);
	if (t.reverts[0])
		put_id(&r->rec, t.reverts);
	put_span(&r->rec, r->fixes.buf, r->fixes.len);
	put_span(&r->rec, r->tmp.buf, r->tmp.len);
	put_span(&r->rec, rc.author, rc.author_len);
	int64_t times[2] = {rc.author_time, rc.commit_time};
	sb_add(&r->rec, times, sizeof times);
	if (obj)
		git_odb_object_free(obj);
	out->rec = arena_put(r, r->rec.buf, r->rec.len);
	out->state = NODE_READ;
}

/* Store what read_commit found about node idx; caller holds the lock. */
static void store_locked(struct graph *g, struct reader *r, const struct readout *ro)
{
	uint32_t idx = ro->idx;
	/* a commit with more parents than a node holds (65,535) is a bad node, marked by that
	 * count without parents, so the walk stops there with its own message; a merge that
	 * loses parents silently would make dyad place fixes in no release */
	bool too_many = ro->npar > UINT16_MAX;
	uint16_t np = too_many ? 0 : (uint16_t)ro->npar;
	uint8_t state = ro->state;
	uint32_t *par = par_alloc(g, np);
	for (size_t k = 0; k < np; k++) {
		par[k] = node_of(g, &r->pbuf[ro->par_off + k]);
		if (par[k] == NIL) { /* the graph is full (g->full): a bad node stops the walk */
			np = 0;
			state = NODE_BAD;
			break;
		}
	}
	struct gnode *nd = node(g, idx);
	nd->time = ro->time;
	nd->rec = ro->rec;
	nd->npar = too_many ? UINT16_MAX : np;
	nd->par = par;
	__atomic_store_n(&nd->state, state, __ATOMIC_RELEASE);
	g->nread++;
	if (g->want == idx)
		pthread_cond_signal(&g->cv_main);
	if (g->ntodo)
		pthread_cond_signal(&g->cv);
}

/* Nodes a reader takes at once when many are queued: one lock round trip per batch. */
#define READ_BATCH 8

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct graph *g = r->g;
	struct readout ro[READ_BATCH];
	pthread_mutex_lock(&g->mu);
	for (;;) {
		while (!g->ntodo && !g->stop)
			pthread_cond_wait(&g->cv, &g->mu);
		if (g->stop)
			break;
		size_t take = g->ntodo >= 4 * READ_BATCH ? READ_BATCH : 1, n = 0;
		while (n < take && g->ntodo) {
			uint32_t idx = g->todo[--g->ntodo];
			struct gnode *nd = node(g, idx);
			if (nd->state != NODE_QUEUED)
				continue; /* the walking thread read it itself */
			__atomic_store_n(&nd->state, NODE_READING, __ATOMIC_RELAXED);
			ro[n++].idx = idx;
		}
		if (!n)
			continue;
		pthread_mutex_unlock(&g->mu);
		r->npbuf = 0;
		for (size_t k = 0; k < n; k++)
			read_commit(r, &node(g, ro[k].idx)->oid, &ro[k]);
		pthread_mutex_lock(&g->mu);
		for (size_t k = 0; k < n; k++)
			store_locked(g, r, &ro[k]);
	}
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
	sb_release(&r->obj);
	pack_cursor_release(&r->pc);
}

/* ---- libgit2's revwalk, replayed on the graph --------------------------------------------
 * Per-walk flags are valid only where the node's epoch equals the walk's number, so starting
 * a walk costs nothing. "parsed" is per walk as in libgit2 (each revwalk has its own commit
 * pool): marking parents uninteresting only goes through commits this walk parsed. */

enum { F_SEEN = 1, F_UNINT = 2, F_ADDED = 4, F_PARSED = 8 };

struct cell {
	uint32_t item, next;
};

struct walker {
	struct graph *g;
	struct reader *self; /* this thread's reader, for the commits no reader has read yet */
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
	const struct gnode *nd = node(w->g, i);
	return nd->epoch == w->cur ? nd->fl : 0;
}

static inline void set_f(struct walker *w, uint32_t i, uint8_t f)
{
	struct gnode *nd = node(w->g, i);
	if (nd->epoch != w->cur) {
		nd->epoch = w->cur;
		nd->fl = 0;
	}
	nd->fl |= f;
}

static inline int64_t T(const struct walker *w, uint32_t i)
{
	return node(w->g, i)->time;
}

/* Wait until node i is read, reading it here if no reader has started on it. */
static uint8_t need(struct walker *w, uint32_t i)
{
	struct graph *g = w->g;
	struct gnode *nd = node(g, i);
	uint8_t st = __atomic_load_n(&nd->state, __ATOMIC_ACQUIRE);
	if (st >= NODE_READ)
		return st;
	pthread_mutex_lock(&g->mu);
	if (nd->state == NODE_QUEUED) {
		__atomic_store_n(&nd->state, NODE_READING, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&g->mu);
		struct readout ro = {.idx = i};
		w->self->npbuf = 0;
		read_commit(w->self, &nd->oid, &ro);
		pthread_mutex_lock(&g->mu);
		store_locked(g, w->self, &ro);
	} else {
		g->want = i;
		while (__atomic_load_n(&nd->state, __ATOMIC_ACQUIRE) < NODE_READ)
			pthread_cond_wait(&g->cv_main, &g->mu);
		g->want = NIL;
	}
	pthread_mutex_unlock(&g->mu);
	return __atomic_load_n(&nd->state, __ATOMIC_ACQUIRE);
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
	int64_t t = T(w, item);
	uint32_t *pp = head;
	while (*pp != NIL && !(T(w, w->cell[*pp].item) < t))
		pp = &w->cell[*pp].next;
	w->cell[c].next = *pp;
	*pp = c;
}

/* git_commit_list_parse: the commit's parents and time become known to this walk. */
static int parse(struct walker *w, uint32_t i)
{
	if (F(w, i) & F_PARSED)
		return 0;
	if (need(w, i) != NODE_READ) {
		w->bad = i;
		return -1;
	}
	set_f(w, i, F_PARSED);
	return 0;
}

static void mark_parents_uninteresting(struct walker *w, uint32_t c)
{
	size_t sp = 0;
	const struct gnode *nc = node(w->g, c);
	XGROW(w->stack, nc->npar, w->astack);
	for (uint32_t k = 0; k < nc->npar; k++)
		w->stack[sp++] = nc->par[k];
	while (sp) {
		uint32_t x = w->stack[--sp];
		while (x != NIL) {
			if (F(w, x) & F_UNINT)
				break;
			set_f(w, x, F_UNINT);
			if (!(F(w, x) & F_PARSED))
				break;
			const struct gnode *nx = node(w->g, x);
			XGROW(w->stack, sp + nx->npar, w->astack);
			for (uint32_t k = 0; k < nx->npar; k++)
				w->stack[sp++] = nx->par[k];
			x = nx->npar ? nx->par[0] : NIL;
		}
	}
}

static int add_parents_to_list(struct walker *w, uint32_t c, uint32_t *list)
{
	if (F(w, c) & F_ADDED)
		return 0;
	set_f(w, c, F_ADDED);
	const struct gnode *nc = node(w->g, c);
	if (F(w, c) & F_UNINT) {
		for (uint32_t k = 0; k < nc->npar; k++) {
			uint32_t p = nc->par[k];
			set_f(w, p, F_UNINT);
			if (parse(w, p))
				return -1;
			mark_parents_uninteresting(w, p);
			set_f(w, p, F_SEEN);
			list_insert_by_date(w, list, p);
		}
		return 0;
	}
	for (uint32_t k = 0; k < nc->npar; k++) {
		uint32_t p = nc->par[k];
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
	if (time <= T(w, w->cell[list].item))
		return SLOP;
	for (uint32_t c = list; c != NIL; c = w->cell[c].next) {
		uint32_t i = w->cell[c].item;
		if (!(F(w, i) & F_UNINT) || T(w, i) > time)
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
	uint32_t newlist = NIL, last = NIL; /* cells are indexes: cell_new may move them */
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
		time = T(w, c);
		uint32_t cell = cell_new(w, c, NIL);
		if (last == NIL)
			newlist = cell;
		else
			w->cell[last].next = cell;
		last = cell;
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
	w->cur++; /* one walk per range: never wraps */
	/* git_revwalk_push, git_revwalk_hide: each prepends to the user input */
	list_push(w, &user_input, to);
	if (from != NIL && !(F(w, from) & F_UNINT)) {
		limited = true;
		set_f(w, from, F_UNINT);
		list_push(w, &user_input, from);
	}
	/* prepare_walk (libgit2 1.5: each new input is prepended to the list to walk) */
	for (uint32_t c = user_input; c != NIL; c = w->cell[c].next) {
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

struct onepass {
	struct history *h;
	struct graph *g;
	struct walker w;
	uint32_t *stack; /* generation DFS */
	size_t astack;
	size_t commits;
};

/* Generation numbers of range r's new commits (w->out entries with range_of == r + 1),
 * exactly as index_build.c's range_generations: parents stored by earlier ranges give their
 * number, parents stored by no range so far count as unknown (0), which propagates. Every
 * parent of a yielded commit was parsed by the walk, so it is read. */
static void range_generations(struct onepass *op, uint32_t r)
{
	const struct graph *g = op->g;
	for (size_t s = 0; s < op->w.nout; s++) {
		uint32_t root = op->w.out[s];
		if (node(g, root)->range_of != r + 1 || node(g, root)->gstate)
			continue;
		size_t sp = 0;
		XGROW(op->stack, 1, op->astack);
		op->stack[sp++] = root;
		node(g, root)->gstate = 1;
		while (sp) {
			struct gnode *nd = node(g, op->stack[sp - 1]);
			uint32_t gv = 1;
			bool pushed = false;
			for (uint32_t k = 0; k < nd->npar; k++) {
				struct gnode *pn = node(g, nd->par[k]);
				if (pn->range_of == r + 1 && pn->gstate == 0) {
					pn->gstate = 1;
					XGROW(op->stack, sp + 1, op->astack);
					op->stack[sp++] = nd->par[k];
					pushed = true;
					break;
				}
				uint32_t pg = pn->gen; /* done (a DAG never has a parent on the stack) */
				if (gv && pg == 0)
					gv = 0;
				else if (gv && pg + 1 > gv)
					gv = pg + 1;
			}
			if (pushed)
				continue;
			nd->gen = gv;
			nd->gstate = 2;
			sp--;
		}
	}
}

static int fail_sql(struct history *h, const char *what, struct kcve_err *err)
{
	return kcve_err_set(err, KCVE_E_IO, "cannot write history index %s (%s: %s), check the disk and rerun 'kcve index --rebuild'",
			    h->index_path, what, sqlite3_errmsg(h->db));
}

static uint32_t find_locked(struct graph *g, const git_oid *o)
{
	pthread_mutex_lock(&g->mu);
	uint32_t i = node_find(g, o);
	pthread_mutex_unlock(&g->mu);
	return i;
}

static bool full_locked(struct graph *g)
{
	pthread_mutex_lock(&g->mu);
	bool full = g->full;
	pthread_mutex_unlock(&g->mu);
	return full;
}

static int write_ranges(struct onepass *op, const struct range_list *rl, sqlite3_stmt *ins,
			sqlite3_stmt *rins, bool progress, struct kcve_err *err)
{
	struct graph *g = op->g;
	double last = 0, t0 = now_s();
	for (size_t r = 0; r < rl->n; r++) {
		const struct tag_range *tr = &rl->v[r];
		uint32_t to = find_locked(g, &tr->to_oid);
		uint32_t from = tr->from[0] ? find_locked(g, &tr->from_oid) : NIL;
		op->w.bad = NIL;
		int wr = to == NIL || (tr->from[0] && from == NIL) ? -1 : walk_range(&op->w, to, from);
		if (wr && full_locked(g))
			return kcve_err_set(err, KCVE_E_LIMIT,
					    "cannot index %s: the history has more than %zu commits, "
					    "which kcve does not index", git_repository_path(op->h->repo),
					    g->max_nodes);
		if (wr && op->w.bad != NIL && node(g, op->w.bad)->npar == UINT16_MAX)
			return kcve_err_set(err, KCVE_E_LIMIT,
					    "cannot walk %s..%s: merge %s has more than 65,535 parents, "
					    "which kcve does not index (no parent is dropped silently)",
					    tr->from, tr->to, git_oid_tostr_s(&node(g, op->w.bad)->oid));
		if (wr)
			return kcve_err_set(err, KCVE_E_NOREPO,
					    "cannot walk %s..%s (commit %s is missing or not a commit), check the repository with 'git fsck'",
					    tr->from, tr->to,
					    op->w.bad != NIL ? git_oid_tostr_s(&node(g, op->w.bad)->oid) : "?");
		size_t count = 0;
		for (size_t s = 0; s < op->w.nout; s++) {
			struct gnode *nd = node(g, op->w.out[s]);
			if (nd->range_of)
				continue; /* stored by an earlier range */
			nd->range_of = (uint32_t)r + 1;
			if (write_node(ins, nd, tr))
				return fail_sql(op->h, "insert", err);
			count++;
		}
		range_generations(op, (uint32_t)r);
		if (index_range_insert(rins, tr, count))
			return fail_sql(op->h, "range insert", err);
		op->commits += count;
		double t = now_s();
		if (progress && (t - last >= 0.25 || r + 1 == rl->n)) {
			last = t;
			progress_draw("indexing: %zu/%zu ranges, %zu commits, %.0f commits/s", r + 1,
				      rl->n, op->commits, t > t0 ? (double)op->commits / (t - t0) : 0.0);
		}
	}
	return 0;
}

/* The known generation numbers, collected before the graph is freed. */
static struct gen_row *collect_generations(const struct graph *g, size_t *n)
{
	struct gen_row *v = xmalloc((g->n + 1) * sizeof(*v));
	*n = 0;
	for (uint32_t i = 0; i < g->n; i++) {
		const struct gnode *nd = node(g, i);
		if (nd->range_of && nd->gen) {
			memcpy(v[*n].id, nd->oid.id, GIT_OID_RAWSZ);
			v[(*n)++].gen = nd->gen;
		}
	}
	return v;
}

/* SQLite's page cache for the rest of the build: the inserts only touch the right edge of the
 * b-tree, and a large cache would sit beside the graph and the row data (peak RSS). The
 * index creation at the end is faster with the small cache too: on the 1.4 M-commit benchmark
 * history the three CREATE INDEX took 5.9 s with the 128 MiB one history.c sets, 2.5 s with
 * 16 MiB (the sorter merges cache-sized runs instead of sorting one large list). */
static void set_cache_size(sqlite3 *db, long long kib)
{
	char sql[64];
	text_snprintf(sql, sizeof(sql), "PRAGMA cache_size=%lld", kib);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* MAX_PAGES * PAGE_NODES, or the smaller limit of the test hook (1..2^31) so that a test reaches
 * the "too many commits" error with a small repository. */
static size_t max_nodes(void)
{
	size_t lim = (size_t)MAX_PAGES * PAGE_NODES;
	const char *s = getenv(KCVE_HOOK_MAX_COMMITS);
	char *end;
	if (s && *s >= '0' && *s <= '9') {
		unsigned long long v = strtoull(s, &end, 10);
		if (!*end && v >= 1 && v < lim)
			lim = (size_t)v;
	}
	return lim;
}

int index_build_onepass(struct history *h, const struct range_list *ranges, sqlite3_stmt *ins,
			sqlite3_stmt *rins, sqlite3_stmt *gins, bool progress, size_t *commits,
			struct kcve_err *err)
{
	struct graph g = {0};
	struct onepass op = {0};
	struct reader rd[4];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	/* one reader per core (at most 3: libgit2's pack locks), besides this thread, which mostly
	 * waits on SQLite or on a reader: with only one reader on 2 cores, the walk caught up with
	 * it and waited for ~1 in 4 commits (89k-commit history) */
	int nreaders = ncpu <= 2 ? 2 : ncpu > 3 ? 3 : (int)ncpu, started = 0;
	int rc;
	memset(rd, 0, sizeof(rd));
	*commits = 0;
	if (git_repository_odb(&g.odb, h->repo) < 0)
		return kcve_err_set(err, KCVE_E_NOREPO, "cannot open the object database of %s",
				    git_repository_path(h->repo));
	g.pk = packset_open_repo(h->repo);
	pthread_mutex_init(&g.mu, NULL);
	pthread_cond_init(&g.cv, NULL);
	pthread_cond_init(&g.cv_main, NULL);
	g.pages = xcalloc(MAX_PAGES, sizeof(*g.pages));
	g.max_nodes = max_nodes();
	g.want = NIL;
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
	for (int t = 0; t <= nreaders; t++)
		rd[t].g = &g;
	while (started < nreaders && pthread_create(&rd[started + 1].th, NULL, reader_main, &rd[started + 1]) == 0)
		started++;
	op.h = h;
	op.g = &g;
	op.w.g = &g;
	op.w.self = &rd[0];
	op.w.freecell = NIL;
	set_cache_size(h->db, -16384);
	rc = write_ranges(&op, ranges, ins, rins, progress, err);
	pthread_mutex_lock(&g.mu);
	g.stop = true;
	pthread_cond_broadcast(&g.cv);
	pthread_mutex_unlock(&g.mu);
	for (int t = 1; t <= started; t++)
		pthread_join(rd[t].th, NULL);
	git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
	if (progress)
		progress_newline();
	*commits = op.commits;
	free(op.w.cell);
	free(op.w.stack);
	free(op.w.out);
	free(op.stack);
	for (int t = 0; t <= nreaders; t++)
		reader_release(&rd[t]);
	size_t ngen = 0;
	struct gen_row *gv = rc || !gins ? NULL : collect_generations(&g, &ngen);
	for (size_t i = 0; i < MAX_PAGES && g.pages[i]; i++)
		free(g.pages[i]);
	free(g.pages);
	for (size_t i = 0; i < g.npar_pages; i++)
		free(g.par_pages[i]);
	free(g.par_pages);
	free(g.ht);
	free(g.todo);
	if (gv && index_generations_insert(gins, gv, ngen))
		rc = fail_sql(h, "generation insert", err);
	free(gv);
	pthread_mutex_destroy(&g.mu);
	pthread_cond_destroy(&g.cv);
	pthread_cond_destroy(&g.cv_main);
	git_odb_free(g.odb);
	packset_free(g.pk);
	return rc;
}
