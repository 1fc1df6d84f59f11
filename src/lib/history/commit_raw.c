/* Raw commit objects as the indexer reads them (parsed by hand: the indexer runs this on every
 * commit of the history) and the one INSERT that stores an index row. Shared by the one-pass
 * full build (index_walk.c) and the per-range incremental update (index_build.c). */
#include <stdio.h>
#include <string.h>

#include "core/sha.h"
#include "core/xalloc.h"
#include "history/history_internal.h"

static long long parse_time_after(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	long long t = 0;
	bool any = false;
	while (p < end && *p >= '0' && *p <= '9') {
		t = t * 10 + (*p++ - '0');
		any = true;
	}
	return any ? t : -1;
}

/* libgit2's reading of a signature's time (what its revwalk orders commits by): the number
 * right after "> ", optional sign, 0 when the line has no room for one. */
static long long lg2_time_after(const char *gt, const char *le)
{
	const char *p = gt + 2;
	if (!(gt + 2 < le))
		return 0;
	while (p < le && (*p == ' ' || *p == '\t'))
		p++;
	bool neg = false;
	if (p < le && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	long long t = 0;
	while (p < le && *p >= '0' && *p <= '9')
		t = t * 10 + (*p++ - '0');
	return neg ? -t : t;
}

void commit_raw_parse(const char *data, size_t len, struct raw_commit *rc)
{
	memset(rc, 0, sizeof(*rc));
	rc->author_time = rc->commit_time = -1;
	const char *p = data, *end = data + len;
	bool committer = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		if (le == p) { /* blank line: the message follows */
			p = le + 1;
			break;
		}
		if (!rc->parents && le - p == 7 + GIT_OID_HEXSZ && memcmp(p, "parent ", 7) == 0) {
			rc->parents = p;
		} else if (le - p > 7 && memcmp(p, "author ", 7) == 0) {
			const char *gt = le;
			while (gt > p && *gt != '>')
				gt--;
			if (*gt == '>') {
				rc->author = p + 7;
				rc->author_len = (size_t)(gt + 1 - rc->author);
				rc->author_time = parse_time_after(gt + 1, le);
			}
		} else if (le - p > 10 && memcmp(p, "committer ", 10) == 0) {
			const char *gt = le;
			while (gt > p && *gt != '>')
				gt--;
			if (*gt == '>') {
				rc->commit_time = parse_time_after(gt + 1, le);
				if (!committer)
					rc->walk_time = lg2_time_after(gt, le);
			}
			committer = true;
		}
		p = nl ? nl + 1 : end;
	}
	if (p > end)
		p = end;
	rc->msg = p;
	rc->msg_len = (size_t)(end - p);
}

size_t commit_raw_parents(const struct raw_commit *rc, git_oid *out, size_t max)
{
	size_t n = 0;
	/* parent lines are consecutive right after "tree" */
	for (const char *p = rc->parents; p && (size_t)(rc->msg - p) > 7 + GIT_OID_HEXSZ &&
					 memcmp(p, "parent ", 7) == 0 && p[7 + GIT_OID_HEXSZ] == '\n';
	     p += 8 + GIT_OID_HEXSZ) {
		git_oid o;
		if (git_oid_fromstrn(&o, p + 7, GIT_OID_HEXSZ) < 0)
			break;
		if (n < max)
			out[n] = o;
		n++;
	}
	return n;
}

void commit_summary(const char *msg, size_t len, struct strbuf *out)
{
	sb_reset(out);
	size_t i = 0;
	while (i < len && (msg[i] == ' ' || msg[i] == '\n' || msg[i] == '\t' || msg[i] == '\r'))
		i++;
	for (; i < len; i++) {
		if (msg[i] == '\n') {
			if (i + 1 < len && msg[i + 1] == '\n')
				break;
			sb_addc(out, ' ');
		} else {
			sb_addc(out, msg[i]);
		}
	}
	sb_rtrim(out);
}

/* git_odb_exists_prefix's answer: the packs' when ps can tell, else libgit2's. */
static bool unique_prefix(git_odb *odb, const struct packset *ps, const git_oid *key, size_t n,
			  git_oid *full)
{
	int r = packset_prefix(ps, key, n, full);
	return r >= 0 ? r == 0 : git_odb_exists_prefix(full, odb, key, n) == 0;
}

void fixes_append(git_odb *odb, const struct packset *ps, const char *p, size_t n,
		  struct strbuf *out)
{
	if (out->len)
		sb_addc(out, ' ');
	char hex[GIT_OID_HEXSZ + 1];
	git_oid shortid, full;
	if (n == GIT_OID_HEXSZ) {
		memcpy(hex, p, n);
		hex[n] = '\0';
		sha_lower(hex);
		sb_add(out, hex, n);
	} else if (n < GIT_OID_HEXSZ && git_oid_fromstrn(&shortid, p, n) == 0 &&
		   /* like the anchor's revparse: the one object of the whole repository with that
		    * prefix; a prefix shared by a commit and, say, a tree is ambiguous and stays raw
		    * (so only the object database can answer, not the set of commits seen) */
		   unique_prefix(odb, ps, &shortid, n, &full)) {
		git_oid_tostr(hex, sizeof(hex), &full);
		sb_add(out, hex, GIT_OID_HEXSZ);
	} else {
		sb_add(out, p, n); /* unresolvable: kept raw, like the anchor */
	}
}

static void bind_opt(sqlite3_stmt *s, int col, const char *v, size_t n)
{
	if (v)
		sqlite3_bind_text(s, col, v, (int)n, SQLITE_STATIC);
	else
		sqlite3_bind_null(s, col);
}

int index_row_insert(sqlite3_stmt *s, const struct index_row *r)
{
	sqlite3_bind_text(s, 1, r->id, GIT_OID_HEXSZ, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, r->range->to, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 3, r->range->mainline);
	bind_opt(s, 4, r->upstream, 40);
	bind_opt(s, 5, r->reverts, 40);
	bind_opt(s, 6, r->fixes_len ? r->fixes : NULL, r->fixes_len);
	sqlite3_bind_text(s, 7, r->subject, (int)r->subject_len, SQLITE_STATIC);
	bind_opt(s, 8, r->author_len ? r->author : NULL, r->author_len);
	sqlite3_bind_int64(s, 9, r->author_time);
	sqlite3_bind_int64(s, 10, r->commit_time);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

int index_range_insert(sqlite3_stmt *s, const struct tag_range *r, size_t count)
{
	sqlite3_bind_text(s, 1, r->from, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, r->to, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 3, r->mainline);
	sqlite3_bind_int64(s, 4, (sqlite3_int64)count);
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int gen_cmp(const void *x, const void *y)
{
	return memcmp(x, y, GIT_OID_RAWSZ);
}

/* Sorted by id. Object ids are uniformly distributed, so a counting sort on their first two
 * bytes leaves buckets of ~n/65536 rows, each then sorted on its own: on the 1.4 M rows of the
 * benchmark history 0.8 s with one qsort, a single-threaded step at the end of a full build. */
static void sort_gen_rows(struct gen_row *v, size_t n)
{
	if (n < 65536) {
		qsort(v, n, sizeof(*v), gen_cmp);
		return;
	}
	size_t *end = xcalloc(65536 + 1, sizeof(*end));
	struct gen_row *tmp = xmalloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		end[(v[i].id[0] << 8 | v[i].id[1]) + 1]++;
	for (size_t b = 0; b < 65536; b++)
		end[b + 1] += end[b];
	for (size_t i = 0; i < n; i++) /* end[b] moves from bucket b's start to its end */
		tmp[end[v[i].id[0] << 8 | v[i].id[1]]++] = v[i];
	memcpy(v, tmp, n * sizeof(*v));
	free(tmp);
	for (size_t b = 0, lo = 0; b < 65536; lo = end[b++])
		if (end[b] - lo > 1)
			qsort(v + lo, end[b] - lo, sizeof(*v), gen_cmp);
	free(end);
}

int index_generations_insert(sqlite3_stmt *s, struct gen_row *v, size_t n)
{
	sort_gen_rows(v, n); /* appends to the b-tree instead of random inserts */
	for (size_t i = 0; i < n; i++) {
		sqlite3_bind_blob(s, 1, v[i].id, GIT_OID_RAWSZ, SQLITE_STATIC);
		sqlite3_bind_int64(s, 2, v[i].gen);
		int rc = sqlite3_step(s);
		sqlite3_reset(s);
		if (rc != SQLITE_DONE)
			return -1;
	}
	return 0;
}
