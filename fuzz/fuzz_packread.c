/* Fuzz the pack reader of the full history build (history/packread.c): it parses a
 * repository's pack index (version 2) and pack files itself, so a damaged or crafted pack must
 * give "not readable here" (-1, the caller then asks libgit2), never a crash, an overread or a
 * huge allocation.
 * Input: a 4-byte little-endian length L, then L bytes of .idx, then the .pack. The files are
 * written to a private directory; every id the index lists (up to 64) is read, typed and looked
 * up by prefix, and its delta chain checked (packset_check). Invariants: a read object has a
 * git type 1-4; a found prefix is an id of the index; a refused chain says why. Seeds with
 * delta chains, cycles, self-deltas and bad offsets come from tests/hostile/mkpack.py. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "history/history_internal.h"

static char dir[64], objects[96], idxp[160], packp[160];

static void write_all(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n)
		abort();
	fclose(f);
}

static void cleanup(void)
{
	char pk[128];
	snprintf(pk, sizeof(pk), "%s/pack", objects);
	unlink(idxp);
	unlink(packp);
	rmdir(pk);
	rmdir(objects);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!*dir) {
		snprintf(dir, sizeof(dir), "/tmp/kcve-fuzz-pack-XXXXXX");
		if (!mkdtemp(dir))
			abort();
		snprintf(objects, sizeof(objects), "%s/objects", dir);
		char pk[128];
		snprintf(pk, sizeof(pk), "%s/pack", objects);
		if (mkdir(objects, 0700) || mkdir(pk, 0700))
			abort();
		snprintf(idxp, sizeof(idxp), "%s/pack-fuzz.idx", pk);
		snprintf(packp, sizeof(packp), "%s/pack-fuzz.pack", pk);
		atexit(cleanup);
	}
	if (size < 4)
		return 0;
	size_t l = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 |
		   (size_t)data[3] << 24;
	if (l > size - 4)
		l = size - 4;
	write_all(idxp, data + 4, l);
	write_all(packp, data + 4 + l, size - 4 - l);
	struct packset *ps = packset_open(objects);
	if (!ps)
		return 0;
	/* the ids the index lists: after the 8-byte header and the 1 KiB fanout */
	const uint8_t *ids = data + 4 + 8 + 1024;
	size_t n = l > 8 + 1024 ? (l - 8 - 1024) / 20 : 0;
	if (n > 64)
		n = 64;
	struct pack_cursor pc = {0};
	struct strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		git_oid id, got;
		memcpy(id.id, ids + 20 * i, 20);
		git_object_t t;
		if (packset_read(ps, &pc, &id, &out, &t) == 0 && (t < 1 || t > 4))
			abort();
		if (packset_type(ps, &id, &t) == 0 && (t < 1 || t > 4))
			abort();
		/* the guard in front of libgit2: a verdict for every chain (cycles, deep chains) */
		size_t sz;
		const char *why = NULL;
		int c = packset_check(ps, &id, &t, &sz, &why);
		if ((c == 0 && (t < 1 || t > 4)) || (c < 0 && !why))
			abort();
		git_oid key;
		memset(key.id, 0, sizeof(key.id));
		memcpy(key.id, id.id, 4);
		if (packset_prefix(ps, &key, 8, &got) == 0 && memcmp(got.id, id.id, 4))
			abort();
	}
	sb_release(&out);
	pack_cursor_release(&pc);
	packset_free(ps);
	return 0;
}
