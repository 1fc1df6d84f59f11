#!/usr/bin/python3
"""kcve dispute against a small record tree and the fixture MAINTAINERS
(tests/maintainers/data/MAINTAINERS): maintainer allowed, reviewer-only refused, unrelated
refused, THE REST refused, orphaned section falls back to the parent subsystem,
multi-subsystem fixes need a maintainer of each subsystem, audit log contents, and a refused
dispute changes nothing but the audit log (checked with a checksum of the whole tree)."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

KCVE = os.environ["KCVE"]
SRC = os.environ["KCVE_SRC"]
MAINT = os.path.join(SRC, "tests/maintainers/data/MAINTAINERS")
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def record(cve, files):
    return json.dumps({
        "dataType": "CVE_RECORD", "dataVersion": "5.1",
        "cveMetadata": {"cveId": cve, "state": "PUBLISHED",
                        "assignerOrgId": "f4215fc3-5b6b-47ff-a258-f7189bd81038"},
        "containers": {"cna": {"affected": [
            {"product": "Linux", "vendor": "Linux", "programFiles": files,
             "defaultStatus": "unaffected"},
            {"product": "Linux", "vendor": "Linux", "programFiles": files,
             "defaultStatus": "affected"}]}}}, indent=3) + "\n"


CVES = {
    "CVE-2024-0001": ["drivers/foo/a.c"],
    "CVE-2024-0002": ["Makefile", "init/main.c"],
    "CVE-2024-0003": ["drivers/foo/a.c", "drivers/bar/b.c"],
    "CVE-2024-0004": ["drivers/net/ethernet/orphan/o.c"],
    "CVE-2024-0005": ["drivers/foo/a.c", "include/linux/bar.h"],
    "CVE-2024-0006": ["lib/orphaned/x.c"],
}


def make_tree(root):
    pub = os.path.join(root, "cve/published/2024")
    os.makedirs(pub)
    os.makedirs(os.path.join(root, "cve/reserved/2024"))
    for i, (cve, files) in enumerate(sorted(CVES.items())):
        base = os.path.join(pub, cve)
        open(base, "w").close()
        with open(base + ".sha1", "w") as f:
            f.write("%040x\n" % (0xabc0 + i))
        with open(base + ".json", "w") as f:
            f.write(record(cve, files))
        with open(base + ".mbox", "w") as f:
            f.write("From bippy Mon Sep 17 00:00:00 2001\nFrom: CVE <cve@kernel.org>\n"
                    "Subject: %s: fix\nMessage-Id: <%s-orig@kernel.org>\n\nbody\n" % (cve, cve))
        with open(base + ".dyad", "w") as f:
            f.write("# dyad\n6.1:%040x:6.1.5:%040x\n" % (1, 0xabc0 + i))


def tree_sum(root, skip=("cve/disputes.log", ".kcve.lock")):
    h = hashlib.sha256()
    for d, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            rel = os.path.relpath(p, root)
            if rel in skip or rel.startswith(".kcve"):
                continue
            h.update(rel.encode() + b"\0")
            h.update(open(p, "rb").read())
    return h.hexdigest()


def run(tree, *args):
    env = dict(os.environ, KCVE_FROM="CVE Robot <cve-robot@example.org>")
    env.pop("KCVE_TREE", None)
    return subprocess.run([KCVE, "--tree", tree, "dispute", *args, "--maintainers", MAINT],
                          capture_output=True, text=True, env=env)


def audit(tree):
    p = os.path.join(tree, "cve/disputes.log")
    if not os.path.exists(p):
        return []
    return [json.loads(l) for l in open(p)]


def repo_cases(tmp, tree):
    """MAINTAINERS from a kernel repository without working tree (bare): HEAD's blob, and
    HEAD's tree decides whether "F: drivers/baz" (no slash) is a directory."""
    work = os.path.join(tmp, "work")
    os.makedirs(os.path.join(work, "drivers/baz"))
    text = open(MAINT).read().replace("THE REST\n", "BAZ DRIVER\nM:\tBea Baz <bea@example.org>\n"
                                      "S:\tMaintained\nF:\tdrivers/baz\n\nTHE REST\n")
    with open(os.path.join(work, "MAINTAINERS"), "w") as f:
        f.write(text)
    with open(os.path.join(work, "drivers/baz/baz.c"), "w") as f:
        f.write("int baz;\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@e")
    for args in (["init", "-q", "-b", "master"], ["add", "."], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", work] + args, check=True, env=env, capture_output=True)
    bare = os.path.join(tmp, "linux.git")
    subprocess.run(["git", "clone", "-q", "--bare", work, bare], check=True, capture_output=True)
    pub = os.path.join(tree, "cve/published/2024")
    base = os.path.join(pub, "CVE-2024-0010")
    open(base, "w").close()
    with open(base + ".sha1", "w") as f:
        f.write("%040x\n" % 0xdead)
    with open(base + ".json", "w") as f:
        f.write(record("CVE-2024-0010", ["drivers/baz/baz.c"]))
    e = dict(os.environ)
    e.pop("KCVE_TREE", None)
    r = subprocess.run([KCVE, "--repo", bare, "--tree", tree, "dispute", "CVE-2024-0010", "--by",
                        "bea@example.org", "--reason", "wrong intro", "--vulnerable",
                        "%040x" % 0xbeef, "--no-regenerate"], capture_output=True, text=True, env=e)
    check(r.returncode == 0, "HEAD:MAINTAINERS of a bare repo, directory from HEAD's tree: %d %s"
          % (r.returncode, r.stderr))
    r = subprocess.run([KCVE, "--repo", os.path.join(tmp, "nothing"), "--tree", tree, "dispute",
                        "CVE-2024-0010", "--by", "bea@example.org", "--reason", "x", "--reject"],
                       capture_output=True, text=True, env=e)
    check(r.returncode == 3 and r.stderr.startswith("kcve: error:"),
          "no repository: clear error (%d %r)" % (r.returncode, r.stderr))


def regenerate_case(tmp):
    """Allowed --vulnerable with regeneration through store_update_one on a tiny kernel-like
    history (c1..c4, v6.0 after c2, v6.1 after c3; the fix is c3): the short id is resolved and
    the regenerated .dyad starts at the corrected introducing commit."""
    repo = os.path.join(tmp, "hist")
    os.makedirs(repo)
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@e")
    g = lambda *a, **k: subprocess.run(["git", "-C", repo] + list(a), check=True, env=dict(
        env, **k), capture_output=True, text=True).stdout.strip()
    g("init", "-q", "-b", "master")
    shas = []
    for i in range(1, 5):
        with open(os.path.join(repo, "f%d" % i), "w") as f:
            f.write("%d\n" % i)
        g("add", "f%d" % i)
        d = "2024-01-0%d 00:00:00 +0000" % i
        g("commit", "-q", "-m", "c%d" % i, GIT_AUTHOR_DATE=d, GIT_COMMITTER_DATE=d)
        shas.append(g("rev-parse", "HEAD"))
        if i in (2, 3):
            g("tag", "-a", "v6.%d" % (i - 2), "-m", "v6.%d" % (i - 2))
    tree = os.path.join(tmp, "vulns2")
    pub = os.path.join(tree, "cve/published/2024")
    os.makedirs(pub)
    base = os.path.join(pub, "CVE-2024-0100")
    open(base, "w").close()
    with open(base + ".sha1", "w") as f:
        f.write(shas[2] + "\n")
    with open(base + ".json", "w") as f:
        f.write(record("CVE-2024-0100", ["drivers/foo/a.c"]))
    e = dict(os.environ, KCVE_FROM="CVE Robot <cve-robot@example.org>")
    e.pop("KCVE_TREE", None)
    r = subprocess.run([KCVE, "--repo", repo, "--tree", tree, "dispute", "CVE-2024-0100", "--by",
                        "alice@example.org", "--reason", "introduced by c1", "--vulnerable",
                        shas[0][:12], "--maintainers", MAINT], capture_output=True, text=True,
                       env=e)
    check(r.returncode == 0, "regenerating dispute: %d %s" % (r.returncode, r.stderr))
    vul = open(base + ".vulnerable").read() if os.path.exists(base + ".vulnerable") else ""
    check(vul == shas[0] + "\n", "short id resolved to the full id: %r" % vul)
    dyad = open(base + ".dyad").read() if os.path.exists(base + ".dyad") else ""
    check("6.0:%s:6.1:%s" % (shas[0], shas[2]) in dyad, "regenerated .dyad: %r" % dyad)
    last = audit(tree)[-1] if audit(tree) else {}
    check(last.get("outcome") == ".vulnerable written, record regenerated",
          "audit outcome: %r" % last.get("outcome"))


def not_affected_case(tmp):
    """Allowed --not-affected 6.1 on a CVE whose record lists a 6.1 backport (tiny history:
    v6.0, intro, v6.1, fix, v6.2; linux-6.1.y backport tagged v6.1.1): the regenerated .dyad,
    .json and .mbox drop 6.1 and keep 6.2, the dispute is audited, a later `kcve update`
    keeps the decision and `kcve verify` knows the .not_affected file."""
    repo = os.path.join(tmp, "hist-na")
    os.makedirs(os.path.join(repo, "drivers/foo"))
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="T",
               GIT_COMMITTER_EMAIL="t@e", GIT_CONFIG_NOSYSTEM="1", HOME=tmp)
    n = [0]

    def g(*a):
        d = "@%d +0000" % (1700000000 + n[0])
        return subprocess.run(["git", "-C", repo] + list(a), check=True, capture_output=True,
                              text=True, env=dict(env, GIT_AUTHOR_DATE=d, GIT_COMMITTER_DATE=d)
                              ).stdout.strip()

    def commit(text, msg):
        n[0] += 1
        with open(os.path.join(repo, "drivers/foo/a.c"), "a") as f:
            f.write(text + "\n")
        g("add", "-A")
        g("commit", "-q", "-m", msg)
        return g("rev-parse", "HEAD")

    g("init", "-q", "-b", "master")
    commit("base", "init")
    g("tag", "-a", "v6.0", "-m", "Linux 6.0")
    intro = commit("bug", "foo: add the bug")
    g("tag", "-a", "v6.1", "-m", "Linux 6.1")
    fix = commit("fixed", "foo: fix the bug\n\nFixes: %s (\"foo: add the bug\")" % intro[:12])
    g("tag", "-a", "v6.2", "-m", "Linux 6.2")
    g("checkout", "-q", "-b", "linux-6.1.y", "v6.1")
    bp = commit("backport", "foo: fix the bug\n\n[ Upstream commit %s ]" % fix)
    g("tag", "-a", "v6.1.1", "-m", "Linux 6.1.1")
    g("checkout", "-q", "master")
    tree = os.path.join(tmp, "vulns-na")
    pub = os.path.join(tree, "cve/published/2024")
    os.makedirs(pub)
    cve = "CVE-2024-0200"
    base = os.path.join(pub, cve)
    open(base, "w").close()
    with open(base + ".sha1", "w") as f:
        f.write(fix + "\n")
    e = dict(os.environ, KCVE_FROM="CVE Robot <cve-robot@example.org>")
    e.pop("KCVE_TREE", None)
    k = [KCVE, "--repo", repo, "--index", os.path.join(tmp, "na-idx.sqlite"), "--tree", tree]
    r = subprocess.run(k + ["index"], capture_output=True, text=True, env=e)
    check(r.returncode == 0, "not-affected: index: %s" % r.stderr)
    r = subprocess.run(k + ["update", cve], capture_output=True, text=True, env=e)
    check(r.returncode == 0, "not-affected: first update: %s" % r.stderr)
    read = lambda ext: open(base + ext).read() if os.path.exists(base + ext) else ""
    check("6.1:%s:6.1.1:%s" % (intro, bp) in read(".dyad") and
          "6.1:%s:6.2:%s" % (intro, fix) in read(".dyad"),
          "not-affected: the record lists 6.1 and 6.2 first: %r" % read(".dyad"))
    r = subprocess.run(k + ["dispute", cve, "--by", "alice@example.org", "--reason",
                            "6.1 never shipped the code", "--not-affected", "6.1",
                            "--maintainers", MAINT], capture_output=True, text=True, env=e)
    check(r.returncode == 0, "not-affected dispute: %d %s" % (r.returncode, r.stderr))
    check(read(".not_affected") == "6.1\n", "not-affected: file %r" % read(".not_affected"))

    def dropped(when):
        dyad, js, mbox = read(".dyad"), read(".json"), read(".mbox")
        check("6.1:%s:6.2:%s" % (intro, fix) in dyad, "%s: 6.2 pair kept: %r" % (when, dyad))
        check(":6.1.1:" not in dyad, "%s: 6.1 pair dropped from .dyad: %r" % (when, dyad))
        for name, text in ((".json", js), (".mbox", mbox)):
            check(text and "6.1.1" not in text and bp not in text,
                  "%s: 6.1 gone from %s" % (when, name))
        check("fixed in 6.2 with commit %s" % fix in mbox, "%s: .mbox keeps 6.2" % when)
        check('"lessThan": "6.2"' in js or fix in js, "%s: .json keeps 6.2" % when)
    dropped("dispute")
    last = audit(tree)[-1] if audit(tree) else {}
    check(last.get("action") == "not-affected" and last.get("args") == ["6.1"] and
          last.get("outcome") == ".not_affected written, record regenerated",
          "not-affected audit: %r" % last)
    r = subprocess.run(k + ["update", cve], capture_output=True, text=True, env=e)
    check(r.returncode == 0 and ": updated" not in r.stdout,
          "not-affected: a plain update (pairs fast path) changes nothing: %s%s" %
          (r.stdout, r.stderr))
    dropped("fast update")
    r = subprocess.run(k + ["update", "--full", cve], capture_output=True, text=True, env=e)
    check(r.returncode == 0, "not-affected: update after: %s" % r.stderr)
    dropped("update")
    r = subprocess.run(k + ["verify"], capture_output=True, text=True, env=e)
    check("not_affected" not in r.stdout + r.stderr,
          "verify knows .not_affected: %s%s" % (r.stdout, r.stderr))


def main():
    tmp = tempfile.mkdtemp(prefix="kcve-dispute-")
    try:
        tree = os.path.join(tmp, "vulns")
        make_tree(tree)
        pub = os.path.join(tree, "cve/published/2024")

        # --- refusals: nothing but the audit log may change ---
        before = tree_sum(tree)
        refusals = [
            ("reviewer only", ["CVE-2024-0001", "--by", "rita@example.org", "--reason", "r",
                               "--reject"], "reviewer"),
            ("unrelated", ["CVE-2024-0001", "--by", "eve@example.org", "--reason", "r",
                           "--reject"], "not a maintainer"),
            ("THE REST", ["CVE-2024-0002", "--by", "torvalds@linux-foundation.org", "--reason",
                          "r", "--reject"], "THE REST"),
            ("multi-subsystem, one side", ["CVE-2024-0003", "--by", "alice@example.org",
                                           "--reason", "r", "--reject"], "BAR SUBSYSTEM"),
            ("orphaned only", ["CVE-2024-0006", "--by", "old@example.org", "--reason", "r",
                               "--reject"], "THE REST"),
        ]
        for name, args, word in refusals:
            r = run(tree, *args)
            check(r.returncode == 16, "%s: exit %d (want 16): %s" % (name, r.returncode, r.stderr))
            check(r.stderr.count("\n") == 1 and r.stderr.startswith("kcve: error: dispute refused"),
                  "%s: one-line error, got %r" % (name, r.stderr))
            check(word in r.stderr, "%s: reason mentions %r: %r" % (name, word, r.stderr))
            check("may decide:" in r.stdout, "%s: stdout lists who may decide" % name)
        check("Alice Maintainer <alice@example.org>" in run(
            tree, "CVE-2024-0001", "--by", "eve@example.org", "--reason", "r",
            "--reject").stderr, "refusal names the maintainer who may decide")
        check(tree_sum(tree) == before, "refused disputes changed the tree")
        log = audit(tree)
        check(len(log) == len(refusals) + 1, "one audit entry per refusal (%d)" % len(log))
        check(all(e["decision"] == "refused" and e["outcome"] == "nothing changed" for e in log),
              "refusals audited as refused")
        check(log[0]["by"] == ["rita@example.org"] and log[0]["cve"] == "CVE-2024-0001" and
              log[0]["action"] == "reject" and log[0]["files"] == ["drivers/foo/a.c"] and
              log[0]["time"].endswith("Z") and "reviewer" in log[0]["why"],
              "audit entry fields: %r" % (log[0] if log else None))

        # --- bad input: clear errors, nothing audited ---
        n = len(audit(tree))
        for args, code in [(["CVE-2024-9999", "--by", "a@b", "--reason", "r", "--reject"], 7),
                           (["CVE-2024-0001", "--by", "alice@example.org", "--reject"], 2),
                           (["CVE-2024-0001", "--by", "alice@example.org", "--reason", "r",
                             "--vulnerable", "xyz", "--no-regenerate"], 2),
                           (["CVE-2024-0001", "--by", "alice@example.org", "--reason", "r",
                             "--not-affected", "six", "--no-regenerate"], 2),
                           (["CVE-2024-0001", "--by", "alice@example.org", "--reason", "r",
                             "--reject", "--not-affected", "6.1"], 2)]:
            r = run(tree, *args)
            check(r.returncode == code, "bad input %s: exit %d want %d (%s)" %
                  (args, r.returncode, code, r.stderr.strip()))
            check(r.stderr.startswith("kcve: error:"), "bad input %s: error line" % args)
        check(len(audit(tree)) == n, "invalid commands are not audited")

        # --- allowed: corrections ---
        r = run(tree, "CVE-2024-0004", "--by", "nina@example.org", "--reason",
                "introduced earlier", "--vulnerable", "0123456789ab" * 3 + "0123",
                "--no-regenerate")
        check(r.returncode == 0, "orphan fallback to NETWORKING DRIVERS allowed: %s" % r.stderr)
        v = os.path.join(pub, "CVE-2024-0004.vulnerable")
        check(os.path.exists(v) and open(v).read() == "0123456789ab" * 3 + "0123\n",
              ".vulnerable written")
        r = run(tree, "CVE-2024-0005", "--by", "alice@example.org", "--by", "bob@example.org",
                "--reason", "5.15 never had it", "--not-affected", "5.15", "6.1",
                "--no-regenerate")
        check(r.returncode == 0, "joint dispute allowed: %s" % r.stderr)
        na = os.path.join(pub, "CVE-2024-0005.not_affected")
        check(os.path.exists(na) and open(na).read() == "5.15\n6.1\n", ".not_affected written")
        r = run(tree, "CVE-2024-0005", "--by", "carol@example.org", "--by", "ALICE@example.org",
                "--reason", "and 6.6", "--not-affected", "6.6", "6.1", "--no-regenerate")
        check(r.returncode == 0 and open(na).read() == "5.15\n6.1\n6.6\n",
              ".not_affected merged without duplicates")

        # --- allowed: reject by the maintainer ---
        r = run(tree, "CVE-2024-0001", "--by", "Alice.Maintainer@example.org".lower()
                .replace("alice.maintainer", "alice"), "--reason", "not a bug: dead code",
                "--reject")
        check(r.returncode == 0, "maintainer reject allowed: %s" % r.stderr)
        rej = os.path.join(tree, "cve/rejected/2024")
        check(os.path.exists(os.path.join(rej, "CVE-2024-0001.json")) and
              not os.path.exists(os.path.join(pub, "CVE-2024-0001.json")),
              "CVE moved to rejected/")
        log = audit(tree)
        last = log[-1]
        check(last["decision"] == "allowed" and last["outcome"] == "rejected" and
              last["reason"] == "not a bug: dead code" and last["by"] == ["alice@example.org"],
              "audit of the allowed reject: %r" % last)
        allowed = [e for e in log if e["decision"] == "allowed"]
        check(len(allowed) == 4, "four allowed disputes audited (%d)" % len(allowed))
        # a rejected CVE cannot be disputed again
        r = run(tree, "CVE-2024-0001", "--by", "alice@example.org", "--reason", "r", "--reject")
        check(r.returncode == 8, "dispute of a rejected CVE: exit %d" % r.returncode)
        if shutil.which("git"):
            repo_cases(tmp, tree)
            regenerate_case(tmp)
            not_affected_case(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
