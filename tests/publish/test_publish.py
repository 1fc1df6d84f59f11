#!/usr/bin/python3
"""kcve publish / kcve remote against the local CVE Services server and a real SMTP server:
happy path, dry run, updates, rejections, returned ids, remote reserve/quota/list/get,
retries (5xx, 429 + Retry-After, drops), final 4xx, bad answers (HTML, malformed, huge,
unexpected fields) and the credential check."""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pubtest as pt  # noqa: E402

pt.skip_unless_env()
FAILS = []


def check(cond, what):
    if not cond:
        FAILS.append(what)
        print("FAIL:", what)
    else:
        print("ok:", what)


def listdir(p):
    return sorted(os.listdir(p)) if os.path.isdir(p) else []


def cna_of(tree, cve, state="published"):
    with open(os.path.join(tree, "cve", state, cve.split("-")[1], cve + ".json")) as f:
        return json.load(f)["containers"]["cna"]


work = tempfile.mkdtemp(prefix="kcve-publish-")
tree = os.path.join(work, "tree")
PUB = [("CVE-2024-10001", "net: fix a leak"), ("CVE-2024-10002", "mm: fix a race"),
       ("CVE-2024-10003", "fs: fix an overflow")]
pt.make_tree(tree, PUB, reserved=["CVE-2024-10009"], returned=["CVE-2024-10008"])
api = pt.Api(work, page_size=2)
api.seed_ids([c for c, _ in PUB] + ["CVE-2024-10008", "CVE-2024-10009", "CVE-2024-10004"])
smtp = pt.SmtpSink(auth=True)
kc = pt.Runner(tree, api, smtp)
try:
    # -- configuration errors: one clear line, nothing sent -----------------------------
    p = kc.run("publish", env={"KCVE_CVE_API_KEY": "", "CVE_API_KEY": ""})
    check(p.returncode == 2 and "no CVE Services API key" in p.stderr and p.stderr.count("\n") == 1,
          "missing key: exit 2 and one error line (%d, %r)" % (p.returncode, p.stderr))
    p = kc.run("publish", env={"KCVE_CVE_API_URL": "http://cveawg.example.org/api/"})
    check(p.returncode == 2 and "not https://" in p.stderr, "plain http to a remote host refused")
    check(api.requests() == [] and smtp.messages == [], "no request after configuration errors")
    check(not os.path.exists(os.path.join(tree, "cve", ".published")), "no state after config errors")

    # -- dry run -------------------------------------------------------------------------
    p = kc.run("publish", "--dry-run", check=0)
    check("would publish CVE-2024-10001" in p.stdout and "would mail CVE-2024-10003 announce" in p.stdout
          and "would return CVE-2024-10008" in p.stdout, "dry run lists records, mails, returns")
    p = kc.run("-v", "publish", "--dry-run", "CVE-2024-10002", check=0)
    check('{"cnaContainer":{' in p.stdout and "Message-Id: <minted when sent>" in p.stdout
          and "Subject: CVE-2024-10002: mm: fix a race" in p.stdout, "dry run -v shows body and mail")
    check(api.requests() == [] and smtp.messages == [], "dry run sends nothing")
    check(not os.path.exists(os.path.join(tree, "cve", ".published"))
          and not os.path.exists(os.path.join(tree, "cve", ".outbox")), "dry run writes nothing")

    # -- first publish (under umask 077: the state files honour it, issue 29 item 13) ------
    old_umask = os.umask(0o077)
    try:
        p = kc.run("publish", check=0)
    finally:
        os.umask(old_umask)
    pubdir = os.path.join(tree, "cve", ".published")
    modes = {n: os.stat(os.path.join(pubdir, n)).st_mode & 0o777 for n in listdir(pubdir)}
    check(len(modes) >= 3 and all(m == 0o600 for m in modes.values()),
          "cve/.published/* made under umask 077 are 0600: %s" % {n: oct(m) for n, m in modes.items()})
    st = api.state()
    check(all(st["records"][c]["created"] == 1 and st["records"][c]["cna"] == cna_of(tree, c)
              for c, _ in PUB), "every record created once with the file's cna container")
    check(st["ids"]["CVE-2024-10008"]["state"] == "REJECTED", "returned id rejected at CVE Services")
    check(st["ids"]["CVE-2024-10009"]["state"] == "RESERVED", "reserved id untouched")
    check("3 published, 0 updated, 0 rejected, 1 returned, 3 mails sent" in p.stdout,
          "summary of the first run: " + p.stdout.strip().splitlines()[-1])
    counts = smtp.count()
    check(len(smtp.messages) == 3 and all(v == 1 for v in counts.values()), "3 announcements, once each")
    ids = {m["subject"].split(":")[0]: m for m in smtp.messages}
    mid_re = re.compile(r"^<\d{10}-CVE-2024-1000\d-[0-9a-f]{4}@testhost>$")
    check(all(mid_re.match(m["msgid"] or "") for m in smtp.messages),
          "Message-Id format <YYYYMMDDSS-CVE-…-xxxx@host>: %s" % [m["msgid"] for m in smtp.messages])
    check(all(m["date"] and m["date"].endswith("+0000") for m in smtp.messages), "Date header")
    check(all(m["to"] == ["linux-cve-announce@vger.kernel.org"] and m["from"] == "cve@example.org"
              for m in smtp.messages), "envelope from the mbox headers")
    raw = ids["CVE-2024-10001"]["raw"]
    check("\n.a line starting with a dot" in raw.replace("\r\n", "\n") and "From bippy" not in raw,
          "body intact (dot-stuffing undone by the server), mbox separator dropped")
    check(listdir(os.path.join(tree, "cve", ".outbox")) == ["sent"]
          and len(listdir(os.path.join(tree, "cve", ".outbox", "sent"))) == 3, "outbox drained into sent/")

    # -- nothing changed -> nothing sent ----------------------------------------------------
    api.reset_stats()
    p = kc.run("publish", check=0)
    check(api.requests() == [] and len(smtp.messages) == 3, "rerun without changes sends nothing")
    check("0 published, 0 updated" in p.stdout and "4 unchanged" in p.stdout, "rerun summary")

    # -- a changed record is updated, not re-announced -----------------------------------
    pt.write(os.path.join(tree, "cve/published/2024/CVE-2024-10002.json"),
             pt.record_json("CVE-2024-10002", "mm: fix a race", " (now fixed in 6.6 too)"))
    p = kc.run("publish", check=0)
    st = api.state()
    r = st["records"]["CVE-2024-10002"]
    check(r["created"] == 1 and r["updates"] == 1 and r["cna"] == cna_of(tree, "CVE-2024-10002"),
          "changed record updated with the new content")
    check("1 updated" in p.stdout and len(smtp.messages) == 3, "update: no new mail")
    p = kc.run("remote", "get", "CVE-2024-10002", check=0)
    check(json.loads(p.stdout)["containers"]["cna"] == cna_of(tree, "CVE-2024-10002"), "remote get")

    # -- rejection: reject at CVE Services + reply to the announcement -------------------
    pt.reject(tree, "CVE-2024-10003", "fs: fix an overflow")
    p = kc.run("publish", check=0)
    st = api.state()
    check(st["records"]["CVE-2024-10003"]["state"] == "REJECTED", "rejected at CVE Services (PUT after 403)")
    rej = [m for m in smtp.messages if m["subject"].startswith("REJECTED")]
    check(len(rej) == 1 and rej[0]["in_reply_to"] == ids["CVE-2024-10003"]["msgid"],
          "rejection mail In-Reply-To the announcement's Message-Id")
    check("1 rejected" in p.stdout and "1 mails sent" in p.stdout, "rejection summary")

    # -- remote: reserve, quota, list (paged), errors ------------------------------------
    p = kc.run("remote", "reserve", "--year", "2025", "--count", "3", check=0)
    new = p.stdout.split()
    check(len(new) == 3 and all(os.path.exists(os.path.join(tree, "cve/reserved/2025", c)) for c in new),
          "remote reserve files 3 ids under cve/reserved/2025: %s" % new)
    check("remaining quota" in p.stderr, "remaining quota shown")
    p = kc.run("remote", "quota", check=0)
    check("total_reserved 5" in p.stdout, "quota counts reserved ids: " + p.stdout.replace("\n", " "))
    p = kc.run("remote", "list", check=0)
    check(len(p.stdout.splitlines()) == 9, "list walks all pages (page size 2): %d ids" % len(p.stdout.splitlines()))
    p = kc.run("remote", "list", "--year", "2025", "--state", "RESERVED", check=0)
    check(sorted(l.split()[0] for l in p.stdout.splitlines()) == sorted(new), "list filters by year/state")
    with api.srv.state.lock:
        api.srv.state.d["quota"] = 5
    p = kc.run("remote", "reserve", "--year", "2025", "--count", "2")
    check(p.returncode == 12 and "EXCEEDED_ID_QUOTA" in p.stderr, "quota exceeded: clear error")
    with api.srv.state.lock:
        api.srv.state.d["quota"] = 1000

    # reserving is not idempotent: an answer lost after the server acted is not retried
    api.reset_stats()
    api.faults(script=["lost"])
    p = kc.run("remote", "reserve", "--year", "2025", "--count", "1")
    check(p.returncode == 12 and "may have acted on it" in p.stderr and len(api.requests()) == 1,
          "lost reserve answer: no blind retry, clear hint: %r" % p.stderr.strip())
    api.faults()
    p = kc.run("remote", "list", "--year", "2025", check=0)
    check(len(p.stdout.splitlines()) == 4, "the lost reservation is visible with remote list")

    # -- a config file instead of the environment ------------------------------------------
    cfg = os.path.join(work, "kcve-publish.conf")
    with open(cfg, "w") as f:
        f.write("# test settings\ncve_api.url = %s\ncve_api.org = %s\ncve_api.user = %s\n"
                "cve_api.key = %s\n" % (api.url, pt.ORG, pt.USER, pt.API_KEY))
    noenv = {"KCVE_CVE_API_URL": "", "KCVE_CVE_API_ORG": "", "KCVE_CVE_API_USER": "",
             "KCVE_CVE_API_KEY": ""}
    p = kc.run("remote", "--config", cfg, "quota", env=noenv)
    check(p.returncode == 0 and "id_quota 1000" in p.stdout, "settings from --config FILE")
    # kcve reserve --remote is the same operation (with the --config file here)
    p = kc.run("reserve", "--remote", "--config", cfg, "--year", "2026", "--count", "2", env=noenv, check=0)
    got = p.stdout.split()
    check(p.returncode == 0 and len(got) == 2 and
          all(os.path.exists(os.path.join(tree, "cve/reserved/2026", c)) for c in got),
          "kcve reserve --remote files 2 ids under cve/reserved/2026: %r %r" % (got, p.stderr.strip()))
    with open(cfg, "a") as f:
        f.write("cve_api.colour = blue\n")
    p = kc.run("remote", "--config", cfg, "quota", env=noenv)
    check(p.returncode == 2 and "unknown setting 'cve_api.colour'" in p.stderr and cfg in p.stderr,
          "bad config file: clear error naming the file")

    # -- SMTP TLS required but not offered: refuse to send in clear ------------------------
    pt.add_published(tree, "CVE-2024-10007", "sound: fix a leak")
    api.seed_ids(["CVE-2024-10007"])
    p = kc.run("publish", "CVE-2024-10007", env={"KCVE_SMTP_TLS": "required"})
    check(p.returncode == 12 and "SMTP" in p.stderr and len([m for m in smtp.messages if "10007" in m["subject"]]) == 0,
          "smtp.tls=required without STARTTLS: nothing sent, clear error: %r" % p.stderr.strip())
    p = kc.run("publish", "CVE-2024-10007", check=0)
    check(len([m for m in smtp.messages if "10007" in m["subject"]]) == 1, "sent once TLS is no longer required")

    # -- retries -------------------------------------------------------------------------
    pt.add_published(tree, "CVE-2024-10004", "usb: fix a hang")
    api.reset_stats()
    api.faults(script=["500", "drop", "429"], retry_after=1)
    p = kc.run("publish", "CVE-2024-10004", env={"KCVE_CVE_API_BACKOFF_CAP_MS": "3000"}, check=0)
    req = api.requests()
    # the 500 after the POST went out is uncertain: kcve asks (GET) before writing again; the
    # asks are retried through the drop and the 429; the 404 says no record, so POST again
    check([r[3] for r in req[:5]] == [500, "drop", 429, 404, 200] and
          [r[1] for r in req[:5]] == ["POST", "GET", "GET", "GET", "POST"],
          "500, drop, 429 retried, asking before writing again: %s" % [r[1:] for r in req])
    check(len(req) >= 4 and req[3][0] - req[2][0] >= 0.95, "Retry-After: 1 honoured (%.2fs)" % (req[3][0] - req[2][0]))
    check(api.state()["records"]["CVE-2024-10004"]["created"] == 1, "created once despite retries")
    # a final 4xx is not retried
    pt.add_published(tree, "CVE-2024-10005", "gpu: fix a crash")
    api.reset_stats()
    p = kc.run("publish", "CVE-2024-10005")
    check(p.returncode == 12 and "CVE_ID_DNE" in p.stderr and len(api.requests()) == 1,
          "404 is final, one request, clear error: %r" % p.stderr)
    check(not os.path.exists(os.path.join(tree, "cve/.published/CVE-2024-10005"))
          or "remote=\n" in open(os.path.join(tree, "cve/.published/CVE-2024-10005")).read(),
          "failed CVE not recorded as published")
    # attempts exhausted on persistent 503s
    api.seed_ids(["CVE-2024-10005"])
    api.reset_stats()
    api.faults(p500=1.0)
    p = kc.run("publish", "CVE-2024-10005", env={"KCVE_CVE_API_ATTEMPTS": "3"})
    # one POST (its 500 is uncertain), then 3 attempts to ask before writing again
    check(p.returncode == 12 and [r[1] for r in api.requests()] == ["POST", "GET", "GET", "GET"]
          and "HTTP 500 with an HTML page" in p.stderr,
          "persistent 500: asked 3 times then a clear error: %r" % p.stderr)

    # -- bad answers: clear error, nothing recorded, a later run repairs ------------------
    for mode, text in (("html", "an HTML page"), ("malformed", "malformed JSON"),
                       ("huge", "more than 8388608 bytes")):
        # two entries: a POST answered 403 CVE_RECORD_EXISTS is followed by the PUT
        api.faults(script=[mode, mode])
        p = kc.run("publish", "CVE-2024-10005")
        api.faults()
        state_file = os.path.join(tree, "cve/.published/CVE-2024-10005")
        rec = open(state_file).read() if os.path.exists(state_file) else ""
        check(p.returncode == 12 and text in p.stderr and "remote=published" not in rec,
              "%s answer: clear error, not recorded: %r" % (mode, p.stderr.strip()))
        check(p.stderr.count("\n") == 1, "%s answer: exactly one error line" % mode)
    api.faults(script=["extra"])
    p = kc.run("publish", "CVE-2024-10005", check=0)
    st = api.state()["records"]["CVE-2024-10005"]
    check(st["created"] == 1 and st["cna"] == cna_of(tree, "CVE-2024-10005"),
          "unexpected fields tolerated; record created exactly once after the bad answers")
    # a server echoing the key back never makes it print the key
    pt.add_published(tree, "CVE-2024-10006", "bpf: fix a bound")
    api.seed_ids(["CVE-2024-10006"])
    api.faults(script=["echo_key"])
    p = kc.run("publish", "CVE-2024-10006")
    check(p.returncode == 12 and "***" in p.stderr, "echoed key scrubbed: %r" % p.stderr.strip())
    api.faults()
    # wrong key -> 401, clear hint
    p = kc.run("remote", "quota", env={"KCVE_CVE_API_KEY": "wrong-key-123"})
    check(p.returncode == 12 and "401" in p.stderr and "cve_api.user/key" in p.stderr, "401 explained")

    # -- SMTP: temporary refusal retried, bad password is a clear error -------------------
    smtp.p451 = 1.0
    p = kc.run("publish", "CVE-2024-10006")
    check(p.returncode == 12 and "451" in p.stdout + p.stderr, "SMTP 451 reported")
    check(os.path.exists(os.path.join(tree, "cve/.outbox/CVE-2024-10006.announce.eml")), "unsent mail kept in the outbox")
    smtp.p451 = 0.0
    p = kc.run("publish", env={"KCVE_SMTP_PASSWORD": "bad-password"})
    check(p.returncode == 12 and "SMTP" in p.stderr, "bad SMTP password: clear error")
    p = kc.run("publish", check=0)
    c = smtp.count()
    check(all(v == 1 for v in c.values()) and len([m for m in smtp.messages if "10006" in m["subject"]]) == 1,
          "queued mail sent once after the SMTP server recovered")

    # -- --baseline adopts a tree without sending -------------------------------------
    t2 = os.path.join(work, "tree2")
    pt.make_tree(t2, [("CVE-2024-20001", "x: y")])
    k2 = pt.Runner(t2, api, smtp)
    api.reset_stats()
    n_mail = len(smtp.messages)
    p = k2.run("publish", "--baseline", check=0)
    p = k2.run("publish", check=0)
    check(api.requests() == [] and len(smtp.messages) == n_mail, "baseline: later publish sends nothing")
    kc.captured += k2.captured

    # -- TLS verification is always on: a self-signed server is refused --------------------
    if shutil.which("openssl"):
        import ssl
        import subprocess
        key, crt = os.path.join(work, "tls.key"), os.path.join(work, "tls.crt")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                        "-out", crt, "-days", "1", "-subj", "/CN=127.0.0.1"], check=True,
                       capture_output=True)
        os.makedirs(os.path.join(work, "tls"), exist_ok=True)
        tls = pt.Api(os.path.join(work, "tls"), page_size=2)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(crt, key)
        tls.srv.socket = ctx.wrap_socket(tls.srv.socket, server_side=True)
        url = "https://127.0.0.1:%d/api/" % tls.srv.server_address[1]
        p = kc.run("remote", "quota", env={"KCVE_CVE_API_URL": url})
        check(p.returncode == 12 and "TLS failure" in p.stderr and tls.requests() == [],
              "self-signed https server refused, key never sent: %r" % p.stderr.strip())
        tls.stop()
    else:
        print("skip: openssl not installed, TLS refusal not checked")

    # -- credentials never printed ------------------------------------------------------
    kc.assert_no_secrets()
    print("ok: no credential in %d captured outputs" % len(kc.captured))
finally:
    smtp.stop()
    api.stop()

if FAILS:
    print("%d check(s) failed" % len(FAILS))
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
print("all publish checks passed")
