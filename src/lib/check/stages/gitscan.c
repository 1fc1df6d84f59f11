#include "check/stages/gitscan.h"

#include <ctype.h>
#include <git2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/inputs/gitrefs.h"
#include "check/inputs/scancache.h"
#include "check/verdict/verdict.h"
#include "core/diag.h"
#include "core/error.h"
#include "core/progress.h"
#include "core/safefs.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/gitguard.h"

/* Open-addressing set of 20-byte object ids (an all-zero slot is empty; the zero id is never
 * a real commit). */
struct oidset {
	unsigned char (*v)[20];
	size_t n, cap;
};

static size_t oid_hash(const unsigned char *id)
{
	size_t h;
	memcpy(&h, id, sizeof h);
	return h;
}

static bool is_zero(const unsigned char *id)
{
	uint64_t a, b;
	uint32_t c;
	memcpy(&a, id, 8);
	memcpy(&b, id + 8, 8);
	memcpy(&c, id + 16, 4);
	return (a | b | c) == 0;
}

static void set_insert(struct oidset *s, const unsigned char *id);

static void set_grow(struct oidset *s)
{
	struct oidset old = *s;
	s->cap = old.cap ? old.cap * 2 : 1024;
	s->v = xcalloc(s->cap, 20);
	s->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (!is_zero(old.v[i]))
			set_insert(s, old.v[i]);
	free(old.v);
}

static void set_insert(struct oidset *s, const unsigned char *id)
{
	if (is_zero(id))
		return;
	if ((s->n + 1) * 2 > s->cap)
		set_grow(s);
	size_t m = s->cap - 1, i = oid_hash(id) & m;
	while (!is_zero(s->v[i])) {
		if (memcmp(s->v[i], id, 20) == 0)
			return;
		i = (i + 1) & m;
	}
	memcpy(s->v[i], id, 20);
	s->n++;
}

static bool set_has(const struct oidset *s, const unsigned char *id)
{
	if (!s->cap || is_zero(id))
		return false;
	size_t m = s->cap - 1, i = oid_hash(id) & m;
	while (!is_zero(s->v[i])) {
		if (memcmp(s->v[i], id, 20) == 0)
			return true;
		i = (i + 1) & m;
	}
	return false;
}

/* Hex digit values, -1 for other bytes (a table: this runs on every byte of every message). */
static signed char hextab[256];

static void hextab_init(void)
{
	memset(hextab, -1, sizeof hextab);
	for (int i = 0; i < 10; i++)
		hextab['0' + i] = (signed char)i;
	for (int i = 0; i < 6; i++) {
		hextab['a' + i] = (signed char)(10 + i);
		hextab['A' + i] = (signed char)(10 + i);
	}
}

static inline int hexval(int c)
{
	return hextab[c & 0xff];
}

static bool parse_hex40(const char *s, unsigned char out[20])
{
	for (int i = 0; i < 20; i++) {
		int a = hexval((unsigned char)s[2 * i]), b = hexval((unsigned char)s[2 * i + 1]);
		if (a < 0 || b < 0)
			return false;
		out[i] = (unsigned char)(a << 4 | b);
	}
	return true;
}

/* A growing list of 20-byte ids (one commit's parents or references). */
struct idlist {
	unsigned char (*v)[20];
	size_t n, alloc;
};

static void idlist_push(struct idlist *l, const unsigned char *id)
{
	XGROW(l->v, l->n + 1, l->alloc);
	memcpy(l->v[l->n++], id, 20);
}

/* "commit from names commit to" (a reference or a revert), sortable by either end. */
struct edge {
	unsigned char from[20], to[20];
};

struct edges {
	struct edge *v;
	size_t n, alloc;
};

struct ck_git {
	struct oidset commits, refs;
	struct oidset undone, live; /* reverts known to be undone / live (memo) */
	struct idlist stack;        /* reverts being decided (cycle guard) */
	struct edges ref_by_to, ref_by_from, rev_by_to; /* sorted after the walk */
	char head[41];
	size_t nread, ncached; /* commits read from objects / from the scan cache */
	unsigned ancestry;     /* gitguard_ancestry(): shallow, grafts, replace refs */
	char boundary[32];     /* a shallow clone's newest boundary release ("": unknown) */
	const struct kcve_diag *diag; /* warnings (NULL: the default sink) */
};

static void edges_add(struct edges *e, const unsigned char *from, const unsigned char *to, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		XGROW(e->v, e->n + 1, e->alloc);
		memcpy(e->v[e->n].from, from, 20);
		memcpy(e->v[e->n].to, to + 20 * k, 20);
		e->n++;
	}
}

static int cmp_to(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	int c = memcmp(x->to, y->to, 20);
	return c ? c : memcmp(x->from, y->from, 20);
}

static int cmp_from(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	int c = memcmp(x->from, y->from, 20);
	return c ? c : memcmp(x->to, y->to, 20);
}

/* The run of edges whose to (by_to) or from (!by_to) is id; returns its start, *n its length. */
static const struct edge *edges_find(const struct edges *e, const unsigned char *id, bool by_to, size_t *n)
{
	size_t lo = 0, hi = e->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (memcmp(by_to ? e->v[mid].to : e->v[mid].from, id, 20) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = lo;
	while (k < e->n && !memcmp(by_to ? e->v[k].to : e->v[k].from, id, 20))
		k++;
	*n = k - lo;
	return e->v + lo;
}


static int git_fail(struct kcve_err *err, int code, const char *what, const char *arg)
{
	const git_error *ge = git_error_last();
	return kcve_err_set(err, code, "%s %s (%s)", what, arg, ge && ge->message ? ge->message : "libgit2 error");
}

/* Abbreviated ids of (cherry picked from commit <id>) and reverts: the one object they name. */
static bool resolve_prefix(void *ctx, const char *hex, size_t n, unsigned char out[20])
{
	git_oid short_id, full;
	if (git_oid_fromstrn(&short_id, hex, n) < 0 || git_odb_exists_prefix(&full, ctx, &short_id, n) < 0)
		return false;
	memcpy(out, full.id, 20);
	return true;
}

/* Read one commit object: its parents and what its message carries / reverts. 1 read, 0 not a
 * commit / missing in a shallow clone (skip), -1 error. The pack reader (pr, buf) answers
 * first; what it cannot read comes through libgit2's guarded object database. */
static int read_commit(git_odb *odb, git_repository *repo, struct gitguard_reader *pr,
		       struct strbuf *buf, const git_oid *id, struct idlist *parents,
		       struct ck_msgrefs *refs)
{
	git_odb_object *o = NULL;
	git_object_t type;
	const char *data;
	size_t len;
	if (gitguard_reader_read(pr, id, buf, &type) == 0) {
		data = buf->buf;
		len = buf->len;
	} else if (git_odb_read(&o, odb, id) < 0) {
		return git_repository_is_shallow(repo) ? 0 : -1; /* history cut off on purpose */
	} else {
		type = git_odb_object_type(o);
		data = git_odb_object_data(o);
		len = git_odb_object_size(o);
	}
	if (type != GIT_OBJECT_COMMIT) {
		git_odb_object_free(o);
		return 0;
	}
	const char *p = data, *end = data + len;
	while (p < end && *p != '\n') {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		unsigned char par[20];
		if (eol - p == 47 && memcmp(p, "parent ", 7) == 0 && parse_hex40(p + 7, par))
			idlist_push(parents, par);
		p = eol < end ? eol + 1 : end;
	}
	if (p < end)
		ck_scan_message(refs, p + 1, (size_t)(end - p - 1), resolve_prefix, odb);
	else
		refs->refs.n = refs->reverts.n = 0;
	git_odb_object_free(o);
	return 1;
}

/* Default cache location: next to the history index, in the repository's (common) git dir. */
static char *default_cache_path(git_repository *repo)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, git_repository_commondir(repo));
	if (sb.len && sb.buf[sb.len - 1] != '/')
		sb_addc(&sb, '/');
	sb_adds(&sb, "kcve-scan.cache");
	return sb_detach(&sb);
}

/* Depth-first walk from head: every commit object is read and inflated at most once (both its
 * parents and its message come from that one read; libgit2's revwalk would parse each commit
 * a second time), and not at all when the scan cache knows it. The commit set doubles as the
 * "seen" set. */
static int walk(struct ck_git *g, git_repository *repo, git_odb *odb, const git_oid *head,
		struct scan_cache *cache, const char *path, struct kcve_err *err)
{
	int rc = 0;
	git_oid *stack = NULL;
	size_t nstack = 0, astack = 0;
	struct idlist parents = {0};
	struct ck_msgrefs mr = {0};
	struct gitguard_reader *pr = gitguard_reader_open(repo);
	struct strbuf buf = STRBUF_INIT;
	XGROW(stack, 1, astack);
	stack[nstack++] = *head;
	struct progress pg;
	size_t seen = 0;
	progress_begin(&pg, "scanning commits", 0);
	while (nstack && rc == 0) {
		git_oid id = stack[--nstack];
		if (set_has(&g->commits, id.id))
			continue;
		progress_update(&pg, ++seen);
		/* the commit's parents, references and reverts: from the cache, else from its object */
		struct scan_entry e;
		if (cache && scan_cache_get(cache, id.id, &e)) {
			g->ncached++;
		} else {
			parents.n = 0;
			int r = read_commit(odb, repo, pr, &buf, &id, &parents, &mr);
			if (r < 0) {
				const char *why = gitguard_reader_why(pr, &id);
				char hex[GIT_OID_HEXSZ + 1];
				git_oid_tostr(hex, sizeof hex, &id);
				rc = why ? kcve_err_set(err, KCVE_E_GENERIC, "cannot read %s: object %s "
							"is damaged: %s; repair it (git fsck) or clone "
							"it again", path, hex, why)
					 : git_fail(err, KCVE_E_GENERIC, "missing commit object in", path);
				break;
			}
			if (r == 0)
				continue;
			g->nread++;
			e.parents = parents.n ? parents.v[0] : NULL;
			e.nparents = parents.n;
			e.refs = mr.refs.n ? mr.refs.v[0] : NULL;
			e.nrefs = mr.refs.n;
			e.reverts = mr.reverts.n ? mr.reverts.v[0] : NULL;
			e.nreverts = mr.reverts.n;
			if (cache) /* e points into the lists, not the cache: still valid */
				scan_cache_add(cache, id.id, &e);
		}
		set_insert(&g->commits, id.id);
		XGROW(stack, nstack + e.nparents, astack);
		for (size_t k = 0; k < e.nparents; k++)
			memcpy(stack[nstack++].id, e.parents + 20 * k, 20);
		for (size_t k = 0; k < e.nrefs; k++)
			set_insert(&g->refs, e.refs + 20 * k);
		edges_add(&g->ref_by_to, id.id, e.refs, e.nrefs);
		edges_add(&g->rev_by_to, id.id, e.reverts, e.nreverts);
	}
	progress_end(&pg, seen);
	gitguard_reader_free(pr);
	sb_release(&buf);
	free(stack);
	free(parents.v);
	ck_msgrefs_free(&mr);
	if (rc == 0) {
		struct edges *f = &g->ref_by_from;
		f->n = f->alloc = g->ref_by_to.n;
		f->v = f->n ? xmalloc(f->n * sizeof *f->v) : NULL;
		if (f->n)
			memcpy(f->v, g->ref_by_to.v, f->n * sizeof *f->v);
		if (f->n > 1) {
			qsort(g->ref_by_to.v, g->ref_by_to.n, sizeof(struct edge), cmp_to);
			qsort(f->v, f->n, sizeof(struct edge), cmp_from);
		}
		if (g->rev_by_to.n > 1)
			qsort(g->rev_by_to.v, g->rev_by_to.n, sizeof(struct edge), cmp_to);
	}
	return rc;
}

int ck_git_open(struct ck_git **out, const char *path, const char *ref, const char *cache_path,
		bool use_cache, const struct kcve_diag *diag, struct kcve_err *err)
{
	*out = NULL;
	hextab_init();
	git_libgit2_init();
	/* each object is read once: libgit2's object cache would only cost memory */
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 0);
	git_repository *repo = NULL;
	if (git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 1);
		git_libgit2_shutdown();
		return kcve_err_set(err, KCVE_E_NOREPO,
				    "%s is not a git repository; pass the kernel tree to check with --git", path);
	}
	int rc = 0;
	git_object *obj = NULL;
	git_odb *odb = NULL;
	struct scan_cache *cache = NULL;
	char *cpath = NULL;
	struct ck_git *g = xcalloc(1, sizeof *g);
	g->diag = diag;
	const char *rev = ref ? ref : "HEAD";
	if ((rc = gitguard_install(repo, err)))
		goto out;
	if ((g->ancestry = gitguard_ancestry(repo)) == GITGUARD_SHALLOW &&
	    !gitguard_shallow_release(repo, g->boundary, sizeof g->boundary))
		g->boundary[0] = '\0';
	if (g->ancestry)
		diag_warn(diag, "%s has %s: commits are missing or their parents rewritten, so \"not "
			  "affected\" by git can be wrong; use a full clone (git fetch --unshallow, "
			  "remove info/grafts and refs/replace/)", path, gitguard_ancestry_text(g->ancestry));
	if (git_revparse_single(&obj, repo, rev) < 0) {
		rc = git_fail(err, KCVE_E_NOTFOUND, "cannot resolve revision", rev);
		goto out;
	}
	git_object *peeled = NULL;
	if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
		rc = git_fail(err, KCVE_E_NOTFOUND, "revision is not a commit:", rev);
		goto out;
	}
	git_oid head = *git_object_id(peeled);
	git_object_free(peeled);
	git_oid_tostr(g->head, sizeof g->head, &head);
	if (git_repository_odb(&odb, repo) < 0) {
		rc = git_fail(err, KCVE_E_GENERIC, "cannot open the object database of", path);
		goto out;
	}
	if (use_cache) {
		cpath = cache_path ? xstrdup(cache_path) : default_cache_path(repo);
		const char *why = NULL;
		cache = scan_cache_load(cpath, &why);
		if (why && strcmp(why, "no cache file yet")) {
			char *cp = safe_printable(cpath);
			diag_warn(diag, "ignoring the scan cache %s: %s", cp, why);
			free(cp);
		}
	}
	rc = walk(g, repo, odb, &head, cache, path, err);
	if (!rc && cache) {
		struct kcve_err serr = {0};
		/* a cache that cannot be written costs speed next time, not correctness */
		if (scan_cache_save(cache, cpath, &serr))
			diag_warn(diag, "%s", serr.msg);
	}
out:
	scan_cache_free(cache);
	free(cpath);
	git_odb_free(odb);
	git_object_free(obj);
	git_repository_free(repo);
	git_libgit2_opts(GIT_OPT_ENABLE_CACHING, 1);
	git_libgit2_shutdown();
	if (rc) {
		ck_git_close(g);
		return rc;
	}
	*out = g;
	return 0;
}

size_t ck_git_read_count(const struct ck_git *g)
{
	return g->nread;
}

size_t ck_git_cached_count(const struct ck_git *g)
{
	return g->ncached;
}

size_t ck_git_commit_count(const struct ck_git *g)
{
	return g->commits.n;
}

size_t ck_git_reference_count(const struct ck_git *g)
{
	return g->refs.n;
}

const char *ck_git_head(const struct ck_git *g)
{
	return g->head;
}

bool ck_git_contains(const struct ck_git *g, const char *sha40)
{
	unsigned char id[20];
	return strlen(sha40) == 40 && parse_hex40(sha40, id) && set_has(&g->commits, id);
}

bool ck_git_references(const struct ck_git *g, const char *sha40)
{
	unsigned char id[20];
	return strlen(sha40) == 40 && parse_hex40(sha40, id) && set_has(&g->refs, id);
}

void ck_git_close(struct ck_git *g)
{
	if (!g)
		return;
	free(g->commits.v);
	free(g->refs.v);
	free(g->ref_by_to.v);
	free(g->ref_by_from.v);
	free(g->rev_by_to.v);
	free(g->undone.v);
	free(g->live.v);
	free(g->stack.v);
	free(g);
}

/* Reverts: a commit x of the tree is undone when a live commit of the tree reverts it or one
 * of the ids it carries (a backport B of F is undone by "This reverts commit B" as well as by a
 * backported mainline revert "This reverts commit F"); a revert is live unless it is undone
 * itself (a revert of the revert), and so on to the end of the chain. Answers are memoised per
 * commit, so a crafted tree with many reverts of reverts costs linear time; a chain deeper than
 * REVERT_DEPTH (or a cycle, which real ids cannot form) counts as a live revert: the CVE stays
 * open, the safe answer. */
#define REVERT_DEPTH 1000

static bool undone_by(struct ck_git *g, const unsigned char *x, int depth, const unsigned char **by);

static bool on_stack(const struct ck_git *g, const unsigned char *x)
{
	for (size_t i = 0; i < g->stack.n; i++)
		if (!memcmp(g->stack.v[i], x, 20))
			return true;
	return false;
}

/* Is revert commit r undone itself (memoised)? */
static bool revert_undone(struct ck_git *g, const unsigned char *r, int depth)
{
	if (set_has(&g->undone, r))
		return true;
	if (set_has(&g->live, r))
		return false;
	if (depth >= REVERT_DEPTH || on_stack(g, r))
		return false;
	idlist_push(&g->stack, r);
	bool u = undone_by(g, r, depth + 1, NULL);
	g->stack.n--;
	set_insert(u ? &g->undone : &g->live, r);
	return u;
}

static bool undone_via(struct ck_git *g, const unsigned char *target, int depth, const unsigned char **by)
{
	size_t n;
	const struct edge *r = edges_find(&g->rev_by_to, target, true, &n);
	for (size_t i = 0; i < n; i++)
		if (!revert_undone(g, r[i].from, depth)) {
			if (by)
				*by = r[i].from;
			return true;
		}
	return false;
}

static bool undone_by(struct ck_git *g, const unsigned char *x, int depth, const unsigned char **by)
{
	if (undone_via(g, x, depth, by))
		return true;
	size_t n;
	const struct edge *c = edges_find(&g->ref_by_from, x, false, &n);
	for (size_t i = 0; i < n; i++)
		if (undone_via(g, c[i].to, depth, by))
			return true;
	return false;
}

enum presence { ABSENT, ANCESTOR, CARRIED, REVERTED };

/* Is the change of commit sha in the tree: the commit itself as an ancestor, or a commit whose
 * message says it carries it (gitrefs.h), and at least one of those not undone by a revert?
 * *by: the carrying commit, or the revert when every copy is undone. */
static enum presence presence_of(struct ck_git *g, const char *sha, unsigned char by[20])
{
	unsigned char id[20];
	if (strlen(sha) != 40 || !parse_hex40(sha, id))
		return ABSENT;
	const unsigned char *rev = NULL;
	bool any = false;
	if (set_has(&g->commits, id)) {
		any = true;
		if (!undone_by(g, id, 0, &rev)) {
			memcpy(by, id, 20);
			return ANCESTOR;
		}
	}
	size_t n;
	const struct edge *c = edges_find(&g->ref_by_to, id, true, &n);
	for (size_t i = 0; i < n; i++) {
		any = true;
		if (!undone_by(g, c[i].from, 0, &rev)) {
			memcpy(by, c[i].from, 20);
			return CARRIED;
		}
	}
	if (any && rev)
		memcpy(by, rev, 20);
	return any ? REVERTED : ABSENT;
}

/* Whether record r, not introduced by git, may be so only because its introducing commit is
 * missing: the release (vver) of such a pair, else NULL. In a shallow clone whose boundary
 * release is known, a commit released after it would be inside the history, so only pairs
 * introduced in that release or before are in doubt; grafts and replace refs rewrite ancestry
 * anywhere, so every record is. */
static const char *maybe_beyond(const struct ck_git *g, const struct ck_record *r)
{
	if (!g->ancestry)
		return NULL;
	bool bounded = g->ancestry == GITGUARD_SHALLOW && g->boundary[0];
	for (size_t k = 0; k < r->pairs.n; k++) {
		const struct ck_pair *p = &r->pairs.v[k];
		if (!strcmp(p->vsha, "0"))
			continue;
		if (!bounded || kver_cmp_str(p->vver, g->boundary) <= 0)
			return p->vver;
	}
	return NULL;
}

void ck_run_git(struct ck_set *s, struct ck_git *g, const char *label, const char *release,
		struct ck_result *out)
{
	ck_result_init(out, s, label, release);
	struct kver v;
	if (release)
		kver_parse(&v, release);
	for (size_t i = 0; i < s->n; i++) {
		struct ck_record *r = &s->v[i];
		struct ck_entry *e = &out->e[i];
		e->rec = i;
		e->stage = "git";
		bool usable = false, introduced = false;
		const char *intro = NULL, *fix = NULL, *reverted = NULL;
		enum presence fix_how = ABSENT;
		unsigned char by[20] = {0}, rev_by[20] = {0};
		/* same-release pairs count too: at an -rc tag the introducing commit can be in the
		 * tree without the fix */
		for (size_t k = 0; k < r->pairs.n; k++) {
			const struct ck_pair *p = &r->pairs.v[k];
			usable = true;
			enum presence h = introduced || !strcmp(p->vsha, "0") ? ANCESTOR : presence_of(g, p->vsha, by);
			if (!introduced && (h == ANCESTOR || h == CARRIED)) {
				introduced = true;
				intro = p->vsha;
			}
		}
		for (size_t k = 0; k <= r->pairs.n + r->nfixes && !fix; k++) {
			const char *f = k < r->pairs.n ? r->pairs.v[k].fsha
					: k - r->pairs.n < r->nfixes ? r->fixes[k - r->pairs.n] : NULL;
			if (!f || strcmp(f, "0") == 0)
				continue;
			enum presence h = presence_of(g, f, by);
			if (h == ANCESTOR || h == CARRIED) {
				fix = f;
				fix_how = h;
			} else if (h == REVERTED && !reverted) {
				reverted = f;
				memcpy(rev_by, by, 20);
			}
		}
		char byhex[41], revhex[41];
		git_oid_fmt(byhex, (const git_oid *)by);
		byhex[40] = '\0';
		git_oid_fmt(revhex, (const git_oid *)rev_by);
		revhex[40] = '\0';
		struct strbuf sb = STRBUF_INIT;
		if (!usable) {
			e->outcome = CK_OUT_NO_DATA;
			sb_adds(&sb, "record has no vulnerable:fixed pair");
		} else if (!introduced) {
			e->outcome = CK_OUT_NOT_INTRODUCED;
			sb_adds(&sb, "no introducing commit is in the tree");
			const char *vver = maybe_beyond(g, r);
			if (vver) { /* it may lie beyond the boundary: not a conclusion */
				sb_addf(&sb, " (unreliable: the repository has %s)",
					gitguard_ancestry_text(g->ancestry));
				if (g->boundary[0])
					diag_warn(g->diag, "%s: not introduced by git, but its introducing commit "
						  "(released in %s) may lie beyond the shallow clone's "
						  "boundary (release %s)", r->id, vver, g->boundary);
				else
					diag_warn(g->diag, "%s: not introduced by git, but the repository has %s: "
						  "the introducing commit may be beyond it", r->id,
						  gitguard_ancestry_text(g->ancestry));
			}
		} else if (fix) {
			e->outcome = CK_OUT_FIXED;
			if (fix_how == ANCESTOR)
				sb_addf(&sb, "fix %.12s is an ancestor", fix);
			else
				sb_addf(&sb, "fix %.12s carried by %.12s (a cherry-picked / backported commit)", fix,
					byhex);
		} else {
			e->outcome = CK_OUT_AFFECTED;
			if (strcmp(intro, "0") == 0)
				sb_adds(&sb, "introduction unknown (always present), ");
			else
				sb_addf(&sb, "introduced by %.12s, ", intro);
			if (reverted)
				sb_addf(&sb, "fix %.12s reverted by %.12s", reverted, revhex);
			else
				sb_adds(&sb, "no fix in the tree");
		}
		e->reason = sb_detach(&sb);
		if (release) {
			enum ck_vstatus j = ck_record_semver_verdict(r, &v);
			e->semver = (unsigned char)j;
			bool aff = ck_outcome_kept(e->outcome);
			if (usable && j != CK_ST_UNKNOWN && aff != (j == CK_ST_AFFECTED)) {
				e->disagree = true;
				out->ndisagree++;
			}
		}
	}
	ck_result_push_stage(out, "git");
}

unsigned ck_git_ancestry(const struct ck_git *g)
{
	return g ? g->ancestry : 0;
}

const struct ck_git_ops ck_git_libgit2 = {
	ck_git_open, ck_git_close, ck_run_git, ck_git_commit_count, ck_git_read_count,
	ck_git_cached_count, ck_git_reference_count, ck_git_ancestry,
};
