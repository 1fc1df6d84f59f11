#!/usr/bin/python3
"""Exactly-once publishing under faults and crashes.

KCVE_PUBLISH_RUNS (default 100) runs of `kcve publish` against the local CVE Services server
injecting random faults (500, 429 + Retry-After, stalls past the client timeout, dropped
connections, answers lost after the server committed) and an SMTP server that refuses a share
of messages with 451, while the tree keeps changing (records updated, CVEs added, some
rejected) and about half of the runs are SIGKILLed at a random moment. Then one clean run.

Checked at the end: every record exists at CVE Services, was created exactly once and holds
the latest content; every rejected CVE is rejected there; the returned id is rejected; every
announcement and rejection reply reached the SMTP server exactly once (counted per
Message-Id, raw deliveries), the rejection In-Reply-To the announcement; nothing is left in
the outbox; and no credential appears in anything kcve printed. kcve is given the list's
archive (smtp.archive), which it asks before resending a message whose delivery is in doubt."""
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pubtest as pt  # noqa: E402
import cve_services_server  # noqa: E402

pt.skip_unless_env()
RUNS = int(os.environ.get("KCVE_PUBLISH_RUNS", "100"))
# "real": the server follows the real service's rules (docs/publish.md), and every update
# that rewrote content the server already held (a needless version) is counted
RULES = os.environ.get("KCVE_PUBLISH_RULES", "legacy")
rng = random.Random(int(os.environ.get("KCVE_PUBLISH_SEED", "20241203")))

work = tempfile.mkdtemp(prefix="kcve-exactly-once-")
tree = os.path.join(work, "tree")
initial = ["CVE-2024-3%04d" % i for i in range(1, 9)]
pool = ["CVE-2024-3%04d" % i for i in range(9, 15)]       # added during the runs
titles = {c: "subsys: fix bug %s" % c[-2:] for c in initial + pool}
pt.make_tree(tree, [(c, titles[c]) for c in initial], returned=["CVE-2024-39999"])
api = pt.Api(work, rules=RULES)
api.seed_ids(initial + pool + ["CVE-2024-39999"])
smtp = pt.SmtpSink(auth=True, seed=rng.randrange(1 << 30))
# The list archive is what closes SMTP's own window (a kill after the server took a message,
# before kcve recorded its 250): without it that window is a duplicate with the same
# Message-Id, which this test would count (docs/publish.md).
# KCVE_TEST_NO_ARCHIVE=1 shows that this test sees that window (it then fails).
archive_env = {} if os.environ.get("KCVE_TEST_NO_ARCHIVE") else {
    "KCVE_SMTP_ARCHIVE": smtp.start_archive(), "KCVE_SMTP_ARCHIVE_SETTLE_MS": "500"}
kc = pt.Runner(tree, api, smtp, extra_env=dict({"KCVE_CVE_API_TIMEOUT": "2",
                                               "KCVE_CVE_API_ATTEMPTS": "4",
                                               "KCVE_SMTP_TIMEOUT": "5"}, **archive_env))
published = list(initial)
rejected = []
version = {c: 0 for c in initial + pool}
kills = 0
kill_times = []
typical = 0.3    # running estimate of one run's duration, seconds
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def set_json(cve):
    year = cve.split("-")[1]
    pt.write(os.path.join(tree, "cve", "published", year, cve + ".json"),
             pt.record_json(cve, titles[cve], " (revision %d)" % version[cve]))


def clean_run(what):
    api.faults()
    smtp.p451 = 0.0
    smtp.p_slow = 0.0
    p = kc.run("publish")
    if p.returncode != 0:
        fail("%s: clean run exit %d: %s %s" % (what, p.returncode, p.stdout[-500:], p.stderr))
    return p


try:
    t0 = time.time()
    for i in range(RUNS):
        # the tree moves on between runs, as it does between real publishes
        r = rng.random()
        if r < 0.2 and published:
            c = rng.choice(published)
            version[c] += 1
            set_json(c)
        elif r < 0.3 and pool:
            c = pool.pop(0)
            pt.add_published(tree, c, titles[c])
            published.append(c)
        if i in (RUNS // 3, 2 * RUNS // 3) and len(published) > 2:
            # reject only what has surely been announced: as in real life, after a clean run
            clean_run("before rejecting")
            c = published.pop(rng.randrange(len(published)))
            pt.reject(tree, c, titles[c])
            rejected.append(c)
        api.faults(seed=rng.randrange(1 << 30), p500=0.08, p429=0.08, retry_after=0,
                   ptimeout=0.004, timeout_s=2.5, pdrop=0.08, plost=0.12)
        smtp.p451 = 0.1
        smtp.p_slow = 0.3   # a slow 250 widens the window a kill can fall into
        proc = kc.popen("publish")
        started = time.time()
        if rng.random() < 0.6:
            # kill somewhere inside a typical run (adapts to ASan vs plain builds)
            try:
                proc.wait(timeout=rng.uniform(0.0, typical))
            except Exception:
                proc.send_signal(signal.SIGKILL)
                kills += 1
        out, _ = proc.communicate()
        if proc.returncode == -signal.SIGKILL:
            kill_times.append(time.time())
        if proc.returncode != -signal.SIGKILL:
            typical = 0.8 * typical + 0.2 * (time.time() - started)
        kc.captured.append(out.decode("utf-8", "replace"))
    print("%d runs, %d killed, %.1fs" % (RUNS, kills, time.time() - t0))
    faults = [q[3] for q in api.requests() if q[3] in (500, 429, "timeout", "drop", "lost")]
    print("faults injected:", {f: faults.count(f) for f in set(faults)})
    print("list archive asked %d times (after attempts in doubt)" % len(getattr(smtp, "archive_lookups", [])))

    # converge: a clean run, then a second one must have nothing left to do
    clean_run("final")
    all_requests = api.requests()
    api.reset_stats()
    sent_before = len(smtp.messages)
    p = clean_run("idempotence")
    if api.requests() or len(smtp.messages) != sent_before:
        fail("a run after convergence still did something: %s" % p.stdout)

    st = api.state()
    for c in published:
        rec = st["records"].get(c)
        want = pt.record_json(c, titles[c], " (revision %d)" % version[c]) if version[c] else pt.record_json(c, titles[c])
        import json
        want_cna = json.loads(want)["containers"]["cna"]
        if not rec:
            fail("%s never published" % c)
        elif (rec["created"] != 1 or rec["state"] != "PUBLISHED" or
              not cve_services_server.same_content(rec["cna"], cve_services_server.trim_strings(want_cna))):
            fail("%s: created %d times, state %s, latest content: %s" % (
                c, rec["created"], rec["state"], rec["cna"] == want_cna))
    for c in rejected:
        rec = st["records"].get(c)
        if not rec or rec["state"] != "REJECTED" or rec["created"] != 1:
            fail("%s not rejected once at CVE Services: %s" % (c, rec))
    if st["ids"]["CVE-2024-39999"]["state"] != "REJECTED":
        fail("returned id not rejected at CVE Services")

    counts = smtp.count()
    ann = {}
    for m in smtp.messages:
        subj = m["subject"] or ""
        key = ("reject", subj.split()[1].rstrip(":")) if subj.startswith("REJECTED") else ("announce", subj.split(":")[0])
        ann.setdefault(key, set()).add(m["msgid"])
    for c in published + rejected:
        ids = ann.get(("announce", c), set())
        if len(ids) != 1:
            fail("%s: %d distinct announcements" % (c, len(ids)))
    for c in rejected:
        ids = ann.get(("reject", c), set())
        if len(ids) != 1:
            fail("%s: %d distinct rejection mails" % (c, len(ids)))
        else:
            m = [x for x in smtp.messages if x["msgid"] in ids][0]
            if m["in_reply_to"] not in ann.get(("announce", c), set()):
                fail("%s: rejection not In-Reply-To its announcement" % c)
    dups = {k: v for k, v in counts.items() if v != 1}
    if dups:
        fail("messages delivered more than once: %s" % dups)
    if len(counts) != len(published) + 2 * len(rejected):
        fail("%d distinct messages, expected %d" % (len(counts), len(published) + 2 * len(rejected)))
    ob = os.path.join(tree, "cve", ".outbox")
    left = [n for n in os.listdir(ob) if n.endswith(".eml")]
    if left:
        fail("left in the outbox: %s" % left)
    if len(os.listdir(os.path.join(ob, "sent"))) != len(counts):
        fail("sent/ holds %d messages, the server got %d" % (len(os.listdir(os.path.join(ob, "sent"))), len(counts)))
    if kills < RUNS // 5 or len(faults) < RUNS // 8:
        fail("too few kills (%d) or faults (%d) for the test to mean anything" % (kills, len(faults)))
    recs = st["records"].values()
    noop = sum(r.get("noop_updates", 0) for r in recs)
    print("versions at CVE Services: %d over %d records; needless (same content rewritten): %d"
          % (sum(r.get("versions", 1 + r["updates"]) for r in recs), len(st["records"]), noop))
    for cve, r in st["records"].items():
        for t in r.get("noop_at", []):
            # what led to it: the requests for that CVE and the kills just before
            near = [(round(q[0] - t, 2), q[1], q[2].split("?")[0][-30:], q[3])
                    for q in all_requests if cve in q[2] and t - 10 < q[0] <= t + 0.01]
            kills_before = [round(k - t, 2) for k in kill_times if t - 10 < k <= t]
            print("needless version of %s: requests %s; kills at %s" % (cve, near, kills_before))
    if RULES == "real" and noop:
        fail("%d needless versions" % noop)
    kc.assert_no_secrets()
    cores = [n for n in os.listdir(".") if re.match(r"core(\.\d+)?$", n)]
    if cores:
        fail("core files left: %s" % cores)
    print("%d records, %d rejected, %d mails, each exactly once" % (len(published), len(rejected), len(counts)))
finally:
    smtp.stop()
    api.stop()

if failures:
    print("%d failure(s); tree kept in %s" % (len(failures), work))
    sys.exit(1)
shutil.rmtree(work, ignore_errors=True)
print("exactly-once: all checks passed")
