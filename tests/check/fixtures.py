"""What several check tests do the same way, said once (imported by csaf.py, spdx3.py, vex.py
and version_semantics.py):

check(cond, msg)     one failure list for the whole test run (failures), whichever module's
                     helper finds it: spdx3.py calls csaf.py's and vex.py's helpers, csaf.py
                     vex.py's, and their failures must fail the test that called them.
run(*args, ...)      kcve with a fixed SOURCE_DATE_EPOCH and no $KCVE_VEX_AUTHOR: (stdout, stderr),
                     stdout None (and a failure) when the exit status is not in ok.
real_tree()          the real 2024 record tree of the shared data, unpacked once per build
                     directory by tests/lib/real-tree.sh (which every test of that tree uses, so
                     it is unpacked once for all of them); exits 77 (skipped) without the data.
config_tree(tmp)     a small record tree checked with a tiny kernel source and its .config, the
                     CVEs of every file-stage outcome (see its docstring).
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mktree  # noqa: E402

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL:", msg)


def run(*args, env=None, ok=(0,), timeout=600):
    e = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    e.pop("KCVE_VEX_AUTHOR", None)
    e.update(env or {})
    p = subprocess.run([os.environ["KCVE"]] + list(args), capture_output=True, text=True, env=e,
                       timeout=timeout)
    if p.returncode not in ok:
        check(False, f"kcve {' '.join(args)}: exit {p.returncode}: {p.stderr[-800:]}")
        return None, p.stderr
    return p.stdout, p.stderr


def real_tree():
    """The path of the unpacked 2024 record tree (tests/lib/real-tree.sh); SystemExit 77 with
    the helper's line when the shared data is absent, SystemExit 1 when unpacking fails."""
    env = dict(os.environ)
    env.setdefault("KCVE_BUILD", tempfile.gettempdir())
    p = subprocess.run([os.path.join(SRC, "tests", "lib", "real-tree.sh")], env=env,
                       stdout=subprocess.PIPE, text=True)
    if p.returncode == 77:
        print("SKIP: the 2024 record tree of the shared data is absent")
        sys.exit(77)
    if p.returncode or not p.stdout.strip():
        sys.exit(f"FAIL: tests/lib/real-tree.sh: exit {p.returncode}")
    return p.stdout.strip()


def config_tree(tmp, no_data=False):
    """(tree, kernel source, .config) in tmp: CVE-2099-0001 fixed on 6.1 at 6.1.20, scored HIGH
    7.8, in fs/ext4/inode.c (compiled); CVE-2099-0002 fixed at 6.1.40 in drivers/x.c (not
    compiled: CONFIG_FOO is not set); CVE-2099-0003 introduced in 4.4, fixed in 5.0;
    CVE-2099-0004 introduced in 6.5 (not yet in a 6.1 kernel); with no_data, also
    CVE-2099-0005, a record without version data."""
    a, b = "a" * 40, "b" * 40
    spec = [
        {"id": "CVE-2099-0001", "title": "ext4: fix", "files": ["fs/ext4/inode.c"],
         "pairs": [f"5.10:{a}:6.1.20:{b}"], "fixes": [b], "severity": "HIGH", "score": 7.8},
        {"id": "CVE-2099-0002", "title": "x: not compiled", "files": ["drivers/x.c"],
         "pairs": [f"5.10:{a}:6.1.40:{b}"], "fixes": [b]},
        {"id": "CVE-2099-0003", "title": "y: old", "files": ["fs/ext4/inode.c"],
         "pairs": [f"4.4:{a}:5.0:{b}"]},
        {"id": "CVE-2099-0004", "title": "z: new", "files": ["fs/ext4/inode.c"],
         "pairs": [f"6.5:{a}:6.6:{b}"]},
    ]
    if no_data:
        spec.append({"id": "CVE-2099-0005", "title": "w: no data", "files": ["fs/ext4/inode.c"],
                     "versions": None})
    small = os.path.join(tmp, "small")
    mktree.write_tree(small, spec)
    ksrc = os.path.join(tmp, "ksrc")
    return small, ksrc, mktree.kernel_source(ksrc)
