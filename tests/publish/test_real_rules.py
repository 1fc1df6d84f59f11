#!/usr/bin/python3
"""kcve publish against the test server in "real rules" mode (the status codes, error names
and answer bodies of the real CVE Services source, docs/publish.md): every publish path, and
the cases where the old rules went wrong.

- remote get / reserve / list; publish (POST created), update (ask, then PUT updated), reject of a published record
  (POST answered 400 CVE_RECORD_EXISTS -> ask -> PUT), reject of an id without a record,
  return of an unused id; the rejection mail In-Reply-To the announcement;
- a lost reject answer (committed, then the connection died; every retry dies too) is
  recovered by the rerun without a second write, and the rejection mail goes out;
- a 200 whose body is an error is never marked published, nor announced;
- a lost publish answer, and a restart with unsaved state, leave exactly one version;
- a --baseline tree: rejection threaded from the .mbox's Message-Id, or a clear warning;
- an SMTP connection dropped past DATA: the resend carries the same Message-Id;
- with the list archive (smtp.archive): a drop past DATA, and a run killed while the server
  was taking the message, end in exactly one delivery (the archive shows it); a message the
  server did not take is sent again; an archive that does not answer leaves the mail queued
  with one clear error, and the next run finishes it."""
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pubtest as pt  # noqa: E402

pt.skip_unless_env()
check = pt.Checks()


def rec(cve):
    return api.state()["records"].get(cve)


def mails(cve, kind):
    return [m for m in smtp.messages if cve in (m["subject"] or "")
            and (m["subject"] or "").startswith("REJECTED") == (kind == "reject")]


def state_file(cve):
    p = os.path.join(tree, "cve/.published", cve)
    return open(p).read() if os.path.exists(p) else ""


work = tempfile.mkdtemp(prefix="kcve-real-rules-")
tree = os.path.join(work, "tree")
A, B, C, D, E = ("CVE-2024-20001", "CVE-2024-20002", "CVE-2024-20003", "CVE-2024-20004",
                 "CVE-2024-20005")
RET = "CVE-2024-20009"
T = {c: "subsys: fix bug %s" % c[-2:] for c in (A, B, C, D, E)}
pt.make_tree(tree, [(c, T[c]) for c in (A, B, C)], returned=[RET])
api = pt.Api(work, rules="real")
api.seed_ids([A, B, C, D, E, RET])
smtp = pt.SmtpSink(auth=True)
kc = pt.Runner(tree, api, smtp, extra_env={"KCVE_CVE_API_ATTEMPTS": "3"})
try:
    # -- every path, no faults -------------------------------------------------------------
    kc.run("publish", check=0)
    check(all(rec(c)["state"] == "PUBLISHED" and rec(c)["versions"] == 1 for c in (A, B, C)),
          "publish: created once each")
    check(api.state()["ids"][RET]["state"] == "REJECTED", "returned id rejected")
    ann = {c: mails(c, "announce")[0]["msgid"] for c in (A, B, C)}
    y = os.path.join(tree, "cve/published/2024")
    pt.write(os.path.join(y, B + ".json"), pt.record_json(B, T[B], " (revised)"))
    api.reset_stats()
    p = kc.run("publish", check=0)
    check("updated " + B in p.stdout and rec(B)["versions"] == 2 and
          [r[1] for r in api.requests()] == ["GET", "PUT"], "update: asked, then one PUT")
    check(rec(B)["cna"]["providerMetadata"]["shortName"] == pt.ORG,
          "server-set providerMetadata does not count as a difference")
    p = kc.run("publish", check=0)
    check(rec(B)["versions"] == 2, "no second version for the same content")

    p = kc.run("remote", "get", B, check=0)
    check(json.loads(p.stdout)["cveMetadata"]["cveId"] == B, "remote get")
    p = kc.run("remote", "reserve", "--year", "2025", "--count", "2", check=0)
    new = p.stdout.split()
    check(len(new) == 2 and all(os.path.exists(os.path.join(tree, "cve/reserved/2025", c))
                                for c in new), "remote reserve files the ids: %s" % new)
    p = kc.run("remote", "list", "--year", "2025", "--state", "RESERVED", check=0)
    check(sorted(ln.split()[0] for ln in p.stdout.splitlines()) == sorted(new), "remote list")

    # reject of a published record: POST -> 400 CVE_RECORD_EXISTS -> GET -> PUT
    pt.reject(tree, A, T[A])
    api.reset_stats()
    p = kc.run("publish", check=0)
    req = [(r[1], r[3]) for r in api.requests()]
    check(req == [("POST", 400), ("GET", 200), ("PUT", 200)] and rec(A)["state"] == "REJECTED",
          "reject of a published CVE: 400 CVE_RECORD_EXISTS then PUT: %s" % req)
    rm = mails(A, "reject")
    check(len(rm) == 1 and rm[0]["in_reply_to"] == ann[A],
          "rejection mail In-Reply-To the announcement")
    # reject of an id that never had a record: POST creates the rejected record
    pt.write(os.path.join(tree, "cve/rejected/2024", D), "")
    pt.write(os.path.join(tree, "cve/rejected/2024", D + ".mbox.rejected"), pt.reject_mbox(D, "x"))
    p = kc.run("publish", check=0)
    check(rec(D)["state"] == "REJECTED" and rec(D)["versions"] == 1, "reject without a record: POST")

    # -- a lost reject answer, recovered on rerun --------------------------------------------
    pt.write(os.path.join(tree, "cve/rejected/2024", E), "")
    pt.write(os.path.join(tree, "cve/rejected/2024", E + ".mbox.rejected"), pt.reject_mbox(E, "y"))
    api.faults(script=["lost"] + ["drop"] * 20)
    p = kc.run("publish", E)
    check(p.returncode == 12 and rec(E) and rec(E)["state"] == "REJECTED" and
          "remote=rejected" not in state_file(E) and not mails(E, "reject"),
          "lost reject answer: committed at the server, not marked, no mail yet")
    api.faults()
    api.reset_stats()
    p = kc.run("publish", E, check=0)
    check([(r[1], r[3]) for r in api.requests()] == [("POST", 400), ("GET", 200)] and
          "already had it rejected" in p.stdout and rec(E)["versions"] == 1 and
          len(mails(E, "reject")) == 1, "rerun: already REJECTED with the reason, no write, mail sent")
    # in the same run: the answer lost behind a 504
    pt.reject(tree, C, T[C])
    api.faults(script=["ok", "commit504"])
    p = kc.run("publish", C, check=0)
    check(rec(C)["state"] == "REJECTED" and rec(C)["noop_updates"] == 0 and
          rec(C)["versions"] == 2 and len(mails(C, "reject")) == 1,
          "504 after the reject committed: asked, no second write")

    # -- 2xx with an error body --------------------------------------------------------------
    N1 = "CVE-2024-20011"
    api.seed_ids([N1])
    pt.add_published(tree, N1, "fs: fix N1")
    api.faults(script=["ok200error"])
    p = kc.run("publish", N1)
    check(p.returncode == 12 and "INTERNAL_SERVER_ERROR" in p.stderr and
          "remote=published" not in state_file(N1) and not mails(N1, "announce") and not rec(N1),
          "200 with an error body: an error, nothing marked, nothing mailed: %r" % p.stderr.strip())
    api.faults()
    p = kc.run("publish", N1, check=0)
    check(rec(N1)["versions"] == 1 and len(mails(N1, "announce")) == 1, "rerun publishes it")

    # -- lost publish answer; restart with unsaved state ------------------------------------
    N2 = "CVE-2024-20012"
    api.seed_ids([N2])
    pt.add_published(tree, N2, "fs: fix N2")
    api.faults(script=["lost"])
    api.reset_stats()
    p = kc.run("publish", N2, check=0)
    check(rec(N2)["versions"] == 1 and [r[1] for r in api.requests()] == ["POST", "GET"] and
          "already held" in p.stdout, "lost publish answer: asked, exactly one version")
    os.unlink(os.path.join(tree, "cve/.published", N2))   # as if killed before saving
    shutil.rmtree(os.path.join(tree, "cve/.outbox"), ignore_errors=True)
    p = kc.run("publish", N2, check=0)
    check(rec(N2)["versions"] == 1 and rec(N2)["noop_updates"] == 0,
          "restart with unsaved state: still one version")

    # -- baseline: threading from the .mbox, or a clear warning ------------------------------
    N3, N4 = "CVE-2024-20013", "CVE-2024-20014"
    api.seed_ids([N3, N4])
    for c in (N3, N4):
        pt.add_published(tree, c, "net: fix " + c[-2:])
        api.srv.state.d["records"][c] = {"state": "PUBLISHED", "cna": {}, "created": 1,
                                          "updates": 0, "history": [], "versions": 1,
                                          "noop_updates": 0}
    mb = os.path.join(y, N3 + ".mbox")
    text = open(mb).read().replace("Subject:", "Message-Id: <orig-%s@kernel.org>\nSubject:" % N3, 1)
    pt.write(mb, text)
    kc.run("publish", "--baseline", N3, N4, check=0)
    pt.reject(tree, N3, "x")
    pt.reject(tree, N4, "y")
    p = kc.run("publish", N3, N4, check=0)
    check(mails(N3, "reject")[0]["in_reply_to"] == "<orig-%s@kernel.org>" % N3,
          "baseline: rejection threaded to the .mbox's Message-Id")
    check(mails(N4, "reject")[0]["in_reply_to"] is None and
          "%s: the Message-Id of its announcement is unknown" % N4 in p.stderr and
          "unthreaded" in p.stderr, "baseline without Message-Id: unthreaded, with a warning")

    # -- SMTP drop past DATA: the resend has the same Message-Id -----------------------------
    N5 = "CVE-2024-20015"
    api.seed_ids([N5])
    pt.add_published(tree, N5, "mm: fix N5")
    smtp.drop_after_data = 1
    kc.run("publish", N5, check=0)   # the SMTP step retries a broken connection itself
    kc.run("publish", N5, check=0)
    got = mails(N5, "announce")
    check(len(got) == 2 and got[0]["dropped"] and got[0]["msgid"] == got[1]["msgid"],
          "duplicate after a drop past DATA carries the same Message-Id (receivers dedupe on it)")

    # -- the list archive closes the SMTP window -----------------------------------------------
    url = smtp.start_archive()
    ak = pt.Runner(tree, api, smtp, extra_env={"KCVE_SMTP_ARCHIVE": url,
                                               "KCVE_SMTP_ARCHIVE_SETTLE_MS": "300"})
    outbox = os.path.join(tree, "cve", ".outbox")

    def doubts():
        return [n for n in os.listdir(outbox) if n.endswith(".doubt")]

    N6 = "CVE-2024-20016"
    api.seed_ids([N6])
    pt.add_published(tree, N6, "mm: fix N6")
    smtp.drop_after_data = 1
    p = ak.run("publish", N6, check=0)
    got = mails(N6, "announce")
    check(len(got) == 1 and got[0]["dropped"] and "the list archive shows it" in p.stdout
          and not doubts(), "archive: a drop past DATA is delivered once (%d copies)" % len(got))

    def killed_while_taking(cve, take):
        """kcve dies while the server holds the message's data; take: the server keeps it."""
        api.seed_ids([cve])
        pt.add_published(tree, cve, "mm: fix " + cve[-2:])
        smtp.in_data.clear()
        smtp.stall = (1.5, take)
        proc = ak.popen("publish", cve)
        arrived = smtp.in_data.wait(60)
        proc.kill()
        proc.communicate()
        import time
        time.sleep(2.0)   # the stalled server decides
        return arrived and len(doubts()) == 1

    N7 = "CVE-2024-20017"
    left = killed_while_taking(N7, True)
    before = len(smtp.archive_lookups)
    p = ak.run("publish", N7, check=0)
    got = mails(N7, "announce")
    check(left and len(got) == 1 and len(smtp.archive_lookups) == before + 1 and
          "the list archive shows it" in p.stdout and not doubts(),
          "archive: killed after the server took it: not sent again (%d copies, %s, %d lookups: %s)" % (len(got), left, len(smtp.archive_lookups) - before, p.stdout[-200:]))

    N8 = "CVE-2024-20018"
    left = killed_while_taking(N8, False)
    p = ak.run("publish", N8, check=0)
    got = mails(N8, "announce")
    check(left and len(got) == 1 and "the list archive shows it" not in p.stdout and
          not doubts(), "archive: killed before the server took it: sent once by the rerun")

    N9 = "CVE-2024-20019"
    api.seed_ids([N9])
    pt.add_published(tree, N9, "mm: fix N9")
    smtp.drop_after_data = 1
    smtp.archive_down = True
    p = ak.run("publish", N9)
    errs = [ln for ln in p.stderr.splitlines() if "list archive" in ln]
    queued = os.path.exists(os.path.join(outbox, N9 + ".announce.eml"))
    check(p.returncode == 12 and len(errs) == 1 and "stays queued" in errs[0] and queued and
          len(doubts()) == 1, "archive down: exit 12, one error line, mail kept queued (%d: %s)"
          % (p.returncode, p.stderr.strip()[-300:]))
    smtp.archive_down = False
    p = ak.run("publish", N9, check=0)
    got = mails(N9, "announce")
    check(len(got) == 1 and "the list archive shows it" in p.stdout and not doubts() and
          not os.path.exists(os.path.join(outbox, N9 + ".announce.eml")),
          "archive back: the queued mail is known delivered, not sent again")

    bad = pt.Runner(tree, api, smtp, extra_env={"KCVE_SMTP_ARCHIVE": "http://archive.example.org/l/"})
    N10 = "CVE-2024-20020"
    api.seed_ids([N10])
    pt.add_published(tree, N10, "mm: fix N10")
    p = bad.run("publish", N10)
    check(p.returncode != 0 and "not https://" in p.stderr and not mails(N10, "announce"),
          "a plain-http archive that is not loopback is refused (%d)" % p.returncode)
    ak.run("publish", N10, check=0)
    kc.captured += ak.captured + bad.captured

    total_noop = sum(r.get("noop_updates", 0) for r in api.state()["records"].values())
    check(total_noop == 0, "no needless version anywhere (%d)" % total_noop)
    kc.assert_no_secrets()
finally:
    smtp.stop()
    api.stop()

check.finish(work, "real rules")
