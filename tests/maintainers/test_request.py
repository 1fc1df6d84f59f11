#!/usr/bin/python3
"""kcve request on realistic mails (tests/maintainers/data/req_*.eml): reservation request,
security report (referral, nothing stored, nothing quoted), form letter, forged headers (no
header injection in the reply, threading only from valid message ids), HTML-only and base64
mails, huge bodies, malformed input (clear one-line error, no crash). Mails that name commits
need the kernel history: they are run against a small generated git repository with release
tags when `git` is available (released fix -> queued in cve/review/requests/<sha>.json, fix
with a CVE -> already assigned, unreleased -> not released)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

KCVE = os.environ["KCVE"]
DATA = os.path.join(os.environ["KCVE_SRC"], "tests/maintainers/data")
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)


def run(args, stdin=None, env=None):
    e = dict(os.environ, KCVE_FROM="Linux kernel CVE team <cve@kernel.org>")
    e.pop("KCVE_TREE", None)
    e.pop("KCVE_REPO", None)
    if env:
        e.update(env)
    return subprocess.run([KCVE] + args, input=stdin, capture_output=True, env=e)


def headers(mbox):
    head = mbox.split(b"\n\n", 1)[0].decode("utf-8", "replace")
    out = {}
    for line in head.splitlines()[1:]:
        k, _, v = line.partition(": ")
        out.setdefault(k, v)
    return out, head


def git(repo, *args, date=None):
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@example.org")
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return subprocess.run(["git", "-C", repo] + list(args), capture_output=True, text=True,
                          env=env, check=True).stdout.strip()


def history_cases(tmp, tree):
    """A tiny kernel-like history: c1, c2 (v6.0), c3 (v6.1), c4 (unreleased)."""
    repo = os.path.join(tmp, "linux")
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "master")
    shas = []
    for i in range(1, 5):
        with open(os.path.join(repo, "f%d" % i), "w") as f:
            f.write("%d\n" % i)
        git(repo, "add", "f%d" % i)
        git(repo, "commit", "-q", "-m", "fix %d" % i, date="2024-01-0%d 00:00:00 +0000" % i)
        shas.append(git(repo, "rev-parse", "HEAD"))
        if i == 2:
            git(repo, "tag", "-a", "v6.0", "-m", "v6.0")
        if i == 3:
            git(repo, "tag", "-a", "v6.1", "-m", "v6.1")
    pub = os.path.join(tree, "cve/published/2024")
    open(os.path.join(pub, "CVE-2024-0042"), "w").close()
    with open(os.path.join(pub, "CVE-2024-0042.sha1"), "w") as f:
        f.write(shas[1] + "\n")
    mail = ("From: Jane <jane@example.net>\nSubject: missed fixes\nMessage-Id: <h1@example.net>\n"
            "Content-Type: text/html\n\n<p>Please look at <a href=\"https://git.kernel.org/"
            "stable/c/%s\">this</a>, commit %s and commit %s.</p>\n"
            % (shas[2], shas[1][:12], shas[3][:12])).encode()
    env = {"KCVE_INDEX": os.path.join(tmp, "index.sqlite")}
    r = run(["--repo", repo, "--tree", tree, "request", "-"], stdin=mail, env=env)
    check(r.returncode == 0, "history: exit %d %r" % (r.returncode, r.stderr))
    q = os.path.join(tree, "cve/review/requests", shas[2] + ".json")
    check(os.path.exists(q), "released fix queued as %s" % q)
    if os.path.exists(q):
        j = json.load(open(q))
        check(j["commits"] == [{"sha": shas[2], "release": "6.1"}] and
              j["from"] == "jane@example.net" and j["message_id"] == "<h1@example.net>",
              "queue file contents: %r" % j)
    check(len(os.listdir(os.path.dirname(q))) == 1, "one file per request")
    h, _ = headers(r.stdout.split(b"\n", 1)[1])
    check(h.get("X-kcve-triage") == "queue", "queue triage: %r" % h)
    check(shas[2][:12].encode() in r.stdout and shas[3][:12].encode() not in
          r.stdout.split(b"queued for review")[-1], "reply lists only the queued fix")
    # the same request again: answered, the queued file is not rewritten
    st = os.stat(q).st_mtime_ns
    r = run(["--repo", repo, "--tree", tree, "request", "-"], stdin=mail, env=env)
    check(r.returncode == 0 and b"already queued" in r.stdout and os.stat(q).st_mtime_ns == st,
          "second identical request does not rewrite the queue file")
    # only a fix with a CVE, only an unreleased fix
    for sha, kind in [(shas[1], "already-assigned"), (shas[3], "not-released"),
                      ("0123456789abcdef0123456789abcdef01234567", "not-released")]:
        m = ("From: a@b.example\nSubject: x\nMessage-Id: <m-%s@b>\n\ncommit %s\n" % (sha[:6], sha))
        r = run(["--repo", repo, "--tree", tree, "request", "-"], stdin=m.encode(), env=env)
        h, _ = headers(r.stdout)
        check(r.returncode == 0 and h.get("X-kcve-triage") == kind,
              "%s: %s (%d %r)" % (sha[:12], h.get("X-kcve-triage"), r.returncode, r.stderr))
    check(r.returncode == 0 and b"CVE-2024-0042" not in r.stdout, "unknown commit reply")


def main():
    tmp = tempfile.mkdtemp(prefix="kcve-request-")
    try:
        tree = os.path.join(tmp, "vulns")
        os.makedirs(os.path.join(tree, "cve/published/2024"))
        before = sorted(os.listdir(tree))

        # reservation request
        out = os.path.join(tmp, "r1.mbox")
        r = run(["--tree", tree, "request", os.path.join(DATA, "req_reserve.eml"), "-o", out])
        check(r.returncode == 0, "reserve: exit %d %s" % (r.returncode, r.stderr))
        rep = open(out, "rb").read()
        h, head = headers(rep)
        check(h.get("X-kcve-triage") == "reserve", "reserve classified: %r" % h)
        check(h.get("In-Reply-To") == "<reserve-1@uni.example>", "In-Reply-To")
        check(h.get("References") == "<reserve-1@uni.example>", "References")
        check(h.get("To") == "res@uni.example", "To: the sender")
        check(h.get("Subject") == "Re: Reserve a CVE id for an embargoed issue", "Re: subject")
        check(b"reserve-for" in rep, "reply names the reservation path")
        check(rep.startswith(b"From "), "mbox From_ line")

        # security report: referral, nothing stored, nothing quoted
        r = run(["--tree", tree, "request", os.path.join(DATA, "req_security.eml")])
        check(r.returncode == 0, "security: exit %d %s" % (r.returncode, r.stderr))
        h, _ = headers(r.stdout)
        check(h.get("X-kcve-triage") == "security-referral", "security classified: %r" % h)
        check(b"security@kernel.org" in r.stdout, "referral address")
        check(b"SECRET-EXPLOIT" not in r.stdout and b"KASAN" not in r.stdout,
              "report not quoted in the reply")
        check(sorted(os.listdir(tree)) == before and
              not os.path.exists(os.path.join(tree, "cve/review")), "nothing stored")

        # stdin, forged headers
        r = run(["request", "-"], stdin=open(os.path.join(DATA, "req_forged.eml"), "rb").read())
        check(r.returncode == 0, "forged: exit %d %s" % (r.returncode, r.stderr))
        h, head = headers(r.stdout)
        check("Bcc" not in h and "\nBcc:" not in head, "no header injection: %r" % head)
        check(h.get("To") == "mallory@evil.example", "To from the first From: %r" % h.get("To"))
        check("In-Reply-To" not in h, "invalid Message-Id not threaded")
        check(h.get("References") == "<ok@evil.example>", "only valid references kept: %r" %
              h.get("References"))
        check(h.get("X-kcve-triage") == "other", "forged mail gets the form letter")

        # HTML-only mail with a link, base64 mail with several ids: need history -> clear error
        for f in ["req_html.eml", "req_several.eml", "req_plain_fix.eml"]:
            r = run(["--repo", os.path.join(tmp, "no-repo"), "--tree", tree, "request",
                     os.path.join(DATA, f)])
            check(r.returncode not in (0, 1) and r.stderr.count(b"\n") == 1 and
                  r.stderr.startswith(b"kcve: error:") and b"--repo" in r.stderr,
                  "%s without history: one-line error (%d %r)" % (f, r.returncode, r.stderr))

        # malformed inputs: clear error, no crash
        for f, code in [("req_malformed.eml", 13)]:
            r = run(["request", os.path.join(DATA, f)])
            check(r.returncode == code and r.stderr.startswith(b"kcve: error:") and
                  r.stderr.count(b"\n") == 1, "%s: exit %d %r" % (f, r.returncode, r.stderr))
        r = run(["request", os.path.join(DATA, "req_broken_mime.eml")])
        check(r.returncode == 0, "broken MIME still triaged: %d %r" % (r.returncode, r.stderr))
        r = run(["request", "-"], stdin=b"")
        check(r.returncode == 13, "empty input: exit %d" % r.returncode)
        r = run(["request", os.path.join(tmp, "missing.eml")])
        check(r.returncode == 7, "missing file: exit %d" % r.returncode)
        r = run(["request", "-"], stdin=bytes(range(256)) * 64)
        check(r.returncode in (0, 13), "binary garbage: exit %d" % r.returncode)

        # huge body (8 MiB, no commit ids): triaged, bounded reply
        big = (b"From: big@example.org\nSubject: crash dump\nMessage-Id: <big@example.org>\n\n" +
               b"kernel crash trace line with memory corruption details\n" * 150000)
        r = run(["request", "-"], stdin=big)
        check(r.returncode == 0 and len(r.stdout) < 4096, "huge body: %d, %d bytes" %
              (r.returncode, len(r.stdout)))
        # over the size limit: refused cleanly
        r = run(["request", "-"], stdin=b"From: a@b.c\n\n" + b"x" * (33 << 20))
        check(r.returncode == 13 and b"MiB" in r.stderr, "too large: %d %r" % (r.returncode,
                                                                                 r.stderr))
        if shutil.which("git"):
            history_cases(tmp, tree)
        else:
            print("git not available: history cases skipped")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
