#!/usr/bin/python3
"""Acceptance: `kcve record` reproduces the kernel CNA's records for the 250 CVEs of
$KCVE_SHARED/fixtures/replay-2024 (pairs computed in-process by the history engine).

1. compare.py --mbox must score 250 passed (dyad, JSON fields, mbox tallies);
2. every produced .json is byte-identical to the expected one (the .cvss given to kcve is
   rebuilt from the expected record's metrics, so scores and rationales are exercised too);
3. every produced .mbox is byte-identical to the expected one apart from the two header lines
   (mbox separator with the generator version, and the sender), except where the fixture's
   repository elides the changelog (its commits carry a shortened message) - counted;
4. every produced .json validates against the CVE JSON 5.1.1 schema;
5. bad input: unknown sha, missing / malformed CVE id, unreadable --message / --reference /
   --cvss, malformed .cvss: one "kcve: error:" line, non-zero exit, no output file.
Exit 77 (skipped) when the shared data is absent."""
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
EXP = os.path.join(FIX, "expected")
ELIDED = "The remainder of this changelog is elided."
SENDER = "Test Sender <sender@example.org>"

ENV = dict(os.environ)
for k in ("KCVE_REPO", "KCVE_INDEX", "KCVE_TREE", "KCVE_FROM", "CVE_USER"):
    ENV.pop(k, None)


def cvss_from_expected(cve, path):
    """The .cvss the expected record was made from: header + rationale lines."""
    rec = json.load(open(os.path.join(EXP, cve + ".json")))
    mets = rec["containers"]["cna"].get("metrics")
    if not mets:
        return False
    with open(path, "w") as fh:
        for m in mets:
            fh.write("%s %s\n" % (rec["cveMetadata"]["assignerOrgId"], m["cvssV3_1"]["vectorString"]))
        scen = mets[0].get("scenarios")
        if scen:
            lines = scen[0]["value"].split("\n")
            per_metric = lines[0][:3] in ("AV:",)
            fh.write("\n" + ("\n" if per_metric else "\n\n").join(lines) + "\n")
    return True


def record(mirror, args, **kw):
    return subprocess.run([KCVE, "--repo", mirror, "record"] + args, env=ENV,
                          capture_output=True, text=True, **kw)


def bad_input(mirror, tmp, fix):
    """Each case: one error line, non-zero exit, no output written."""
    out = os.path.join(tmp, "bad.json")
    mbox = os.path.join(tmp, "bad.mbox")
    missing = os.path.join(tmp, "does-not-exist")
    garbage = os.path.join(tmp, "garbage.cvss")
    with open(garbage, "w") as fh:
        fh.write("this is not a cvss file\n")
    unreadable_dir = os.path.join(tmp, "a-directory")
    os.mkdir(unreadable_dir)
    cases = [
        ("unknown sha", ["--cve", "CVE-2024-99999", "--json", out, "--mbox", mbox, "0123456789abcdef0123"]),
        ("missing --cve", ["--json", out, fix]),
        ("malformed CVE id", ["--cve", "CVE-24-1", "--json", out, fix]),
        ("malformed CVE id 2", ["--cve", "cve-2024-12345", "--json", out, fix]),
        ("no sha", ["--cve", "CVE-2024-99999", "--json", out]),
        ("unreadable message", ["--cve", "CVE-2024-99999", "--message", missing, "--json", out, fix]),
        ("unreadable reference", ["--cve", "CVE-2024-99999", "--reference", unreadable_dir, "--json", out, fix]),
        ("unreadable cvss", ["--cve", "CVE-2024-99999", "--cvss", missing, "--json", out, fix]),
        ("malformed cvss", ["--cve", "CVE-2024-99999", "--cvss", garbage, "--json", out, "--mbox", mbox, fix]),
        ("unknown vulnerable", ["--cve", "CVE-2024-99999", "--vulnerable", "fedcba9876543210", "--json", out, fix]),
    ]
    for name, args in cases:
        r = record(mirror, args + ["--from", SENDER])
        lines = r.stderr.strip().splitlines()
        if r.returncode == 0:
            sys.exit("bad input '%s': exit status 0" % name)
        if len(lines) != 1 or not lines[0].startswith("kcve: error: "):
            sys.exit("bad input '%s': expected one 'kcve: error:' line, got %r" % (name, r.stderr))
        if r.stdout:
            sys.exit("bad input '%s': wrote to stdout: %r" % (name, r.stdout[:200]))
        for p in (out, mbox):
            if os.path.exists(p):
                sys.exit("bad input '%s': left %s behind" % (name, p))
        leftovers = [f for f in os.listdir(tmp) if f.startswith("bad.") or ".tmp" in f]
        if leftovers:
            sys.exit("bad input '%s': left %s behind" % (name, leftovers))
    print("bad input: %d cases rejected cleanly" % len(cases))


def main():
    cases = json.load(open(os.path.join(FIX, "cases.json")))
    assert len(cases) == 250, len(cases)
    tmp = tempfile.mkdtemp(prefix="kcve-record-replay-")
    try:
        mirror = os.path.join(tmp, "mirror.git")
        subprocess.run(["git", "clone", "-q", "--mirror", os.path.join(FIX, "repo.bundle"), mirror],
                       env=ENV, check=True)
        subprocess.run([KCVE, "--repo", mirror, "index"], env=ENV, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        got = os.path.join(tmp, "got")
        os.mkdir(got)
        cvss_dir = os.path.join(tmp, "cvss")
        os.mkdir(cvss_dir)
        for cve, c in sorted(cases.items()):
            base = os.path.join(got, cve)
            args = ["--cve", cve, "--from", SENDER, "--json", base + ".json", "--mbox",
                    base + ".mbox", "--dyad", base + ".dyad"]
            for v in c["vulnerable"]:
                args += ["--vulnerable", v]
            cv = os.path.join(cvss_dir, cve + ".cvss")
            if cvss_from_expected(cve, cv):
                args += ["--cvss", cv]
            r = record(mirror, args + [c["fix"]])
            if r.returncode != 0:
                sys.exit("%s: kcve record failed (%d): %s" % (cve, r.returncode, r.stderr))

        r = subprocess.run(["/usr/bin/python3", os.path.join(FIX, "compare.py"), "--expected", EXP,
                            "--got", got, "--mbox"], capture_output=True, text=True)
        print(r.stdout)
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
        if r.returncode != 0 or last != "250 passed, 0 failed":
            subprocess.run(["/usr/bin/python3", os.path.join(FIX, "compare.py"), "--expected", EXP,
                            "--got", got, "--mbox", "-v"])
            sys.exit("replay score: %s" % last)
        mbox_tally = [l for l in r.stdout.splitlines() if l.startswith("mbox.")]
        for l in mbox_tally:
            f = l.split()
            if f[2] != "0" or f[3] != "0":
                sys.exit("mbox tally not perfect: %s" % l)

        json_same = mbox_same = mbox_elided = 0
        for cve in sorted(cases):
            got_json = open(os.path.join(got, cve + ".json"), "rb").read()
            exp_json = open(os.path.join(EXP, cve + ".json"), "rb").read()
            if got_json != exp_json:
                sys.exit("%s.json is not byte-identical to the expected record" % cve)
            json_same += 1
            got_mbox = open(os.path.join(got, cve + ".mbox"), encoding="utf-8").read()
            exp_mbox = open(os.path.join(EXP, cve + ".mbox"), encoding="utf-8").read()
            g, e = got_mbox.split("\n"), exp_mbox.split("\n")
            if g[1] != "From: " + SENDER:
                sys.exit("%s.mbox: sender line is %r" % (cve, g[1]))
            if g[2:] == e[2:]:
                mbox_same += 1
            elif ELIDED in got_mbox and ELIDED not in exp_mbox:
                mbox_elided += 1
            else:
                sys.exit("%s.mbox differs from the expected mbox beyond its header lines" % cve)
        print("json byte-identical: %d/250" % json_same)
        print("mbox byte-identical apart from the separator and sender lines: %d/250 "
              "(%d differ only because the fixture repository elides the changelog)"
              % (mbox_same, mbox_elided))

        jsons = sorted(os.path.join(got, f) for f in os.listdir(got) if f.endswith(".json"))
        r = subprocess.run(["/usr/bin/python3", os.path.join(SHARED, "schema", "validate.py")] + jsons,
                           capture_output=True, text=True)
        last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr
        print("schema:", last)
        if r.returncode != 0 or last != "250 passed, 0 failed":
            sys.exit("schema validation failed:\n" + r.stdout[-3000:] + r.stderr[-2000:])

        bad_input(mirror, tmp, cases["CVE-2024-26592"]["fix"])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()
