/* Persistent per-commit scan cache of `kcve check --git` (format and rationale: scancache.h). */
#include "check/inputs/scancache.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/fileio.h"
#include "core/strbuf.h"
#include "core/xalloc.h"

#define MAGIC "KCVESCN1"
#define HEADER_LEN 24 /* magic, u32 rules, u32 0, u64 count */
#define ENTRY_HEAD 26 /* id, u16 nparents, u16 nrefs, u16 nreverts */
#define NO_OFF SIZE_MAX

struct slot {
	unsigned char id[20];
	size_t off; /* of the entry in data; NO_OFF = empty slot */
};

struct scan_cache {
	struct strbuf data; /* header + entries (no trailer) */
	size_t n, nadded;
	struct slot *tab;
	size_t cap; /* power of two, at most half full */
};

static size_t id_hash(const unsigned char *id)
{
	size_t h;
	memcpy(&h, id, sizeof h);
	return h;
}

static struct slot *find_slot(const struct scan_cache *c, const unsigned char *id)
{
	size_t m = c->cap - 1, i = id_hash(id) & m;
	while (c->tab[i].off != NO_OFF && memcmp(c->tab[i].id, id, 20) != 0)
		i = (i + 1) & m;
	return &c->tab[i];
}

static void table_resize(struct scan_cache *c, size_t cap)
{
	struct slot *old = c->tab;
	size_t oldcap = c->cap;
	c->tab = xmalloc(cap * sizeof *c->tab);
	c->cap = cap;
	for (size_t i = 0; i < cap; i++)
		c->tab[i].off = NO_OFF;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].off != NO_OFF)
			*find_slot(c, old[i].id) = old[i];
	free(old);
}

/* Index the entry at off; false if its id is already known (the entry is then unused). */
static bool table_insert(struct scan_cache *c, size_t off)
{
	if ((c->n + 1) * 2 > c->cap)
		table_resize(c, c->cap ? c->cap * 2 : 1024);
	const unsigned char *id = (const unsigned char *)c->data.buf + off;
	struct slot *s = find_slot(c, id);
	if (s->off != NO_OFF)
		return false;
	memcpy(s->id, id, 20);
	s->off = off;
	c->n++;
	return true;
}

static uint16_t get16(const unsigned char *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

static struct scan_cache *empty_cache(void)
{
	struct scan_cache *c = xcalloc(1, sizeof *c);
	sb_init(&c->data);
	uint32_t rules = SCAN_CACHE_RULES, zero = 0;
	uint64_t count = 0;
	sb_add(&c->data, MAGIC, 8);
	sb_add(&c->data, &rules, 4);
	sb_add(&c->data, &zero, 4);
	sb_add(&c->data, &count, 8);
	table_resize(c, 1024);
	return c;
}

/* Validate and index a loaded image (header + entries + trailer in c->data). */
static const char *adopt(struct scan_cache *c)
{
	const unsigned char *p = (const unsigned char *)c->data.buf;
	size_t len = c->data.len;
	if (len < HEADER_LEN + 4 || memcmp(p, MAGIC, 8) != 0)
		return "not a kcve scan cache";
	uint32_t rules, crc;
	uint64_t count;
	memcpy(&rules, p + 8, 4);
	memcpy(&count, p + 16, 8);
	memcpy(&crc, p + len - 4, 4);
	if (rules != SCAN_CACHE_RULES)
		return "made by a kcve with other reference rules";
	if ((uint32_t)crc32_z(0L, p, len - 4) != crc)
		return "checksum mismatch (torn or damaged file)";
	size_t end = len - 4, off = HEADER_LEN;
	if (count > (end - off) / ENTRY_HEAD)
		return "entry count larger than the file";
	if (count * 2 > 1024)
		table_resize(c, (size_t)1 << (64 - __builtin_clzll((unsigned long long)count * 2)));
	for (uint64_t i = 0; i < count; i++) {
		if (end - off < ENTRY_HEAD)
			return "truncated entry";
		size_t ids = (size_t)get16(p + off + 20) + get16(p + off + 22) + get16(p + off + 24);
		if ((end - off - ENTRY_HEAD) / 20 < ids)
			return "truncated entry";
		if (!table_insert(c, off))
			return "duplicate entry";
		off += ENTRY_HEAD + ids * 20;
	}
	if (off != end)
		return "trailing bytes after the last entry";
	c->data.len = end; /* drop the trailer; save appends a new one */
	return NULL;
}

struct scan_cache *scan_cache_from_bytes(const void *data, size_t len, const char **why)
{
	struct scan_cache *c = xcalloc(1, sizeof *c);
	sb_init(&c->data);
	sb_add(&c->data, data, len);
	table_resize(c, 1024);
	const char *err = adopt(c);
	if (err) {
		scan_cache_free(c);
		c = empty_cache();
	}
	if (why)
		*why = err;
	return c;
}

struct scan_cache *scan_cache_load(const char *path, const char **why)
{
	struct strbuf sb = STRBUF_INIT;
	/* the bounded reader: a FIFO or a link to a device in the cache's place is refused, not
	 * waited on or read forever; the cap is far above a linux-stable cache (~70 MiB) */
	if (read_file_capped(path, &sb, SCAN_CACHE_MAX) < 0) {
		int e = errno;
		sb_release(&sb);
		if (why)
			*why = e == ENOENT ? "no cache file yet" : read_file_reason(e);
		return empty_cache();
	}
	struct scan_cache *c = scan_cache_from_bytes(sb.buf, sb.len, why);
	sb_release(&sb);
	return c;
}

size_t scan_cache_count(const struct scan_cache *c)
{
	return c->n;
}

size_t scan_cache_added(const struct scan_cache *c)
{
	return c->nadded;
}

bool scan_cache_get(const struct scan_cache *c, const unsigned char id[20], struct scan_entry *out)
{
	const struct slot *s = find_slot(c, id);
	if (s->off == NO_OFF)
		return false;
	const unsigned char *e = (const unsigned char *)c->data.buf + s->off;
	out->nparents = get16(e + 20);
	out->nrefs = get16(e + 22);
	out->nreverts = get16(e + 24);
	out->parents = e + ENTRY_HEAD;
	out->refs = out->parents + out->nparents * 20;
	out->reverts = out->refs + out->nrefs * 20;
	return true;
}

void scan_cache_add(struct scan_cache *c, const unsigned char id[20], const struct scan_entry *e)
{
	if (e->nparents > UINT16_MAX || e->nrefs > UINT16_MAX || e->nreverts > UINT16_MAX ||
	    find_slot(c, id)->off != NO_OFF)
		return;
	size_t off = c->data.len;
	uint16_t np = (uint16_t)e->nparents, nr = (uint16_t)e->nrefs, nv = (uint16_t)e->nreverts;
	sb_add(&c->data, id, 20);
	sb_add(&c->data, &np, 2);
	sb_add(&c->data, &nr, 2);
	sb_add(&c->data, &nv, 2);
	if (np)
		sb_add(&c->data, e->parents, e->nparents * 20);
	if (nr)
		sb_add(&c->data, e->refs, e->nrefs * 20);
	if (nv)
		sb_add(&c->data, e->reverts, e->nreverts * 20);
	table_insert(c, off);
	c->nadded++;
}

void scan_cache_bytes(const struct scan_cache *c, struct strbuf *out)
{
	size_t start = out->len;
	sb_add(out, c->data.buf, c->data.len);
	uint64_t count = c->n;
	memcpy(out->buf + start + 16, &count, 8);
	uint32_t crc = (uint32_t)crc32_z(0L, (const unsigned char *)out->buf + start,
					 out->len - start);
	sb_add(out, &crc, 4);
}

int scan_cache_save(struct scan_cache *c, const char *path, struct kcve_err *err)
{
	if (!c->nadded)
		return 0;
	struct strbuf img = STRBUF_INIT;
	scan_cache_bytes(c, &img);
	int rc = 0;
	if (atomic_write_file_ex(path, img.buf, img.len, 0644, false) < 0)
		rc = kcve_err_set(err, KCVE_E_IO, "cannot write the git scan cache: %s, %s, check "
				  "permissions or pass --git-cache FILE / --no-git-cache",
				  strerror(errno), path);
	sb_release(&img);
	return rc;
}

void scan_cache_free(struct scan_cache *c)
{
	if (!c)
		return;
	sb_release(&c->data);
	free(c->tab);
	free(c);
}
