#!/usr/bin/python3
"""One answer whatever the path (issue 33): the same kernels through `check --json` (one run
per kernel, and one run for several releases), `--batch` (over the tree and over the
database), `--db` vs `--tree`, the public interface (kcve_check_version) and `--since` with an
identical OLD must give the same per-kernel verdicts, the same stage names and counts, the same
evidence (code, functions, mitigations) and the same warnings.

usage: cross_path.py KCVE API_TOOL DIR     (DIR: the fixtures cross_path.sh wrote)
  DIR/s1: records on a tiny kernel source (--config/--source, a db built with --source)
  DIR/s2: a db of fix fingerprints (--patches) and the tree they are read in (--source), an
          image's System.map (function level)
  DIR/s3: a system image (--running --root) of a kernel whose modules are known exactly
"""
import gzip
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spdx3 import yocto_shape  # noqa: E402  (an SPDX 3 SBOM as Yocto writes it)

KCVE, API, D = sys.argv[1:4]
problems = []


def run(args, ok=(0,)):
    p = subprocess.run([KCVE] + args, capture_output=True, text=True)
    if p.returncode not in ok:
        raise SystemExit("FAIL: kcve %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr))
    return p


def warnings(stderr):
    return [l[len("kcve: warning: "):] for l in stderr.splitlines()
            if l.startswith("kcve: warning: ")]


def json_results(args):
    p = run(args + ["--json", "--all", "--fixed-in"])
    return json.loads(p.stdout)["results"], p.stderr


def age(kind):
    return kind in ("stale", "age-unknown")


def view(res):
    """What must be equal whatever the path: one --json result as the batch line has it."""
    cves = res["cves"]
    v = {
        "release": res["release"],
        "affected": sorted(c["id"] for c in cves if c["outcome"] == "affected"),
        "unknown": sorted(c["id"] for c in cves if c["outcome"] in ("unknown", "no_data")),
        "stages": [(s["name"], s["count"], s["undecided"]) for s in res["stages"]],
        "coverage": [(c["kind"], c["message"]) for c in res["coverage"]],
        "fixed_in": res.get("fixed_in") or "",
        "code": {c["id"]: dict(c["code"], id=c["id"]) for c in cves
                 if "code" in c and c["stage"] in ("code", "functions")
                 and c["code"]["verdict"] != "undecided"},
        "functions": {c["id"]: c["reason"] for c in cves if c["stage"] == "functions"},
    }
    return v


def view_line(line):
    """The same from a --batch line."""
    return {
        "release": line["release"],
        "affected": sorted(line["affected"]),
        "unknown": sorted(line["unknown"]),
        "stages": [(s["name"], s["count"], s["undecided"]) for s in line["stages"]],
        "coverage": [(c["kind"], c["message"]) for c in line["coverage"]],
        "fixed_in": line["fixed_in"] or "",
        "code": {c["id"]: c for c in line.get("code", {}).get("cves", [])},
        "functions": {c["id"]: c["reason"] for c in line.get("functions", {}).get("cves", [])},
    }


def same(what, a, b, ignore=()):
    for k in a:
        if k in ignore:
            continue
        if a[k] != b[k]:
            problems.append("%s: %s differs:\n    %r\n    %r" % (what, k, a[k], b[k]))


def release_warnings(v):
    return [m for k, m in v["coverage"] if not age(k)]


def batch(args, fleet):
    with open(os.path.join(D, "fleet"), "w") as f:
        f.write(fleet)
    p = run(args + ["--batch", os.path.join(D, "fleet"), "--fixed-in"])
    return {l["id"]: l for l in map(json.loads, p.stdout.splitlines())}, p.stderr


def api(records, version):
    """The public interface's answers, and the warnings it handed its caller."""
    p = subprocess.run([API, records, version], capture_output=True, text=True)
    if p.returncode:
        raise SystemExit("FAIL: api_tool %s %s: %s" % (records, version, p.stderr))
    return ({l.split()[0]: (l.split()[1], l.split()[2]) for l in p.stdout.splitlines()},
            warnings(p.stderr))


def since(args, old):
    """--since OLD with OLD the same records: the same results, every delta empty."""
    res, err = json_results(args + ["--since", old])
    for r in res:
        d = r.pop("delta")
        if d["added"] or d["removed"] or d["changed"]:
            problems.append("--since an identical OLD: a delta %r" % d)
    return res, err


# ---- s1: versions, --config/--source vs a db built with --source ---------------------------
s1 = os.path.join(D, "s1")
tree, db, ksrc = (os.path.join(s1, x) for x in ("tree", "k.kdb", "ksrc"))
old = os.path.join(s1, "old")
shutil.copytree(tree, old)
ext4, foo = os.path.join(s1, "ksrc.config"), os.path.join(s1, "foo.config")
kernels = [("k1", "6.1.5", None), ("k2", "6.1.5", ext4), ("k3", "6.1.25", foo),
           ("k4", "6.1.25", None), ("k5", "6.9.4", ext4), ("k6", "6.2-rc3", None)]
fleet = "".join("%s %s %s\n" % (v, c or "-", kid) for kid, v, c in kernels)
bt, bt_err = batch(["check", "--tree", tree, "--source", ksrc], fleet)
bd, bd_err = batch(["check", "--db", db], fleet)
multi, multi_err = json_results(["check", "--tree", tree, "--version",
                                 ",".join(v for _, v, c in kernels if c is None)])
if warnings(multi_err).count(multi[0]["coverage"][-1]["message"]) != 1:
    problems.append("the age warning is not said once for %d releases: %s"
                    % (len(multi), multi_err))
mi = api_warnings = 0
for kid, version, config in kernels:
    extra = ["--config", config] if config else []
    src = ["--source", ksrc] if config else []
    (t,), t_err = json_results(["check", "--tree", tree, "--version", version] + src + extra)
    (d,), _ = json_results(["check", "--db", db, "--version", version] + extra)
    (s,), _ = since(["check", "--tree", tree, "--version", version] + src + extra, old)
    vt, vd = view(t), view(d)
    # the warnings printed are the result's, each once
    if sorted(warnings(t_err)) != sorted(m for _, m in vt["coverage"]):
        problems.append("%s: stderr %r, coverage %r" % (kid, t_err, vt["coverage"]))
    same("%s --json tree vs --batch tree" % kid, vt, view_line(bt[kid]))
    same("%s --json db vs --batch db" % kid, vd, view_line(bd[kid]))
    same("%s --tree vs --db" % kid, vt, vd, ignore=("coverage",))
    if release_warnings(vt) != release_warnings(vd):
        problems.append("%s: release warnings differ, tree %r, db %r" % (kid, vt, vd))
    if s != t:
        problems.append("%s: --since an identical OLD changed the result" % kid)
    if config is None:
        same("%s one run vs several releases" % kid, vt, view(multi[mi]))
        mi += 1
        got, api_warned = api(tree, version)
        want = {c["id"]: (c["outcome"], c.get("fixed_in") or "-") for c in t["cves"]}
        if got != want:
            problems.append("%s: the public interface %r, --json %r" % (kid, got, want))
        # the release's warnings reach the caller of the public interface (not the age: it
        # does not judge it)
        if api_warned != release_warnings(vt):
            problems.append("%s: the public interface warned %r, --json %r"
                            % (kid, api_warned, release_warnings(vt)))
        api_warnings += len(api_warned)
        if api(db, version) != (got, api_warned):
            problems.append("%s: the public interface over the db differs" % kid)
if not api_warnings:
    problems.append("s1: the public interface was given no warning: the comparison proves nothing")
if not any(view_line(l)["affected"] for l in bt.values()):
    problems.append("s1: nothing affected anywhere: the comparison proves nothing")
if not any(l["stages"][-1]["name"] == "config" for l in bt.values()):
    problems.append("s1: no configuration stage ran")


# ---- s1: every field a batch line takes = the single check with the same inputs ----------
def cmd_file(bdir, src):
    """A build directory's .cmd file for one compiled source file."""
    obj = src[:-2] + ".o"
    d = os.path.join(bdir, os.path.dirname(src))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "." + os.path.basename(obj) + ".cmd"), "w") as f:
        f.write("source_%s := %s\ndeps_%s := \\\n  include/linux/kconfig.h \\\n\n" % (obj, src, obj))


def every_field(records, src, fleet):
    """The batch lines of fleet [(line, single check's inputs)] and the single checks: the same
    verdicts, stages, evidence, fixed-in and release warnings, line by line.  src: the batch's
    --source, which a single check takes only with a configuration to read."""
    text = "# every field a line takes\n\n" + "".join(l + "\n" for l, _ in fleet)
    with open(os.path.join(D, "fleet"), "w") as f:
        f.write(text)
    p = run(records + src + ["--batch", os.path.join(D, "fleet"), "--fixed-in"], ok=(0, 13))
    lines = [json.loads(l) for l in p.stdout.splitlines()]
    if len(lines) != len(fleet):
        problems.append("every field: %d lines for %d kernels" % (len(lines), len(fleet)))
        return []
    for (l, single), got in zip(fleet, lines):
        if "error" in got:
            problems.append("every field %r: %s" % (l, got["error"]))
            continue
        cfg = "--config" in single or single[-1] == sbom_cfg
        (t,), _ = json_results(records + (src if cfg else []) + single)
        same("every field %r vs %s" % (l, " ".join(single)), view(t), view_line(got))
    return lines


gz = os.path.join(s1, "foo.config.gz")
with open(foo, "rb") as f, gzip.open(gz, "wb") as g:
    g.write(f.read())
flist = os.path.join(s1, "files.tsv")
with open(flist, "w") as f:
    f.write("# kcve db files\nfs/ext4/inode.c\tnot-compiled\text4\ndrivers/x.c\tcompiled\t\n"
            "fs/ext4/inode.c\tnot-compiled\text4\n")
# Yocto's build document alone (one document per line): the compiled files under ${BP}/, or
# the kernel configuration
os.makedirs(os.path.join(s1, "sb1"))
os.makedirs(os.path.join(s1, "sb2"))
sbom_files = yocto_shape(["drivers/x.c", "init/main.c"], os.path.join(s1, "sb1"), "6.1.25")[0]
sbom_cfg = yocto_shape([], os.path.join(s1, "sb2"), "6.1.5",
                       config=[("CONFIG_X86", "y"), ("CONFIG_64BIT", "y"), ("CONFIG_FOO", "y")])[0]
bld = os.path.join(s1, "bld")
cmd_file(bld, "fs/ext4/inode.c")
fleet = [("6.1.25 %s" % foo, ["--version", "6.1.25", "--config", foo]),
         ("v6.1.25 %s gz" % gz, ["--version", "v6.1.25", "--config", gz]),
         ("6.1.25-3 %s list" % flist, ["--version", "6.1.25-3", "--files", flist]),
         ("6.1.25 %s sbom" % sbom_files, ["--version", "6.1.25", "--sbom", sbom_files]),
         ("6.1.5 %s sbom-config" % sbom_cfg, ["--version", "6.1.5", "--sbom", sbom_cfg]),
         ("6.1.25 build=%s - with-build" % bld, ["--version", "6.1.25", "--build", bld]),
         ("6.1.25 %s both build=%s" % (foo, bld), ["--version", "6.1.25", "--config", foo,
                                                   "--build", bld]),
         ("6.1.25 %s sbom-and-build build=%s" % (sbom_files, bld),
          ["--version", "6.1.25", "--sbom", sbom_files, "--build", bld]),
         ("6.9.4", ["--version", "6.9.4"])]
# over a tree and a db, and with the run-wide options a line shares with a single check
for records, src in ((["check", "--tree", tree], ["--source", ksrc]), (["check", "--db", db], []),
                     (["check", "--db", db, "--reading", "either", "--max-age", "off"], [])):
    lines = every_field(records, src, fleet)
    stages = [[s["name"] for s in l.get("stages", [])] for l in lines]
    for want in ("config", "files", "sbom", "build"):
        if not any(want in s for s in stages):
            problems.append("every field %s: no line ran the stage %s: %r" % (records, want, stages))
# --files: a list that is not one is exit 13 on one line (a batch line's error says the same);
# with --config, exit 2
bad = os.path.join(s1, "bad.tsv")
with open(bad, "w") as f:
    f.write("fs/ext4/inode.c\tcompiled\ndrivers/x.c\tmaybe\n")
p = subprocess.run([KCVE, "check", "--db", db, "--version", "6.1.25", "--files", bad],
                   capture_output=True, text=True)
if p.returncode != 13 or "line 2: verdict 'maybe'" not in p.stderr or p.stderr.count("\n") != 1:
    problems.append("--files with a bad verdict: exit %d, %r" % (p.returncode, p.stderr))
# a file that is no such list -- a .config, a JSON document -- is refused the same way, not
# read as paths that are all unknown (its first entry has no verdict); so is a list holding a
# NUL byte (what follows it would go unread), and one giving a file two verdicts (which one
# counted depended on the sort; the same file twice with one verdict is fine); a batch line's
# FILES with a NUL says the same
nul = os.path.join(s1, "nul.tsv")
with open(nul, "wb") as f:
    f.write(b"fs/ext4/inode.c\tcompiled\n\0drivers/x.c\tnot-compiled\n")
twice = os.path.join(s1, "twice.tsv")
with open(twice, "w") as f:
    f.write("fs/ext4/inode.c\tcompiled\ndrivers/x.c\tnot-compiled\nfs/ext4/inode.c\tnot-compiled\n")
for path, want in ((foo, "line 1: "), (sbom_files, "line 1: '{' has no verdict"),
                   (nul, "line 2 holds a NUL byte"),
                   (twice, "line 3: 'fs/ext4/inode.c' has another verdict than on line 1")):
    p = subprocess.run([KCVE, "check", "--db", db, "--version", "6.1.25", "--files", path],
                       capture_output=True, text=True)
    if p.returncode != 13 or want not in p.stderr or p.stderr.count("\n") != 1:
        problems.append("--files %s: exit %d, %r" % (os.path.basename(path), p.returncode,
                                                      p.stderr))
with open(os.path.join(D, "fleet"), "w") as f:
    f.write("6.1.25 %s nul\n" % nul)
p = run(["check", "--db", db, "--batch", os.path.join(D, "fleet")], ok=(13,))
got = [json.loads(l) for l in p.stdout.splitlines()]
if len(got) != 1 or "line 2 holds a NUL byte" not in got[0].get("error", ""):
    problems.append("batch FILES with a NUL byte: %r" % got)
if subprocess.run([KCVE, "check", "--db", db, "--version", "6.1.25", "--files", flist, "--config",
                   foo], capture_output=True).returncode != 2:
    problems.append("--files with --config is not a usage error")
# an SBOM's configuration with nothing to read it with (a tree without --source): the stage is
# skipped with the same warning on both paths
with open(os.path.join(D, "fleet"), "w") as f:
    f.write("6.1.5 %s\n" % sbom_cfg)
b_err = run(["check", "--tree", tree, "--batch", os.path.join(D, "fleet")]).stderr
s_err = run(["check", "--tree", tree, "--version", "6.1.5", "--sbom", sbom_cfg]).stderr
skipped = [w for w in warnings(s_err) if "configuration stage skipped" in w]
if not skipped or skipped[0] not in warnings(b_err):
    problems.append("an SBOM's configuration without --source: --sbom warned %r, --batch %r"
                    % (s_err, b_err))


# ---- s1: --fixed-between / --fixed-by = the difference of two --json checks -------------
def kept(res):
    return {c["id"] for c in res["cves"] if c["outcome"] in ("affected", "unknown", "no_data")}


fixed_seen = 0
for v1, v2, by, inputs in (("6.1.5", "6.1.25", False, []),
                           ("6.1.5", "6.1.25", False, ["--source", ksrc, "--config", foo]),
                           ("6.1.2", "6.1.9", False, []),
                           ("6.1.5", "6.9.4", False, ["--source", ksrc, "--config", ext4]),
                           ("6.1.24", "6.1.25", True, []), ("6.1", "6.1.1", True, [])):
    for records in (["--tree", tree], ["--db", db]):
        # the db was built with --source: its conditions read the configuration
        extra = [x for x in inputs if records[0] == "--tree" or x not in ("--source", ksrc)]
        (a,), a_err = json_results(["check"] + records + ["--version", v1] + extra)
        (b,), b_err = json_results(["check"] + records + ["--version", v2] + extra)
        want = kept(a) - kept(b)
        p = run(["check"] + records + ["--fixed-between", v1, v2, "--json"] + extra)
        got = json.loads(p.stdout)
        what = "--fixed-between %s %s %s" % (v1, v2, " ".join(records + extra))
        if {c["id"] for c in got["cves"]} != want or got["fixed"] != len(want):
            problems.append("%s: %r, the --json difference %r" % (what, got, want))
        fixed_seen += len(want)
        if got.get("from_coverage") != a["coverage"] or got.get("to_coverage") != b["coverage"]:
            problems.append("%s: coverage %r %r, the two checks %r %r" % (
                what, got.get("from_coverage"), got.get("to_coverage"), a["coverage"], b["coverage"]))
        # the warnings: the two releases' (each once) and the records' age once
        want_w = [m for m in warnings(a_err)] + [m for m in release_warnings(view(b))]
        if sorted(warnings(p.stderr)) != sorted(want_w):
            problems.append("%s: warned %r, the two checks %r" % (what, warnings(p.stderr), want_w))
        ids = run(["check"] + records + ["--fixed-between", v1, v2, "--ids"] + extra).stdout
        if ids != "%s..%s:%s\n" % (v1, v2, "".join(" " + c["id"] for c in got["cves"])):
            problems.append("%s --ids: %r, --json %r" % (what, ids, got["cves"]))
        if by:
            by = run(["check"] + records + ["--fixed-by", v2, "--json"] + extra).stdout
            if json.loads(by) != got:
                problems.append("--fixed-by %s differs from %s" % (v2, what))
        # --strict: a release warning of either end (or stale records) is exit 21
        strict = subprocess.run([KCVE, "check"] + records + ["--fixed-between", v1, v2, "--ids",
                                                             "--strict"] + extra,
                                capture_output=True, text=True).returncode
        gap = any(k != "age-unknown" for k, _ in view(a)["coverage"] + view(b)["coverage"])
        if strict != (21 if gap else 0):
            problems.append("%s --strict: exit %d, warnings %r" % (what, strict, p.stderr))
if not fixed_seen:
    problems.append("s1: no upgrade fixed anything: the --fixed-between comparison proves nothing")

# ---- s2: a fingerprint --db, --source, the function level -------------------------------
s2 = os.path.join(D, "s2")
db2, src2 = os.path.join(s2, "kcve.db"), os.path.join(s2, "tree")
smap = os.path.join(s2, "img", "boot", "System.map-6.0.2")
old2 = os.path.join(s2, "old.db")
shutil.copy(db2, old2)
b2, _ = batch(["check", "--db", db2, "--source", src2],
              "6.0.2 - with-map system-map=%s\n6.0.2 - plain\n" % smap)
for kid, extra in (("with-map", ["--system-map", smap]), ("plain", [])):
    args = ["check", "--db", db2, "--source", src2, "--version", "6.0.2"] + extra
    (t,), _ = json_results(args)
    (s,), _ = since(args, old2)
    vt = view(t)
    same("%s --json vs --batch (code, functions)" % kid, vt, view_line(b2[kid]))
    if not vt["code"]:
        problems.append("s2 %s: the code stage decided nothing" % kid)
    if s != t:
        problems.append("s2 %s: --since an identical OLD changed the result" % kid)
if not view(json_results(["check", "--db", db2, "--source", src2, "--version", "6.0.2",
                          "--system-map", smap])[0][0])["functions"]:
    problems.append("s2: the function level decided nothing")

# ---- s3: --running --root, tree with --source vs a db built with --source ---------------
s3 = os.path.join(D, "s3")
tree3, ksrc3, root3, db3 = (os.path.join(s3, x) for x in ("tree", "ksrc", "root", "k.kdb"))
old3 = os.path.join(s3, "old")
shutil.copytree(tree3, old3)
base = ["check", "--running", "--root", root3]
(t,), t_err = json_results(base + ["--tree", tree3, "--source", ksrc3])
(d,), _ = json_results(base + ["--db", db3])
(s,), _ = since(base + ["--tree", tree3, "--source", ksrc3], old3)
vt, vd = view(t), view(d)
same("--running --root: --tree --source vs --db", vt, vd, ignore=("coverage",))
mit = lambda r: {c["id"]: (c["outcome"], c.get("mitigation")) for c in r["cves"]}
if mit(t) != mit(d):
    problems.append("--running: mitigations differ, tree %r, db %r" % (mit(t), mit(d)))
if s != t:
    problems.append("--running: --since an identical OLD changed the result")
if [x[0] for x in vt["stages"]] != ["records", "version", "config", "modprobe"]:
    problems.append("--running: stages %r" % vt["stages"])

# every stage at once: --running --build, a fingerprint --db and --source, a System.map
fdb, old4 = os.path.join(s3, "f.db"), os.path.join(s3, "old.db")
shutil.copy(fdb, old4)
args = base + ["--db", fdb, "--source", ksrc3, "--build", os.path.join(s3, "bld"),
               "--system-map", os.path.join(s3, "System.map")]
(t,), _ = json_results(args)
(s,), _ = since(args, old4)
names = [x["name"] for x in t["stages"]]
if names != ["records", "version", "config", "build", "code", "functions", "modprobe"]:
    problems.append("every stage at once: stages %r" % t["stages"])
if s != t:
    problems.append("every stage at once: --since an identical OLD changed the result")
table = run(args).stdout
if "by modprobe" not in table:
    problems.append("every stage at once: the summary lacks the modprobe count: %s" % table)

if problems:
    print("\n".join(problems))
    sys.exit(1)
print("ok: every path gives the same answer (%d CVEs of upgrades compared)" % fixed_seen)
