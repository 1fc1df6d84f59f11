#!/usr/bin/python3
"""Version verdicts of `kcve check` on the real 2024 record tree.

Releases: every stable release the records mention on 4.19, 5.4, 5.10, 5.15, 6.1, 6.6, 6.8, 6.9,
6.10, 6.11 and 6.12, plus every mainline release from 4.19 to 6.13.  For every published record x
every release, this test reads, in Python and independently of kcve:
  * the record's JSON products per branch (CVE JSON 5: first matching entry, else
    defaultStatus; "*" is infinity; "F <= X.Y.*" with a stable F bounds F's branch; "0 < F" with
    a stable F bounds F's branch only; git entries skipped; affected if any Linux product says
    affected) -- the reading kcve's verdict must equal, and
  * the .dyad pairs (kernel CNA version rules: introduced-in and fixed-in by version-only
    ancestry, same-version pairs ignored), used where the JSON cannot decide,
and asserts that kcve's default verdict (`kcve check --db DB --version V1,V2,... --ids`) equals
the JSON reading for every record x release, and that `--tree` gives the same sets as `--db`.
The dyad-vs-JSON disagreements are counted and written to
$KCVE_BUILD/check-version-disagreements.txt.
"""
import functools
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402  (real_tree)

KCVE = os.environ.get("KCVE")
BUILD = os.environ.get("KCVE_BUILD", "/tmp")


# ---- kernel version rules (docs/spec/versions.md), written independently of src/lib/core -------------

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


def branch_of_range(e):
    """The release whose branch alone a range covers, or None when it is read literally."""
    v, b = e["version"], e.get("lessThan", e.get("lessThanOrEqual"))
    if b is None or b == "*":
        return None
    if v != "0" and b.endswith(".*") and not is_mainline(v):
        return v
    if v == "0" and not b.endswith(".*") and not is_mainline(b):
        return b
    return None


def matches(e, x):
    lt, le = e.get("lessThan"), e.get("lessThanOrEqual")
    if lt is None and le is None:
        return kcmp(x, e["version"]) == 0
    br = branch_of_range(e)
    if br is not None and not same_major(x, br):
        return False
    if e["version"] != "0" and kcmp(x, e["version"]) < 0:
        return False
    b = lt if lt is not None else le
    if b == "*":
        return True
    if b.endswith(".*"):
        if br is not None and le is not None:
            return True
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
                entries.append(("point", vkey(e["version"])[:3], None, st, None))
                continue
            b = lt if lt is not None else le
            br = branch_of_range(e)
            brk = major(br) if br is not None else None
            if b == "*":
                entries.append(("range", lo, None, st, None))
            elif br is not None and le is not None and b.endswith(".*"):
                entries.append(("range", lo, None, st, brk))
            elif b.endswith(".*"):
                p, _ = parse(b[:-2])
                if lt is not None:      # below the whole series: key < (P, 0.., rc flag -1)
                    hi = (tuple((list(p) + [0, 0, 0, 0])[:4]), -1, 0)
                else:                   # up to the end of the series: key < (P+1, ...)
                    q = list(p)
                    q[-1] += 1
                    hi = (tuple((q + [0, 0, 0, 0])[:4]), -1, 0)
                entries.append(("range", lo, ("lt", hi), st, brk))
            else:
                entries.append(("range", lo, ("lt" if lt is not None else "le", vkey(b)[:3]), st,
                                brk))
        out.append((prod.get("defaultStatus", "unknown"), entries))
    return out


def json_fast(cprods, x):
    k = x[:3]
    any_unaff = False
    for default, entries in cprods:
        st = default
        for kind, lo, hi, status, brk in entries:
            if kind == "point":
                m = k == lo
            elif brk is not None and brk != x[3]:
                m = False
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


BRANCHES = ((4, 19), (5, 4), (5, 10), (5, 15), (6, 1), (6, 6), (6, 8), (6, 9), (6, 10), (6, 11),
            (6, 12))
MAINLINE = (["4.19", "4.20"] + [f"5.{n}" for n in range(0, 20)] + [f"6.{n}" for n in range(0, 14)])


def load_records(tree):
    recs, mentioned = [], set()
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
            mentioned.update((p[0], p[2]))
        for prod in prods:
            for e in prod.get("versions", []):
                if e.get("versionType") != "git":
                    mentioned.update(e.get(k) for k in ("version", "lessThan", "lessThanOrEqual"))
        recs.append((cid, prods, pairs))
    return recs, mentioned


def kcve_ids(args, versions, chunk):
    got = {}
    for i in range(0, len(versions), chunk):
        part = versions[i:i + chunk]
        out = subprocess.run([KCVE, "check"] + args + ["--version", ",".join(part), "--ids"],
                             check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            ver, _, ids = line.partition(":")
            got[ver] = set(ids.split())
    return got


def main():
    tree = fixtures.real_tree()
    recs, mentioned = load_records(tree)
    if len(recs) < 1000:
        print(f"FAIL: only {len(recs)} records unpacked")
        return 1
    stable = {v for v in mentioned if v and "*" not in v and v != "0" and not is_mainline(v)
              and major(v) in BRANCHES}
    versions = MAINLINE + sorted(stable, key=functools.cmp_to_key(kcmp))

    db = os.path.join(BUILD, "check-version-semantics.kdb")
    subprocess.run([KCVE, "db", "build", "--tree", tree, "-o", db], check=True,
                   stderr=subprocess.DEVNULL)
    got = kcve_ids(["--db", db], versions, 200)
    missing = [v for v in versions if v not in got]
    if missing:
        print(f"FAIL: kcve printed no result for {missing[:5]}")
        return 1
    # --tree must give the same verdicts as --db (one process: the tree is read once; every
    # 4th release and all mainline ones, to keep the ASan run time down)
    sample = MAINLINE + versions[len(MAINLINE)::4]
    got_tree = kcve_ids(["--tree", tree], sample, len(sample))
    diff = [v for v in sample if got_tree.get(v) != got[v]]
    if diff:
        v = diff[0]
        print(f"FAIL: --tree and --db differ at {len(diff)} releases, e.g. {v}: "
              f"{sorted(got_tree.get(v, set()) ^ got[v])[:5]}")
        return 1

    # The fast forms must agree with the reference functions (sample).
    for cid, prods, pairs in recs[::29]:
        cp, cj = compile_pairs(pairs), compile_products(prods)
        for ver in versions[::9]:
            x = vkey(ver)
            if dyad_fast(cp, x) != dyad_verdict(pairs, ver) or json_fast(cj, x) != json_verdict(prods, ver):
                print(f"FAIL: test self-check: fast and reference readings differ for {cid} at {ver}")
                return 1

    # Pre-compile every record once: the evaluation below runs ~8 million times.
    compiled = [(cid, compile_pairs(pairs), compile_products(prods)) for cid, prods, pairs in recs]
    compared = mismatches = disagree = nodata = from_dyad = 0
    dis_lines, bad_lines = [], []
    for ver in versions:
        kept = got[ver]
        x = vkey(ver)
        for cid, cpairs, cprods in compiled:
            d = dyad_fast(cpairs, x)
            j = json_fast(cprods, x)
            if j is None and d is None:
                nodata += 1
                if cid not in kept:  # kcve must keep records it cannot decide
                    bad_lines.append(f"{ver} {cid}: no usable data but dropped by kcve")
                continue
            if j is not None and d is not None and j != d:
                disagree += 1
                dis_lines.append(f"{ver} {cid}: json={j} dyad={d}")
            want = j if j is not None else d
            from_dyad += j is None
            compared += 1
            if (cid in kept) != (want == "affected"):
                mismatches += 1
                bad_lines.append(f"{ver} {cid}: JSON record says {j}, pairs say {d}, kcve says "
                                 f"{'affected' if cid in kept else 'unaffected'}")
    report = os.path.join(BUILD, "check-version-disagreements.txt")
    with open(report, "w") as f:
        f.write("# release CVE: per-branch JSON reading vs .dyad reading (kcve follows the JSON)\n")
        f.write("\n".join(dis_lines) + ("\n" if dis_lines else ""))
    print(f"{len(recs)} records x {len(versions)} releases ({len(MAINLINE)} mainline, "
          f"{len(stable)} stable): {compared} verdicts compared, {mismatches} mismatches, "
          f"{from_dyad} decided by the pairs (no usable JSON), {nodata} without usable data")
    dis_records = sorted({l.split()[1].rstrip(":") for l in dis_lines})
    print(f"dyad-vs-JSON disagreements: {disagree} release x record cases in "
          f"{len(dis_records)} records ({' '.join(dis_records)}); listed in {report}")
    if bad_lines:
        print("\n".join(bad_lines[:40]))
        return 1
    if compared < len(versions) * 1000:
        print("FAIL: too few comparisons; did the data load?")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
