#!/usr/bin/python3
"""Issue 29 item 11: a hostile CVE Services stand-in (http.server on 127.0.0.1) answers 429
with a Retry-After kcve must not trust: 99999999999999999999 (strtol saturates; times 1000
overflowed a long), the same negative, 40 digits, an HTTP date in the year 9999, a negative
number, garbage, a header over 200 bytes. `kcve remote quota` runs with cve_api.attempts 2 and
cve_api.backoff_cap_ms 3000 (the configured cap; the documented maximum of any wait is 3,600 s
and backoff_cap_ms cannot exceed it: refused above 3600000). Expected each time:
  - no sanitizer report (UBSan: no signed overflow), exit 0 after the 429s;
  - a huge or far-future value is honoured only up to the cap: each wait lasts about the cap
    (>= 0.9 cap: honoured, not dropped) and never longer (<= cap + 3 s of slack);
  - a negative, garbage or oversized value is ignored (the 5 ms backoff: < half the cap);
  - 429 on every attempt: one clear error line naming the 429, exit 12, all waits capped.
Every wait is measured between the requests the server received; no real minutes are spent."""
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

KCVE = os.environ.get("KCVE")
if not KCVE:
    print("KCVE not set")
    sys.exit(77)
CAP_MS = 3000
ATTEMPTS = 2
SLACK = 3.0  # a loaded 2-core machine may start the next request late, never early


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_GET(self):
        srv = self.server
        with srv.lock:
            srv.times.append(time.monotonic())
            n = len(srv.times)
        if n <= srv.n429:
            body = json.dumps({"error": "TOO_MANY_REQUESTS", "message": "slow down"}).encode()
            self.send_response(429)
            self.send_header("Retry-After", srv.retry_after)
        else:
            body = json.dumps({"id_quota": 1000, "total_reserved": 10, "available": 990}).encode()
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def serve(retry_after, n429):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.retry_after, srv.n429, srv.times, srv.lock = retry_after, n429, [], threading.Lock()
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


work = tempfile.mkdtemp(prefix="kcve-hostile-retry-")
fails = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails.append(what)


def run(retry_after, n429):
    srv = serve(retry_after, n429)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("KCVE_CVE_API", "KCVE_SMTP", "CVE_"))}
    env.update({"KCVE_CVE_API_URL": "http://127.0.0.1:%d/api/" % srv.server_address[1],
                "KCVE_CVE_API_ORG": "Linux", "KCVE_CVE_API_USER": "bot@example.org",
                "KCVE_CVE_API_KEY": "k", "KCVE_CVE_API_TIMEOUT": "10",
                "KCVE_CVE_API_ATTEMPTS": str(ATTEMPTS), "KCVE_CVE_API_BACKOFF_MS": "5",
                "KCVE_CVE_API_BACKOFF_CAP_MS": str(CAP_MS), "KCVE_TREE": work})
    p = subprocess.run([KCVE, "remote", "quota"], env=env, capture_output=True, text=True,
                       timeout=120)
    srv.shutdown()
    srv.server_close()
    gaps = [b - a for a, b in zip(srv.times, srv.times[1:])]
    return p, gaps


HUGE = ["99999999999999999999", "9" * 40, "Fri, 31 Dec 9999 23:59:59 GMT"]
IGNORED = ["-99999999999999999999", "-5", "abc", "1e30x", "9" * 300]
cap = CAP_MS / 1000.0
for value in HUGE + IGNORED:
    p, gaps = run(value, ATTEMPTS - 1)
    label = "Retry-After: %s" % (value if len(value) < 45 else value[:20] + "... (%d bytes)" % len(value))
    check("Sanitizer" not in p.stderr and "runtime error" not in p.stderr,
          "%s: no sanitizer report %s" % (label, p.stderr.strip()[:300]))
    check(p.returncode == 0 and "990" in p.stdout,
          "%s: answered after %d 429s (exit %d: %s)" % (label, ATTEMPTS - 1, p.returncode,
                                                        p.stderr.strip()[:200]))
    check(len(gaps) == ATTEMPTS - 1, "%s: %d requests" % (label, len(gaps) + 1))
    if value in HUGE:
        ok = all(0.9 * cap <= g <= cap + SLACK for g in gaps)
        check(ok, "%s: each wait clamped to the %.1f s cap: %s" % (
            label, cap, ", ".join("%.2f s" % g for g in gaps)))
    else:
        check(all(g < cap / 2 for g in gaps), "%s: ignored, short backoff: %s" % (
            label, ", ".join("%.2f s" % g for g in gaps)))

# 429 on every attempt: one clear error, every wait capped
p, gaps = run("99999999999999999999", 100)
err = [ln for ln in p.stderr.splitlines() if ln.strip()]
check(p.returncode == 12 and len(err) == 1 and err[0].startswith("kcve: error:") and "429" in err[0],
      "429 on every attempt: exit %d, one error line: %s" % (p.returncode, err))
check(len(gaps) == ATTEMPTS - 1 and all(0.9 * cap <= g <= cap + SLACK for g in gaps),
      "429 on every attempt: %d requests, waits %s" % (len(gaps) + 1,
                                                       ", ".join("%.2f s" % g for g in gaps)))
check("Sanitizer" not in p.stderr and "runtime error" not in p.stderr, "429 on every attempt: no sanitizer report")

# the configured cap itself cannot exceed the documented maximum of one hour
env = dict(os.environ, KCVE_CVE_API_URL="http://127.0.0.1:9/api/", KCVE_CVE_API_ORG="Linux",
           KCVE_CVE_API_USER="u", KCVE_CVE_API_KEY="k", KCVE_CVE_API_BACKOFF_CAP_MS="3600001",
           KCVE_TREE=work)
p = subprocess.run([KCVE, "remote", "quota"], env=env, capture_output=True, text=True, timeout=60)
check(p.returncode != 0 and "backoff_cap_ms" in p.stderr and len(p.stderr.strip().splitlines()) == 1,
      "backoff_cap_ms above 3600000 refused: exit %d: %s" % (p.returncode, p.stderr.strip()))

os.rmdir(work)
if fails:
    print("%d check(s) failed" % len(fails))
    sys.exit(1)
print("Retry-After clamped, ignored or refused as documented")
