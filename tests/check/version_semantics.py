#!/usr/bin/python3
"""Version verdicts of `kcve check` on the real 2024 record tree.

For every published record and every release 5.4.0..5.4.300, 6.1.0..6.1.130, 6.6.0..6.6.70
(capped at the newest release of each branch present in the data) this test evaluates, in
Python and independently of kcve:
  * the record's JSON products (CVE JSON 5: first matching entry, else defaultStatus; "*" is
    infinity, "X.Y.*" stands above the whole X.Y series; git entries skipped; affected if any
    Linux product says affected), and
  * the .dyad pairs (kernel CNA version rules, anchor-spec 2.4: introduced-in and fixed-in by
    version-only ancestry, same-version pairs ignored),
and asserts that kcve's verdict (`kcve check --db DB --version V1,V2,... --ids`) equals them
wherever the two readings agree.  Records where they disagree are written to
$KCVE_BUILD/check-version-disagreements.txt and counted, not hidden.
"""
import fcntl
import functools
import glob
import json
import os
import subprocess
import sys
import tarfile

KCVE = os.environ.get("KCVE")
SHARED = os.environ.get("KCVE_SHARED", "")
BUILD = os.environ.get("KCVE_BUILD", "/tmp")
TARBALL = os.path.join(SHARED, "data", "vulns-upto-2024.tar.xz")


def unpack_tree():
    """Unpack the record tree once into the build directory (shared by the check tests)."""
    cache = os.path.join(BUILD, "check-cache")
    os.makedirs(cache, exist_ok=True)
    done = os.path.join(cache, "vulns.done")
    with open(os.path.join(cache, "lock"), "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        if not os.path.exists(done):
            with tarfile.open(TARBALL) as t:
                t.extractall(cache)
            open(done, "w").close()
    return os.path.join(cache, "vulns")


# ---- kernel version rules (anchor-spec 2.4), written independently of src/lib/core -------------

@functools.lru_cache(maxsize=None)
def parse(v):
    rc = None
    if "-rc" in v:
        v, r = v.split("-rc", 1)
        rc = int(r) if r.isdigit() else 0
    comps = [int(c) for c in v.split(".") if c.isdigit()]
    return comps, rc


@functools.lru_cache(maxsize=None)
def is_mainline(v):
    comps, rc = parse(v)
    if not comps or comps[0] == 0:
        return False
    if rc is not None:
        return True
    if len(comps) >= 2 and comps[0] == 2 and comps[1] in (4, 6):
        return len(comps) == 3
    return len(comps) == 2


@functools.lru_cache(maxsize=None)
def major(v):
    comps, _ = parse(v)
    if len(comps) >= 3 and comps[0] == 2 and comps[1] == 6:
        return tuple(comps[:3])
    if len(comps) >= 2:
        return tuple(comps[:2])
    return None


@functools.lru_cache(maxsize=None)
def same_major(a, b):
    ma, mb = major(a), major(b)
    return ma is not None and ma == mb


@functools.lru_cache(maxsize=None)
def kcmp(a, b):
    if a == b:
        return 0
    if same_major(a, b):
        ma, mb = is_mainline(a), is_mainline(b)
        if ma and not mb:
            return -1
        if mb and not ma:
            return 1
    ca, ra = parse(a)
    cb, rb = parse(b)
    n = max(len(ca), len(cb))
    ca = ca + [0] * (n - len(ca))
    cb = cb + [0] * (n - len(cb))
    if ca != cb:
        return -1 if ca < cb else 1
    if (ra is None) != (rb is None):
        return -1 if ra is not None else 1
    if ra is not None and ra != rb:
        return -1 if ra < rb else 1
    return 0


# ---- dyad reading ----------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def release_in(a, x):
    if a == "0":
        return True
    if same_major(a, x):
        return kcmp(a, x) <= 0
    return is_mainline(a) and kcmp(a, x) < 0


def dyad_verdict(pairs, x):
    usable = [p for p in pairs if not (p[0] != "0" and p[2] != "0" and p[0] == p[2])]
    if not usable:
        return None
    looked = False
    for vver, _vs, fver, _fs in usable:
        if release_in(vver, x):
            looked = True
            if fver != "0" and release_in(fver, x):
                return "unaffected"
    return "affected" if looked else "unaffected"


# ---- JSON product reading ----------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def series_cmp(x, prefix):
    """Compare x's leading components with the series prefix ("5.4" of "5.4.*")."""
    p, _ = parse(prefix)
    c, _ = parse(x)
    c = (c + [0] * len(p))[: len(p)]
    return (c > p) - (c < p)


def matches(e, x):
    lt, le = e.get("lessThan"), e.get("lessThanOrEqual")
    if lt is None and le is None:
        return kcmp(x, e["version"]) == 0
    if e["version"] != "0" and kcmp(x, e["version"]) < 0:
        return False
    b = lt if lt is not None else le
    if b == "*":
        return True
    if b.endswith(".*"):
        s = series_cmp(x, b[:-2])
        return s < 0 if lt is not None else s <= 0
    c = kcmp(x, b)
    return c < 0 if lt is not None else c <= 0


def json_verdict(products, x):
    any_unaff = False
    for prod in products:
        st = prod.get("defaultStatus", "unknown")
        for e in prod.get("versions", []):
            if "version" not in e:
                continue
            if e.get("versionType") not in (None, "semver", "original_commit_for_fix"):
                continue
            if matches(e, x):
                st = e.get("status", "unknown")
                break
        if st == "affected":
            return "affected"
        if st == "unaffected":
            any_unaff = True
    return "unaffected" if any_unaff else None


# ---- fast forms of the two readings (same rules, versions turned into sort keys) ---------------
# Within the data, the kernel ordering equals the order of (components padded to 4, rc flag,
# rc number): a mainline X.Y pads to X.Y.0 and sorts before X.Y.1, -rcN before the release.
# The slow reference functions above are kept and cross-checked on a sample in main().

def vkey(v):
    comps, rc = parse(v)
    comps = (list(comps) + [0, 0, 0, 0])[:4]
    return (tuple(comps), 0 if rc is not None else 1, rc or 0, major(v), is_mainline(v), v == "0")


def in_fast(a, x):
    if a[5]:
        return True
    if a[3] is not None and a[3] == x[3]:
        return a[:3] <= x[:3]
    return a[4] and a[:3] < x[:3]


def compile_pairs(pairs):
    out = []
    for p in pairs:
        if p[0] != "0" and p[2] != "0" and p[0] == p[2]:
            continue
        out.append((vkey(p[0]), None if p[2] == "0" else vkey(p[2])))
    return out


def dyad_fast(cpairs, x):
    if not cpairs:
        return None
    looked = False
    for v, f in cpairs:
        if in_fast(v, x):
            looked = True
            if f is not None and in_fast(f, x):
                return "unaffected"
    return "affected" if looked else "unaffected"


def compile_products(products):
    out = []
    for prod in products:
        entries = []
        for e in prod.get("versions", []):
            if "version" not in e:
                continue
            if e.get("versionType") not in (None, "semver", "original_commit_for_fix"):
                continue
            lo = None if e["version"] == "0" else vkey(e["version"])[:3]
            lt, le = e.get("lessThan"), e.get("lessThanOrEqual")
            st = e.get("status", "unknown")
            if lt is None and le is None:
                entries.append(("point", vkey(e["version"])[:3], None, st))
                continue
            b = lt if lt is not None else le
            if b == "*":
                entries.append(("range", lo, None, st))
            elif b.endswith(".*"):
                p, _ = parse(b[:-2])
                if lt is not None:      # below the whole series: key < (P, 0.., rc flag -1)
                    hi = (tuple((list(p) + [0, 0, 0, 0])[:4]), -1, 0)
                else:                   # up to the end of the series: key < (P+1, ...)
                    q = list(p)
                    q[-1] += 1
                    hi = (tuple((q + [0, 0, 0, 0])[:4]), -1, 0)
                entries.append(("range", lo, ("lt", hi), st))
            else:
                entries.append(("range", lo, ("lt" if lt is not None else "le", vkey(b)[:3]), st))
        out.append((prod.get("defaultStatus", "unknown"), entries))
    return out


def json_fast(cprods, x):
    k = x[:3]
    any_unaff = False
    for default, entries in cprods:
        st = default
        for kind, lo, hi, status in entries:
            if kind == "point":
                m = k == lo
            else:
                m = lo is None or k >= lo
                if m and hi is not None:
                    m = k < hi[1] if hi[0] == "lt" else k <= hi[1]
            if m:
                st = status
                break
        if st == "affected":
            return "affected"
        if st == "unaffected":
            any_unaff = True
    return "unaffected" if any_unaff else None


def main():
    if not SHARED or not os.path.exists(TARBALL):
        print("skip: %s absent (the real record tree of the shared reference data)" % TARBALL)
        return 77
    tree = unpack_tree()
    recs = []
    newest = {}
    for jf in sorted(glob.glob(os.path.join(tree, "cve/published/*/*.json"))):
        base = jf[:-5]
        d = json.load(open(jf))
        cid = d["cveMetadata"]["cveId"]
        prods = [a for a in d["containers"]["cna"].get("affected", [])
                 if a.get("vendor") == "Linux" and a.get("product") == "Linux"]
        pairs = []
        if os.path.exists(base + ".dyad"):
            for line in open(base + ".dyad"):
                line = line.strip()
                if line and not line.startswith("#"):
                    pairs.append(tuple(line.split(":")))
        for p in pairs:
            for v in (p[0], p[2]):
                m = major(v)
                if m in ((5, 4), (6, 1), (6, 6)) and not is_mainline(v):
                    if kcmp(v, newest.get(m, "0")) > 0:
                        newest[m] = v
        recs.append((cid, prods, pairs))
    if len(recs) < 1000:
        print(f"FAIL: only {len(recs)} records unpacked")
        return 1

    versions = []
    for (a, b), hi in (((5, 4), 300), ((6, 1), 130), ((6, 6), 70)):
        cap = parse(newest.get((a, b), f"{a}.{b}"))[0]
        top = min(hi, cap[2] if len(cap) > 2 else 0)
        versions.append(f"{a}.{b}")
        versions += [f"{a}.{b}.{z}" for z in range(1, top + 1)]

    db = os.path.join(BUILD, "check-cache", "vulns-test.kdb")
    subprocess.run([KCVE, "db", "build", "--tree", tree, "-o", db], check=True,
                   stderr=subprocess.DEVNULL)
    got = {}
    for i in range(0, len(versions), 120):
        chunk = versions[i:i + 120]
        out = subprocess.run([KCVE, "check", "--db", db, "--version", ",".join(chunk), "--ids"],
                             check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            ver, _, ids = line.partition(":")
            got[ver] = set(ids.split())
    missing = [v for v in versions if v not in got]
    if missing:
        print(f"FAIL: kcve printed no result for {missing[:5]}")
        return 1

    # The fast forms must agree with the reference functions (sample: every 7th record).
    for cid, prods, pairs in recs[::29]:
        cp, cj = compile_pairs(pairs), compile_products(prods)
        for ver in versions[::9]:
            x = vkey(ver)
            if dyad_fast(cp, x) != dyad_verdict(pairs, ver) or json_fast(cj, x) != json_verdict(prods, ver):
                print(f"FAIL: test self-check: fast and reference readings differ for {cid} at {ver}")
                return 1

    # Pre-compile every record once: the evaluation below runs ~4 million times.
    compiled = [(cid, compile_pairs(pairs), compile_products(prods)) for cid, prods, pairs in recs]
    compared = mismatches = disagree = nodata = 0
    dis_lines, bad_lines = [], []
    for ver in versions:
        kept = got[ver]
        x = vkey(ver)
        for cid, cpairs, cprods in compiled:
            d = dyad_fast(cpairs, x)
            j = json_fast(cprods, x)
            if d is None:
                nodata += 1
                if cid not in kept:  # kcve must keep records it cannot decide
                    bad_lines.append(f"{ver} {cid}: no usable pair but dropped by kcve")
                continue
            if j is not None and j != d:
                disagree += 1
                dis_lines.append(f"{ver} {cid}: json={j} dyad={d} kcve="
                                 f"{'affected' if cid in kept else 'unaffected'}")
                continue
            compared += 1
            if (cid in kept) != (d == "affected"):
                mismatches += 1
                bad_lines.append(f"{ver} {cid}: records say {d}, kcve says "
                                 f"{'affected' if cid in kept else 'unaffected'}")
    report = os.path.join(BUILD, "check-version-disagreements.txt")
    with open(report, "w") as f:
        f.write("# release CVE: JSON-product verdict vs dyad verdict (kcve follows the pairs)\n")
        f.write("\n".join(dis_lines) + ("\n" if dis_lines else ""))
    print(f"{len(recs)} records x {len(versions)} releases ({versions[0]}..{versions[-1]}): "
          f"{compared} verdicts compared, {mismatches} mismatches, {disagree} JSON/dyad "
          f"disagreements (listed in {report}), {nodata} without usable pairs")
    affected_records = len({l.split()[1] for l in dis_lines})
    print(f"disagreeing records: {affected_records}")
    if bad_lines:
        print("\n".join(bad_lines[:40]))
        return 1
    if compared < len(versions) * 1000:
        print("FAIL: too few comparisons; did the data load?")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
