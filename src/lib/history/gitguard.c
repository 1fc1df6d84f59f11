#include "history/gitguard.h"

#include <errno.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/history_internal.h"
#include "core/text.h"

/* One guarded backend: ours in front of libgit2's (inner); ps shared by all of a repository's
 * backends (the last one freed frees it). */
struct guard {
	git_odb_backend parent;
	git_odb_backend *inner;
	bool packed;
	struct packset *ps;
	int *refs;
};

/* libgit2's error carries the message to the caller's one line */
static int refuse(const char *why)
{
	git_error_set_str(GIT_ERROR_ODB, why);
	return GIT_ERROR;
}



/* 0 when id may be read through inner, else GIT_ERROR with libgit2's error set. */
static int guard_check(struct guard *g, const git_oid *id)
{
	git_object_t type;
	size_t size = 0;
	const char *why = NULL;
	char msg[200], hex[GIT_OID_HEXSZ + 1];
	git_oid_tostr(hex, sizeof(hex), id);
	if (g->packed) {
		int r = packset_check(g->ps, id, &type, &size, &why);
		if (r < 0) {
			text_snprintf(msg, sizeof(msg), "object %s is damaged: %s", hex, why);
			return refuse(msg);
		}
		if (r > 0)
			return 0;
	} else if (g->inner->read_header(&size, &type, g->inner, id) < 0) {
		return 0; /* not here: the inner read says so */
	}
	if (size > GITGUARD_MAX_OBJECT) {
		text_snprintf(msg, sizeof(msg), "object %s declares %zu bytes, more than the %zu MiB limit",
			 hex, size, GITGUARD_MAX_OBJECT >> 20);
		return refuse(msg);
	}
	return 0;
}

static int g_read(void **data, size_t *len, git_object_t *type, git_odb_backend *b,
		  const git_oid *id)
{
	struct guard *g = (struct guard *)b;
	int rc = guard_check(g, id);
	return rc ? rc : g->inner->read(data, len, type, g->inner, id);
}

static int g_read_prefix(git_oid *out, void **data, size_t *len, git_object_t *type,
			 git_odb_backend *b, const git_oid *short_id, size_t n)
{
	struct guard *g = (struct guard *)b;
	int rc = g->inner->exists_prefix(out, g->inner, short_id, n);
	return rc ? rc : g_read(data, len, type, b, out);
}

static int g_read_header(size_t *len, git_object_t *type, git_odb_backend *b, const git_oid *id)
{
	struct guard *g = (struct guard *)b;
	int rc = g->packed ? guard_check(g, id) : 0;
	return rc ? rc : g->inner->read_header(len, type, g->inner, id);
}

static int g_exists(git_odb_backend *b, const git_oid *id)
{
	struct guard *g = (struct guard *)b;
	return g->inner->exists(g->inner, id);
}

static int g_exists_prefix(git_oid *out, git_odb_backend *b, const git_oid *short_id, size_t n)
{
	struct guard *g = (struct guard *)b;
	return g->inner->exists_prefix(out, g->inner, short_id, n);
}

static int g_refresh(git_odb_backend *b)
{
	struct guard *g = (struct guard *)b;
	return g->inner->refresh ? g->inner->refresh(g->inner) : 0;
}

static int g_foreach(git_odb_backend *b, git_odb_foreach_cb cb, void *payload)
{
	struct guard *g = (struct guard *)b;
	return g->inner->foreach(g->inner, cb, payload);
}

static void g_free(git_odb_backend *b)
{
	struct guard *g = (struct guard *)b;
	g->inner->free(g->inner);
	if (--*g->refs == 0) {
		packset_free(g->ps);
		free(g->refs);
	}
	free(g);
}

static int add_guarded(git_odb *odb, git_odb_backend *inner, bool packed, struct packset *ps,
		       int *refs, int prio)
{
	struct guard *g = xcalloc(1, sizeof(*g));
	git_odb_init_backend(&g->parent, GIT_ODB_BACKEND_VERSION);
	g->inner = inner;
	inner->odb = odb;
	g->packed = packed;
	g->ps = ps;
	g->refs = refs;
	++*refs;
	g->parent.read = g_read;
	g->parent.read_prefix = g_read_prefix;
	g->parent.read_header = g_read_header;
	g->parent.exists = g_exists;
	g->parent.exists_prefix = g_exists_prefix;
	g->parent.refresh = g_refresh;
	g->parent.foreach = g_foreach;
	g->parent.free = g_free;
	if (git_odb_add_backend(odb, &g->parent, prio) < 0) {
		g_free(&g->parent);
		return -1;
	}
	return 0;
}

int gitguard_install(git_repository *repo, struct kcve_err *err)
{
	struct strbuf dir = STRBUF_INIT;
	sb_addf(&dir, "%sobjects", git_repository_commondir(repo));
	struct packset *ps = packset_scan(sb_str(&dir));
	const char *problem = packset_problem(ps);
	if (problem) {
		int rc = kcve_err_set(err, KCVE_E_NOREPO, "refusing the repository %s: %s; fix or "
				      "remove objects/info/alternates", git_repository_commondir(repo),
				      problem);
		packset_free(ps);
		sb_release(&dir);
		return rc;
	}
	sb_release(&dir);
	git_odb *odb = NULL;
	int *refs = xcalloc(1, sizeof(*refs));
	*refs = 1; /* ours until the backends are added */
	const char *const *dirs;
	size_t nd = packset_dirs(ps, &dirs);
	int rc = git_odb_new(&odb);
	for (size_t i = 0; !rc && i < nd; i++) {
		git_odb_backend *pack = NULL, *loose = NULL;
		/* priorities as libgit2's own: packs before loose objects, the repository's own
		 * directory before its alternates */
		int prio = i ? 1 : 2;
		rc = git_odb_backend_pack(&pack, dirs[i]) < 0 ||
		     add_guarded(odb, pack, true, ps, refs, prio * 2) < 0 ||
		     git_odb_backend_loose(&loose, dirs[i], -1, 0, 0, 0) < 0 ||
		     add_guarded(odb, loose, false, ps, refs, prio * 2 - 1) < 0;
	}
	if (!rc)
		rc = git_repository_set_odb(repo, odb) < 0;
	git_odb_free(odb);
	if (--*refs == 0) {
		packset_free(ps);
		free(refs);
	}
	if (rc)
		return kcve_err_set(err, KCVE_E_NOREPO, "cannot open the objects of %s (%s)",
				    git_repository_commondir(repo),
				    git_error_last() ? git_error_last()->message : "?");
	return 0;
}

int gitguard_open(git_repository **out, const char *path, int code_norepo, struct kcve_err *err)
{
	*out = NULL;
	git_repository *repo = NULL;
	git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, GITGUARD_CACHE_MAX);
	if (git_repository_open_ext(&repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
		return kcve_err_set(err, code_norepo, "%s is not a git repository (%s)", path,
				    git_error_last() ? git_error_last()->message : "?");
	int rc = gitguard_install(repo, err);
	if (rc) {
		git_repository_free(repo);
		return rc;
	}
	*out = repo;
	return 0;
}

static bool has_file(git_repository *repo, const char *rel)
{
	struct strbuf p = STRBUF_INIT;
	struct stat st;
	sb_addf(&p, "%s%s", git_repository_commondir(repo), rel);
	bool r = stat(sb_str(&p), &st) == 0 && st.st_size > 0;
	sb_release(&p);
	return r;
}

unsigned gitguard_ancestry(git_repository *repo)
{
	unsigned bits = 0;
	if (git_repository_is_shallow(repo) == 1 || has_file(repo, "shallow"))
		bits |= GITGUARD_SHALLOW;
	if (has_file(repo, "info/grafts"))
		bits |= GITGUARD_GRAFTS;
	git_reference_iterator *it = NULL;
	git_reference *ref;
	if (git_reference_iterator_glob_new(&it, repo, "refs/replace/*") == 0) {
		if (git_reference_next(&ref, it) == 0) {
			bits |= GITGUARD_REPLACE;
			git_reference_free(ref);
		}
		git_reference_iterator_free(it);
	}
	return bits;
}

const char *gitguard_ancestry_text(unsigned bits)
{
	static char buf[96];
	text_snprintf(buf, sizeof(buf), "%s%s%s%s%s", bits & GITGUARD_SHALLOW ? "a shallow clone" : "",
		 (bits & GITGUARD_SHALLOW) && (bits & ~1u) ? ", " : "",
		 bits & GITGUARD_GRAFTS ? "grafts (info/grafts)" : "",
		 (bits & GITGUARD_GRAFTS) && (bits & GITGUARD_REPLACE) ? ", " : "",
		 bits & GITGUARD_REPLACE ? "replace refs (refs/replace/)" : "");
	return buf;
}

bool gitguard_is_shallow_boundary(git_repository *repo, const git_oid *id)
{
	struct strbuf p = STRBUF_INIT, sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid_tostr(hex, sizeof(hex), id);
	sb_addf(&p, "%sshallow", git_repository_commondir(repo));
	bool r = read_file_capped(sb_str(&p), &sb, (size_t)64 << 20) == 0 && strstr(sb_str(&sb), hex);
	sb_release(&p);
	sb_release(&sb);
	return r;
}

/* The release the top Makefile of commit id declares ("" when unreadable). */
static bool commit_release(git_repository *repo, const git_oid *id, char *out, size_t outsz)
{
	git_commit *c = NULL;
	git_tree *tree = NULL;
	git_blob *blob = NULL;
	bool ok = false;
	const git_tree_entry *te;
	if (git_commit_lookup(&c, repo, id) == 0 && git_commit_tree(&tree, c) == 0 &&
	    (te = git_tree_entry_byname(tree, "Makefile")) &&
	    git_blob_lookup(&blob, repo, git_tree_entry_id(te)) == 0) {
		/* the version lines are at the top: a bounded, NUL-terminated copy of the start */
		size_t n = (size_t)git_blob_rawsize(blob);
		struct strbuf sb = STRBUF_INIT;
		sb_add(&sb, git_blob_rawcontent(blob), n < 65536 ? n : 65536);
		ok = kver_from_makefile(sb_str(&sb), out, outsz);
		sb_release(&sb);
	}
	git_blob_free(blob);
	git_tree_free(tree);
	git_commit_free(c);
	return ok;
}

bool gitguard_shallow_release(git_repository *repo, char *out, size_t outsz)
{
	struct strbuf p = STRBUF_INIT, sb = STRBUF_INIT;
	sb_addf(&p, "%sshallow", git_repository_commondir(repo));
	bool ok = read_file_capped(sb_str(&p), &sb, (size_t)64 << 20) == 0, any = false;
	struct kver best;
	for (const char *line = sb_str(&sb); ok && *line;) {
		size_t n = strcspn(line, "\n");
		git_oid id;
		char rel[32];
		if (n == GIT_OID_HEXSZ && git_oid_fromstrn(&id, line, n) == 0 &&
		    commit_release(repo, &id, rel, sizeof(rel))) {
			struct kver v;
			kver_parse(&v, rel);
			if (!any || kver_cmp(&v, &best) > 0) {
				best = v;
				text_snprintf(out, outsz, "%s", rel);
			}
			any = true;
		} else if (n) {
			ok = false; /* a boundary whose release is unknown: any commit may be beyond */
		}
		line += n + (line[n] == '\n');
	}
	sb_release(&p);
	sb_release(&sb);
	return ok && any;
}

struct gitguard_reader {
	struct packset *ps;
	struct pack_cursor pc;
};

struct gitguard_reader *gitguard_reader_open(git_repository *repo)
{
	struct packset *ps = packset_open_repo(repo);
	if (!ps)
		return NULL;
	struct gitguard_reader *r = xcalloc(1, sizeof(*r));
	r->ps = ps;
	return r;
}

int gitguard_reader_read(struct gitguard_reader *r, const git_oid *id, struct strbuf *out,
			 git_object_t *type)
{
	return r ? packset_read(r->ps, &r->pc, id, out, type) : -1;
}

const char *gitguard_reader_why(struct gitguard_reader *r, const git_oid *id)
{
	git_object_t type;
	size_t size = 0;
	const char *why = NULL;
	if (!r)
		return NULL;
	int rc = packset_check(r->ps, id, &type, &size, &why);
	if (rc < 0)
		return why;
	return rc == 0 && size > GITGUARD_MAX_OBJECT ? "it declares more bytes than the 256 MiB limit"
						     : NULL;
}

void gitguard_reader_free(struct gitguard_reader *r)
{
	if (!r)
		return;
	pack_cursor_release(&r->pc);
	packset_free(r->ps);
	free(r);
}
