"""Shared helpers of the publish tests: a fake record tree, a real SMTP server on loopback
(aiosmtpd, Debian python3-aiosmtpd) that counts messages per Message-Id, and running kcve
with every byte of its output kept for the credential check."""
import email
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import warnings
import logging

# AUTH without TLS is what we want on loopback; keep aiosmtpd from warning about it
warnings.filterwarnings("ignore", message="Requiring AUTH while not requiring TLS")
logging.getLogger("mail.log").setLevel(logging.ERROR)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cve_services_server  # noqa: E402

API_KEY = "sEcReT-api-key-7f3a9c1e"
SMTP_PASSWORD = "smtp-pw-d41d8cd98f"
ORG, USER = "Linux", "cve-bot@example.org"


def skip_unless_env():
    if not os.environ.get("KCVE"):
        print("KCVE not set")
        sys.exit(77)
    try:
        import aiosmtpd  # noqa: F401
    except ImportError:
        print("python3-aiosmtpd missing")
        sys.exit(77)


def record_json(cve, title, extra=""):
    return json.dumps({
        "dataType": "CVE_RECORD", "dataVersion": "5.1",
        "cveMetadata": {"cveID": cve, "cveId": cve, "assignerOrgId": "f4215fc3-5b6b-47ff-a258-f7189bd81038",
                        "state": "PUBLISHED", "assignerShortName": "Linux"},
        "containers": {"cna": {
            "providerMetadata": {"orgId": "f4215fc3-5b6b-47ff-a258-f7189bd81038"},
            "descriptions": [{"lang": "en", "value": "In the Linux kernel, " + title + extra}],
            "title": title,
            "affected": [{"product": "Linux", "vendor": "Linux", "defaultStatus": "affected",
                          "versions": [{"version": "6.1", "status": "affected"}]}],
            "references": [{"url": "https://git.kernel.org/stable/c/" + "ab" * 20}],
            "x_generator": {"engine": "bippy-1.2.0"}}}}, indent=3) + "\n"


def mbox_text(cve, title):
    return ("From bippy-1.2.0 Mon Sep 17 00:00:00 2001\n"
            "From: Test CNA <cve@example.org>\n"
            "To: <linux-cve-announce@vger.kernel.org>\n"
            "Reply-to: <cve@kernel.org>, <linux-kernel@vger.kernel.org>\n"
            "Subject: %s: %s\n\nDescription\n===========\n\nIn the Linux kernel, %s\n\n"
            ".a line starting with a dot\n\n"
            "The Linux kernel CVE team has assigned %s to this issue.\n" % (cve, title, title, cve))


def reject_mbox(cve, title):
    return ("From cve_reject-1.0 Mon Sep 17 00:00:00 2001\n"
            "From: Test CNA <cve@example.org>\n"
            "To: <linux-cve-announce@vger.kernel.org>\n"
            "Reply-to: <cve@kernel.org>, <linux-kernel@vger.kernel.org>\n"
            "Subject: REJECTED: %s: %s\n"
            "In-Reply-To: \n\n\n"
            "%s has now been rejected and is no longer a valid CVE.\n\n" % (cve, title, cve))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp-test"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def add_published(root, cve, title):
    year = cve.split("-")[1]
    d = os.path.join(root, "cve", "published", year)
    write(os.path.join(d, cve), "")
    write(os.path.join(d, cve + ".sha1"), "ab" * 20 + "\n")
    write(os.path.join(d, cve + ".json"), record_json(cve, title))
    write(os.path.join(d, cve + ".mbox"), mbox_text(cve, title))


def reject(root, cve, title):
    """What `kcve reject` does to the tree (docs/spec/workflow.md "Reject"), done by hand."""
    year = cve.split("-")[1]
    src = os.path.join(root, "cve", "published", year)
    dst = os.path.join(root, "cve", "rejected", year)
    os.makedirs(dst, exist_ok=True)
    for n in sorted(os.listdir(src)):
        if n == cve or n.startswith(cve + "."):
            os.rename(os.path.join(src, n), os.path.join(dst, n))
    write(os.path.join(dst, cve + ".mbox.rejected"), reject_mbox(cve, title))


def make_tree(root, published, reserved=(), returned=()):
    for cve, title in published:
        add_published(root, cve, title)
    for cve in reserved:
        write(os.path.join(root, "cve", "reserved", cve.split("-")[1], cve), "")
    for cve in returned:
        write(os.path.join(root, "cve", "returned", cve.split("-")[1], cve), "")
    os.makedirs(os.path.join(root, "cve", "reserved"), exist_ok=True)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class SmtpSink:
    """aiosmtpd on 127.0.0.1 with AUTH PLAIN/LOGIN; counts every accepted DATA per Message-Id.
    p451 (settable) answers '451' to a share of messages instead of accepting them."""

    def __init__(self, auth=True, seed=0):
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult
        import random
        self.lock = threading.Lock()
        self.messages = []
        self.p451 = 0.0
        self.drop_after_data = 0   # this many messages: taken, then the connection dropped
        # (seconds, take): the next message waits that long after its data arrived, then is
        # taken (250) or not (451); in_data is set when such a message arrived
        self.stall = None
        self.p_slow = 0.0          # share of taken messages whose 250 comes up to 0.3 s late
        self.in_data = threading.Event()
        self.rng = random.Random(seed)
        sink = self

        class H:
            async def handle_DATA(self, server, session, envelope):
                import asyncio
                stall, sink.stall = sink.stall, None
                if stall and not stall[1]:
                    # not taken: the server is slow, and kcve's link is gone before it decides
                    sink.in_data.set()
                    await asyncio.sleep(stall[0])
                    return "451 4.3.0 lost in a crash"
                with sink.lock:
                    if sink.rng.random() < sink.p451:
                        return "451 4.3.0 try again later"
                    msg = email.message_from_bytes(envelope.content)
                    drop = sink.drop_after_data > 0
                    sink.drop_after_data -= drop
                    sink.messages.append({"dropped": drop,"msgid": msg.get("Message-Id"), "subject": msg.get("Subject"),
                                          "in_reply_to": msg.get("In-Reply-To"), "date": msg.get("Date"),
                                          "from": envelope.mail_from, "to": list(envelope.rcpt_tos),
                                          "raw": envelope.content.decode("utf-8", "replace")})
                if drop:
                    # the message is taken, but the link dies before the 250 reaches kcve
                    server.transport.close()
                if stall:
                    # taken (committed above), but the 250 is slow to come
                    sink.in_data.set()
                    await asyncio.sleep(stall[0])
                elif sink.p_slow and sink.rng.random() < sink.p_slow:
                    await asyncio.sleep(sink.rng.uniform(0.0, 0.3))
                return "250 OK"

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (auth_data.login == b"mailer" and auth_data.password == SMTP_PASSWORD.encode())
            return AuthResult(success=ok, handled=False)  # handled=False: the server answers 535

        self.port = free_port()
        kw = dict(hostname="127.0.0.1", port=self.port)
        if auth:
            kw.update(authenticator=authenticator, auth_required=True, auth_require_tls=False)
        self.ctl = Controller(H(), **kw)
        self.ctl.start()

    def stop(self):
        self.ctl.stop()
        if getattr(self, "archive", None):
            self.archive.shutdown()
            self.archive.server_close()

    def start_archive(self):
        """A public-inbox-like archive of what the list took: GET /<Message-Id>/raw is 200
        with the message (mboxrd), 404 before it arrived; archive_down (settable) answers
        503. Every lookup is counted in archive_lookups."""
        import http.server
        import urllib.parse
        sink = self
        self.archive_down = False
        self.archive_lookups = []

        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                path = self.path[len(self.path_prefix):] if self.path.startswith(self.path_prefix) else "/"
                parts = path.strip("/").split("/")
                mid = urllib.parse.unquote(parts[0]) if len(parts) == 2 and parts[1] == "raw" else None
                with sink.lock:
                    sink.archive_lookups.append(mid)
                    down = sink.archive_down
                    raw = [m["raw"] for m in sink.messages if mid and m["msgid"] == "<%s>" % mid]
                if down:
                    self.send_response(503)
                    body = b"<html>maintenance</html>"
                elif raw:
                    self.send_response(200)
                    body = ("From mboxrd@z Thu Jan  1 00:00:00 1970\n" + raw[0]).encode()
                else:
                    self.send_response(404)
                    body = b"<html>not found</html>"
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.archive = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.archive.serve_forever, daemon=True).start()
        self.archive_url = "http://127.0.0.1:%d/linux-cve-announce/" % self.archive.server_address[1]
        # the handler sees paths below the list name
        H.path_prefix = "/linux-cve-announce"
        return self.archive_url

    def count(self):
        with self.lock:
            out = {}
            for m in self.messages:
                out[m["msgid"]] = out.get(m["msgid"], 0) + 1
            return out


class Api:
    def __init__(self, workdir, page_size=2, quota=1000, rules="legacy"):
        self.state_path = os.path.join(workdir, "cve-services-state.json")
        self.srv = cve_services_server.make_server(self.state_path, ORG, USER, API_KEY,
                                                   quota=quota, page_size=page_size, rules=rules)
        self.url = "http://127.0.0.1:%d/api/" % self.srv.server_address[1]

    def seed_ids(self, ids):
        with self.srv.state.lock:
            for cid in ids:
                self.srv.state.d["ids"][cid] = {"cve_id": cid, "cve_year": cid.split("-")[1],
                                                "state": "RESERVED", "owning_cna": ORG,
                                                "reserved": "2024-01-01T00:00:00.000Z"}
            self.srv.state.save()

    def faults(self, **f):
        with self.srv.stats_lock:
            self.srv.faults = f
            import random
            self.srv.rng = random.Random(f.get("seed", 0))

    def requests(self):
        with self.srv.stats_lock:
            return list(self.srv.stats)

    def reset_stats(self):
        with self.srv.stats_lock:
            self.srv.stats = []

    def state(self):
        with self.srv.state.lock:
            return json.loads(json.dumps(self.srv.state.d))

    def stop(self):
        self.srv.shutdown()
        self.srv.server_close()


class Runner:
    """Runs kcve; keeps every byte it printed (checked for credentials at the end)."""

    def __init__(self, tree, api, smtp, extra_env=None):
        self.tree = tree
        self.captured = []
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KCVE_CVE_API", "KCVE_SMTP", "CVE_"))}
        env.update({
            "KCVE_TREE": tree,
            "KCVE_CVE_API_URL": api.url if api else "",
            "KCVE_CVE_API_ORG": ORG, "KCVE_CVE_API_USER": USER, "KCVE_CVE_API_KEY": API_KEY,
            "KCVE_CVE_API_TIMEOUT": "3", "KCVE_CVE_API_ATTEMPTS": "6",
            "KCVE_CVE_API_BACKOFF_MS": "5", "KCVE_CVE_API_BACKOFF_CAP_MS": "50",
            "KCVE_SMTP_URL": "smtp://127.0.0.1:%d" % smtp.port if smtp else "",
            "KCVE_SMTP_USER": "mailer", "KCVE_SMTP_PASSWORD": SMTP_PASSWORD,
            "KCVE_SMTP_TIMEOUT": "5", "KCVE_SMTP_MSGID_HOST": "testhost",
            "KCVE_LOCK_TIMEOUT": "30",
            # a kill -9 under ASan must not leave a core file with the key in it
            "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "") + ":disable_coredump=1",
        })
        env.update(extra_env or {})
        self.env = env

    def run(self, *args, env=None, check=None):
        e = dict(self.env)
        e.update(env or {})
        p = subprocess.run([os.environ["KCVE"]] + list(args), env=e, capture_output=True,
                           text=True, timeout=300)
        self.captured.append(p.stdout + p.stderr)
        if check is not None and p.returncode != check:
            raise AssertionError("kcve %s: exit %d (wanted %d)\nstdout:\n%s\nstderr:\n%s" % (
                " ".join(args), p.returncode, check, p.stdout, p.stderr))
        return p

    def popen(self, *args):
        return subprocess.Popen([os.environ["KCVE"]] + list(args), env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def assert_no_secrets(self, extra_texts=()):
        for text in list(self.captured) + list(extra_texts):
            assert API_KEY not in text, "API key leaked in output:\n" + text
            assert SMTP_PASSWORD not in text, "SMTP password leaked in output:\n" + text


class Checks:
    """ok:/FAIL: lines; finish() exits 1 keeping the work directory when something failed."""

    def __init__(self):
        self.fails = []

    def __call__(self, cond, what):
        print(("ok: " if cond else "FAIL: ") + what)
        if not cond:
            self.fails.append(what)

    def finish(self, work, name):
        if self.fails:
            print("%d check(s) failed; kept %s" % (len(self.fails), work))
            sys.exit(1)
        shutil.rmtree(work, ignore_errors=True)
        print("%s: all checks passed" % name)
