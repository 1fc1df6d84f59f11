#!/usr/bin/python3
"""Acceptance: kcve dyad reproduces the kernel CNA's published pairs for the 250 CVEs of
$KCVE_SHARED/fixtures/replay-2024, on a bare mirror (one `kcve dyad` per CVE) and on a plain
clone whose stable branches are remote-tracking refs (all CVEs in one `kcve dyad --batch`).
Scored with the fixture's compare.py; anything short of 250/250 fails. Exit 77 (skipped)
when the shared data is absent."""
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

KCVE = os.environ["KCVE"]
SHARED = os.environ.get("KCVE_SHARED", "")
FIX = os.path.join(SHARED, "fixtures", "replay-2024")
if not SHARED or not os.path.isfile(os.path.join(FIX, "repo.bundle")):
    print("skip: %s absent (the replay fixture of the shared reference data, KCVE_SHARED=%s)"
          % (os.path.join(FIX, "repo.bundle"), SHARED or "unset"))
    sys.exit(77)

ENV = dict(os.environ)
for k in ("KCVE_REPO", "KCVE_INDEX", "KCVE_TREE"):
    ENV.pop(k, None)


def run(args, **kw):
    return subprocess.run(args, env=ENV, check=True, **kw)


def score(got_dir):
    r = subprocess.run(["/usr/bin/python3", os.path.join(FIX, "compare.py"), "--expected",
                        os.path.join(FIX, "expected"), "--got", got_dir, "--only", "dyad"],
                       capture_output=True, text=True)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    if r.returncode != 0 or last != "250 passed, 0 failed":
        sys.stdout.write(r.stdout[-4000:])
        sys.exit("replay score: %s" % last)
    print("replay score:", last)


def main():
    cases = json.load(open(os.path.join(FIX, "cases.json")))
    assert len(cases) == 250, len(cases)
    tmp = tempfile.mkdtemp(prefix="kcve-replay-")
    try:
        # 1. bare mirror, one process per CVE
        mirror = os.path.join(tmp, "mirror.git")
        run(["git", "clone", "-q", "--mirror", os.path.join(FIX, "repo.bundle"), mirror])
        run([KCVE, "--repo", mirror, "index"], stdout=subprocess.DEVNULL)
        got = os.path.join(tmp, "got-mirror")
        os.mkdir(got)

        def one(item):
            cve, c = item
            args = [KCVE, "--repo", mirror, "dyad"]
            for v in c["vulnerable"]:
                args += ["--vulnerable", v]
            args.append(c["fix"])
            r = subprocess.run(args, env=ENV, capture_output=True, text=True)
            if r.returncode != 0:
                return "%s: kcve dyad failed (%d): %s" % (cve, r.returncode, r.stderr)
            with open(os.path.join(got, cve + ".dyad"), "w") as fh:
                fh.write(r.stdout)
            return None

        # the processes are short and mostly wait on start-up: run a few at once
        with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
            errors = [e for e in pool.map(one, sorted(cases.items())) if e]
        if errors:
            sys.exit("\n".join(errors[:5]))
        score(got)

        # 2. plain clone (remote-tracking stable branches), batch mode
        clone = os.path.join(tmp, "clone")
        run(["git", "clone", "-q", "--no-checkout", os.path.join(FIX, "repo.bundle"), clone])
        index = os.path.join(tmp, "clone-index.sqlite")
        run([KCVE, "--repo", clone, "--index", index, "index"], stdout=subprocess.DEVNULL)
        batch = os.path.join(tmp, "batch.txt")
        with open(batch, "w") as fh:
            fh.write("# one CVE per line\n\n")
            for cve, c in sorted(cases.items()):
                fh.write(" ".join([cve, c["fix"]] + ["-v " + v for v in c["vulnerable"]]) + "\n")
        r = subprocess.run([KCVE, "--repo", clone, "--index", index, "dyad", "--batch", batch],
                           env=ENV, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("kcve dyad --batch failed (%d): %s" % (r.returncode, r.stderr))
        got = os.path.join(tmp, "got-clone")
        os.mkdir(got)
        cur = None
        parts = {}
        for line in r.stdout.splitlines(True):
            if line.startswith("## "):
                cur = line[3:].strip()
                parts[cur] = []
            elif cur is not None:
                parts[cur].append(line)
        assert sorted(parts) == sorted(cases), "batch output must name every CVE once"
        for cve, lines in parts.items():
            with open(os.path.join(got, cve + ".dyad"), "w") as fh:
                fh.write("".join(lines))
        score(got)
        # the batch output per CVE equals the single-shot output byte for byte
        for cve in cases:
            a = open(os.path.join(tmp, "got-mirror", cve + ".dyad")).read()
            b = open(os.path.join(got, cve + ".dyad")).read()
            if a != b:
                sys.exit("%s: batch output differs from single-shot output" % cve)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
