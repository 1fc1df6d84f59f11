#!/usr/bin/env python3
"""Rewrite a repository's objects as one crafted pack (the hostile-repository corpus).

mkpack.py GITDIR MODE SHA [SHA2]
Every object of GITDIR is written as a whole object into a new pack (with its version 2
index), except SHA (and SHA2), stored as MODE says:
  cycle    SHA is a REF_DELTA of SHA2 and SHA2 one of SHA (a delta cycle)
  self     SHA is a REF_DELTA of itself
  ofsself  SHA is an OFS_DELTA whose base offset is 0 (itself)
  badofs   the index sends SHA to an offset past the pack's end
  hugesize SHA's header declares 2^60 bytes
  bomb     SHA is a delta of SHA2 whose result declares 2 GiB and copies SHA2 over and over
  deep     SHA is at the end of a chain of 5000 REF_DELTAs (each an insert-only delta;
           MKPACK_DEPTH=N for another length, a valid chain when N <= 4096)
  ofschain SHA is at the end of a chain of MKPACK_DEPTH (default 8) OFS_DELTAs
The old packs and loose objects are removed. No binary is committed: tests run this.
With MKPACK_FUZZ=FILE the pack is written there instead, as fuzz_packread's input (a 4-byte
little-endian index length, the index, the pack): its corpus seeds come from here."""
import hashlib, os, struct, subprocess, sys, zlib

gitdir, mode, sha = sys.argv[1], sys.argv[2], sys.argv[3]
sha2 = sys.argv[4] if len(sys.argv) > 4 else None
git = lambda *a, **k: subprocess.run(["git", "--git-dir", gitdir, *a], check=True,
                                     capture_output=True, **k).stdout
ids = git("cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)").split()
objs = {}
TYPES = {b"commit": 1, b"tree": 2, b"blob": 3, b"tag": 4}
for i in range(0, len(ids), 2):
    oid, t = ids[i].decode(), ids[i + 1]
    objs[oid] = (TYPES[t], git("cat-file", t.decode(), oid))

def hdr(t, size):
    b = [(t << 4) | (size & 15)]
    size >>= 4
    while size:
        b[-1] |= 0x80
        b.append(size & 0x7f)
        size >>= 7
    return bytes(b)

def varint(n):
    out = bytearray()
    while True:
        c = n & 0x7f
        n >>= 7
        out.append(c | (0x80 if n else 0))
        if not n:
            return bytes(out)

def insert_delta(src_len, data):
    d = varint(src_len) + varint(len(data))
    for i in range(0, len(data), 127):
        chunk = data[i:i + 127]
        d += bytes([len(chunk)]) + chunk
    return d

entries = []  # (oid, bytes) in pack order; offsets are filled when written
extra = {}    # fake ids for deep chains
def whole(oid):
    t, data = objs[oid]
    return hdr(t, len(data)) + zlib.compress(data)

def ref_delta(base, delta):
    return hdr(7, len(delta)) + bytes.fromhex(base) + zlib.compress(delta)

special = {}
if mode == "cycle":
    special[sha] = ref_delta(sha2, insert_delta(len(objs[sha2][1]), objs[sha][1]))
    special[sha2] = ref_delta(sha, insert_delta(len(objs[sha][1]), objs[sha2][1]))
elif mode == "self":
    special[sha] = ref_delta(sha, insert_delta(len(objs[sha][1]), objs[sha][1]))
elif mode == "hugesize":
    special[sha] = hdr(objs[sha][0], 1 << 60) + zlib.compress(objs[sha][1])
elif mode == "bomb":
    n = len(objs[sha2][1])
    target = 2 << 30
    copy = bytes([0x80 | 0x10 | 0x20, n & 0xff, (n >> 8) & 0xff])  # copy n bytes from 0
    d = varint(n) + varint(target) + copy * (target // n + 1)
    special[sha] = ref_delta(sha2, d)
elif mode == "deep":
    prev, data = None, objs[sha][1]
    for k in range(int(os.environ.get("MKPACK_DEPTH", "5000"))):
        fake = hashlib.sha1(b"chain%d" % k).hexdigest()
        if prev is None:
            extra[fake] = hdr(objs[sha][0], len(data)) + zlib.compress(data)
        else:
            extra[fake] = ref_delta(prev, insert_delta(len(data), data))
        prev = fake
    special[sha] = ref_delta(prev, insert_delta(len(data), data))

body = bytearray(b"PACK" + struct.pack(">II", 2, len(objs) + len(extra)))
index = []
def ofs_enc(d):
    out = [d & 0x7f]
    d >>= 7
    while d:
        d -= 1
        out.append(0x80 | (d & 0x7f))
        d >>= 7
    return bytes(reversed(out))
if mode == "ofschain":  # the chain's objects first, each a delta of the one before
    t, data = objs[sha]
    prev = None
    for k in range(int(os.environ.get("MKPACK_DEPTH", "8"))):
        off = len(body)
        raw = hdr(t, len(data)) + zlib.compress(data) if prev is None else \
            hdr(6, len(insert_delta(len(data), data))) + ofs_enc(off - prev) + \
            zlib.compress(insert_delta(len(data), data))
        body += raw
        index.append((hashlib.sha1(b"ofs%d" % k).digest(), zlib.crc32(raw) & 0xffffffff, off))
        prev = off
    d = insert_delta(len(data), data)
    ofs_special = (prev, d)  # placed below, where its own offset is known
    body[8:12] = struct.pack(">I", len(objs) + len(index))
for oid, raw in list(extra.items()) + [(o, None) for o in objs]:
    if raw is None:
        raw = special.get(oid)
        if raw is None:
            raw = whole(oid)
    off = len(body)
    if mode == "ofschain" and oid == sha:
        raw = hdr(6, len(ofs_special[1])) + ofs_enc(off - ofs_special[0]) + zlib.compress(ofs_special[1])
    if mode == "ofsself" and oid == sha:
        t, data = objs[sha]
        raw = hdr(6, 0) + b"\x00" + zlib.compress(b"")
    body += raw
    index.append((bytes.fromhex(oid), zlib.crc32(raw) & 0xffffffff, off))
body += hashlib.sha1(body).digest()
if mode == "badofs":
    index = [(i, c, (len(body) + 4096) if i.hex() == sha else o) for i, c, o in index]
index.sort()
idx = bytearray(b"\377tOc" + struct.pack(">I", 2))
fan = [0] * 256
for i, _, _ in index:
    fan[i[0]] += 1
acc = 0
for k in range(256):
    acc += fan[k]
    idx += struct.pack(">I", acc)
for i, _, _ in index:
    idx += i
for _, c, _ in index:
    idx += struct.pack(">I", c)
for _, _, o in index:
    idx += struct.pack(">I", o)
idx += body[-20:]
idx += hashlib.sha1(idx).digest()
if os.environ.get("MKPACK_FUZZ"):
    open(os.environ["MKPACK_FUZZ"], "wb").write(struct.pack("<I", len(idx)) + idx + body)
    sys.exit(0)
packdir = os.path.join(gitdir, "objects", "pack")
for f in os.listdir(packdir):
    os.unlink(os.path.join(packdir, f))
objdir = os.path.join(gitdir, "objects")
for d in os.listdir(objdir):
    if len(d) == 2:
        p = os.path.join(objdir, d)
        for f in os.listdir(p):
            os.unlink(os.path.join(p, f))
        os.rmdir(p)
name = body[-20:].hex()
open(os.path.join(packdir, "pack-%s.pack" % name), "wb").write(body)
open(os.path.join(packdir, "pack-%s.idx" % name), "wb").write(idx)
