/* The record tree's compact-database cache (format and key in check/treecache.h). */
#include "check/treecache.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check/record.h"
#include "core/fileio.h"
#include "core/xalloc.h"

#define CACHE_MAGIC "KCVETC\0\x01"
#define CACHE_HDR 24
#define CACHE_NAME "check-cache"
#define STATE_DIR ".kcve"

const char *ck_cache_state_name(enum ck_cache_state st)
{
	switch (st) {
	case CK_CACHE_OFF: return "off";
	case CK_CACHE_HIT: return "hit";
	case CK_CACHE_BUILT: return "built";
	case CK_CACHE_REBUILT: return "rebuilt";
	case CK_CACHE_SKIPPED: return "skipped";
	}
	return "?";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of dirfd's entries (not starting with '.'), dirfd left open; -1 on error. */
static int list_names(int dirfd, char ***out, size_t *n)
{
	*n = 0;
	*out = NULL;
	int fd = dup(dirfd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* fdopendir shares the offset with dirfd's other users: start from the beginning */
	rewinddir(d);
	char **v = NULL;
	size_t alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		XGROW(v, *n + 1, alloc);
		v[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof *v, cmp_str);
	*out = v;
	return 0;
}

static void free_names(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Metadata of one file into the key (binary: the key is hashed, never shown). */
static void add_stat(struct strbuf *key, const char *name, const struct stat *st)
{
	int64_t f[6] = {(int64_t)st->st_ino, (int64_t)st->st_size, (int64_t)st->st_mtim.tv_sec,
			st->st_mtim.tv_nsec, (int64_t)st->st_ctim.tv_sec, st->st_ctim.tv_nsec};
	sb_adds(key, name);
	sb_add(key, f, sizeof f);
}

/* One record of the key: its year directory and base name; the metadata of its files is filled
 * in by the stat workers. */
struct key_item {
	size_t year; /* index into key_list's years and yfds */
	char *base; /* name without ".json" */
	struct stat st[CK_REC_NFILES]; /* the files ck_record_read() reads */
	bool present[CK_REC_NFILES], irregular;
};

struct key_list {
	struct key_item *v;
	size_t n, alloc;
	int *yfds;
	char **years;
	size_t nyears;
};

/* The records of every year directory, in the loader's order (years and names sorted, names
 * ending in .json and not starting with '.').  An unreadable year adds a marker, as the
 * loader reads no records there either. */
static int key_list_years(struct key_list *L, int pubfd, struct strbuf *key, char *why, size_t nwhy)
{
	const char *json = ck_record_exts[CK_REC_JSON];
	size_t jl = strlen(json), n;
	if (list_names(pubfd, &L->years, &n) < 0) {
		snprintf(why, nwhy, "cannot read cve/published");
		return -1;
	}
	L->nyears = n;
	L->yfds = xcalloc(n + 1, sizeof *L->yfds);
	for (size_t y = 0; y < n; y++)
		L->yfds[y] = -1;
	for (size_t y = 0; y < n; y++) {
		int yfd = openat(pubfd, L->years[y], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		L->yfds[y] = yfd;
		if (yfd < 0) {
			sb_addf(key, "year %s unreadable %d", L->years[y], errno);
			continue;
		}
		size_t nn;
		char **names;
		if (list_names(yfd, &names, &nn) < 0) {
			snprintf(why, nwhy, "cannot read cve/published/%.64s", L->years[y]);
			return -1;
		}
		for (size_t i = 0; i < nn; i++) {
			size_t l = strlen(names[i]);
			if (l <= jl || l >= 500 || strcmp(names[i] + l - jl, json) != 0) {
				free(names[i]);
				continue;
			}
			names[i][l - jl] = '\0';
			XGROW(L->v, L->n + 1, L->alloc);
			struct key_item *it = &L->v[L->n++];
			memset(it, 0, sizeof *it);
			it->year = y;
			it->base = names[i];
		}
		free(names);
	}
	return 0;
}

struct stat_job {
	struct key_item *v;
	size_t n;
	const int *yfds;
};

/* The metadata of a slice of the records' files (absent .dyad/.sha1 are allowed). */
static void *stat_run(void *arg)
{
	struct stat_job *j = arg;
	char file[512];
	for (size_t i = 0; i < j->n; i++) {
		struct key_item *it = &j->v[i];
		size_t l = strlen(it->base);
		memcpy(file, it->base, l);
		for (size_t x = 0; x < CK_REC_NFILES; x++) {
			strcpy(file + l, ck_record_exts[x]);
			if (fstatat(j->yfds[it->year], file, &it->st[x], AT_SYMLINK_NOFOLLOW) < 0)
				continue;
			it->present[x] = true;
			if (!S_ISREG(it->st[x].st_mode))
				it->irregular = true;
		}
	}
	return NULL;
}

static void key_list_release(struct key_list *L)
{
	for (size_t i = 0; i < L->n; i++)
		free(L->v[i].base);
	free(L->v);
	for (size_t y = 0; y < L->nyears; y++)
		if (L->yfds[y] >= 0)
			close(L->yfds[y]);
	free(L->yfds);
	free_names(L->years, L->nyears);
}

/* The key text of the tree at rootfd (see treecache.h); -1 with why if it cannot be cached.
 * A record file that is not a regular file (a symbolic link could change its target without
 * changing itself) disables the cache.  The fstatat calls are the cost of a cached run (three
 * per record), so they are split over two threads. */
static int tree_key(int rootfd, struct strbuf *key, char *why, size_t nwhy)
{
	struct stat st;
	sb_addf(key, "kcve %s db-format %d\n", KCVE_VERSION, CK_DB_FORMAT);
	if (stat("/proc/self/exe", &st) == 0)
		add_stat(key, "exe", &st);
	int cvefd = openat(rootfd, "cve", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int pubfd = cvefd < 0 ? -1 : openat(cvefd, "published", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cvefd >= 0)
		close(cvefd);
	if (pubfd < 0) {
		snprintf(why, nwhy, "cve/published is not a plain directory");
		return -1;
	}
	struct key_list L = {0};
	int rc = key_list_years(&L, pubfd, key, why, nwhy);
	close(pubfd);
	if (rc == 0) {
		struct stat_job half[2] = {{L.v, L.n / 2, L.yfds},
					   {L.v + L.n / 2, L.n - L.n / 2, L.yfds}};
		pthread_t th;
		bool threaded = pthread_create(&th, NULL, stat_run, &half[1]) == 0;
		stat_run(&half[0]);
		if (threaded)
			pthread_join(th, NULL);
		else
			stat_run(&half[1]);
		for (size_t i = 0; i < L.n && rc == 0; i++) {
			struct key_item *it = &L.v[i];
			if (i == 0 || L.v[i - 1].year != it->year)
				sb_addf(key, "year %s", L.years[it->year]);
			if (it->irregular) {
				snprintf(why, nwhy, "a file of record %.64s is not a regular file", it->base);
				rc = -1;
			}
			for (size_t x = 0; x < CK_REC_NFILES; x++) {
				struct stat abs = {.st_size = -1};
				sb_adds(key, it->base);
				add_stat(key, ck_record_exts[x], it->present[x] ? &it->st[x] : &abs);
			}
		}
	}
	key_list_release(&L);
	return rc;
}

static void key_digest(const struct strbuf *key, unsigned char out[16])
{
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < key->len; i++) {
		h ^= (unsigned char)key->buf[i];
		h *= 1099511628211ULL;
	}
	uint32_t crc = (uint32_t)crc32(0L, (const Bytef *)key->buf, (uInt)key->len);
	uint32_t len = (uint32_t)key->len;
	for (int i = 0; i < 8; i++)
		out[i] = (unsigned char)(h >> (8 * i));
	for (int i = 0; i < 4; i++) {
		out[8 + i] = (unsigned char)(crc >> (8 * i));
		out[12 + i] = (unsigned char)(len >> (8 * i));
	}
}

/* Read the cache file and parse it, without judging its key yet: 1 = loaded (s filled, the
 * key it was built for in digest), 0 = absent, -1 = damaged (why). */
static int cache_read(int rootfd, const char *root, unsigned char digest[16], struct ck_set *s,
		      char *why, size_t nwhy)
{
	int kfd = openat(rootfd, STATE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = kfd < 0 ? -1 : openat(kfd, CACHE_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (kfd >= 0)
		close(kfd);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, nwhy, "cannot open " STATE_DIR "/" CACHE_NAME " (%s)", strerror(errno));
		return -1;
	}
	struct stat st;
	struct strbuf sb = STRBUF_INIT;
	int rc = -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, nwhy, STATE_DIR "/" CACHE_NAME " is not a regular file");
		goto out;
	}
	sb_grow(&sb, (size_t)st.st_size);
	for (;;) {
		sb_grow(&sb, 65536);
		ssize_t r = read(fd, sb.buf + sb.len, sb.alloc - sb.len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, nwhy, "cannot read the cache (%s)", strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		sb.len += (size_t)r;
	}
	if (sb.len < CACHE_HDR || memcmp(sb.buf, CACHE_MAGIC, 8) != 0) {
		snprintf(why, nwhy, "damaged cache (bad header)");
		goto out;
	}
	memcpy(digest, sb.buf + 8, 16);
	struct kcve_err perr = {0};
	if (ck_db_parse(s, sb.buf + CACHE_HDR, sb.len - CACHE_HDR, root, &perr) != 0) {
		ck_set_release(s);
		snprintf(why, nwhy, "damaged cache (%.120s)", perr.msg);
		goto out;
	}
	rc = 1;
out:
	close(fd);
	sb_release(&sb);
	return rc;
}

/* The tree's key, computed on a second thread while the cache is read and parsed: both cost
 * about the same (one fstatat per record file against inflating and parsing the cache), so a
 * later run takes the longer of the two instead of their sum. */
struct key_job {
	int rootfd;
	int rc;
	unsigned char digest[16];
	char why[sizeof(((struct ck_cache_info *)0)->why)];
};

static void *key_run(void *arg)
{
	struct key_job *j = arg;
	struct strbuf key = STRBUF_INIT;
	j->rc = tree_key(j->rootfd, &key, j->why, sizeof j->why);
	if (j->rc == 0)
		key_digest(&key, j->digest);
	sb_release(&key);
	return NULL;
}

/* Write the cache under the tree lock (not waited for). 0, or -1 with why. */
static int cache_write(int rootfd, const unsigned char digest[16], const struct ck_set *s,
		       char *why, size_t nwhy)
{
	if (mkdirat(rootfd, STATE_DIR, 0755) < 0 && errno != EEXIST) {
		snprintf(why, nwhy, "cannot create " STATE_DIR " in the tree (%s)", strerror(errno));
		return -1;
	}
	int kfd = openat(rootfd, STATE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (kfd < 0) {
		snprintf(why, nwhy, STATE_DIR " is not a plain directory (%s)", strerror(errno));
		return -1;
	}
	int rc = -1;
	/* the state directory keeps itself out of `git status`, as the store's writers do */
	struct stat st;
	if (fstatat(kfd, ".gitignore", &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT &&
	    atomic_write_at(kfd, ".gitignore", "*\n", 2, 0644, true) < 0) {
		snprintf(why, nwhy, "cannot write " STATE_DIR "/.gitignore (%s)", strerror(errno));
		close(kfd);
		return -1;
	}
	int lfd = openat(kfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (lfd < 0) {
		snprintf(why, nwhy, "cannot open the tree lock (%s)", strerror(errno));
		close(kfd);
		return -1;
	}
	if (flock(lfd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(why, nwhy, "the tree is locked by a writer; cache left as it is");
		goto out;
	}
	struct strbuf img = STRBUF_INIT;
	sb_add(&img, CACHE_MAGIC, 8);
	sb_add(&img, digest, 16);
	struct kcve_err ierr = {0};
	/* zlib level 1: the cache is read far more often than written, and inflating does not
	 * get slower with a lower level; writing at 9 would add about half a second */
	if (ck_db_image(s, 1, &img, &ierr) != 0)
		snprintf(why, nwhy, "%.150s", ierr.msg);
	else if (atomic_write_at(kfd, CACHE_NAME, img.buf, img.len, 0644, true) < 0)
		snprintf(why, nwhy, "cannot write " STATE_DIR "/" CACHE_NAME " (%s)", strerror(errno));
	else
		rc = 0;
	sb_release(&img);
	flock(lfd, LOCK_UN);
out:
	close(lfd);
	close(kfd);
	return rc;
}

int ck_set_load_tree_cached(struct ck_set *s, const char *root, bool use_cache,
			    struct ck_cache_info *info, struct kcve_err *err)
{
	memset(info, 0, sizeof *info);
	info->state = CK_CACHE_OFF;
	if (!use_cache)
		return ck_set_load_tree(s, root, err);
	info->state = CK_CACHE_SKIPPED;
	int rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		snprintf(info->why, sizeof info->why, "cannot open the tree (%s)", strerror(errno));
		return ck_set_load_tree(s, root, err);
	}
	/* The key is taken before the records are read: a record changed while they are read has
	 * a newer ctime than the key saw, so the next run rebuilds instead of trusting it. */
	struct key_job job = {.rootfd = rootfd};
	pthread_t th;
	bool threaded = pthread_create(&th, NULL, key_run, &job) == 0;
	if (!threaded)
		key_run(&job);
	unsigned char stored[16];
	char rwhy[sizeof info->why] = "";
	int got = cache_read(rootfd, root, stored, s, rwhy, sizeof rwhy);
	if (threaded)
		pthread_join(th, NULL);
	int rc;
	if (job.rc < 0) {
		snprintf(info->why, sizeof info->why, "%s", job.why);
		if (got == 1)
			ck_set_release(s);
		rc = ck_set_load_tree(s, root, err);
		goto out;
	}
	if (got == 1 && memcmp(stored, job.digest, 16) == 0) {
		free(s->origin);
		s->origin = xstrdup(root);
		/* a tree, not a database: its age is the tree's (newest record date from the cache,
		 * keyed by the records; the caller adds the git HEAD time), never the cache's; the
		 * branch files are not in the key, so they are read again */
		s->db_format = 0;
		s->built = 0;
		s->tree_head = 0;
		info->state = CK_CACHE_HIT;
		rc = ck_set_load_branches(s, root, err);
		goto out;
	}
	if (got == 1) {
		ck_set_release(s);
		snprintf(rwhy, sizeof rwhy, "stale cache (the records or kcve changed)");
		got = -1;
	}
	snprintf(info->why, sizeof info->why, "%s", rwhy);
	rc = ck_set_load_tree(s, root, err);
	if (rc == 0) {
		char wwhy[160] = "";
		if (cache_write(rootfd, job.digest, s, wwhy, sizeof wwhy) == 0)
			info->state = got < 0 ? CK_CACHE_REBUILT : CK_CACHE_BUILT;
		else
			snprintf(info->why, sizeof info->why, "%s", wwhy);
	}
out:
	close(rootfd);
	return rc;
}
