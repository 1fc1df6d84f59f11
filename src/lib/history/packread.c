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
 * The pack indexes are mapped; the packs are read with pread(): pages of a mapped pack count
 * in the process's resident set once touched (the kernel maps 16 pages around each fault),
 * which took a full build's peak RSS on the benchmark history from ~500 MiB to 1.36 GiB. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/fileio.h"
#include "core/safefs.h"
#include "core/xalloc.h"
#include "history/history_internal.h"
#include "core/text.h"

struct pack {
	const unsigned char *idx;
	size_t idx_len;
	int fd;          /* the pack */
	uint64_t end;    /* its size less the trailing checksum */
	uint32_t n;
	const unsigned char *fanout, *ids, *offs, *big;
	size_t nbig;
};

struct packset {
	struct pack *v;
	size_t n;
	uint8_t loose[256 / 8]; /* objects/XX directories (loose objects) seen, by first byte */
	/* the objects directories read: the repository's, then its alternates, each once */
	char *dirs[PACKSET_MAX_ALTERNATES];
	dev_t dirs_dev[PACKSET_MAX_ALTERNATES];
	ino_t dirs_ino[PACKSET_MAX_ALTERNATES];
	size_t ndirs;
	char problem[512]; /* the first problem met with the alternates, "" when none */
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static const void *map_file(int dirfd, const char *name, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK); /* a FIFO never waits */
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
	pk->fd = -1;
	size_t nl = strlen(idxname);
	char packname[512];
	unsigned char hdr[12];
	struct stat st;
	if (nl < 4 || nl >= sizeof(packname))
		return false;
	memcpy(packname, idxname, nl - 4);
	memcpy(packname + nl - 4, ".pack", 6);
	pk->idx = map_file(dirfd, idxname, &pk->idx_len);
	if (!pk->idx)
		return false;
	pk->fd = openat(dirfd, packname, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	const unsigned char *x = pk->idx;
	if (pk->fd < 0 || fstat(pk->fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 12 + 20 ||
	    pread(pk->fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) || memcmp(hdr, "PACK", 4) ||
	    pk->idx_len < 8 + 1024 + 40 || memcmp(x, "\377tOc", 4) || be32(x + 4) != 2)
		goto bad;
	pk->end = (uint64_t)st.st_size - 20;
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
	munmap((void *)pk->idx, pk->idx_len);
	if (pk->fd >= 0)
		close(pk->fd);
	memset(pk, 0, sizeof(*pk));
	return false;
}

static int pack_cmp(const void *a, const void *b)
{
	const struct pack *x = a, *y = b;
	return x->n < y->n ? 1 : x->n > y->n ? -1 : 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Where objects directories were met, to open each once (by device and inode: the same
 * directory listed twelve times, or under other names, must not be opened twelve times) and
 * to refuse loops (a directory that lists one of the directories that led to it). */
struct odir_walk {
	struct packset *ps;
	size_t alloc;
	dev_t chain_dev[PACKSET_MAX_ALT_DEPTH + 1];
	ino_t chain_ino[PACKSET_MAX_ALT_DEPTH + 1];
};

static void note_problem(struct packset *ps, const char *what, const char *dir)
{
	if (ps->problem[0])
		return;
	char *d = safe_printable(dir);
	text_snprintf(ps->problem, sizeof(ps->problem), "%s (%s)", what, d);
	free(d);
}

static void add_packs(struct odir_walk *w, const char *objects_dir, int depth);

/* objects_dir/info/alternates: one objects directory a line, absolute or relative to
 * objects_dir (git's rules; at most PACKSET_MAX_ALT_DEPTH levels, like git). Read with the
 * bounded reader: a FIFO, a device or a link to one there is refused, not waited on. */
static void add_alternates(struct odir_walk *w, const char *objects_dir, int depth)
{
	char path[4096];
	struct strbuf sb = STRBUF_INIT;
	if (text_snprintf(path, sizeof(path), "%s/info/alternates", objects_dir) >= (int)sizeof(path))
		return;
	if (read_file_capped(path, &sb, PACKSET_ALTERNATES_MAX) < 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			note_problem(w->ps, errno == EFBIG ? "objects/info/alternates is too large"
							   : "objects/info/alternates is not a readable regular file",
				     path);
		sb_release(&sb);
		return;
	}
	if (sb.len && depth >= PACKSET_MAX_ALT_DEPTH)
		note_problem(w->ps, "alternates nested deeper than 5 levels", path);
	for (char *line = sb.buf, *next; depth < PACKSET_MAX_ALT_DEPTH && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		if (line[0] == '/')
			add_packs(w, line, depth + 1);
		else if (text_snprintf(path, sizeof(path), "%s/%s", objects_dir, line) < (int)sizeof(path))
			add_packs(w, path, depth + 1);
	}
	sb_release(&sb);
}

/* false when objects_dir was seen already (a duplicate: skipped; a loop: also noted) */
static bool first_visit(struct odir_walk *w, const char *objects_dir, int depth)
{
	struct packset *ps = w->ps;
	struct stat st;
	if (stat(objects_dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	for (int i = 0; i < depth; i++)
		if (w->chain_dev[i] == st.st_dev && w->chain_ino[i] == st.st_ino) {
			note_problem(ps, "alternates form a loop", objects_dir);
			return false;
		}
	for (size_t i = 0; i < ps->ndirs; i++)
		if (ps->dirs_dev[i] == st.st_dev && ps->dirs_ino[i] == st.st_ino)
			return false;
	if (ps->ndirs == PACKSET_MAX_ALTERNATES) {
		note_problem(ps, "more than 64 alternate object directories", objects_dir);
		return false;
	}
	ps->dirs_dev[ps->ndirs] = st.st_dev;
	ps->dirs_ino[ps->ndirs] = st.st_ino;
	ps->dirs[ps->ndirs++] = xstrdup(objects_dir);
	w->chain_dev[depth] = st.st_dev;
	w->chain_ino[depth] = st.st_ino;
	return true;
}

static void add_packs(struct odir_walk *w, const char *objects_dir, int depth)
{
	struct packset *ps = w->ps;
	char path[4096];
	if (!first_visit(w, objects_dir, depth) ||
	    text_snprintf(path, sizeof(path), "%s/pack", objects_dir) >= (int)sizeof(path))
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
			XGROW(ps->v, ps->n + 1, w->alloc);
			if (pack_open(dirfd(d), e->d_name, &ps->v[ps->n]))
				ps->n++;
		}
		closedir(d);
	}
	/* loose objects: which objects/XX directories exist (prefix lookups there go to libgit2) */
	if ((d = opendir(objects_dir))) {
		for (struct dirent *e; (e = readdir(d));) {
			int hi = hexval(e->d_name[0]), lo = hi < 0 ? -1 : hexval(e->d_name[1]);
			if (lo >= 0 && !e->d_name[2]) {
				unsigned b = (unsigned)(hi << 4 | lo);
				ps->loose[b / 8] |= (uint8_t)(1u << (b % 8));
			}
		}
		closedir(d);
	}
	add_alternates(w, objects_dir, depth);
}

struct packset *packset_scan(const char *objects_dir)
{
	struct packset *ps = xcalloc(1, sizeof(*ps));
	struct odir_walk w = {.ps = ps};
	add_packs(&w, objects_dir, 0);
	if (ps->n)
		qsort(ps->v, ps->n, sizeof(*ps->v), pack_cmp); /* the largest pack is asked first */
	return ps;
}

struct packset *packset_open(const char *objects_dir)
{
	struct packset *ps = packset_scan(objects_dir);
	if (!ps->n) {
		packset_free(ps);
		return NULL;
	}
	return ps;
}

const char *packset_problem(const struct packset *ps)
{
	return ps && ps->problem[0] ? ps->problem : NULL;
}

size_t packset_dirs(const struct packset *ps, const char *const **dirs)
{
	*dirs = (const char *const *)ps->dirs;
	return ps->ndirs;
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
		close(ps->v[i].fd);
	}
	for (size_t i = 0; i < ps->ndirs; i++)
		free(ps->dirs[i]);
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

/* Bytes read at once: most commits fit in the first read (468 bytes on average in the
 * benchmark's packs); larger objects take further, larger reads. */
#define CHUNK 1024
/* Largest object (or delta result) read here: commits and tags are a few KiB, and a size
 * field is only a claim of the pack (a damaged one could ask for exabytes); bigger objects
 * are left to libgit2. */
#define MAX_OBJECT ((size_t)64 << 20)

/* Read pk's bytes [pos, pos + n) into pc->in (n clipped at the pack's end); the count read. */
static size_t fill(struct pack_cursor *pc, const struct pack *pk, uint64_t pos, size_t n)
{
	if (pos >= pk->end)
		return 0;
	if (n > pk->end - pos)
		n = (size_t)(pk->end - pos);
	if (pc->ain < n) {
		free(pc->in);
		pc->in = xmalloc(n);
		pc->ain = n;
	}
	ssize_t r = pread(pk->fd, pc->in, n, (off_t)pos);
	return r > 0 ? (size_t)r : 0;
}

/* Inflate exactly size bytes of the zlib stream at pos into out (replacing its contents);
 * have bytes of it are in pc->in already. */
static int inflate_at(struct pack_cursor *pc, const struct pack *pk, uint64_t pos, size_t have,
		      size_t size, struct strbuf *out)
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
	pc->z.next_out = (unsigned char *)out->buf;
	pc->z.avail_out = (uInt)size;
	size_t want = CHUNK;
	for (;;) {
		if (!have) {
			want = want < (64u << 20) ? want * 4 : want;
			if (!(have = fill(pc, pk, pos, want)))
				return -1;
		}
		pc->z.next_in = pc->in;
		pc->z.avail_in = (uInt)have;
		int zr = inflate(&pc->z, Z_FINISH);
		if (zr == Z_STREAM_END)
			break;
		if ((zr != Z_BUF_ERROR && zr != Z_OK) || pc->z.avail_in || !pc->z.avail_out)
			return -1;
		pos += have;
		have = 0;
	}
	if (pc->z.total_out != size)
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
	if (delta_size(&p, end, &src) || delta_size(&p, end, &dst) || src != base->len ||
	    dst > MAX_OBJECT)
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

/* The object header at pos, in buf (n bytes read from pos): type and size, *at set to the
 * offset (in buf) of what follows it. */
static int obj_header(const unsigned char *buf, size_t n, int *t, size_t *size, size_t *at)
{
	size_t a = 0;
	if (!n)
		return -1;
	unsigned char c = buf[a++];
	*t = (c >> 4) & 7;
	*size = c & 15;
	int shift = 4;
	while (c & 0x80) {
		if (a >= n || shift > 56)
			return -1;
		c = buf[a++];
		*size |= (size_t)(c & 0x7f) << shift;
		shift += 7;
	}
	*at = a;
	return 0;
}

/* The position of an OFS_DELTA's base, from its offset encoding at buf[*at] (moved past it). */
static int ofs_base(const unsigned char *buf, size_t n, uint64_t pos, size_t *at, uint64_t *base)
{
	if (*at >= n)
		return -1;
	unsigned char c = buf[(*at)++];
	uint64_t ofs = c & 127;
	while (c & 128) {
		if (*at >= n || ofs >> 56)
			return -1;
		c = buf[(*at)++];
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
	size_t n, at, size;
	uint64_t bpos;
	int t;
	if (depth > MAX_DELTA_DEPTH || pos < 12 || !(n = fill(pc, pk, pos, CHUNK)) ||
	    obj_header(pc->in, n, &t, &size, &at) || size > MAX_OBJECT)
		return -1;
	if (t >= 1 && t <= 4) {
		*type = t;
		memmove(pc->in, pc->in + at, n - at);
		return inflate_at(pc, pk, pos + at, n - at, size, out);
	}
	struct strbuf base = STRBUF_INIT, delta = STRBUF_INIT;
	int rc = -1;
	if (t == 6) { /* OFS_DELTA: the base is at a negative offset */
		if (!ofs_base(pc->in, n, pos, &at, &bpos))
			rc = read_at(ps, pc, pk, bpos, depth + 1, &base, type);
	} else if (t == 7 && at + 20 <= n) { /* REF_DELTA: the base by id */
		unsigned char bid[20];
		memcpy(bid, pc->in + at, 20);
		at += 20;
		rc = read_id(ps, pc, bid, depth + 1, &base, type);
	}
	if (!rc) /* pc->in was reused for the base */
		rc = inflate_at(pc, pk, pos + at, 0, size, &delta);
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

/* The size a delta at pos (its data at pos + at) declares for its result: its second
 * varint, from the first bytes inflated. 0 when it cannot be read. */
static size_t delta_result_size(const struct pack *pk, uint64_t pos)
{
	unsigned char in[1024], out[32];
	ssize_t r = pread(pk->fd, in, sizeof(in), (off_t)pos);
	if (r <= 0)
		return 0;
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return 0;
	z.next_in = in;
	z.avail_in = (uInt)r;
	z.next_out = out;
	z.avail_out = sizeof(out);
	inflate(&z, Z_SYNC_FLUSH);
	size_t got = sizeof(out) - z.avail_out, src, dst = 0;
	inflateEnd(&z);
	const unsigned char *p = out, *end = out + got;
	if (delta_size(&p, end, &src) || delta_size(&p, end, &dst))
		return 0;
	return dst;
}

/* Follow the delta chain at pos to its base: its type into *type, the size the first object
 * declares (for a delta, its result's) into *size. Brent's cycle detection: the position
 * saved at each power of two steps comes back only on a cycle. */
static int chain_check(const struct packset *ps, const struct pack *pk, uint64_t pos,
		       git_object_t *type, size_t *size, const char **why)
{
	const struct pack *spk = NULL;
	uint64_t spos = 0;
	for (unsigned step = 0; step <= PACKSET_MAX_CHAIN; step++) {
		unsigned char buf[64];
		size_t at, sz, n;
		uint64_t bpos;
		int t;
		if (spk == pk && spos == pos)
			return *why = "a delta chain that loops back on itself", -1;
		if (!(step & (step - 1))) /* 0, 1, 2, 4, 8, ... */
			spk = pk, spos = pos;
		ssize_t r = pos < 12 || pos >= pk->end ? -1 : pread(pk->fd, buf, sizeof(buf), (off_t)pos);
		n = r > 0 ? (size_t)r : 0;
		if (obj_header(buf, n, &t, &sz, &at))
			return *why = "an object offset outside its pack, or a damaged header", -1;
		if (!step)
			*size = sz;
		if (t >= 1 && t <= 4) {
			*type = (git_object_t)t;
			return 0;
		}
		if (t == 6) {
			if (ofs_base(buf, n, pos, &at, &bpos))
				return *why = "a delta whose base offset is outside its pack", -1;
		} else if (t != 7 || at + 20 > n) {
			return *why = "an object of an unknown type", -1;
		}
		if (!step)
			*size = delta_result_size(pk, pos + at + (t == 7 ? 20 : 0));
		if (t == 7) {
			size_t i;
			for (i = 0; i < ps->n && !(bpos = pack_find(&ps->v[i], buf + at)); i++)
				;
			if (i == ps->n) /* a thin pack's base elsewhere: libgit2 will say */
				return 1;
			pk = &ps->v[i];
		}
		pos = bpos;
	}
	return *why = "a delta chain deeper than 4096 objects", -1;
}

int packset_check(const struct packset *ps, const git_oid *id, git_object_t *type, size_t *size,
		  const char **why)
{
	for (size_t i = 0; ps && i < ps->n; i++) {
		uint64_t pos = pack_find(&ps->v[i], id->id);
		if (pos)
			return chain_check(ps, &ps->v[i], pos, type, size, why);
	}
	return 1;
}

int packset_type(const struct packset *ps, const git_oid *id, git_object_t *type)
{
	size_t size;
	const char *why;
	return packset_check(ps, id, type, &size, &why) ? -1 : 0;
}

/* Whether entry i of pk starts with the n hex digits of key. */
static bool has_prefix(const struct pack *pk, uint32_t i, const unsigned char *key, size_t n)
{
	const unsigned char *e = pk->ids + (size_t)i * 20;
	if (memcmp(e, key, n / 2))
		return false;
	return !(n & 1) || (e[n / 2] & 0xf0) == (key[n / 2] & 0xf0);
}

int packset_prefix(const struct packset *ps, const git_oid *key, size_t n, git_oid *out)
{
	bool found = false;
	if (!ps || n < 4 || n > GIT_OID_HEXSZ || ps->loose[key->id[0] / 8] & (1u << (key->id[0] % 8)))
		return -1;
	for (size_t p = 0; p < ps->n; p++) {
		const struct pack *pk = &ps->v[p];
		uint32_t lo = key->id[0] ? be32(pk->fanout + 4 * (key->id[0] - 1)) : 0;
		uint32_t hi = be32(pk->fanout + 4 * key->id[0]), end = hi;
		while (lo < hi) { /* the first entry >= key (whose other digits are 0) */
			uint32_t mid = lo + (hi - lo) / 2;
			if (memcmp(pk->ids + (size_t)mid * 20, key->id, 20) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (uint32_t i = lo; i < end && has_prefix(pk, i, key->id, n); i++) {
			if (found && memcmp(out->id, pk->ids + (size_t)i * 20, 20))
				return 2;
			memcpy(out->id, pk->ids + (size_t)i * 20, 20);
			found = true;
		}
	}
	return found ? 0 : 1;
}

void pack_cursor_release(struct pack_cursor *pc)
{
	if (pc->zinit)
		inflateEnd(&pc->z);
	pc->zinit = false;
	free(pc->in);
	pc->in = NULL;
	pc->ain = 0;
}
