#!/usr/bin/python3
"""Integration tests of kcve review / kcve votes on a small synthetic kernel-shaped repository.

1. Two reviewers vote on v6.1.1..v6.1.2 through kcve review's question loop (answers piped),
   one of them interactively through a pseudo-terminal, quitting half-way and resuming.
2. kcve votes --emit | kcve create --batch - assigns exactly the agreed commits and skips
   the one that already has a CVE.
3. kcve votes --done moves the vote files to cve/review/done/v6.1/.
"""
import os
import pty
import re
import select
import subprocess
import sys
import tempfile
import time

KCVE = os.environ.get("KCVE")
if not KCVE:
    print("KCVE not set (run through meson test)")
    sys.exit(1)


def git(repo, *args, env=None, inp=None):
    e = dict(os.environ)
    e.update({"GIT_AUTHOR_NAME": "A U Thor", "GIT_AUTHOR_EMAIL": "a@example.org",
              "GIT_COMMITTER_NAME": "C O Mitter", "GIT_COMMITTER_EMAIL": "c@example.org"})
    if env:
        e.update(env)
    return subprocess.run(["git", "-C", repo] + list(args), check=True, capture_output=True,
                          text=True, env=e, input=inp).stdout.strip()


def commit(repo, path, text, msg, when):
    os.makedirs(os.path.dirname(os.path.join(repo, path)), exist_ok=True)
    with open(os.path.join(repo, path), "a") as fh:
        fh.write(text + "\n")
    git(repo, "add", path)
    d = {"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}
    git(repo, "commit", "-q", "-m", msg, env=d)
    return git(repo, "rev-parse", "HEAD")


def make_repo(root):
    repo = os.path.join(root, "linux")
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "master")
    os.makedirs(os.path.join(repo, "net"))
    os.makedirs(os.path.join(repo, "Documentation"))
    intro = commit(repo, "net/core.c", "int x;", "net: add core", "2024-01-01T00:00:00Z")
    git(repo, "tag", "v6.0")
    commit(repo, "net/core.c", "int y;", "net: add y", "2024-01-02T00:00:00Z")
    git(repo, "tag", "v6.1")
    subjects = [
        ("net: fix use-after-free in core_release()", "net/core.c"),
        ("net: fix NULL pointer dereference in core_open()", "net/core.c"),
        ("docs: describe the core module", "Documentation/core.rst"),
        ("net: fix memory leak in core_probe()", "net/core.c"),
        ("net: fix race in core_close()", "net/core.c"),
    ]
    ups = []
    for i, (s, p) in enumerate(subjects):
        body = "%s\n\nFixes: %s (\"net: add core\")\n" % (s, intro[:12])
        ups.append((commit(repo, p, "fix%d" % i, body, "2024-02-0%dT00:00:00Z" % (i + 1)), s, p))
    git(repo, "tag", "v6.2")
    git(repo, "checkout", "-q", "-b", "linux-6.1.y", "v6.1")
    commit(repo, "net/core.c", "stable-only", "net: stable only change", "2024-02-10T00:00:00Z")
    git(repo, "tag", "v6.1.1")
    backports = []
    for i, (sha, s, p) in enumerate(ups):
        msg = "%s\n\ncommit %s upstream.\n\nFixes: %s (\"net: add core\")\n" % (s, sha, intro[:12])
        backports.append(commit(repo, p, "bp%d" % i, msg, "2024-02-2%dT00:00:00Z" % i))
    git(repo, "tag", "v6.1.2")
    git(repo, "checkout", "-q", "master")
    return repo, ups, backports


def kcve(env, *args, inp=None, check=True):
    r = subprocess.run([KCVE] + list(args), capture_output=True, text=True, env=env, input=inp)
    if check and r.returncode != 0:
        raise AssertionError("kcve %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))
    return r


def pty_session(env, args, answers):
    """Run kcve under a pty; answer each 'Assign a CVE?' prompt in turn; return output."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(KCVE, [KCVE] + args, env)
    out = b""
    it = iter(answers)
    deadline = time.time() + 60
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 1)
        if not r:
            continue
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        while out.count(b"[y/N/q]") > getattr(pty_session, "answered", 0):
            pty_session.answered = getattr(pty_session, "answered", 0) + 1
            os.write(fd, (next(it) + "\n").encode())
    os.waitpid(pid, 0)
    pty_session.answered = 0
    return out.decode(errors="replace")


def main():
    with tempfile.TemporaryDirectory() as root:
        repo, ups, backports = make_repo(root)
        tree = os.path.join(root, "vulns")
        for d in ("cve/reserved/2024", "cve/published", "cve/rejected", "cve/returned", "scripts"):
            os.makedirs(os.path.join(tree, d))
        env = dict(os.environ, KCVE_REPO=repo, KCVE_TREE=tree, KCVE_FROM="CVE Robot <cve@example.org>")
        kcve(env, "index")
        kcve(env, "reserve", "add", *["CVE-2024-%05d" % n for n in range(1000, 1010)])
        # ups[3] already has a CVE before the review
        kcve(env, "create", ups[3][0])
        rng = "v6.1.1..v6.1.2"

        # reviewer alice: interactive through a pty, quits after two answers, then resumes
        out1 = pty_session(env, ["review", rng, "--reviewer", "alice"], ["y", "n", "q"])
        assert "stopped; rerun" in out1, out1
        assert "\x1b[1;31m" in out1, "risk words are not highlighted on a terminal"
        out2 = pty_session(env, ["review", rng, "--reviewer", "alice"], ["n", "y"])
        assert "review of v6.1.2 complete" in out2, out2
        # the resumed run did not ask about the first two commits again
        assert ups[0][1] not in out2 and ups[1][1] not in out2, out2
        # reviewer bob: answers piped (not a terminal)
        kcve(env, "review", rng, "--reviewer", "bob", inp="y\ny\nn\ny\n")
        alice = open(os.path.join(tree, "cve/review/proposed/v6.1.2-alice")).read()
        bob = open(os.path.join(tree, "cve/review/proposed/v6.1.2-bob")).read()
        # vote lines name the MAINLINE id, 12 hex
        assert re.search(r"^%s %s$" % (ups[0][0][:12], re.escape(ups[0][1])), alice, re.M), alice
        assert "[auto: cve already created]" in alice and ups[3][0][:12] in alice, alice
        # alice voted 0 and 4 (+3 auto); bob voted 0, 1, 4 (+3 auto)
        assert ups[4][0][:12] in alice and ups[1][0][:12] not in alice, alice
        for k in (0, 1, 4):
            assert ups[k][0][:12] in bob, bob

        rep = kcve(env, "votes", rng).stdout
        assert "Already assigned a CVE" in rep and ups[3][1] in rep, rep
        assert re.search(r"alice bob agree|Everyone agrees", rep), rep
        emitted = kcve(env, "votes", rng, "--emit").stdout
        got = {l.split()[0] for l in emitted.splitlines() if l.strip()}
        assert got == {ups[0][0], ups[4][0]}, (got, emitted)
        # --min-agree 1 also emits bob's single vote
        one = kcve(env, "votes", rng, "--emit", "--min-agree", "1").stdout
        assert ups[1][0] in one
        r = kcve(env, "create", "--batch", "-", inp=emitted)
        published = set()
        for dp, _, files in os.walk(os.path.join(tree, "cve/published")):
            for f in files:
                if f.endswith(".sha1"):
                    published.add(open(os.path.join(dp, f)).read().split()[0])
        assert published == {ups[0][0], ups[3][0], ups[4][0]}, published
        # running the batch again assigns nothing new (already assigned)
        kcve(env, "create", "--batch", "-", inp=emitted, check=False)
        again = set()
        for dp, _, files in os.walk(os.path.join(tree, "cve/published")):
            again |= {f for f in files if f.endswith(".sha1")}
        assert len(again) == 3, again
        kcve(env, "votes", rng, "--done")
        assert os.path.exists(os.path.join(tree, "cve/review/done/v6.1/v6.1.2-alice"))
        assert not os.path.exists(os.path.join(tree, "cve/review/proposed/v6.1.2-bob"))
        # bad input
        r = kcve(env, "votes", "v6.1.2", check=False)
        assert r.returncode == 2 and "range" in r.stderr, r.stderr
        r = kcve(env, "review", "v9.9.1..v9.9.2", "--auto", check=False)
        assert r.returncode != 0 and r.stderr.count("\n") == 1, r.stderr
    print("review flow: ok")


if __name__ == "__main__":
    main()
