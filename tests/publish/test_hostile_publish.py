#!/usr/bin/python3
"""Hostile-input regressions of the publish area (each case one meson test):

  secret-tail-after-truncation  a server echoing the API key at the end of a long message and
                                of a long error name: no piece of the key is printed (secrets
                                are scrubbed before anything is cut to size)
  world-readable-credentials    a 0666 --config holding cve_api.key / smtp.password is named
                                in a warning (as ssh does); a 0600 one is not
  mail-header-injection         CR/LF or other control characters in --from, $KCVE_FROM (reject,
                                request, dispute), or a record's mbox headers never reach a
                                mail: refused with one clear line, nothing written or sent"""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pubtest as pt  # noqa: E402

pt.skip_unless_env()
CASE = sys.argv[1]
check = pt.Checks()


def key_pieces(text, secret, n=8):
    return [secret[i:i + n] for i in range(len(secret) - n + 1) if secret[i:i + n] in text]


work = tempfile.mkdtemp(prefix="kcve-hostile-publish-")
tree = os.path.join(work, "tree")
CVE = "CVE-2024-40001"
pt.make_tree(tree, [(CVE, "net: fix a leak")])
api = pt.Api(work)
api.seed_ids([CVE])
smtp = pt.SmtpSink(auth=True)
kc = pt.Runner(tree, api, smtp)
try:
    if CASE == "secret-tail-after-truncation":
        for cmd in (["remote", "quota"], ["publish", CVE]):
            api.faults(script=["echo_key_long"])
            p = kc.run(*cmd)
            out = p.stdout + p.stderr
            check(p.returncode == 12 and "***" in out and not key_pieces(out, pt.API_KEY),
                  "%s: key echoed after 185 characters: no piece of it printed (%r)"
                  % (" ".join(cmd), key_pieces(out, pt.API_KEY)))
        kc.assert_no_secrets()
    elif CASE == "world-readable-credentials":
        cfg = os.path.join(work, "kcve.conf")
        with open(cfg, "w") as f:
            f.write("cve_api.key = %s\nsmtp.password = %s\n" % (pt.API_KEY, pt.SMTP_PASSWORD))
        for mode, warned in ((0o666, True), (0o640, True), (0o600, False)):
            os.chmod(cfg, mode)
            env = {"KCVE_CVE_API_KEY": "", "CVE_API_KEY": ""}   # the file's key is used
            p = kc.run("remote", "--config", cfg, "quota", env=env)
            w = [ln for ln in p.stderr.splitlines() if "warning" in ln]
            check(p.returncode == 0 and (len(w) == 1 and cfg in w[0] and "%04o" % mode in w[0]
                                         and "chmod 600" in w[0]) == warned and
                  (warned or not w), "mode %04o: %s" % (mode, w[0] if w else "no warning"))
        kc.assert_no_secrets()
    elif CASE == "mail-header-injection":
        hostile = "Eve\r\nBcc: victim@example.org <eve@example.org>"
        before = sorted(os.walk(tree))
        p = kc.run("reject", CVE, "--reason", "t", "--from", hostile)
        check(p.returncode == 2 and p.stderr.count("\n") == 1 and "control character" in p.stderr,
              "--from with CR/LF refused: %r" % p.stderr.strip())
        p = kc.run("reject", CVE, "--reason", "t", env={"KCVE_FROM": hostile})
        check(p.returncode == 2 and "control character" in p.stderr,
              "$KCVE_FROM with CR/LF refused: %r" % p.stderr.strip())
        p = kc.run("reject", CVE, "--reason", "t", "--from", "Eve\x1b[2J <eve@example.org>")
        check(p.returncode == 2, "--from with an escape character refused")
        for cmd in (["request", os.devnull, "--from", hostile],
                    ["dispute", CVE, "--by", "a@example.org", "--reason", "r", "--reject",
                     "--from", hostile]):
            p = kc.run(*cmd)
            check(p.returncode == 2 and "control character" in p.stderr,
                  "%s --from with CR/LF refused: %r" % (cmd[0], p.stderr.strip()))
        p = kc.run("dispute", CVE, "--by", "a@example.org", "--reason", "r", "--reject",
                   env={"KCVE_FROM": hostile})
        check(p.returncode == 2 and "control character" in p.stderr, "dispute $KCVE_FROM refused")
        check(sorted(os.walk(tree)) == before, "the tree is untouched by the refusals")
        # a record whose mbox carries a bare CR inside a header line: never mailed
        mb = os.path.join(tree, "cve/published/2024", CVE + ".mbox")
        text = open(mb).read().replace("Subject: ", "Subject: x\rBcc: victim@example.org\r\n ", 1)
        pt.write(mb, text)
        p = kc.run("publish", CVE)
        check(p.returncode != 0 and "control character" in p.stdout + p.stderr and
              not smtp.messages, "mbox header with a CR: refused, nothing mailed")
        check(not [m for m in smtp.messages if "victim" in m["raw"]], "no Bcc ever reached SMTP")
    else:
        sys.exit("unknown case " + CASE)
finally:
    smtp.stop()
    api.stop()

check.finish(work, "hostile publish " + CASE)
