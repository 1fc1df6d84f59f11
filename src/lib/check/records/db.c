/* The compact database (format in check/records/recset.h): one zlib stream of length-prefixed,
 * NUL-terminated strings, so loading is one inflate plus pointer fix-ups. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check/records/coverage.h"
#include "check/records/recset.h"
#include "codefix/fprint.h"
#include "core/assert.h"
#include "core/clock.h"
#include "core/cveid.h"
#include "core/fileio.h"
#include "core/xalloc.h"

#define DB_MAGIC "KCVEDB\0\x02"
#define DB_HDR 36   /* format 2; format 1 had 28 bytes (no build time) */
#define DB_HDR_V1 28
#define DB_FLAGS 127 /* every flag bit a format-2 image may set (format 1: 3) */
#define DB_MAX_RAW (1u << 30)

/* ---- writer ------------------------------------------------------------------------------ */

static void put_uleb(struct strbuf *sb, unsigned long long v)
{
	do {
		unsigned char c = v & 0x7f;
		v >>= 7;
		if (v)
			c |= 0x80;
		sb_addc(sb, (char)c);
	} while (v);
}

static void put_str(struct strbuf *sb, const char *s)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	put_uleb(sb, n);
	sb_add(sb, s, n);
	sb_addc(sb, '\0');
}

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t ck_db_payload(const struct ck_set *s, struct strbuf *out)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct ck_record *r = &s->v[i];
		put_str(out, r->id);
		put_str(out, r->title);
		put_str(out, r->severity);
		put_uleb(out, r->score10);
		put_uleb(out, r->published > 0 ? (unsigned long long)r->published : 0);
		put_uleb(out, r->nfiles);
		for (size_t j = 0; j < r->nfiles; j++)
			put_str(out, r->files[j]);
		put_uleb(out, r->nfixes);
		for (size_t j = 0; j < r->nfixes; j++)
			put_str(out, r->fixes[j]);
		put_uleb(out, r->pairs.n);
		for (size_t j = 0; j < r->pairs.n; j++) {
			const struct ck_pair *p = &r->pairs.v[j];
			put_str(out, p->vver);
			put_str(out, p->vsha);
			put_str(out, p->fver);
			put_str(out, p->fsha);
		}
		put_uleb(out, r->nprod);
		for (size_t j = 0; j < r->nprod; j++) {
			const struct ck_product *p = &r->prod[j];
			sb_addc(out, (char)p->default_status);
			/* git ranges are not stored: no verdict evaluates them (a release cannot be
			 * compared with a commit) and the .dyad pairs carry the same commits; they
			 * were half of the payload. */
			size_t kept = 0;
			for (size_t k = 0; k < p->n; k++)
				kept += p->v[k].type != CK_VT_GIT;
			put_uleb(out, kept);
			for (size_t k = 0; k < p->n; k++) {
				const struct ck_range *g = &p->v[k];
				if (g->type == CK_VT_GIT)
					continue;
				sb_addc(out, (char)g->status);
				sb_addc(out, (char)g->type);
				sb_addc(out, (char)((g->less_than ? 1 : 0) | (g->less_equal ? 2 : 0)));
				put_str(out, g->version);
				if (g->less_than)
					put_str(out, g->less_than);
				if (g->less_equal)
					put_str(out, g->less_equal);
			}
		}
	}
	uint32_t flags = 4;
	if (s->nconds) {
		flags |= 1 | 64;
		if (ck_set_has_modules(s))
			flags |= 2;
		put_uleb(out, s->nconds);
		for (size_t i = 0; i < s->nconds; i++) {
			/* the reader refuses a database whose paths are not strictly increasing */
			KCVE_ASSERT(i == 0 || strcmp(s->conds[i - 1].path, s->conds[i].path) < 0);
			put_str(out, s->conds[i].path);
			put_str(out, s->conds[i].cond);
			if (flags & 2)
				put_str(out, s->conds[i].module);
		}
	}
	/* the tree section: freshness and supported branches */
	put_uleb(out, s->newest_record > 0 ? (unsigned long long)s->newest_record : 0);
	put_uleb(out, s->tree_head > 0 ? (unsigned long long)s->tree_head : 0);
	sb_addc(out, (char)(s->branches.has_data ? 1 : 0));
	put_uleb(out, s->branches.n);
	for (size_t i = 0; i < s->branches.n; i++) {
		const struct branch_row *b = &s->branches.v[i];
		put_str(out, b->branch);
		put_str(out, b->moniker);
		put_str(out, b->latest);
		sb_addc(out, (char)(b->iseol ? 1 : 0));
		put_uleb(out, b->eol_day >= 0 ? (unsigned long long)b->eol_day + 1 : 0);
	}
	/* the branch index (coverage.h), so that a check does not scan every record for it */
	flags |= 8;
	struct ck_cov_index ix;
	ck_cov_index_scan(&ix, s);
	put_uleb(out, ix.n);
	for (size_t i = 0; i < ix.n; i++) {
		put_uleb(out, ix.v[i].key);
		put_uleb(out, (unsigned long long)ix.v[i].max_patch);
	}
	ck_cov_index_release(&ix);
	/* the CNA's CVSS 3.1 vectors (CSAF scores), for the records that have one */
	size_t nvec = 0;
	for (size_t i = 0; i < s->n; i++)
		nvec += s->v[i].cvss31 && *s->v[i].cvss31;
	if (nvec) {
		flags |= 16;
		put_uleb(out, nvec);
		for (size_t i = 0; i < s->n; i++)
			if (s->v[i].cvss31 && *s->v[i].cvss31) {
				put_uleb(out, i);
				put_str(out, s->v[i].cvss31);
			}
	}
	/* the fix fingerprints (codefix/fprint.h), one length-prefixed section */
	if (s->fprints && s->fprints->n) {
		flags |= 32;
		struct strbuf fp = STRBUF_INIT;
		cf_set_encode(s->fprints, &fp);
		put_uleb(out, fp.len);
		sb_add(out, fp.buf, fp.len);
		sb_release(&fp);
	}
	return flags;
}

int ck_db_image(const struct ck_set *s, int level, struct strbuf *image, struct kcve_err *err)
{
	struct strbuf raw = STRBUF_INIT;
	uint32_t flags = ck_db_payload(s, &raw);
	uLongf clen = compressBound((uLong)raw.len);
	size_t at = image->len;
	sb_grow(image, DB_HDR + clen);
	unsigned char *out = (unsigned char *)image->buf + at;
	if (compress2(out + DB_HDR, &clen, (const Bytef *)raw.buf, (uLong)raw.len, level) != Z_OK) {
		sb_release(&raw);
		return kcve_err_set(err, KCVE_E_GENERIC, "compressing the database failed");
	}
	memcpy(out, DB_MAGIC, 8);
	put_u32(out + 8, (uint32_t)s->n);
	put_u32(out + 12, (uint32_t)raw.len);
	put_u32(out + 16, (uint32_t)clen);
	put_u32(out + 24, flags);
	uint64_t built = s->built > 0 ? (uint64_t)s->built : 0;
	put_u32(out + 28, (uint32_t)built);
	put_u32(out + 32, (uint32_t)(built >> 32));
	uLong crc = crc32(0L, (const Bytef *)raw.buf, (uInt)raw.len);
	put_u32(out + 20, (uint32_t)crc32(crc, out + 28, 8));
	image->len = at + DB_HDR + clen;
	image->buf[image->len] = '\0';
	sb_release(&raw);
	return 0;
}

int ck_db_write(const struct ck_set *s, const char *path, struct kcve_err *err)
{
	struct strbuf img = STRBUF_INIT;
	int rc = ck_db_image(s, 9, &img, err);
	if (rc == 0 && atomic_write_file(path, img.buf, img.len, 0644) < 0)
		rc = kcve_err_set(err, KCVE_E_IO, "cannot write %s (%s); check the directory exists and is writable",
				  path, strerror(errno));
	sb_release(&img);
	return rc;
}

/* ---- reader ------------------------------------------------------------------------------ */

struct rd {
	char *p, *end;
	int bad;
};

static unsigned long long get_uleb(struct rd *r)
{
	unsigned long long v = 0;
	for (int shift = 0; shift < 63; shift += 7) {
		if (r->p >= r->end) {
			r->bad = 1;
			return 0;
		}
		unsigned char c = (unsigned char)*r->p++;
		v |= (unsigned long long)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

static unsigned char get_u8(struct rd *r)
{
	if (r->p >= r->end) {
		r->bad = 1;
		return 0;
	}
	return (unsigned char)*r->p++;
}

static const char *get_str(struct rd *r)
{
	unsigned long long n = get_uleb(r);
	if (r->bad || n >= (unsigned long long)(r->end - r->p) || r->p[n] != '\0' ||
	    memchr(r->p, '\0', n)) {
		r->bad = 1;
		return "";
	}
	const char *s = r->p;
	r->p += n + 1;
	return s;
}

/* A count that cannot exceed the remaining bytes (each element takes at least one byte). */
static size_t get_count(struct rd *r)
{
	unsigned long long n = get_uleb(r);
	if (r->bad || n > (unsigned long long)(r->end - r->p)) {
		r->bad = 1;
		return 0;
	}
	return (size_t)n;
}

static bool parse_record(struct rd *d, struct ck_record *r, struct xarena *a)
{
	memset(r, 0, sizeof *r);
	r->arena_arrays = 1;
	r->id = get_str(d);
	if (!d->bad && !cveid_valid(r->id)) /* a db not built by db build */
		d->bad = 1;
	r->title = get_str(d);
	r->severity = get_str(d);
	r->score10 = (unsigned)get_uleb(d);
	r->published = (long long)(get_uleb(d) & 0x7fffffffffffffffULL);
	r->nfiles = get_count(d);
	r->files = xarena_calloc(a, r->nfiles + 1, sizeof *r->files);
	for (size_t j = 0; j < r->nfiles && !d->bad; j++)
		r->files[j] = get_str(d);
	r->nfixes = get_count(d);
	r->fixes = xarena_calloc(a, r->nfixes + 1, sizeof *r->fixes);
	for (size_t j = 0; j < r->nfixes && !d->bad; j++)
		r->fixes[j] = get_str(d);
	size_t np = get_count(d);
	/* each pair takes at least 8 bytes (four strings of a length and a NUL): a larger count
	 * is damage, found before it could make this allocate more than the payload could fill */
	if (np > (size_t)(d->end - d->p) / 8)
		d->bad = 1;
	else
		r->pairs.v = xarena_calloc(a, np + 1, sizeof *r->pairs.v);
	for (size_t j = 0; j < np && !d->bad; j++) {
		struct ck_pair *p = &r->pairs.v[j];
		p->vver = get_str(d);
		p->vsha = get_str(d);
		p->fver = get_str(d);
		p->fsha = get_str(d);
		r->pairs.n = j + 1;
	}
	r->nprod = get_count(d);
	r->prod = xarena_calloc(a, r->nprod + 1, sizeof *r->prod);
	for (size_t j = 0; j < r->nprod && !d->bad; j++) {
		struct ck_product *p = &r->prod[j];
		p->default_status = get_u8(d);
		size_t n = get_count(d);
		p->v = xarena_calloc(a, n + 1, sizeof *p->v);
		for (size_t k = 0; k < n && !d->bad; k++) {
			struct ck_range *g = &p->v[k];
			g->status = get_u8(d);
			g->type = get_u8(d);
			unsigned char has = get_u8(d);
			g->version = get_str(d);
			if (has & 1)
				g->less_than = get_str(d);
			if (has & 2)
				g->less_equal = get_str(d);
			p->n++;
		}
	}
	return !d->bad;
}

static int corrupt(struct kcve_err *err, const char *name, const char *what)
{
	return kcve_err_set(err, KCVE_E_PARSE,
			    "%s is not a valid kcve database (%s); rebuild it with 'kcve db build'", name,
			    what);
}

/* The flag bits a database of this format may carry together: bit 1 (modules) needs bit 0
 * (conditions), bit 3 (branch index) bit 2 (tree section), bit 6 (conditions with ARCH) bit 0;
 * format 1 knows bits 0-1, format 2 always writes bit 2. */
static bool flags_ok(unsigned format, uint32_t flags)
{
	uint32_t known = format == 1 ? 3 : DB_FLAGS;
	return !(flags & ~known) && (flags & 3) != 2 && (format < 2 || (flags & 4)) &&
	       (flags & 12) != 8 && (flags & 65) != 64;
}

int ck_db_parse(struct ck_set *s, const void *data, size_t len, const char *name,
		struct kcve_err *err)
{
	memset(s, 0, sizeof *s);
	s->origin = xstrdup(name);
	const unsigned char *h = data;
	if (len < DB_HDR_V1 || memcmp(h, DB_MAGIC, 6) != 0)
		return corrupt(err, name, "bad magic");
	if (h[6] != 0 || h[7] < 1 || h[7] > CK_DB_FORMAT)
		return corrupt(err, name, "unsupported format version");
	unsigned format = h[7];
	size_t hdr = format == 1 ? DB_HDR_V1 : DB_HDR;
	if (len < hdr)
		return corrupt(err, name, "truncated header");
	uint32_t nrec = get_u32(h + 8), rawlen = get_u32(h + 12), clen = get_u32(h + 16);
	uint32_t crc = get_u32(h + 20), flags = get_u32(h + 24);
	if (clen != len - hdr)
		return corrupt(err, name, "truncated or padded");
	/* bit 1 (modules) needs bit 0 (conditions); format 1 knows bits 0-1, format 2 writes bit 2 */
	if (rawlen > DB_MAX_RAW || !flags_ok(format, flags))
		return corrupt(err, name, "bad header");
	s->blob = xbig_alloc(&s->blob_mem, (size_t)rawlen + 1);
	s->blob_len = rawlen;
	uLongf got = rawlen;
	if (uncompress((Bytef *)s->blob, &got, h + hdr, clen) != Z_OK || got != rawlen)
		return corrupt(err, name, "compressed payload damaged");
	uLong sum = crc32(0L, (const Bytef *)s->blob, (uInt)rawlen);
	if (format >= 2)
		sum = crc32(sum, h + 28, 8);
	if ((uint32_t)sum != crc)
		return corrupt(err, name, "checksum mismatch");
	s->db_format = format;
	if (format >= 2) {
		uint64_t built = (uint64_t)get_u32(h + 28) | (uint64_t)get_u32(h + 32) << 32;
		s->built = built > (uint64_t)CLOCK_MAX_SECONDS ? 0 : (long long)built; /* 0: unknown */
	}
	return ck_db_parse_payload(s, nrec, flags, err);
}

/* The tree section (flag bit 2): freshness and supported-branch data. */
static bool parse_tree_section(struct rd *d, struct ck_set *s)
{
	s->newest_record = (long long)(get_uleb(d) & 0x3fffffffffffffffULL);
	s->tree_head = (long long)(get_uleb(d) & 0x3fffffffffffffffULL);
	unsigned char has = get_u8(d);
	size_t n = get_count(d);
	if (d->bad || has > 1)
		return false;
	s->branches.has_data = has != 0;
	for (size_t i = 0; i < n && !d->bad; i++) {
		const char *branch = get_str(d), *moniker = get_str(d), *latest = get_str(d);
		unsigned char iseol = get_u8(d);
		unsigned long long eol = get_uleb(d);
		struct branch_row r = {.iseol = iseol != 0, .eol_day = (long long)eol - 1};
		if (d->bad || iseol > 1 || eol > (1ULL << 40) ||
		    strlen(branch) >= sizeof r.branch || !branch[0] ||
		    strlen(moniker) >= sizeof r.moniker || strlen(latest) >= sizeof r.latest)
			return false;
		memcpy(r.branch, branch, strlen(branch) + 1);
		memcpy(r.moniker, moniker, strlen(moniker) + 1);
		memcpy(r.latest, latest, strlen(latest) + 1);
		XGROW(s->branches.v, s->branches.n + 1, s->branches.alloc);
		s->branches.v[s->branches.n++] = r;
	}
	return !d->bad;
}

/* Flag bit 4: uleb n, (uleb record index, str vector)... with strictly increasing indexes. */
static bool parse_cvss_section(struct rd *d, struct ck_set *s)
{
	size_t n = get_count(d);
	size_t last = 0;
	for (size_t i = 0; i < n && !d->bad; i++) {
		unsigned long long k = get_uleb(d);
		const char *vec = get_str(d);
		if (k >= s->n || (i && k <= last))
			return false;
		s->v[k].cvss31 = vec;
		last = (size_t)k;
	}
	return !d->bad;
}

int ck_db_parse_payload(struct ck_set *s, uint32_t nrec, uint32_t flags, struct kcve_err *err)
{
	const char *name = s->origin ? s->origin : "database";
	if (!s->blob)
		return corrupt(err, name, "no payload");
	size_t rawlen = s->blob_len;
	if (nrec > rawlen)
		return corrupt(err, name, "record count larger than the payload");
	struct rd d = {s->blob, s->blob + rawlen, 0};
	s->v = xarena_calloc(&s->arena, (size_t)nrec + 1, sizeof *s->v);
	s->v_in_arena = true;
	s->alloc = (size_t)nrec + 1;
	for (uint32_t i = 0; i < nrec; i++) {
		bool ok = parse_record(&d, &s->v[s->n], &s->arena);
		s->n++; /* counted even when bad so release frees its arrays */
		if (!ok)
			return corrupt(err, name, "record data damaged");
	}
	if (flags & 1) {
		size_t n = get_count(&d);
		s->conds = xcalloc(n + 1, sizeof *s->conds);
		for (size_t i = 0; i < n && !d.bad; i++) {
			s->conds[i].path = get_str(&d);
			s->conds[i].cond = get_str(&d);
			if (flags & 2)
				s->conds[i].module = get_str(&d);
			if (i > 0 && strcmp(s->conds[i - 1].path, s->conds[i].path) >= 0)
				d.bad = 1;
			s->nconds = i + 1;
		}
		if (d.bad)
			return corrupt(err, name, "condition section damaged");
		s->has_modules = (flags & 2) != 0;
	}
	if ((flags & 4) && !parse_tree_section(&d, s))
		return corrupt(err, name, "tree section damaged");
	if (flags & 8) {
		size_t n = get_count(&d);
		s->covix = xcalloc(n + 1, sizeof *s->covix);
		for (size_t i = 0; i < n && !d.bad; i++) {
			s->covix[i].key = get_uleb(&d);
			unsigned long long p = get_uleb(&d);
			s->covix[i].max_patch = (long long)(p & 0x3fffffffffffffffULL);
			if (!s->covix[i].key || (i && s->covix[i].key <= s->covix[i - 1].key))
				d.bad = 1;
			s->ncovix = i + 1;
		}
		if (d.bad)
			return corrupt(err, name, "branch index damaged");
		s->has_covix = true;
	}
	if ((flags & 16) && !parse_cvss_section(&d, s))
		return corrupt(err, name, "CVSS section damaged");
	if (flags & 32) {
		size_t n = get_count(&d);
		if (d.bad)
			return corrupt(err, name, "fix fingerprints damaged");
		s->fprints = xcalloc(1, sizeof *s->fprints);
		int rc = cf_set_decode(s->fprints, d.p, n, name, err);
		if (rc)
			return rc;
		d.p += n;
	}
	if (d.p != d.end)
		return corrupt(err, name, "trailing data");
	return 0;
}

int ck_db_parse_raw(struct ck_set *s, struct xbig *mem, size_t off, size_t len, uint32_t nrec,
		    uint32_t flags, const char *name, struct kcve_err *err)
{
	memset(s, 0, sizeof *s);
	s->origin = xstrdup(name);
	s->blob_mem = *mem;
	*mem = (struct xbig){0};
	if (len > DB_MAX_RAW || !flags_ok(CK_DB_FORMAT, flags))
		return corrupt(err, name, "bad header");
	s->blob = (char *)s->blob_mem.base + off;
	s->blob_len = len;
	s->db_format = CK_DB_FORMAT;
	return ck_db_parse_payload(s, nrec, flags, err);
}

/* A regular file read whole into m (huge pages: see xbig): 0 with *len, 1 when path is not a
 * regular file or too large (the caller hands it to the bounded reader, which refuses it or
 * reads standard input), -1 with errno. Opened without waiting: a FIFO never blocks. */
static int read_big(const char *path, struct xbig *m, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > DB_MAX_RAW) {
		close(fd);
		return 1;
	}
	ssize_t got = read_full(fd, xbig_alloc(m, (size_t)st.st_size + 1), (size_t)st.st_size);
	int e = errno;
	close(fd);
	if (got < 0) {
		xbig_free(m);
		errno = e;
		return -1;
	}
	*len = (size_t)got;
	return 0;
}

int ck_set_load_db(struct ck_set *s, const char *path, struct kcve_err *err)
{
	struct strbuf sb = STRBUF_INIT;
	struct xbig m = {0};
	size_t len = 0;
	int got = read_big(path, &m, &len);
	if (got == 1 ? read_file(path, &sb) < 0 : got < 0) {
		int e = errno;
		sb_release(&sb);
		memset(s, 0, sizeof *s);
		return kcve_err_set(err, e == ENOENT ? KCVE_E_NOTFOUND : KCVE_E_IO,
				    "cannot read database %s (%s); build one with 'kcve db build --tree DIR -o FILE'",
				    path, read_file_reason(e));
	}
	int rc = got == 0 ? ck_db_parse(s, m.base, len, path, err)
			  : ck_db_parse(s, sb.buf, sb.len, path, err);
	xbig_free(&m);
	sb_release(&sb);
	s->is_db = true;
	return rc;
}
