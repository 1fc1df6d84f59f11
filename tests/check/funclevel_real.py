#!/usr/bin/env python3
"""Function level on real data (issue 27 item 3): the codefix-6.1 fixture's 409 fixes, their
functions scanned from Debian's 6.1.170 (before) and 6.1.176 (after) trees, decided against
Debian's real 6.1.192 amd64 image (linux-image-6.1.0-57-amd64: the System.map of its -dbg
package, since the one in the image package is a placeholder, and the image's 4,023 modules).

Checked here, independently of the C code:
- no CVE called absent has a changed function (or a syscall wrapper of it) in the System.map
  or in a module's symbol table (read with nm);
- every CVE called absent names only functions that have a symbol of their own (not static,
  not inline);
- the six header-only records: each one's verdict and reason are printed (the closing note's
  figure), none may be absent while one of its functions is in the image.
The same checks on the --patches route (`check --source` with fingerprints that carry no
function lists): every fix's functions read in Debian's 6.1.192 tree where the code stage
finds its hunks (check/stages/functree.h).
Skips (77) without ../shared, when Debian no longer serves the releases, or without apt-get.
Caches: KCVE_CODEFIX_CACHE (else $XDG_CACHE_HOME/kcve, else /var/tmp/kcve-codefix-cache: the
fingerprint test's rule, so both share one download) and KCVE_SYSMAP_CACHE (default /var/tmp/kcve-sysmap-cache), both outside the repo."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
RELEASE = "6.1.0-57-amd64"
DEBVER = "6.1.192-3"


def skip(why):
    print("SKIP: " + why)
    sys.exit(SKIP)


def fixture_dirs():
    shared = os.environ.get("KCVE_SHARED") or os.path.join(os.environ["KCVE_SRC"], "..", "shared")
    fixture = os.path.join(shared, "fixtures", "codefix-6.1")
    if not os.path.isfile(os.path.join(fixture, "make-patches.py")):
        skip("no ../shared/fixtures/codefix-6.1")
    # the fingerprint test's cache rule (tests/codefix/fixture.py), so both share one download
    cache_root = os.environ.get("KCVE_CODEFIX_CACHE") or (
        os.path.join(os.environ["XDG_CACHE_HOME"], "kcve") if os.environ.get("XDG_CACHE_HOME")
        else "/var/tmp/kcve-codefix-cache")
    cache = os.path.join(cache_root, "codefix-6.1")
    if not os.path.isdir(os.path.join(cache, "patches")):
        r = subprocess.run([sys.executable, os.path.join(fixture, "make-patches.py"), cache],
                           capture_output=True, text=True)
        if r.returncode != 0:
            if "no longer serves" in r.stdout + r.stderr:
                skip("Debian no longer serves the fixture's releases")
            sys.exit("make-patches.py failed: " + (r.stderr or r.stdout)[-2000:])
    return fixture, cache


def fetch_image(cache):
    """boot/System.map-RELEASE (the real one, from the -dbg package) and lib/modules/RELEASE."""
    root = os.path.join(cache, "sysmap")
    smap = os.path.join(root, "boot", "System.map-" + RELEASE)
    if os.path.isfile(smap) and os.path.isdir(os.path.join(root, "lib", "modules", RELEASE)):
        return root, smap
    if not shutil.which("apt-get") or not shutil.which("dpkg-deb"):
        skip("no apt-get/dpkg-deb to fetch linux-image-%s" % RELEASE)
    os.makedirs(cache, exist_ok=True)
    work = tempfile.mkdtemp(dir=cache)
    try:
        for pkg in ("linux-image-%s-unsigned" % RELEASE, "linux-image-%s-dbg" % RELEASE):
            r = subprocess.run(["apt-get", "download", "%s=%s" % (pkg, DEBVER)], cwd=work,
                               capture_output=True, text=True)
            if r.returncode != 0:
                skip("apt-get download %s=%s failed (not served?): %s" % (pkg, DEBVER, r.stderr[-300:]))
        debs = {("dbg" if "-dbg_" in f else "img"): os.path.join(work, f) for f in os.listdir(work)}
        tmproot = os.path.join(work, "root")
        subprocess.run(["dpkg-deb", "-x", debs["img"], tmproot], check=True)
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", debs["dbg"]], stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", work, "./usr/lib/debug/boot/System.map-" + RELEASE],
                       stdin=tar.stdout, check=True)
        tar.wait()
        shutil.copy(os.path.join(work, "usr/lib/debug/boot/System.map-" + RELEASE),
                    os.path.join(tmproot, "boot"))
        if os.path.isdir(root):
            shutil.rmtree(root)
        os.rename(tmproot, root)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return root, smap


def norm(name):
    dot = name.find(".", 1)
    return name if dot < 0 else name[:dot]


def image_names(root, smap):
    names = set()
    with open(smap) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3:
                names.add(norm(parts[2]))
    kos = []
    for d, _, files in os.walk(os.path.join(root, "lib", "modules", RELEASE)):
        kos += [os.path.join(d, f) for f in files if f.endswith(".ko")]
    for i in range(0, len(kos), 400):
        out = subprocess.run(["nm", "--defined-only"] + kos[i:i + 400], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3:
                names.add(norm(parts[2]))
    return names


def candidates(name, flags):
    if flags & (4 | 8):  # FUNCSCAN_SYSCALL | FUNCSCAN_COMPAT
        c = "compat_" if flags & 8 else ""
        return [p + c + "sys_" + name for p in ("__x64_", "__ia32_", "__arm64_", "__s390x_",
                                                 "__riscv_", "")]
    return [name]


def run_tool(tool, smap, cache, tree_args):
    r = subprocess.run([tool, "--system-map", smap, "--patches", os.path.join(cache, "patches")]
                       + tree_args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("funclevel_tool failed: " + r.stderr)
    print(r.stderr.strip())
    return r.stdout


def judge(out, names, cases, label):
    """The verdicts of one route and what is wrong with them."""
    verdicts, bad = {}, []
    for line in out.splitlines():
        cve, verdict, fns, why = line.split("\t")
        fl = [(f.split(":")[0], int(f.split(":")[1]), f.split(":")[2] == "1")
              for f in fns.split(",") if f]
        verdicts[cve] = (verdict, fl, why)
        if verdict != "absent":
            continue
        for name, flags, added in fl:
            if any(c in names for c in candidates(name, flags)):
                bad.append("%s: %s: called absent but %s is in the image" % (label, cve, name))
            if not added and flags & (1 | 2 | 16):
                bad.append("%s: %s: called absent from static/inline/macro function %s" %
                           (label, cve, name))
    missing = sorted(set(cases) - set(verdicts))
    if missing:
        bad.append("%s: no verdict for %d CVEs: %s" % (label, len(missing), missing[:5]))
    counts = {}
    for v, _, _ in verdicts.values():
        counts[v] = counts.get(v, 0) + 1
    print("%s: verdicts over %d CVEs: %s" % (label, len(verdicts), counts))
    for cve in sorted(verdicts):
        if verdicts[cve][0] == "absent":
            print("  absent %s: %s" % (cve, verdicts[cve][2]))
    header_only = sorted(c for c, v in cases.items() if all(f.endswith(".h") for f in v["files"]))
    decided = [c for c in header_only if verdicts.get(c, ("",))[0] == "absent"]
    print("%s: header-only records: %d of %d decided absent" % (label, len(decided), len(header_only)))
    for c in header_only:
        v = verdicts.get(c, ("missing", [], ""))
        print("  %s %s: %s" % (c, v[0], v[2]))
    if counts.get("present", 0) == 0:
        bad.append("%s: no CVE's function found in the image: the scan or the symbols are broken" % label)
    return bad


def main():
    fixture, cache = fixture_dirs()
    sysroot, smap = fetch_image(os.environ.get("KCVE_SYSMAP_CACHE", "/var/tmp/kcve-sysmap-cache"))
    tool = os.path.join(os.environ["KCVE_BUILD"], "tests", "check", "funclevel_tool")
    names = image_names(sysroot, smap)
    cases = json.load(open(os.path.join(fixture, "cases.json")))
    src = os.path.join(cache, "src")
    # the --repo route: functions scanned in the files before and after each fix
    bad = judge(run_tool(tool, smap, cache, ["--old", os.path.join(src, "6.1.170"), "--new",
                                              os.path.join(src, "6.1.176")]),
                names, cases, "fix files")
    # the --patches route: functions read in the checked tree where the code stage finds each
    # hunk (check --source), here over every CVE whatever its code verdict
    bad += judge(run_tool(tool, smap, cache, ["--source", os.path.join(src, "6.1.192")]),
                 names, cases, "--source 6.1.192")
    for b in bad:
        print("FAIL " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
