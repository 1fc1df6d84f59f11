/* Reading objects straight from a repository's pack files, for the full index build.
 *
 * libgit2's git_odb_read takes several mutexes per object (the odb's backend list, the pack's
 * and the mapped-window locks); with the full build's reader threads on every core they were
 * contended on nearly every read: on the 1.4 M-commit benchmark history ~725,000 context
 * switches and a third of the build's CPU in futex calls. Here each thread looks the id up
 * in the pack indexes (version 2) and inflates the object from the mapped pack with its own
 * zlib stream: no locks. Anything this code does not handle (loose objects, a
 * pack added during the build, unusual files) is reported as not found, and the caller reads
 * it through libgit2 instead.
 *
 * The mapped pages a process has touched count in its resident set (though they are page
 * cache): so each thread, once it has inflated TRIM_BYTES, drops the mappings' pages
 * (MADV_DONTNEED; they fault back in from the page cache when read again). Without that the
 * 850 MB pack of the benchmark history took peak RSS from ~500 MiB to 1.36 GiB. */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/xalloc.h"
#include "history/history_internal.h"

struct pack {
	const unsigned char *idx, *pack;
	size_t idx_len, pack_len;
	uint32_t n;
	const unsigned char *fanout, *ids, *offs, *big;
	size_t nbig;
};

struct packset {
	struct pack *v;
	size_t n;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static const void *map_file(int dirfd, const char *name, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return NULL;
	struct stat st;
	void *p = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			p = NULL;
		else
			*len = (size_t)st.st_size;
	}
	close(fd);
	return p;
}

/* A version 2 pack index and its pack, checked for size; false when unusable. */
static bool pack_open(int dirfd, const char *idxname, struct pack *pk)
{
	memset(pk, 0, sizeof(*pk));
	size_t nl = strlen(idxname);
	char packname[512];
	if (nl < 4 || nl >= sizeof(packname))
		return false;
	memcpy(packname, idxname, nl - 4);
	memcpy(packname + nl - 4, ".pack", 6);
	pk->idx = map_file(dirfd, idxname, &pk->idx_len);
	if (!pk->idx)
		return false;
	pk->pack = map_file(dirfd, packname, &pk->pack_len);
	const unsigned char *x = pk->idx;
	if (!pk->pack || pk->idx_len < 8 + 1024 + 40 || memcmp(x, "\377tOc", 4) || be32(x + 4) != 2 ||
	    pk->pack_len < 12 + 20 || memcmp(pk->pack, "PACK", 4))
		goto bad;
	pk->fanout = x + 8;
	pk->n = be32(pk->fanout + 255 * 4);
	for (int i = 1; i < 256; i++)
		if (be32(pk->fanout + 4 * i) < be32(pk->fanout + 4 * (i - 1)))
			goto bad;
	size_t need = 8 + 1024 + (size_t)pk->n * 28 + 40;
	if (pk->idx_len < need || (pk->idx_len - need) % 8)
		goto bad;
	pk->ids = pk->fanout + 1024;
	pk->offs = pk->ids + (size_t)pk->n * 24; /* after the ids and the CRCs */
	pk->big = pk->offs + (size_t)pk->n * 4;
	pk->nbig = (pk->idx_len - need) / 8;
	return true;
bad:
	if (pk->idx)
		munmap((void *)pk->idx, pk->idx_len);
	if (pk->pack)
		munmap((void *)pk->pack, pk->pack_len);
	memset(pk, 0, sizeof(*pk));
	return false;
}

static int pack_cmp(const void *a, const void *b)
{
	const struct pack *x = a, *y = b;
	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

static void add_packs(struct packset *ps, size_t *alloc, const char *objects_dir, int depth);

/* objects_dir/info/alternates: one objects directory a line, absolute or relative to
 * objects_dir (git's rules; at most 5 levels, like git) */
static void add_alternates(struct packset *ps, size_t *alloc, const char *objects_dir, int depth)
{
	char path[4096], line[4096];
	if (depth >= 5 ||
	    snprintf(path, sizeof(path), "%s/info/alternates", objects_dir) >= (int)sizeof(path))
		return;
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (line[0] == '/')
			add_packs(ps, alloc, line, depth + 1);
		else if (snprintf(path, sizeof(path), "%s/%s", objects_dir, line) < (int)sizeof(path))
			add_packs(ps, alloc, path, depth + 1);
	}
	fclose(f);
}

static void add_packs(struct packset *ps, size_t *alloc, const char *objects_dir, int depth)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/pack", objects_dir) >= (int)sizeof(path))
		return;
	int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
	if (!d) {
		if (dfd >= 0)
			close(dfd);
	} else {
		for (struct dirent *e; (e = readdir(d));) {
			size_t l = strlen(e->d_name);
			if (l < 9 || strncmp(e->d_name, "pack-", 5) || strcmp(e->d_name + l - 4, ".idx"))
				continue;
			XGROW(ps->v, ps->n + 1, *alloc);
			if (pack_open(dirfd(d), e->d_name, &ps->v[ps->n]))
				ps->n++;
		}
		closedir(d);
	}
	add_alternates(ps, alloc, objects_dir, depth);
}

struct packset *packset_open(const char *objects_dir)
{
	struct packset *ps = xcalloc(1, sizeof(*ps));
	size_t alloc = 0;
	add_packs(ps, &alloc, objects_dir, 0);
	if (!ps->n) {
		packset_free(ps);
		return NULL;
	}
	qsort(ps->v, ps->n, sizeof(*ps->v), pack_cmp); /* the largest pack is asked first */
	return ps;
}

struct packset *packset_open_repo(git_repository *repo)
{
	struct strbuf dir = STRBUF_INIT;
	sb_addf(&dir, "%sobjects", git_repository_commondir(repo));
	struct packset *ps = packset_open(sb_str(&dir));
	sb_release(&dir);
	return ps;
}

void packset_free(struct packset *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++) {
		munmap((void *)ps->v[i].idx, ps->v[i].idx_len);
		munmap((void *)ps->v[i].pack, ps->v[i].pack_len);
	}
	free(ps->v);
	free(ps);
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

static uint64_t entry_offset(const struct pack *pk, uint32_t i)
{
	uint32_t o = be32(pk->offs + (size_t)i * 4);
	if (!(o & 0x80000000u))
		return o;
	o &= 0x7fffffffu;
	return o < pk->nbig ? be64(pk->big + (size_t)o * 8) : 0;
}

/* Compare entry mid of pk's id table with id, narrowing [lo, hi): true when it is id. */
static bool probe(const struct pack *pk, uint32_t mid, const unsigned char *id, uint32_t *lo,
		  uint32_t *hi)
{
	int c = memcmp(pk->ids + (size_t)mid * 20, id, 20);
	if (c < 0)
		*lo = mid + 1;
	else if (c > 0)
		*hi = mid;
	return c == 0;
}

/* Offset of id in pk, 0 when absent or invalid (no object starts at offset 0). Object ids
 * are uniformly distributed, so a few interpolation steps on their first 8 bytes find the
 * entry with ~3 probes of the id table instead of a binary search's ~13 (the memcmp of
 * those searches was ~10 % of a full build); a binary search finishes the rest. */
static uint64_t pack_find(const struct pack *pk, const unsigned char *id)
{
	uint32_t lo = id[0] ? be32(pk->fanout + 4 * (id[0] - 1)) : 0, hi = be32(pk->fanout + 4 * id[0]);
	uint64_t k = be64(id);
	for (int step = 0; step < 6 && hi - lo > 8; step++) {
		uint64_t a = be64(pk->ids + (size_t)lo * 20), b = be64(pk->ids + (size_t)(hi - 1) * 20);
		if (k < a || k > b)
			return 0;
		uint32_t mid = lo;
		if (b > a) {
			double f = (double)(k - a) / (double)(b - a) * (double)(hi - 1 - lo);
			mid = lo + (f >= (double)(hi - 1 - lo) ? hi - 1 - lo : (uint32_t)f);
		}
		if (probe(pk, mid, id, &lo, &hi))
			return entry_offset(pk, mid);
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (probe(pk, mid, id, &lo, &hi))
			return entry_offset(pk, mid);
	}
	return 0;
}

#define TRIM_BYTES (8u << 20)

static void trim(const struct packset *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		madvise((void *)ps->v[i].pack, ps->v[i].pack_len, MADV_DONTNEED);
		madvise((void *)ps->v[i].idx, ps->v[i].idx_len, MADV_DONTNEED);
	}
}

/* Inflate exactly size bytes from pk at pos into out (replacing its contents). */
static int inflate_at(const struct packset *ps, struct pack_cursor *pc, const struct pack *pk,
		      uint64_t pos, size_t size, struct strbuf *out)
{
	if (!pc->zinit) {
		memset(&pc->z, 0, sizeof(pc->z));
		if (inflateInit(&pc->z) != Z_OK)
			return -1;
		pc->zinit = true;
	} else if (inflateReset(&pc->z) != Z_OK) {
		return -1;
	}
	sb_reset(out);
	sb_grow(out, size + 1);
	size_t avail = pk->pack_len - 20 - pos;
	pc->z.next_in = (unsigned char *)pk->pack + pos;
	pc->z.avail_in = avail > UINT32_MAX ? UINT32_MAX : (uInt)avail;
	pc->z.next_out = (unsigned char *)out->buf;
	pc->z.avail_out = (uInt)size;
	int zr = inflate(&pc->z, Z_FINISH);
	pc->inflated += pc->z.total_in;
	if (pc->inflated >= TRIM_BYTES) {
		pc->inflated = 0;
		trim(ps);
	}
	if (zr != Z_STREAM_END || pc->z.total_out != size)
		return -1;
	out->len = size;
	out->buf[size] = '\0';
	return 0;
}

static int delta_size(const unsigned char **p, const unsigned char *end, size_t *out)
{
	size_t v = 0;
	int shift = 0;
	unsigned char c;
	do {
		if (*p >= end || shift > 56)
			return -1;
		c = *(*p)++;
		v |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	*out = v;
	return 0;
}

/* git's delta format applied to base, into out. */
static int delta_apply(const struct strbuf *base, const struct strbuf *delta, struct strbuf *out)
{
	const unsigned char *p = (const unsigned char *)delta->buf, *end = p + delta->len;
	size_t src, dst;
	if (delta_size(&p, end, &src) || delta_size(&p, end, &dst) || src != base->len)
		return -1;
	sb_reset(out);
	sb_grow(out, dst + 1);
	while (p < end) {
		unsigned char c = *p++;
		if (c & 0x80) {
			size_t off = 0, n = 0;
			for (int i = 0; i < 4; i++)
				if (c & (1u << i)) {
					if (p >= end)
						return -1;
					off |= (size_t)*p++ << (8 * i);
				}
			for (int i = 0; i < 3; i++)
				if (c & (0x10u << i)) {
					if (p >= end)
						return -1;
					n |= (size_t)*p++ << (8 * i);
				}
			if (!n)
				n = 0x10000;
			if (off > base->len || n > base->len - off || n > dst - out->len)
				return -1;
			memcpy(out->buf + out->len, base->buf + off, n);
			out->len += n;
		} else if (c) {
			if ((ptrdiff_t)c > end - p || (size_t)c > dst - out->len)
				return -1;
			memcpy(out->buf + out->len, p, c);
			out->len += c;
			p += c;
		} else {
			return -1;
		}
	}
	if (out->len != dst)
		return -1;
	out->buf[dst] = '\0';
	return 0;
}

#define MAX_DELTA_DEPTH 64

static int read_at(const struct packset *ps, struct pack_cursor *pc, const struct pack *pk,
		   uint64_t pos, int depth, struct strbuf *out, int *type);

static int read_id(const struct packset *ps, struct pack_cursor *pc, const unsigned char *id,
		   int depth, struct strbuf *out, int *type)
{
	size_t n = ps->n, first = pc->last < n ? pc->last : 0;
	for (size_t k = 0; k < n; k++) {
		size_t i = (first + k) % n;
		uint64_t pos = pack_find(&ps->v[i], id);
		if (pos) {
			pc->last = i;
			return read_at(ps, pc, &ps->v[i], pos, depth, out, type);
		}
	}
	return -1;
}

/* The object header at pos: type and size, *at set to what follows it. */
static int obj_header(const struct pack *pk, uint64_t pos, int *t, size_t *size, uint64_t *at)
{
	const unsigned char *p = pk->pack;
	if (pos < 12 || pos >= pk->pack_len - 20)
		return -1;
	uint64_t a = pos;
	unsigned char c = p[a++];
	*t = (c >> 4) & 7;
	*size = c & 15;
	int shift = 4;
	while (c & 0x80) {
		if (a >= pk->pack_len - 20 || shift > 56)
			return -1;
		c = p[a++];
		*size |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	}
	*at = a;
	return 0;
}

/* The offset of an OFS_DELTA's base (its header ends at *at, moved past the offset). */
static int ofs_base(const struct pack *pk, uint64_t pos, uint64_t *at, uint64_t *base)
{
	const unsigned char *p = pk->pack, *end = pk->pack + pk->pack_len - 20;
	if (p + *at >= end)
		return -1;
	unsigned char c = p[(*at)++];
	uint64_t ofs = c & 127;
	while (c & 128) {
		if (p + *at >= end || ofs >> 56)
			return -1;
		c = p[(*at)++];
		ofs = ((ofs + 1) << 7) | (c & 127);
	}
	if (ofs >= pos)
		return -1;
	*base = pos - ofs;
	return 0;
}

static int read_at(const struct packset *ps, struct pack_cursor *pc, const struct pack *pk,
		   uint64_t pos, int depth, struct strbuf *out, int *type)
{
	const unsigned char *p = pk->pack, *end = pk->pack + pk->pack_len - 20;
	uint64_t at, bpos;
	size_t size;
	int t;
	if (depth > MAX_DELTA_DEPTH || obj_header(pk, pos, &t, &size, &at))
		return -1;
	if (t >= 1 && t <= 4) {
		*type = t;
		return inflate_at(ps, pc, pk, at, size, out);
	}
	struct strbuf base = STRBUF_INIT, delta = STRBUF_INIT;
	int rc = -1;
	if (t == 6) { /* OFS_DELTA: the base is at a negative offset */
		if (ofs_base(pk, pos, &at, &bpos))
			return -1;
		rc = read_at(ps, pc, pk, bpos, depth + 1, &base, type);
	} else if (t == 7) { /* REF_DELTA: the base by id */
		if ((uint64_t)(end - p) < at + 20)
			return -1;
		const unsigned char *bid = p + at;
		at += 20;
		rc = read_id(ps, pc, bid, depth + 1, &base, type);
	}
	if (!rc)
		rc = inflate_at(ps, pc, pk, at, size, &delta);
	if (!rc)
		rc = delta_apply(&base, &delta, out);
	sb_release(&base);
	sb_release(&delta);
	return rc;
}

int packset_read(const struct packset *ps, struct pack_cursor *pc, const git_oid *id,
		 struct strbuf *out, git_object_t *type)
{
	int t = 0;
	if (!ps || read_id(ps, pc, id->id, 0, out, &t))
		return -1;
	*type = (git_object_t)t; /* git's pack types 1-4 are libgit2's object types */
	return 0;
}

/* The type of the object at pos, through its delta bases, without inflating anything. */
static int type_at(const struct packset *ps, const struct pack *pk, uint64_t pos, int depth)
{
	for (; depth <= MAX_DELTA_DEPTH; depth++) {
		uint64_t at, bpos;
		size_t size;
		int t;
		if (obj_header(pk, pos, &t, &size, &at))
			return -1;
		if (t >= 1 && t <= 4)
			return t;
		if (t == 6) {
			if (ofs_base(pk, pos, &at, &bpos))
				return -1;
			pos = bpos;
		} else if (t == 7 && at + 20 <= pk->pack_len - 20) {
			const unsigned char *bid = pk->pack + at;
			size_t i;
			for (i = 0; i < ps->n && !(pos = pack_find(&ps->v[i], bid)); i++)
				;
			if (i == ps->n)
				return -1;
			pk = &ps->v[i];
		} else {
			return -1;
		}
	}
	return -1;
}

int packset_type(const struct packset *ps, const git_oid *id, git_object_t *type)
{
	for (size_t i = 0; ps && i < ps->n; i++) {
		uint64_t pos = pack_find(&ps->v[i], id->id);
		if (pos) {
			int t = type_at(ps, &ps->v[i], pos, 0);
			if (t < 0)
				return -1;
			*type = (git_object_t)t;
			return 0;
		}
	}
	return -1;
}

void pack_cursor_release(struct pack_cursor *pc)
{
	if (pc->zinit)
		inflateEnd(&pc->z);
	pc->zinit = false;
}
