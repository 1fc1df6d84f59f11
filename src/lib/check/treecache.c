/* The record tree's compact-database cache (format and key in check/treecache.h). */
#include "check/treecache.h"

#include <dirent.h>
#include <errno.h>
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

/* One year directory: its records' files by metadata, as the loader lists them (names ending
 * in .json, not starting with '.').  A record file that is not a regular file (a symbolic link
 * could change its target without changing itself) disables the cache: -1 with why. */
static int key_year(struct strbuf *key, int pubfd, const char *year, char *why, size_t nwhy)
{
	int yfd = openat(pubfd, year, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (yfd < 0) {
		sb_addf(key, "year %s unreadable %d", year, errno);
		return 0; /* the loader reads no records there either */
	}
	size_t n;
	char **names;
	int rc = list_names(yfd, &names, &n);
	if (rc < 0)
		snprintf(why, nwhy, "cannot read cve/published/%s", year);
	sb_addf(key, "year %s", year);
	char file[512];
	const char *json = ck_record_exts[CK_REC_JSON];
	size_t jl = strlen(json);
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t l = strlen(names[i]);
		if (l <= jl || l >= sizeof file - 8 || strcmp(names[i] + l - jl, json) != 0)
			continue;
		/* every file ck_record_read() reads for this record */
		for (int x = 0; x < CK_REC_NFILES && rc == 0; x++) {
			snprintf(file, sizeof file, "%.*s%s", (int)(l - jl), names[i], ck_record_exts[x]);
			struct stat st;
			if (fstatat(yfd, file, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				memset(&st, 0, sizeof st); /* absent (.dyad, .sha1 are optional) */
				st.st_size = -1;
			} else if (!S_ISREG(st.st_mode)) {
				snprintf(why, nwhy, "cve/published/%.16s/%.64s is not a regular file", year, file);
				rc = -1;
			}
			add_stat(key, file, &st);
		}
	}
	close(yfd);
	free_names(names, n);
	return rc;
}

/* The key text of the tree at rootfd (see treecache.h); -1 with why if it cannot be cached. */
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
	size_t n;
	char **years;
	int rc = list_names(pubfd, &years, &n);
	if (rc < 0)
		snprintf(why, nwhy, "cannot read cve/published");
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = key_year(key, pubfd, years[i], why, nwhy);
	close(pubfd);
	free_names(years, n);
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

/* Read the cache file; 1 = loaded (s filled), 0 = absent, -1 = stale or damaged (why). */
static int cache_read(int rootfd, const char *root, const unsigned char digest[16],
		      struct ck_set *s, char *why, size_t nwhy)
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
	if (memcmp(sb.buf + 8, digest, 16) != 0) {
		snprintf(why, nwhy, "stale cache (the records or kcve changed)");
		goto out;
	}
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
	struct strbuf key = STRBUF_INIT;
	unsigned char digest[16];
	int rc;
	if (tree_key(rootfd, &key, info->why, sizeof info->why) < 0) {
		rc = ck_set_load_tree(s, root, err);
		goto out;
	}
	key_digest(&key, digest);
	int got = cache_read(rootfd, root, digest, s, info->why, sizeof info->why);
	if (got == 1) {
		free(s->origin);
		s->origin = xstrdup(root);
		info->state = CK_CACHE_HIT;
		rc = 0;
		goto out;
	}
	rc = ck_set_load_tree(s, root, err);
	if (rc == 0) {
		char wwhy[160] = "";
		if (cache_write(rootfd, digest, s, wwhy, sizeof wwhy) == 0)
			info->state = got < 0 ? CK_CACHE_REBUILT : CK_CACHE_BUILT;
		else
			snprintf(info->why, sizeof info->why, "%s", wwhy);
	}
out:
	sb_release(&key);
	close(rootfd);
	return rc;
}
