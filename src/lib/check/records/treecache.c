/* The record tree's compact-database cache (format and key in check/records/treecache.h). */
#include "check/records/treecache.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check/records/record.h"
#include "core/fileio.h"
#include "core/strmap.h"
#include "core/xalloc.h"
#include "core/text.h"

#define CACHE_MAGIC "KCVETC\0\x03" /* 3: the payload may carry CVSS vectors */
#define CACHE_HDR 44
#define CACHE_MAX (1u << 30)
/* A directory changed less than this many seconds before the cache's listing was taken may
 * have changed again in the same timestamp tick: its listing is not trusted. */
#define RACY_SECS 2
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

/* Metadata of one file or directory into the key (binary: the key is hashed, never shown). */
static void add_stat(struct strbuf *key, const char *name, const struct stat *st)
{
	int64_t f[6] = {(int64_t)st->st_ino, (int64_t)st->st_size, (int64_t)st->st_mtim.tv_sec,
			st->st_mtim.tv_nsec, (int64_t)st->st_ctim.tv_sec, st->st_ctim.tv_nsec};
	sb_adds(key, name);
	sb_add(key, f, sizeof f);
}

/* One record of the key: its year directory and base name (pointing into the cached listing or
 * into an owned list of names). */
struct key_item {
	uint32_t year; /* index into key_list's years */
	const char *base; /* name without ".json" */
};

struct key_list {
	struct key_item *v;
	size_t n, alloc;
	char **years;      /* owned names when listed, else pointing into the cached listing */
	int *yfds;         /* -1: unreadable (errs[y] says why) */
	int *yerrs;
	struct stat *yst;  /* each year directory's metadata, taken before it was listed */
	size_t nyears, yalloc;
	struct stat pubst; /* cve/published's metadata, taken before it was listed */
	char **owned;      /* names allocated by the listing (freed with the list) */
	size_t nowned, oalloc;
	bool listed;       /* names from readdir (true) or from the cache's listing (false) */
};

static void key_list_release(struct key_list *L)
{
	free(L->v);
	for (size_t y = 0; y < L->nyears; y++)
		if (L->yfds[y] >= 0)
			close(L->yfds[y]);
	if (L->listed)
		for (size_t y = 0; y < L->nyears; y++)
			free(L->years[y]);
	free(L->years);
	free(L->yfds);
	free(L->yerrs);
	free(L->yst);
	for (size_t i = 0; i < L->nowned; i++)
		free(L->owned[i]);
	free(L->owned);
	memset(L, 0, sizeof *L);
}

/* Open year directory `name` of cve/published and take its metadata (before any listing). */
static void key_add_year(struct key_list *L, int pubfd, char *name)
{
	if (L->nyears + 1 > L->yalloc) {
		L->yalloc = L->yalloc ? 2 * L->yalloc : 16;
		L->years = xrealloc(L->years, L->yalloc * sizeof *L->years);
		L->yfds = xrealloc(L->yfds, L->yalloc * sizeof *L->yfds);
		L->yerrs = xrealloc(L->yerrs, L->yalloc * sizeof *L->yerrs);
		L->yst = xrealloc(L->yst, L->yalloc * sizeof *L->yst);
	}
	size_t y = L->nyears++;
	L->years[y] = name;
	L->yerrs[y] = 0;
	memset(&L->yst[y], 0, sizeof L->yst[y]);
	int yfd = openat(pubfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (yfd < 0 || fstat(yfd, &L->yst[y]) < 0) {
		L->yerrs[y] = errno ? errno : EIO;
		if (yfd >= 0)
			close(yfd);
		yfd = -1;
	}
	L->yfds[y] = yfd;
}

static void key_add_item(struct key_list *L, const char *base)
{
	XGROW(L->v, L->n + 1, L->alloc);
	L->v[L->n++] = (struct key_item){(uint32_t)(L->nyears - 1), base};
}

/* The records of every year directory by reading the directories, in the loader's order
 * (years and names sorted, names ending in .json and not starting with '.').  Each directory's
 * metadata is taken before it is read, so a change after that is seen by the next run. */
static int key_list_read(struct key_list *L, int pubfd, char *why, size_t nwhy)
{
	const char *json = ck_record_exts[CK_REC_JSON];
	size_t jl = strlen(json), n;
	char **years;
	L->listed = true;
	if (fstat(pubfd, &L->pubst) < 0 || list_names(pubfd, &years, &n) < 0) {
		text_snprintf(why, nwhy, "cannot read cve/published");
		return -1;
	}
	int rc = 0;
	for (size_t y = 0; y < n; y++) {
		key_add_year(L, pubfd, years[y]);
		if (rc || L->yfds[y] < 0)
			continue;
		size_t nn;
		char **names;
		if (list_names(L->yfds[y], &names, &nn) < 0) {
			text_snprintf(why, nwhy, "cannot read cve/published/%.64s", years[y]);
			rc = -1;
			continue;
		}
		for (size_t i = 0; i < nn; i++) {
			size_t l = strlen(names[i]);
			if (l <= jl || l >= 500 || strcmp(names[i] + l - jl, json) != 0) {
				free(names[i]);
				continue;
			}
			names[i][l - jl] = '\0';
			XGROW(L->owned, L->nowned + 1, L->oalloc);
			L->owned[L->nowned++] = names[i];
			key_add_item(L, names[i]);
		}
		free(names);
	}
	free(years);
	return rc;
}

/* A name from the cached listing: what a directory listing would have kept. */
static bool listing_name_ok(const char *s, size_t l, size_t max)
{
	return l > 0 && l < max && s[0] != '.' && !memchr(s, '/', l);
}

/* The records by the cache's listing (see the cache format above), without reading any
 * directory: 1 = used, 0 = not usable (absent, malformed, or a directory changed too close to
 * the time the cache's listing was taken to tell; the caller reads the directories). */
static int key_list_cached(struct key_list *L, int pubfd, const char *lst, size_t len,
			   const struct timespec *taken)
{
	L->listed = false;
	if (!len || lst[len - 1] != '\0' || lst[0] != '/' || fstat(pubfd, &L->pubst) < 0)
		return 0;
	size_t jl = strlen(ck_record_exts[CK_REC_JSON]);
	for (const char *p = lst, *end = lst + len; p < end;) {
		size_t l = strlen(p);
		if (p[0] == '/') {
			if (!listing_name_ok(p + 1, l - 1, 256))
				return 0;
			key_add_year(L, pubfd, (char *)p + 1);
		} else {
			if (!listing_name_ok(p, l, 500 - jl))
				return 0;
			key_add_item(L, p);
		}
		p += l + 1;
	}
	/* A directory modified within RACY_SECS of the listing (or after it) may have changed
	 * again in the same timestamp tick after it was listed: its metadata cannot vouch for the
	 * listing, so the directories are read. */
	long long limit = (long long)taken->tv_sec - RACY_SECS;
	if (L->pubst.st_mtim.tv_sec >= limit || L->pubst.st_ctim.tv_sec >= limit)
		return 0;
	for (size_t y = 0; y < L->nyears; y++)
		if (L->yfds[y] >= 0 &&
		    (L->yst[y].st_mtim.tv_sec >= limit || L->yst[y].st_ctim.tv_sec >= limit))
			return 0;
	return 1;
}

/* True when no directory of L changed within RACY_SECS before t (its listing can be trusted
 * as of t). */
static bool key_list_settled(const struct key_list *L, const struct timespec *t)
{
	long long limit = (long long)t->tv_sec - RACY_SECS;
	if (L->pubst.st_mtim.tv_sec >= limit || L->pubst.st_ctim.tv_sec >= limit)
		return false;
	for (size_t y = 0; y < L->nyears; y++)
		if (L->yfds[y] >= 0 &&
		    (L->yst[y].st_mtim.tv_sec >= limit || L->yst[y].st_ctim.tv_sec >= limit))
			return false;
	return true;
}

/* The listing of L in the cache's form. */
static void key_list_listing(const struct key_list *L, struct strbuf *out)
{
	size_t i = 0;
	for (size_t y = 0; y < L->nyears; y++) {
		sb_addc(out, '/');
		sb_add(out, L->years[y], strlen(L->years[y]) + 1);
		for (; i < L->n && L->v[i].year == y; i++)
			sb_add(out, L->v[i].base, strlen(L->v[i].base) + 1);
	}
}

/* A running digest of one part of the key text (FNV-1a-64, CRC-32, length). */
struct key_hash {
	uint64_t fnv;
	uint32_t crc;
	uint64_t len;
};

static void key_hash_add(struct key_hash *h, const void *data, size_t n)
{
	const unsigned char *p = data;
	h->fnv = fnv1a64(h->fnv, p, n);
	h->crc = (uint32_t)crc32(h->crc, p, (uInt)n);
	h->len += n;
}

struct stat_job {
	const struct key_item *v;
	size_t n;
	const int *yfds;
	struct key_hash hash; /* of this slice's part of the key text */
	const char *irregular; /* a record with a file that is not a regular file */
};

/* The metadata of a slice of the records' files (absent .dyad/.sha1 are allowed), hashed as it
 * is taken: the key text of 7,551 records would be 1.4 MB of fresh memory. */
static void *stat_run(void *arg)
{
	struct stat_job *j = arg;
	char file[512];
	struct strbuf item = STRBUF_INIT;
	j->hash = (struct key_hash){FNV1A64_INIT_OLD, 0, 0};
	for (size_t i = 0; i < j->n; i++) {
		const struct key_item *it = &j->v[i];
		size_t l = strlen(it->base);
		memcpy(file, it->base, l);
		sb_reset(&item);
		sb_add(&item, &it->year, sizeof it->year);
		sb_adds(&item, it->base);
		for (size_t x = 0; x < CK_REC_NFILES; x++) {
			struct stat st;
			strcpy(file + l, ck_record_exts[x]);
			if (j->yfds[it->year] < 0 ||
			    fstatat(j->yfds[it->year], file, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				st = (struct stat){.st_size = -1};
			} else if (!S_ISREG(st.st_mode) && !j->irregular) {
				j->irregular = it->base;
			}
			add_stat(&item, ck_record_exts[x], &st);
		}
		key_hash_add(&j->hash, item.buf, item.len);
	}
	sb_release(&item);
	return NULL;
}

/* The key text of the tree at pubfd from the list L (see treecache.h; the records' part enters
 * as the digests of its two halves); -1 with why if it cannot be cached.  A record file that is not a regular file (a symbolic link could change its
 * target without changing itself) disables the cache.  The fstatat calls are the cost of a
 * cached run (three per record), so they are split over two threads. */
static int key_text(const struct key_list *L, struct strbuf *key, char *why, size_t nwhy)
{
	struct stat st;
	sb_addf(key, "kcve %s db-format %d cache %d\n", KCVE_VERSION, CK_DB_FORMAT,
		(int)(unsigned char)CACHE_MAGIC[7]);
	if (stat("/proc/self/exe", &st) == 0)
		add_stat(key, "exe", &st);
	add_stat(key, "published", &L->pubst);
	for (size_t y = 0; y < L->nyears; y++) {
		sb_addf(key, "year %s", L->years[y]);
		if (L->yfds[y] < 0)
			sb_addf(key, " unreadable %d", L->yerrs[y]);
		else
			add_stat(key, "", &L->yst[y]);
	}
	struct stat_job half[2] = {{L->v, L->n / 2, L->yfds, {0, 0, 0}, NULL},
				   {L->v + L->n / 2, L->n - L->n / 2, L->yfds, {0, 0, 0}, NULL}};
	pthread_t th;
	bool threaded = pthread_create(&th, NULL, stat_run, &half[1]) == 0;
	stat_run(&half[0]);
	if (threaded)
		pthread_join(th, NULL);
	else
		stat_run(&half[1]);
	int rc = 0;
	for (int h = 0; h < 2; h++) {
		if (half[h].irregular && rc == 0) {
			text_snprintf(why, nwhy, "a file of record %.64s is not a regular file",
				 half[h].irregular);
			rc = -1;
		}
		const struct key_hash *kh = &half[h].hash;
		uint64_t f[3] = {kh->fnv, kh->crc, kh->len};
		sb_add(key, f, sizeof f);
	}
	return rc;
}

static void key_digest(const struct strbuf *key, unsigned char out[16])
{
	uint64_t h = fnv1a64(FNV1A64_INIT_OLD, key->buf, key->len);
	uint32_t crc = (uint32_t)crc32(0L, (const Bytef *)key->buf, (uInt)key->len);
	uint32_t len = (uint32_t)key->len;
	for (int i = 0; i < 8; i++)
		out[i] = (unsigned char)(h >> (8 * i));
	for (int i = 0; i < 4; i++) {
		out[8 + i] = (unsigned char)(crc >> (8 * i));
		out[12 + i] = (unsigned char)(len >> (8 * i));
	}
}

/* A cache file read into memory (its header checked, nothing else trusted yet). */
struct cache_file {
	struct xbig mem;
	size_t len;
	struct stat st;        /* of the cache file: its mtime is when its listing was taken */
	unsigned char digest[16]; /* the key it was built for */
	const char *listing;   /* NUL-separated names, see the format above */
	size_t listing_len;
	size_t payload_off, payload_len;
	uint32_t nrec, flags, crc;
};

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Read the cache file whole (into huge pages, see xbig: one fault per 2 MiB, where a mapping of
 * the file would take one per 4 KiB page): 1 = read (header sizes consistent), 0 = absent,
 * -1 = damaged (why). */
static int cache_read(int rootfd, struct cache_file *c, char *why, size_t nwhy)
{
	memset(c, 0, sizeof *c);
	int kfd = openat(rootfd, STATE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = kfd < 0 ? -1 : openat(kfd, CACHE_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (kfd >= 0)
		close(kfd);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		text_snprintf(why, nwhy, "cannot open " STATE_DIR "/" CACHE_NAME " (%s)", strerror(errno));
		return -1;
	}
	int rc = -1;
	if (fstat(fd, &c->st) < 0 || !S_ISREG(c->st.st_mode)) {
		text_snprintf(why, nwhy, STATE_DIR "/" CACHE_NAME " is not a regular file");
		goto out;
	}
	if (c->st.st_size < CACHE_HDR || (uint64_t)c->st.st_size > (uint64_t)CACHE_MAX) {
		text_snprintf(why, nwhy, "damaged cache (bad size)");
		goto out;
	}
	c->len = (size_t)c->st.st_size;
	unsigned char *h = xbig_alloc(&c->mem, c->len + 1);
	ssize_t got = read_full(fd, h, c->len);
	uint32_t llen = get_u32(h + 24), plen = get_u32(h + 36);
	c->nrec = get_u32(h + 28);
	c->flags = get_u32(h + 32);
	c->crc = get_u32(h + 40);
	if (got != (ssize_t)c->len || memcmp(h, CACHE_MAGIC, 8) != 0 ||
	    (uint64_t)CACHE_HDR + llen + plen != c->len) {
		text_snprintf(why, nwhy, "damaged cache (bad header)");
		xbig_free(&c->mem);
		goto out;
	}
	memcpy(c->digest, h + 8, 16);
	c->listing = (const char *)h + CACHE_HDR;
	c->listing_len = llen;
	c->payload_off = CACHE_HDR + (size_t)llen;
	c->payload_len = plen;
	rc = 1;
out:
	close(fd);
	return rc;
}

/* Parse the cache into s (which takes its buffer): 0, or -1 with why (the buffer is released
 * then). */
static int cache_parse(struct cache_file *c, const char *root, struct ck_set *s, char *why,
		       size_t nwhy)
{
	const unsigned char *h = c->mem.base;
	uint32_t sum = (uint32_t)crc32(0L, h + CACHE_HDR, (uInt)(c->len - CACHE_HDR));
	struct kcve_err perr = {0};
	if (sum != c->crc) {
		xbig_free(&c->mem);
		text_snprintf(why, nwhy, "damaged cache (checksum mismatch)");
		return -1;
	}
	int rc = ck_db_parse_raw(s, &c->mem, c->payload_off, c->payload_len, c->nrec, c->flags,
				 root, &perr);
	if (rc != 0) {
		ck_set_release(s);
		text_snprintf(why, nwhy, "damaged cache (%.120s)", perr.msg);
		return -1;
	}
	return 0;
}

/* The tree's key, computed on a second thread while the cache is checked and parsed. */
struct key_job {
	int rootfd;
	const char *listing; /* the cache's listing, or NULL */
	size_t listing_len;
	struct timespec listing_taken; /* when that listing was taken */
	struct timespec started;       /* when this key was started (before any metadata) */
	int rc;
	bool listed;   /* the directories were read (not the cached listing) */
	bool settled;  /* ... and no directory changed within RACY_SECS before `started` */
	unsigned char digest[16];
	struct strbuf listing_out; /* the listing the key was computed with (cache form) */
	char why[sizeof(((struct ck_cache_info *)0)->why)];
};

static void *key_run(void *arg)
{
	struct key_job *j = arg;
	struct strbuf key = STRBUF_INIT;
	struct key_list L = {0};
	clock_gettime(CLOCK_REALTIME, &j->started);
	int cvefd = openat(j->rootfd, "cve", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int pubfd = cvefd < 0 ? -1 : openat(cvefd, "published", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cvefd >= 0)
		close(cvefd);
	if (pubfd < 0) {
		text_snprintf(j->why, sizeof j->why, "cve/published is not a plain directory");
		j->rc = -1;
		return NULL;
	}
	j->rc = 0;
	if (!j->listing ||
	    key_list_cached(&L, pubfd, j->listing, j->listing_len, &j->listing_taken) != 1) {
		key_list_release(&L);
		j->rc = key_list_read(&L, pubfd, j->why, sizeof j->why);
	}
	close(pubfd);
	j->listed = L.listed;
	j->settled = L.listed && key_list_settled(&L, &j->started);
	if (j->rc == 0)
		j->rc = key_text(&L, &key, j->why, sizeof j->why);
	if (j->rc == 0) {
		key_digest(&key, j->digest);
		key_list_listing(&L, &j->listing_out);
	}
	key_list_release(&L);
	sb_release(&key);
	return NULL;
}

/* Set the cache file's modification time to `t` (when its listing was taken; see
 * key_list_cached), checking it is the file `ino` (0: any).  0 or -1. */
static int cache_stamp(int kfd, const struct timespec *t, ino_t ino)
{
	int fd = openat(kfd, CACHE_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	struct timespec ts[2] = {{.tv_nsec = UTIME_OMIT}, *t};
	int rc = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (!ino || st.st_ino == ino) &&
			 futimens(fd, ts) == 0 ? 0 : -1;
	close(fd);
	return rc;
}

/* The tree lock, not waited for: 0 with *lfd, or -1 with why. */
static int lock_tree(int kfd, int *lfd, char *why, size_t nwhy)
{
	*lfd = openat(kfd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (*lfd < 0) {
		text_snprintf(why, nwhy, "cannot open the tree lock (%s)", strerror(errno));
		return -1;
	}
	if (flock(*lfd, LOCK_EX | LOCK_NB) < 0) {
		text_snprintf(why, nwhy, "the tree is locked by a writer; cache left as it is");
		close(*lfd);
		*lfd = -1;
		return -1;
	}
	return 0;
}

/* Write the cache under the tree lock (not waited for), stamped with the time its key was
 * started. 0, or -1 with why. */
static int cache_write(int rootfd, const struct key_job *job, const struct ck_set *s,
		       char *why, size_t nwhy)
{
	if (mkdirat(rootfd, STATE_DIR, 0755) < 0 && errno != EEXIST) {
		text_snprintf(why, nwhy, "cannot create " STATE_DIR " in the tree (%s)", strerror(errno));
		return -1;
	}
	int kfd = openat(rootfd, STATE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (kfd < 0) {
		text_snprintf(why, nwhy, STATE_DIR " is not a plain directory (%s)", strerror(errno));
		return -1;
	}
	/* the state directory keeps itself out of `git status`, as the store's writers do */
	struct stat st;
	if (fstatat(kfd, ".gitignore", &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT &&
	    atomic_write_at(kfd, ".gitignore", "*\n", 2, 0644, true) < 0) {
		text_snprintf(why, nwhy, "cannot write " STATE_DIR "/.gitignore (%s)", strerror(errno));
		close(kfd);
		return -1;
	}
	int lfd, rc = -1;
	if (lock_tree(kfd, &lfd, why, nwhy) < 0) {
		close(kfd);
		return -1;
	}
	struct strbuf img = STRBUF_INIT;
	sb_grow(&img, CACHE_HDR + job->listing_out.len + s->blob_len + 65536);
	img.len = CACHE_HDR;
	sb_add(&img, job->listing_out.buf, job->listing_out.len);
	uint32_t flags = ck_db_payload(s, &img);
	size_t plen = img.len - CACHE_HDR - job->listing_out.len;
	unsigned char *h = (unsigned char *)img.buf;
	memset(h, 0, CACHE_HDR);
	memcpy(h, CACHE_MAGIC, 8);
	memcpy(h + 8, job->digest, 16);
	put_u32(h + 24, (uint32_t)job->listing_out.len);
	put_u32(h + 28, (uint32_t)s->n);
	put_u32(h + 32, flags);
	put_u32(h + 36, (uint32_t)plen);
	put_u32(h + 40, (uint32_t)crc32(0L, h + CACHE_HDR, (uInt)(img.len - CACHE_HDR)));
	if (img.len > CACHE_MAX)
		text_snprintf(why, nwhy, "the records are too large for the cache");
	else if (atomic_write_at(kfd, CACHE_NAME, img.buf, img.len, 0644, true) < 0)
		text_snprintf(why, nwhy, "cannot write " STATE_DIR "/" CACHE_NAME " (%s)", strerror(errno));
	else if (cache_stamp(kfd, &job->started, 0) < 0) {
		/* its listing must not be trusted beyond the time it was taken */
		unlinkat(kfd, CACHE_NAME, 0);
		text_snprintf(why, nwhy, "cannot set the time of " STATE_DIR "/" CACHE_NAME " (%s)",
			 strerror(errno));
	} else
		rc = 0;
	sb_release(&img);
	flock(lfd, LOCK_UN);
	close(lfd);
	close(kfd);
	return rc;
}

/* A hit whose directories were read because they had changed too close to the cache's
 * listing, and which have settled since: the listing matched again, so it is valid as of this
 * key's start; stamp the cache with that time, so later runs need not read the directories. */
static void cache_restamp(int rootfd, const struct key_job *job, ino_t ino)
{
	int kfd = openat(rootfd, STATE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (kfd < 0)
		return;
	int lfd;
	char why[160];
	if (lock_tree(kfd, &lfd, why, sizeof why) == 0) {
		cache_stamp(kfd, &job->started, ino);
		flock(lfd, LOCK_UN);
		close(lfd);
	}
	close(kfd);
}

static void key_compute(struct key_job *job)
{
	sb_release(&job->listing_out);
	key_run(job);
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
		text_snprintf(info->why, sizeof info->why, "cannot open the tree (%s)", strerror(errno));
		return ck_set_load_tree(s, root, err);
	}
	char rwhy[sizeof info->why] = "";
	struct cache_file cm;
	int got = cache_read(rootfd, &cm, rwhy, sizeof rwhy);
	/* The key is taken before the records are read: a record changed while they are read has
	 * a newer ctime than the key saw, so the next run rebuilds instead of trusting it.  It is
	 * computed on a second thread while the cache is checked and parsed. */
	struct key_job job = {.rootfd = rootfd, .listing_out = STRBUF_INIT};
	char *listing = NULL;
	if (got == 1 && cm.listing_len) {
		/* a copy: the cache's buffer is released if it proves damaged while the key runs */
		listing = xmalloc(cm.listing_len);
		memcpy(listing, cm.listing, cm.listing_len);
		job.listing = listing;
		job.listing_len = cm.listing_len;
		job.listing_taken = cm.st.st_mtim;
	}
	pthread_t th;
	bool threaded = pthread_create(&th, NULL, key_run, &job) == 0;
	if (!threaded)
		key_run(&job);
	ino_t cache_ino = cm.st.st_ino;
	if (got == 1 && cache_parse(&cm, root, s, rwhy, sizeof rwhy) < 0)
		got = -1;
	if (threaded)
		pthread_join(th, NULL);
	int rc;
	if (job.rc < 0) {
		text_snprintf(info->why, sizeof info->why, "%s", job.why);
		if (got == 1)
			ck_set_release(s);
		rc = ck_set_load_tree(s, root, err);
		goto out;
	}
	if (got == 1 && memcmp(cm.digest, job.digest, 16) == 0) {
		free(s->origin);
		s->origin = xstrdup(root);
		/* a tree, not a database: its age is the tree's (newest record date from the cache,
		 * keyed by the records; the caller adds the git HEAD time), never the cache's; the
		 * branch files are not in the key, so they are read again */
		s->db_format = 0;
		s->built = 0;
		s->tree_head = 0;
		info->state = CK_CACHE_HIT;
		if (job.listed)
			text_snprintf(info->why, sizeof info->why,
				 "the record directories were read (changed within %d s of the "
				 "cache's listing)", RACY_SECS);
		if (job.listed && job.settled && cm.listing_len)
			cache_restamp(rootfd, &job, cache_ino);
		rc = ck_set_load_branches(s, root, err);
		goto out;
	}
	if (got == 1) {
		ck_set_release(s);
		text_snprintf(rwhy, sizeof rwhy, "stale cache (the records or kcve changed)");
		got = -1;
	}
	/* the cache is rewritten with the listing its key was computed with: it must be one read
	 * from the directories, never the old cache's */
	if (!job.listed) {
		job.listing = NULL;
		key_compute(&job);
		if (job.rc < 0) {
			text_snprintf(info->why, sizeof info->why, "%s", job.why);
			rc = ck_set_load_tree(s, root, err);
			goto out;
		}
	}
	text_snprintf(info->why, sizeof info->why, "%s", rwhy);
	rc = ck_set_load_tree(s, root, err);
	if (rc == 0) {
		char wwhy[160] = "";
		if (cache_write(rootfd, &job, s, wwhy, sizeof wwhy) == 0)
			info->state = got < 0 ? CK_CACHE_REBUILT : CK_CACHE_BUILT;
		else
			text_snprintf(info->why, sizeof info->why, "%s", wwhy);
	}
out:
	free(listing);
	sb_release(&job.listing_out);
	close(rootfd);
	return rc;
}
