#!/usr/bin/python3
"""kcve foreign on the fixture records in tests/maintainers/data/foreign/: duplicate of an
existing kernel CVE (same fix sha), invalid (other CNA, supported branch), not-ours (vendor
kernel, unsupported versions), kernel-cna, not-kernel; malformed records give a clear error and
exit 13 without stopping the other records. Supported branches from --supported and from the
tree's branch data (scripts/kcve-branches)."""
import os
import shutil
import subprocess
import sys
import tempfile

KCVE = os.environ["KCVE"]
DATA = os.path.join(os.environ["KCVE_SRC"], "tests/maintainers/data/foreign")
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def classes(out):
    res = {}
    for line in out.splitlines():
        f = line.split("\t")
        check(len(f) == 4, "4 tab-separated fields: %r" % line)
        if len(f) == 4:
            res[f[0]] = f[1]
    return res


def main():
    tmp = tempfile.mkdtemp(prefix="kcve-foreign-")
    try:
        tree = os.path.join(tmp, "vulns")
        pub = os.path.join(tree, "cve/published/2024")
        os.makedirs(pub)
        open(os.path.join(pub, "CVE-2024-0001"), "w").close()
        with open(os.path.join(pub, "CVE-2024-0001.sha1"), "w") as f:
            f.write("5f8e2c1a9b7d4e6f0a3c5e7b9d1f2a4c6e8b0d2f\n")
        env = dict(os.environ)
        env.pop("KCVE_TREE", None)
        good = ["dup", "dup_short", "invalid", "cpe_noversion", "vendor", "unsupported", "kernelcna",
                "notkernel"]
        files = [os.path.join(DATA, g + ".json") for g in good]
        r = subprocess.run([KCVE, "--tree", tree, "foreign", "--supported", "6.12,6.6,6.1,5.15"]
                           + files, capture_output=True, text=True, env=env)
        check(r.returncode == 0, "exit 0 on good records: %d %s" % (r.returncode, r.stderr))
        c = classes(r.stdout)
        want = {"CVE-2024-50001": "duplicate", "CVE-2024-50007": "duplicate", "CVE-2024-50002": "invalid",
                "CVE-2024-50003": "invalid", "CVE-2024-50004": "not-ours",
                "CVE-2024-50005": "not-ours", "CVE-2024-26600": "kernel-cna",
                "CVE-2024-50006": "not-kernel"}
        check(c == want, "classes: %r" % c)
        check("CVE-2024-0001" in r.stdout, "duplicate names the kernel CVE")

        # a whole directory: malformed records reported, the rest still classified
        r = subprocess.run([KCVE, "--tree", tree, "foreign", "--supported", "6.6,6.1", DATA],
                           capture_output=True, text=True, env=env)
        check(r.returncode == 13, "exit 13 with malformed records: %d" % r.returncode)
        check(len(classes(r.stdout)) == len(good), "directory: every good record classified")
        errs = [l for l in r.stderr.splitlines() if l.startswith("kcve: error:")]
        check(len(errs) == 2 and any("broken.json" in e for e in errs) and
              any("notrecord.json" in e for e in errs), "one error line per bad record: %r" % errs)

        # only 4.x supported: the 4.9 record becomes invalid, the 6.1 one not ours
        r = subprocess.run([KCVE, "--tree", tree, "foreign", "--supported", "4.9",
                            os.path.join(DATA, "unsupported.json"),
                            os.path.join(DATA, "invalid.json")],
                           capture_output=True, text=True, env=env)
        c = classes(r.stdout)
        check(c == {"CVE-2024-50005": "invalid", "CVE-2024-50002": "not-ours"},
              "--supported decides: %r" % c)

        # branch data in the tree (kcve branches import format) instead of --supported
        os.makedirs(os.path.join(tree, "scripts"))
        with open(os.path.join(tree, "scripts/kcve-branches"), "w") as f:
            f.write("# branch moniker latest-release iseol\n6.12 longterm 6.12.1 0\n"
                    "4.14 longterm 4.14.336 0\n4.9 longterm 4.9.337 1\n")
        r = subprocess.run([KCVE, "--tree", tree, "foreign",
                            os.path.join(DATA, "unsupported.json"),
                            os.path.join(DATA, "invalid.json")],
                           capture_output=True, text=True, env=dict(env, KCVE_NOW="1733000000"))
        c = classes(r.stdout)
        check(c == {"CVE-2024-50005": "invalid", "CVE-2024-50002": "not-ours"},
              "tree branch data decides (4.14 supported, 6.1 not listed): %r %s" % (c, r.stderr))

        # no branch data at all: clear usage error
        r = subprocess.run([KCVE, "--tree", os.path.join(tmp, "nope"), "foreign",
                            os.path.join(DATA, "invalid.json")], capture_output=True, text=True,
                           env=env)
        check(r.returncode == 2 and r.stderr.startswith("kcve: error:"),
              "no branch data: usage error (%d %r)" % (r.returncode, r.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
