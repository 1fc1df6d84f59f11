/* Reading the CVE record tree: discovery, directory walks, id and sha lookups (the writer lock
 * is lock.c, which replays journals, txn.c: this file calls neither).
 *
 * The tree is the only database: every query walks cve/<state>/<year>/ directories. A CVE is
 * identified by any file named CVE-YYYY-N or CVE-YYYY-N.<ext> in such a directory; files of
 * an interrupted atomic write (".tmp.") are ignored. */
#include "store/tree.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/assert.h"
#include "core/cveid.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/sha.h"
#include "core/strbuf.h"
#include "core/testhooks.h"
#include "core/xalloc.h"
#include "store/tree_internal.h"
#include "core/text.h"
#include "core/kjson.h"

static const enum cve_state all_states[] = {CVE_PUBLISHED, CVE_REJECTED, CVE_RESERVED,
					    CVE_RETURNED};

const char *cve_state_dir(enum cve_state s)
{
	switch (s) {
	case CVE_RESERVED: return "reserved";
	case CVE_PUBLISHED: return "published";
	case CVE_REJECTED: return "rejected";
	case CVE_RETURNED: return "returned";
	}
	return "?";
}

/* Length of the CVE id at the start of name ("CVE-2024-12345"), 0 if none. */
size_t cve_id_prefix_len(const char *name)
{
	if (strncmp(name, "CVE-", 4) != 0)
		return 0;
	const char *p = name + 4;
	size_t y = 0;
	while (isdigit((unsigned char)p[y]))
		y++;
	if (y != 4 || p[4] != '-')
		return 0;
	p += 5;
	size_t n = 0;
	while (isdigit((unsigned char)p[n]))
		n++;
	if (n < 4 || n > 19) /* the CVE JSON 5 schema's rule (core/cveid.h) */
		return 0;
	return 9 + n;
}

bool cve_id_valid(const char *id)
{
	return cveid_valid(id);
}

int cve_id_year(const char *id)
{
	if (!cve_id_prefix_len(id))
		return -1;
	return atoi(id + 4);
}

long cve_id_number(const char *id)
{
	if (!cve_id_prefix_len(id))
		return -1;
	return strtol(id + 9, NULL, 10); /* LONG_MAX past 19 digits' range: cveid_cmp orders */
}

void cve_entry_release(struct cve_entry *e)
{
	if (e) {
		free(e->dir);
		e->dir = NULL;
	}
}

char *tree_cve_path(const struct cve_entry *e, const char *ext)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/%s%s", e->dir, e->id, ext ? ext : "");
	return sb_detach(&sb);
}

int tree_record_root_check(const struct cve_entry *e, const char *path, struct json_t *root,
			   struct kcve_err *err)
{
	json_t *meta = json_object_get(root, "cveMetadata"), *id = json_object_get(meta, "cveId");
	if (!id) /* the legacy bash tool's 5.0 records (rejected ones) spell it "cveID" */
		id = json_object_get(meta, "cveID");
	if (!json_is_string(id))
		return kcve_err_set(err, KCVE_E_PARSE, "%s is not a CVE JSON 5 record (no "
				    "cveMetadata.cveId)", path);
	return cveid_check_record(path, json_string_value(id), json_string_length(id), e->id, err);
}

int tree_record_id_check(const struct cve_entry *e, struct kcve_err *err)
{
	char *p = tree_cve_path(e, ".json");
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	if (read_file(p, &sb) < 0) {
		if (errno != ENOENT)
			rc = kcve_err_set(err, KCVE_E_IO, "cannot read %s: %s", p, safefs_reason(errno));
	} else {
		json_error_t je;
		json_t *root = kj_loadb(sb.buf, sb.len, 0, &je);
		rc = root ? tree_record_root_check(e, p, root, err)
			  : kcve_err_set(err, KCVE_E_PARSE, "malformed JSON in %s (line %d: %s)", p,
					 je.line, je.text);
		json_decref(root);
	}
	sb_release(&sb);
	free(p);
	return rc;
}

const char *tree_root(const struct cve_tree *t)
{
	return t->root;
}

char *tree_state_year_dir(const struct cve_tree *t, enum cve_state s, int year)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/cve/%s/%d", t->root, cve_state_dir(s), year);
	return sb_detach(&sb);
}

static bool looks_like_tree(const char *dir)
{
	char *a = path_join(dir, "cve/published"), *b = path_join(dir, "cve/reserved");
	bool ok = is_dir(a) || is_dir(b);
	free(a);
	free(b);
	return ok;
}

int tree_open(struct cve_tree **out, const char *path, struct kcve_err *err)
{
	*out = NULL;
	char *root = NULL;
	if (!path || !*path)
		path = getenv("KCVE_TREE");
	if (path && *path) {
		if (!looks_like_tree(path))
			return kcve_err_set(err, KCVE_E_TREE,
					    "not a CVE record tree (no cve/published or cve/reserved), "
					    "%s, pass the vulns checkout with --tree", path);
		root = realpath(path, NULL);
		if (!root)
			root = xstrdup(path);
	} else {
		char *cwd = getcwd(NULL, 0);
		if (!cwd)
			return kcve_err_set(err, KCVE_E_TREE, "cannot read the current directory, "
					    "., pass --tree DIR");
		for (;;) {
			if (looks_like_tree(cwd)) {
				root = cwd;
				break;
			}
			char *slash = strrchr(cwd, '/');
			if (!slash || slash == cwd) {
				if (slash == cwd && cwd[1] && (cwd[1] = '\0', looks_like_tree(cwd))) {
					root = cwd;
					break;
				}
				free(cwd);
				return kcve_err_set(err, KCVE_E_TREE,
						    "no CVE record tree found above the current "
						    "directory, ., pass --tree DIR or set KCVE_TREE");
			}
			*slash = '\0';
		}
	}
	/* the root is opened once; every file below it is reached relative to this descriptor
	 * without following links (safefs.h) */
	int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		kcve_err_set(err, KCVE_E_TREE, "cannot open the record tree: %s, %s, check "
			     "permissions", strerror(e), root);
		free(root);
		return KCVE_E_TREE;
	}
	struct cve_tree *t = xcalloc(1, sizeof(*t));
	t->root = root;
	t->rootfd = fd;
	t->owner = st.st_uid;
	t->lockfd = -1;
	safefs_guard(root, fd);
	*out = t;
	return 0;
}

bool tree_trusted_owner(const struct cve_tree *t, uid_t uid)
{
	return uid == t->owner || uid == geteuid();
}

static void sha_index_free(struct cve_tree *t)
{
	for (size_t i = 0; i < t->nshas; i++)
		free(t->shas[i].dir);
	free(t->shas);
	t->shas = NULL;
	t->nshas = t->ashas = 0;
	t->sha_index_valid = false;
}

void tree_close(struct cve_tree *t)
{
	if (!t)
		return;
	while (t->lockdepth > 0)
		tree_unlock(t);
	sha_index_free(t);
	safefs_unguard(t->rootfd);
	close(t->rootfd);
	free(t->root);
	free(t);
}

void tree_invalidate(struct cve_tree *t)
{
	sha_index_free(t);
}

/* ---- walking ---------------------------------------------------------------------------- */

struct entry_vec {
	struct cve_entry *v;
	size_t n, alloc;
};

static int cmp_entry(const void *a, const void *b)
{
	const struct cve_entry *x = a, *y = b;
	if (x->year != y->year)
		return x->year < y->year ? -1 : 1;
	int c = cveid_cmp(x->id, y->id);
	if (c)
		return c;
	return (int)x->state - (int)y->state;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Years present under cve/<state>/ (numeric directory names), sorted. */
size_t tree_years(const struct cve_tree *t, enum cve_state s, int **out)
{
	*out = NULL;
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/cve/%s", t->root, cve_state_dir(s));
	DIR *d = dir_open(sb.buf);
	sb_release(&sb);
	if (!d)
		return 0;
	int *v = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *p = de->d_name;
		if (strlen(p) != 4 || !isdigit((unsigned char)p[0]) || !isdigit((unsigned char)p[1]) ||
		    !isdigit((unsigned char)p[2]) || !isdigit((unsigned char)p[3]))
			continue;
		XGROW(v, n + 1, alloc);
		v[n++] = atoi(p);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_int);
	*out = v;
	return n;
}

bool tree_is_temp_name(const char *name)
{
	return strstr(name, ".tmp.") != NULL;
}

/* Distinct ids in one state/year directory. */
static void collect_dir(const struct cve_tree *t, enum cve_state s, int year, struct entry_vec *ev)
{
	char *dir = tree_state_year_dir(t, s, year);
	DIR *d = dir_open(dir);
	if (!d) {
		free(dir);
		return;
	}
	size_t start = ev->n;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t n = cve_id_prefix_len(de->d_name);
		if (!n || tree_is_temp_name(de->d_name) || !safe_name(de->d_name))
			continue;
		/* a CVE is its placeholder or its .sha1; other files alone are leftovers (verify
		 * reports them) */
		if (de->d_name[n] != '\0' && strcmp(de->d_name + n, ".sha1") != 0)
			continue;
		XGROW(ev->v, ev->n + 1, ev->alloc);
		struct cve_entry *e = &ev->v[ev->n++];
		memset(e, 0, sizeof(*e));
		memcpy(e->id, de->d_name, n);
		e->id[n] = '\0';
		e->year = year;
		e->state = s;
	}
	closedir(d);
	/* sort this directory's names, then drop duplicates (one entry per id) */
	size_t cnt = ev->n - start;
	if (cnt > 1)
		qsort(ev->v + start, cnt, sizeof(*ev->v), cmp_entry);
	size_t w = start;
	for (size_t r = start; r < ev->n; r++) {
		if (w > start && strcmp(ev->v[w - 1].id, ev->v[r].id) == 0)
			continue;
		ev->v[w++] = ev->v[r];
	}
	ev->n = w;
	for (size_t i = start; i < ev->n; i++)
		ev->v[i].dir = xstrdup(dir);
	free(dir);
}

int tree_collect(struct cve_tree *t, unsigned state_mask, struct cve_entry **out, size_t *nout)
{
	struct entry_vec ev = {0};
	for (size_t i = 0; i < sizeof(all_states) / sizeof(all_states[0]); i++) {
		enum cve_state s = all_states[i];
		if (!(state_mask & s))
			continue;
		int *years;
		size_t ny = tree_years(t, s, &years);
		for (size_t k = 0; k < ny; k++)
			collect_dir(t, s, years[k], &ev);
		free(years);
	}
	if (ev.n > 1)
		qsort(ev.v, ev.n, sizeof(*ev.v), cmp_entry);
	*out = ev.v;
	*nout = ev.n;
	return 0;
}

void tree_entries_free(struct cve_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].dir);
	free(v);
}

int tree_foreach(struct cve_tree *t, unsigned state_mask,
		 int (*cb)(const struct cve_entry *e, void *ctx), void *ctx)
{
	struct cve_entry *v;
	size_t n;
	tree_collect(t, state_mask, &v, &n);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = cb(&v[i], ctx);
	tree_entries_free(v, n);
	return rc;
}

int tree_find_cve(struct cve_tree *t, const char *id, struct cve_entry *out)
{
	memset(out, 0, sizeof(*out));
	if (!cve_id_valid(id))
		return KCVE_E_NOTFOUND;
	int year = cve_id_year(id);
	for (size_t i = 0; i < sizeof(all_states) / sizeof(all_states[0]); i++) {
		char *dir = tree_state_year_dir(t, all_states[i], year);
		struct strbuf p = STRBUF_INIT;
		sb_addf(&p, "%s/%s", dir, id);
		bool found = path_exists(p.buf);
		if (!found) {
			sb_adds(&p, ".sha1");
			found = path_exists(p.buf);
		}
		sb_release(&p);
		if (found) {
			text_snprintf(out->id, sizeof(out->id), "%s", id);
			out->year = year;
			out->state = all_states[i];
			out->dir = dir;
			return 0;
		}
		free(dir);
	}
	return KCVE_E_NOTFOUND;
}

/* ---- sha index ---------------------------------------------------------------------------- */

/* Split file text into trimmed non-empty lines; calls fn for each. */
void text_foreach_line(const char *text, void (*fn)(const char *line, size_t len, void *ctx),
		       void *ctx)
{
	const char *p = text;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *s = p;
		size_t l = len;
		while (l && isspace((unsigned char)*s))
			s++, l--;
		while (l && isspace((unsigned char)s[l - 1]))
			l--;
		if (l)
			fn(s, l, ctx);
		p += len;
		if (*p == '\n')
			p++;
	}
}

struct idx_ctx {
	struct cve_tree *t;
	const struct cve_entry *e;
	int line;
};

static void idx_line(const char *line, size_t len, void *vctx)
{
	struct idx_ctx *c = vctx;
	struct cve_tree *t = c->t;
	if (len != 40 || hex_run(line) < 40) { /* not a git id (verify names it): no answer */
		c->line++;
		return;
	}
	XGROW(t->shas, t->nshas + 1, t->ashas);
	struct sha_ref *r = &t->shas[t->nshas++];
	memset(r, 0, sizeof(*r));
	size_t n = len < 40 ? len : 40;
	memcpy(r->sha, line, n);
	r->sha[n] = '\0';
	sha_lower(r->sha);
	text_snprintf(r->id, sizeof(r->id), "%s", c->e->id);
	r->year = c->e->year;
	r->state = c->e->state;
	r->line = c->line++;
	r->dir = xstrdup(c->e->dir);
}

static int idx_cb(const struct cve_entry *e, void *vctx)
{
	struct idx_ctx *c = vctx;
	char *p = tree_cve_path(e, ".sha1");
	struct strbuf sb = STRBUF_INIT;
	if (read_file(p, &sb) == 0) {
		c->e = e;
		c->line = 0;
		text_foreach_line(sb.buf ? sb.buf : "", idx_line, c);
	}
	sb_release(&sb);
	free(p);
	return 0;
}

static int cmp_sharef(const void *a, const void *b)
{
	const struct sha_ref *x = a, *y = b;
	int c = strcmp(x->sha, y->sha);
	if (c)
		return c;
	return cveid_cmp(x->id, y->id);
}

void tree_build_sha_index(struct cve_tree *t)
{
	if (t->sha_index_valid)
		return;
	sha_index_free(t);
	struct idx_ctx c = {.t = t};
	tree_foreach(t, CVE_PUBLISHED | CVE_REJECTED, idx_cb, &c);
	if (t->nshas > 1)
		qsort(t->shas, t->nshas, sizeof(*t->shas), cmp_sharef);
	t->sha_index_valid = true;
}

/* First index position whose sha >= key. */
static size_t lower_bound(const struct cve_tree *t, const char *key)
{
	size_t lo = 0, hi = t->nshas;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (strcmp(t->shas[mid].sha, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void fill_entry(const struct sha_ref *r, struct cve_entry *out)
{
	memset(out, 0, sizeof(*out));
	text_snprintf(out->id, sizeof(out->id), "%s", r->id);
	out->year = r->year;
	out->state = r->state;
	out->dir = xstrdup(r->dir);
}

int tree_find_sha(struct cve_tree *t, const char *sha40, struct cve_entry *out)
{
	memset(out, 0, sizeof(*out));
	char key[41];
	text_snprintf(key, sizeof(key), "%s", sha40);
	sha_lower(key);
	tree_build_sha_index(t);
	size_t i = lower_bound(t, key);
	if (i < t->nshas && strcmp(t->shas[i].sha, key) == 0) {
		fill_entry(&t->shas[i], out);
		return 0;
	}
	return KCVE_E_NOTFOUND;
}

int tree_find_sha_prefix(struct cve_tree *t, const char *prefix,
			 int (*cb)(const struct cve_entry *e, const char *sha40, void *ctx),
			 void *ctx)
{
	char key[41];
	text_snprintf(key, sizeof(key), "%s", prefix);
	sha_lower(key);
	size_t kl = strlen(key);
	tree_build_sha_index(t);
	int n = 0;
	for (size_t i = lower_bound(t, key); i < t->nshas; i++) {
		if (strncmp(t->shas[i].sha, key, kl) != 0)
			break;
		struct cve_entry e;
		fill_entry(&t->shas[i], &e);
		int rc = cb ? cb(&e, t->shas[i].sha, ctx) : 0;
		cve_entry_release(&e);
		n++;
		if (rc)
			return -1;
	}
	return n;
}

/* ---- the tree's state directory (the writer lock is lock.c) -------------------------- */

char *tree_meta_path(const struct cve_tree *t, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s/.kcve%s%s", t->root, name && *name ? "/" : "", name ? name : "");
	return sb_detach(&sb);
}

void tree_set_diag(struct cve_tree *t, const struct kcve_diag *diag)
{
	t->diag = diag;
}

int tree_file_mode(const struct cve_tree *t)
{
	struct stat st;
	if (fstat(t->rootfd, &st) < 0)
		return 0644 & ~(int)process_umask();
	return (int)(st.st_mode & 0666);
}
