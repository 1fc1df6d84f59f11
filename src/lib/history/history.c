/* Opening the repository and its index, and the lookups dyad and records use.
 * Lookups are memoised per process: batch runs ask about the same commits again and again. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/assert.h"
#include "core/diag.h"
#include "core/fileio.h"
#include "core/sha.h"
#include "core/xalloc.h"
#include "history/gitguard.h"
#include "history/history_internal.h"
#include "core/text.h"

git_repository *history_git(struct history *h)
{
	return h->repo;
}

const char *history_index_path(const struct history *h)
{
	return h->index_path;
}

/* Build a fresh index next to the final path and rename it into place, so an interrupted
 * build never leaves a half-written index behind. */
static int build_fresh(struct history *h, const struct range_list *ranges, const char *fp,
		       unsigned flags,
		       struct history_index_stats *st, struct kcve_err *err)
{
	struct strbuf tsb = STRBUF_INIT;
	sb_addf(&tsb, "%s.tmp%ld", h->index_path, (long)getpid());
	char *tmp = sb_detach(&tsb);
	unlink(tmp);
	int rc = index_db_open(tmp, true, &h->db, err);
	if (!rc)
		rc = index_db_exec(h->db,
				   "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
				   "PRAGMA cache_size=-131072; PRAGMA locking_mode=EXCLUSIVE;",
				   err);
	if (!rc)
		rc = index_db_create_schema(h->db, err);
	if (!rc)
		rc = index_update(h, ranges, fp, flags, st, err);
	if (!rc)
		rc = index_db_exec(h->db, "PRAGMA journal_mode=WAL;", err);
	sqlite3_close(h->db);
	h->db = NULL;
	if (!rc) {
		/* a stale WAL of the replaced file must not be replayed into the new one */
		struct strbuf side = STRBUF_INIT;
		sb_addf(&side, "%s-wal", h->index_path);
		unlink(sb_str(&side));
		sb_reset(&side);
		sb_addf(&side, "%s-shm", h->index_path);
		unlink(sb_str(&side));
		sb_release(&side);
		if (rename(tmp, h->index_path) != 0)
			rc = kcve_err_set(err, KCVE_E_IO, "cannot move the new index to %s: %s",
					  h->index_path, strerror(errno));
	}
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* Lookups read the index through a memory map instead of one pread() per page: a 10,000-CVE
 * dyad batch on the 1.4 M-commit benchmark spent about a third of its time in read syscalls
 * (2.8 s -> 2.4 s CPU; the mapped pages count as RSS but are page cache, not heap). */
#define INDEX_READ_PRAGMAS " PRAGMA mmap_size=1073741824;"

static int check_schema(struct history *h, struct kcve_err *err)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(h->db, "SELECT version FROM schema_version", -1, &s, NULL);
	if (rc != SQLITE_OK) {
		int code = sqlite3_errcode(h->db);
		if (code == SQLITE_NOTADB || code == SQLITE_CORRUPT || code == SQLITE_CANTOPEN ||
		    code == SQLITE_IOERR)
			return kcve_err_set(err, KCVE_E_INDEX,
					    "history index %s is unreadable or corrupt (%s), rerun 'kcve index --rebuild'",
					    h->index_path, sqlite3_errmsg(h->db));
		return kcve_err_set(err, KCVE_E_SCHEMA,
				    "history index %s has an older schema (no version table), rerun 'kcve index --rebuild'",
				    h->index_path);
	}
	int ver = -1;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		ver = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return kcve_err_set(err, KCVE_E_INDEX,
				    "history index %s is unreadable or corrupt (%s), rerun 'kcve index --rebuild'",
				    h->index_path, sqlite3_errmsg(h->db));
	if (ver < HISTORY_SCHEMA_VERSION)
		return kcve_err_set(err, KCVE_E_SCHEMA,
				    "history index %s has schema version %d, this kcve needs %d, rerun 'kcve index --rebuild'",
				    h->index_path, ver, HISTORY_SCHEMA_VERSION);
	if (ver > HISTORY_SCHEMA_VERSION)
		return kcve_err_set(err, KCVE_E_SCHEMA,
				    "history index %s has schema version %d, newer than this kcve's %d, upgrade kcve or rerun 'kcve index --rebuild'",
				    h->index_path, ver, HISTORY_SCHEMA_VERSION);
	return 0;
}

static int prepare(struct history *h, struct kcve_err *err)
{
	if (sqlite3_prepare_v2(h->db,
			       "SELECT release, mainline, mainline_id, reverts, fixes, subject, author,"
			       " author_time, commit_time FROM commits WHERE id = ?1",
			       -1, &h->st_row, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h->db, "SELECT id FROM commits WHERE mainline_id = ?1 ORDER BY rowid",
			       -1, &h->st_backports, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h->db, "SELECT id FROM commits WHERE reverts = ?1 ORDER BY rowid", -1,
			       &h->st_reverted, NULL) != SQLITE_OK)
		return kcve_err_set(err, KCVE_E_INDEX,
				    "history index %s is unreadable (%s), rerun 'kcve index --rebuild'",
				    h->index_path, sqlite3_errmsg(h->db));
	/* optional: indexes written before generation numbers existed lack the table */
	if (sqlite3_prepare_v2(h->db, "SELECT gen FROM generations WHERE id = ?1", -1, &h->st_gen,
			       NULL) != SQLITE_OK)
		h->st_gen = NULL;
	return 0;
}

int history_open_ex(struct history **out, const char *repo_path, const char *index_path,
		    unsigned flags, struct history_index_stats *st, const struct kcve_diag *diag,
		    struct kcve_err *err)
{
	struct history *h = xcalloc(1, sizeof(*h));
	h->diag = diag;
	struct range_list ranges = {0};
	int rc;
	*out = NULL;
	if (st)
		memset(st, 0, sizeof(*st));
	git_libgit2_init();
	/* Bound memory on huge histories (target: a 1.4 M-commit index build under 1 GiB RSS).
	 * The object cache only has to keep one tag range's commits between the revwalk reading
	 * them and the indexer reading them again; pack files are mapped in 64 MiB windows, at
	 * most 256 MiB at a time, instead of libgit2's 1 GiB windows up to 8 GiB. */
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)96 * 1024 * 1024);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)64 * 1024 * 1024);
	git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)256 * 1024 * 1024);
	if (!repo_path || !*repo_path)
		repo_path = ".";
	if (git_repository_open_ext(&h->repo, repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
		rc = kcve_err_set(err, KCVE_E_NOREPO,
				  "not a git repository, %s, pass --repo DIR or set KCVE_REPO to a linux-stable clone",
				  repo_path);
		goto fail;
	}
	if ((rc = gitguard_install(h->repo, err)))
		goto fail;
	unsigned rewrites = gitguard_ancestry(h->repo);
	if (rewrites)
		diag_warn(diag, "%s has %s: the index misses commits or follows rewritten parents, "
			  "so fixes and introductions can be missed; use a full clone", repo_path,
			  gitguard_ancestry_text(rewrites));
	if (index_path && *index_path) {
		h->index_path = xstrdup(index_path);
	} else {
		h->index_path = path_join(git_repository_path(h->repo), "kcve-index.sqlite");
	}
	bool exists = path_exists(h->index_path);
	char fp[17], stored_fp[64] = "";
	tags_fingerprint(h->repo, fp);
	if (exists && !(flags & HISTORY_REBUILD)) {
		if ((rc = index_db_open(h->index_path, false, &h->db, err)))
			goto fail;
		if ((rc = check_schema(h, err)))
			goto fail;
		if ((rc = index_db_exec(h->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;" INDEX_READ_PRAGMAS, err)))
			goto fail;
		if (flags & HISTORY_NO_UPDATE)
			goto ready;
		index_meta_get(h->db, "tags_fingerprint", stored_fp, sizeof(stored_fp));
		if (strcmp(fp, stored_fp) == 0) {
			if (st) {
				sqlite3_stmt *q;
				if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM ranges", -1, &q, NULL) == SQLITE_OK) {
					if (sqlite3_step(q) == SQLITE_ROW)
						st->ranges_total = (size_t)sqlite3_column_int64(q, 0);
					sqlite3_finalize(q);
				}
			}
			goto ready;
		}
	} else if (!exists && (flags & HISTORY_NO_UPDATE)) {
		rc = kcve_err_set(err, KCVE_E_INDEX, "no history index at %s, run 'kcve index' first",
				  h->index_path);
		goto fail;
	}
	if ((rc = ranges_discover(h->repo, &ranges, err))) {
		if (rc == KCVE_E_NOTAGS)
			text_snprintf(err->msg + strlen(err->msg), sizeof(err->msg) - strlen(err->msg),
				 ", %s, fetch the tags (git fetch --tags) or point --repo at a linux-stable clone",
				 repo_path);
		goto fail;
	}
	if (!h->db) {
		if (!(flags & HISTORY_QUIET) && !exists)
			diag_note(diag, "building the history index %s", h->index_path);
		if ((rc = build_fresh(h, &ranges, fp, flags, st, err)))
			goto fail;
		if ((rc = index_db_open(h->index_path, false, &h->db, err)))
			goto fail;
		if ((rc = check_schema(h, err)))
			goto fail;
		if ((rc = index_db_exec(h->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;" INDEX_READ_PRAGMAS, err)))
			goto fail;
	} else {
		bool current;
		if ((rc = index_is_current(h->db, &ranges, &current, err)))
			goto fail;
		if (!current) {
			if (!(flags & HISTORY_QUIET))
				diag_note(diag, "updating the history index %s", h->index_path);
			if ((rc = index_update(h, &ranges, fp, flags, st, err)))
				goto fail;
		} else {
			if (st)
				st->ranges_total = ranges.n;
			if ((rc = index_meta_set(h->db, "tags_fingerprint", fp, err)))
				goto fail;
		}
	}
ready:
	if ((rc = prepare(h, err)))
		goto fail;
	range_list_release(&ranges);
	*out = h;
	return 0;
fail:
	range_list_release(&ranges);
	history_close(h);
	return rc;
}

int history_open(struct history **out, const char *repo_path, const char *index_path,
		 struct kcve_err *err)
{
	return history_open_ex(out, repo_path, index_path, 0, NULL, NULL, err);
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void free_memo_entry(void *p)
{
	struct memo_entry *e = p;
	free((char *)e->c.release);
	free((char *)e->c.fixes);
	free((char *)e->c.subject);
	free((char *)e->c.author);
	free(e);
}

/* Values of the ancestry memo (any two distinct non-NULL pointers). */
static char anc_answers[2];
#define ANC_YES ((void *)&anc_answers[1])
#define ANC_NO ((void *)&anc_answers[0])

void history_close(struct history *h)
{
	if (!h)
		return;
	sqlite3_finalize(h->st_row);
	sqlite3_finalize(h->st_backports);
	sqlite3_finalize(h->st_reverted);
	sqlite3_finalize(h->st_gen);
	if (h->db)
		sqlite3_close(h->db);
	strmap_free(&h->memo, free_memo_entry);
	strmap_free(&h->anc, NULL);
	free_list(h->not_fixes, h->n_not_fixes);
	free_list(h->not_reverts, h->n_not_reverts);
	if (h->repo)
		git_repository_free(h->repo);
	free(h->index_path);
	free(h);
	git_libgit2_shutdown();
}

int history_resolve(struct history *h, const char *rev, char out[41], struct kcve_err *err)
{
	git_object *obj = NULL;
	git_object *commit = NULL;
	size_t n = strlen(rev);
	int rc;
	/* a hex string is an object id prefix, never a ref name */
	if (n >= 4 && n <= GIT_OID_HEXSZ && is_hex_n(rev, n)) {
		git_oid id;
		git_oid_fromstrn(&id, rev, n);
		rc = git_object_lookup_prefix(&obj, h->repo, &id, n, GIT_OBJECT_ANY);
	} else {
		rc = git_revparse_single(&obj, h->repo, rev);
	}
	if (rc == 0 && git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) == 0) {
		git_oid_tostr(out, 41, git_object_id(commit));
		git_object_free(commit);
		git_object_free(obj);
		return 0;
	}
	git_object_free(obj);
	return kcve_err_set(err, KCVE_E_NOTFOUND,
			    "the git id '%s' could not be found in the repository%s, check the id or fetch the repository",
			    rev, rc == GIT_EAMBIGUOUS ? " (ambiguous short id)" : "");
}

/* ---- memoised row lookups ---------------------------------------------------------------- */

static char *col_dup(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);
	return xstrdup(t ? (const char *)t : "");
}

static void col_sha(sqlite3_stmt *s, int i, char out[41])
{
	const unsigned char *t = sqlite3_column_text(s, i);
	text_snprintf(out, 41, "%s", t ? (const char *)t : "");
}

static void lookup_failed(struct history *h, const char *what)
{
	if (!h->failure.code)
		kcve_err_set(&h->failure, KCVE_E_INDEX,
			     "history index %s is unreadable (%s while looking up %s), rerun 'kcve index --rebuild'",
			     h->index_path, sqlite3_errmsg(h->db), what);
}

const struct history_commit *history_commit(struct history *h, const char *sha40)
{
	if (!sha40 || strlen(sha40) != 40)
		return NULL;
	struct memo_entry *e = strmap_get(&h->memo, sha40);
	if (e)
		return e->present ? &e->c : NULL;
	e = xcalloc(1, sizeof(*e));
	sqlite3_stmt *s = h->st_row;
	sqlite3_bind_text(s, 1, sha40, 40, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		e->present = true;
		memcpy(e->c.id, sha40, 41);
		e->c.release = col_dup(s, 0);
		e->c.mainline = sqlite3_column_int(s, 1) != 0;
		col_sha(s, 2, e->c.upstream);
		col_sha(s, 3, e->c.reverts);
		e->c.fixes = col_dup(s, 4);
		e->c.subject = col_dup(s, 5);
		e->c.author = col_dup(s, 6);
		e->c.author_time = sqlite3_column_int64(s, 7);
		e->c.commit_time = sqlite3_column_int64(s, 8);
	} else if (rc != SQLITE_DONE) {
		lookup_failed(h, sha40);
	}
	sqlite3_reset(s);
	KCVE_ASSERT(!e->present || e->c.release); /* history.h: never NULL for an indexed commit */
	strmap_put(&h->memo, sha40, e);
	return e->present ? &e->c : NULL;
}

const char *history_release(struct history *h, const char *sha40)
{
	const struct history_commit *c = history_commit(h, sha40);
	return c ? c->release : NULL;
}

long long history_commit_time(struct history *h, const char *sha40)
{
	const struct history_commit *c = history_commit(h, sha40);
	if (c)
		return c->commit_time;
	git_oid id;
	git_commit *cm;
	if (git_oid_fromstr(&id, sha40) < 0 || git_commit_lookup(&cm, h->repo, &id) < 0)
		return -1;
	long long t = (long long)git_commit_time(cm);
	git_commit_free(cm);
	return t;
}

void history_shas_release(struct history_shas *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void history_shas_push(struct history_shas *l, const char *sha40)
{
	XGROW(l->v, l->n + 1, l->alloc);
	text_snprintf(l->v[l->n++], 41, "%s", sha40);
}

bool history_shas_contains(const struct history_shas *l, const char *sha40)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], sha40) == 0)
			return true;
	return false;
}

static int id_query(struct history *h, sqlite3_stmt *s, const char *sha40, struct history_shas *out)
{
	sqlite3_bind_text(s, 1, sha40, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		history_shas_push(out, (const char *)sqlite3_column_text(s, 0));
	sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		lookup_failed(h, sha40);
		return KCVE_E_INDEX;
	}
	return 0;
}

int history_backports(struct history *h, const char *sha40, struct history_shas *out)
{
	return id_query(h, h->st_backports, sha40, out);
}

int history_reverted_by(struct history *h, const char *sha40, struct history_shas *out)
{
	return id_query(h, h->st_reverted, sha40, out);
}

/* Generation number of a commit from the index, 0 when unknown. */
static uint32_t gen_of(struct history *h, const git_oid *o)
{
	uint32_t v = 0;
	sqlite3_bind_blob(h->st_gen, 1, o->id, GIT_OID_RAWSZ, SQLITE_STATIC);
	if (sqlite3_step(h->st_gen) == SQLITE_ROW)
		v = (uint32_t)sqlite3_column_int64(h->st_gen, 0);
	sqlite3_reset(h->st_gen);
	return v;
}

/* Visited set for gen_descendant (open addressing on the first bytes of the id). */
struct visit {
	git_oid *v;
	size_t n, cap;
};

static bool visit_add(struct visit *s, const git_oid *o)
{
	if ((s->n + 1) * 2 > s->cap) {
		struct visit ns = {xcalloc(s->cap ? s->cap * 2 : 256, sizeof(git_oid)), s->n,
				   s->cap ? s->cap * 2 : 256};
		for (size_t i = 0; i < s->cap; i++) {
			if (git_oid_is_zero(&s->v[i]))
				continue;
			size_t j;
			memcpy(&j, s->v[i].id, sizeof(j));
			for (j &= ns.cap - 1; !git_oid_is_zero(&ns.v[j]); j = (j + 1) & (ns.cap - 1))
				;
			ns.v[j] = s->v[i];
		}
		free(s->v);
		*s = ns;
	}
	size_t j;
	memcpy(&j, o->id, sizeof(j));
	for (j &= s->cap - 1; !git_oid_is_zero(&s->v[j]); j = (j + 1) & (s->cap - 1))
		if (git_oid_equal(&s->v[j], o))
			return false;
	s->v[j] = *o;
	s->n++;
	return true;
}

/* Is a a descendant of b, answered with the index's generation numbers: 1 yes, 0 no, -1 the
 * index cannot tell (no generations, unknown ones, or a walk too large to be worth it).
 * gen(a) <= gen(b) rules it out at once (an ancestor's generation is always smaller); else
 * walk a's ancestors, skipping every commit whose generation is not above gen(b), since b
 * cannot be among its ancestors. libgit2's merge-base search has no such cut-off and can
 * walk most of a 1.4 M-commit history for one answer. */
static int gen_descendant(struct history *h, const git_oid *a, const git_oid *b)
{
	if (!h->st_gen)
		return -1;
	uint32_t ga = gen_of(h, a), gb = gen_of(h, b);
	if (!ga || !gb)
		return -1;
	if (ga <= gb)
		return 0;
	struct visit seen = {0};
	git_oid *stack = NULL;
	size_t sp = 0, alloc = 0, steps = 0;
	int res = 0;
	XGROW(stack, 1, alloc);
	stack[sp++] = *a;
	visit_add(&seen, a);
	while (sp && res == 0) {
		git_oid c = stack[--sp];
		git_commit *cm;
		if (++steps > 200000 || git_commit_lookup(&cm, h->repo, &c) < 0) {
			res = -1;
			break;
		}
		unsigned np = git_commit_parentcount(cm);
		for (unsigned k = 0; k < np && res == 0; k++) {
			const git_oid *p = git_commit_parent_id(cm, k);
			if (git_oid_equal(p, b)) {
				res = 1;
				break;
			}
			uint32_t gp = gen_of(h, p);
			if (gp == 0)
				res = -1;
			else if (gp > gb && visit_add(&seen, p)) {
				XGROW(stack, sp + 1, alloc);
				stack[sp++] = *p;
			}
		}
		git_commit_free(cm);
	}
	free(stack);
	free(seen.v);
	return res;
}

bool history_descendant_of(struct history *h, const char *a40, const char *b40)
{
	git_oid a, b;
	if (strlen(a40) != 40 || strlen(b40) != 40 || git_oid_fromstr(&a, a40) < 0 ||
	    git_oid_fromstr(&b, b40) < 0)
		return false;
	char key[82];
	text_snprintf(key, sizeof(key), "%s:%s", a40, b40);
	void *known = strmap_get(&h->anc, key);
	if (!known) {
		int r = gen_descendant(h, &a, &b);
		bool val = r >= 0 ? r == 1 : git_graph_descendant_of(h->repo, &a, &b) == 1;
		known = val ? ANC_YES : ANC_NO;
		strmap_put(&h->anc, key, known);
	}
	return known == ANC_YES;
}
