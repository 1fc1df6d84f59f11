#!/usr/bin/python3
"""A local stand-in for CVE Services (https://cveawg.mitre.org/api/) for kcve's tests.

Implements the endpoints kcve uses (docs/spec/workflow.md "Publish"), with the status codes and error bodies
of the real service ({"error": CODE, "message": text}):

  POST cve-id?cve_year&amount&short_name[&batch_type]  200 {"cve_ids": [...], "meta": {"remaining_quota"}}
        400 BAD_INPUT (bad year/amount, amount>1 without batch_type), 403 EXCEEDED_ID_QUOTA,
        403 ORG_CANNOT_RESERVE_FOR_OTHER
  GET  cve-id?cve_id_year&state&page                    200 paged {"cve_ids", "nextPage" (null on the last page), ...}
  GET  cve-id/{id}                                      200 id object | 404 CVE_ID_DNE
  PUT  cve-id/{id}?state=REJECTED|RESERVED              200 {"updated"} | 404 CVE_ID_DNE | 403 CVE_RECORD_EXISTS
  GET  org/{org}/id_quota                               200 {"id_quota", "total_reserved", "available"} | 403 NOT_SAME_ORG_OR_SECRETARIAT
  POST cve/{id}/cna      {"cnaContainer": {...}}        200 {"created"} | 403 CVE_RECORD_EXISTS | 404 CVE_ID_DNE | 400 BAD_INPUT
  PUT  cve/{id}/cna                                     200 {"updated"} | 404 CVE_RECORD_DNE | 400 BAD_INPUT
  POST cve/{id}/reject   {"cnaContainer": {"rejectedReasons"}}  200 {"created"} | 403 CVE_RECORD_EXISTS
  PUT  cve/{id}/reject                                  200 {"updated"} | 404 CVE_RECORD_DNE
  GET  cve/{id}                                         200 full CVE record | 404 CVE_RECORD_DNE
  GET  health-check                                     200
  any request without the right CVE-API-ORG/USER/KEY    401 UNAUTHORIZED

rules="real" (make_server(..., rules="real"), --rules real) follows the real service's source
instead where the two differ (docs/publish.md, "CVE Services rules", names the file of each):
  POST cve/{id}/reject on an id with a record          400 CVE_RECORD_EXISTS (not 403)
  PUT  cve/{id}/cna|reject without a record            403 CVE_RECORD_DNE (not 404)
  POST/PUT cve/{id}/... on an id never reserved        400 CVEID_DNE
  GET/PUT cve-id/{id} unknown                          404 CVEID_NOT_FOUND
  PUT  cve-id/{id}?state=RESERVED                      400 INVALID_STATE; other states are set
                                                       even when the id has a record
  containers.cna.providerMetadata is set by the server (orgId, shortName, dateUpdated), and
  blanks around every string of the body are trimmed (trimJSONWhitespace)
Every record counts its versions ("versions": the create plus each update) and the updates
that changed nothing ("noop_updates": the same content and state as held), which is what a
needless write costs on the real service (a version, a new dateUpdated).

State (ids, records, per-id create/update counters) lives in a JSON file, rewritten atomically
after every change, so it survives restarts and the test can inspect it.

Fault injection (for /api/ requests), set with POST /_control {"faults": {...}}:
  script: ["500", "429", "timeout", "drop", "lost", "html", "malformed", "huge", "extra",
           "echo_key", "echo_key_long", "ok200error", "commit500", "commit504", "ok"]
        consumed one per request, before the random ones
  "ok200error" answers 200 {"error": "INTERNAL_SERVER_ERROR", …} without acting; "commit500"
  and "commit504" act, then answer 500 / 504 (an HTML page); "echo_key_long" answers 400 with
  the key at the end of a 185-character message and of a long error name
  seed, p500, p429, ptimeout, pdrop, plost: probabilities per request
  retry_after: seconds sent with 429 (default 1); timeout_s: how long "timeout" stalls
  body_mode: the same as a script entry, applied to every successful answer
"drop" closes the connection before acting, "lost" after acting (the commit happens, the
answer is lost), "timeout" stalls then closes without acting.
GET /_control/stats: {"requests": [[time, method, path, status-or-fault]...]}.
"""
import argparse
import json
import os
import random
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class State:
    def __init__(self, path, org, quota):
        self.path = path
        self.lock = threading.Lock()
        if os.path.exists(path):
            with open(path) as f:
                self.d = json.load(f)
        else:
            self.d = {"org": org, "quota": quota, "ids": {}, "records": {}, "next": {}}
            self.save()

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.d, f, indent=1, sort_keys=True)
        os.replace(tmp, self.path)


def trim_strings(v):
    """What the service's trimJSONWhitespace middleware does to a request body."""
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, list):
        return [trim_strings(x) for x in v]
    if isinstance(v, dict):
        return {k: trim_strings(x) for k, x in v.items()}
    return v


def same_content(a, b):
    """Equal but for the providerMetadata the server sets itself."""
    strip = lambda c: {k: v for k, v in c.items() if k != "providerMetadata"}
    return strip(a) == strip(b)


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeCVEServices/1.0"

    def log_message(self, fmt, *args):  # quiet
        pass

    # -- plumbing -----------------------------------------------------------------------
    def body_json(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b""
        self._raw = raw
        return raw

    def send(self, status, obj=None, raw=None, ctype="application/json", headers=()):
        srv = self.server
        mode = getattr(self, "_mode", None)
        if 200 <= status < 300 and mode in ("html", "malformed", "huge", "extra", "echo_key",
                                             "echo_key_long"):
            if mode == "html":
                raw, ctype = b"<html><body><h1>Welcome</h1>maintenance</body></html>", "text/html"
            elif mode == "malformed":
                raw = b'{"created": {"cveMetadata": '
            elif mode == "extra" and isinstance(obj, dict):
                obj = dict(obj)
                obj.update({"zz_unexpected": [1, {"a": None}], "meta2": {"x": 1.5}, "n": None})
            elif mode == "echo_key":
                status = 400
                obj = {"error": "BAD_INPUT", "message": "bad key " + srv.key + " for you"}
            elif mode == "echo_key_long":
                status = 400
                obj = {"error": "B" * 50 + srv.key, "message": "A" * 185 + srv.key}
            elif mode == "huge":
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                size = 20 << 20
                self.send_header("Content-Length", str(size + 2))
                self.end_headers()
                try:
                    self.wfile.write(b'["')
                    chunk = b"x" * 65536
                    for _ in range(size // 65536):
                        self.wfile.write(chunk)
                except OSError:
                    pass
                self.close_connection = True
                self.record(status)
                return
        if raw is None:
            raw = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(raw)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(raw)
        self.record(status)

    def err(self, status, code, msg):
        self.send(status, {"error": code, "message": msg})

    def record(self, what):
        with self.server.stats_lock:
            self.server.stats.append([time.time(), self.command, self.path, what])

    def hangup(self, what):
        self.record(what)
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    # -- dispatch -----------------------------------------------------------------------
    def do_GET(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def do_PUT(self):
        self.dispatch()

    def pick_fault(self):
        srv = self.server
        with srv.stats_lock:
            f = srv.faults
            if f.get("script"):
                return f["script"].pop(0)
            r = srv.rng.random()
            for name in ("p500", "p429", "ptimeout", "pdrop", "plost"):
                p = float(f.get(name, 0))
                if r < p:
                    return name[1:]
                r -= p
            return f.get("body_mode")

    def dispatch(self):
        u = urlsplit(self.path)
        raw = self.body_json()
        if u.path.startswith("/_control"):
            return self.control(u, raw)
        if not u.path.startswith("/api/"):
            return self.send(404, raw=b"<html><body>Cannot %s %s</body></html>" % (
                self.command.encode(), u.path.encode()), ctype="text/html")
        fault = self.pick_fault()
        srv = self.server
        if fault == "500":
            return self.send(500, raw=b"<html><head><title>500 Internal Server Error</title></head>"
                             b"<body>nginx</body></html>", ctype="text/html")
        if fault == "429":
            return self.send(429, {"error": "TOO_MANY_REQUESTS", "message": "slow down"},
                             headers=[("Retry-After", str(srv.faults.get("retry_after", 1)))])
        if fault == "timeout":
            time.sleep(float(srv.faults.get("timeout_s", 3)))
            return self.hangup("timeout")
        if fault == "drop":
            return self.hangup("drop")
        if fault == "ok200error":
            return self.send(200, {"error": "INTERNAL_SERVER_ERROR",
                                   "message": "Internal Server Error"})
        self._mode = fault if fault in ("html", "malformed", "huge", "extra", "echo_key",
                                        "echo_key_long") else None
        h = self.headers
        if (h.get("CVE-API-ORG") != srv.org or h.get("CVE-API-USER") != srv.user
                or h.get("CVE-API-KEY") != srv.key):
            return self.err(401, "UNAUTHORIZED", "Unauthorized")
        parts = u.path[len("/api/"):].strip("/").split("/")
        q = {k: v[0] for k, v in parse_qs(u.query).items()}
        with srv.state.lock:
            out = self.route(parts, q, raw)
            if fault == "lost":
                return self.hangup("lost")
        if fault in ("commit500", "commit504"):
            return self.send(int(fault[6:]), raw=b"<html><body>Gateway error</body></html>",
                             ctype="text/html")
        self.send(*out)

    def control(self, u, raw):
        srv = self.server
        if self.command == "POST":
            with srv.stats_lock:
                d = json.loads(raw or b"{}")
                if "faults" in d:
                    srv.faults = d["faults"]
                    srv.rng = random.Random(srv.faults.get("seed", 0))
                if d.get("reset_stats"):
                    srv.stats = []
            return self.send(200, {"ok": True})
        with srv.stats_lock:
            return self.send(200, {"requests": srv.stats})

    # -- the API ------------------------------------------------------------------------
    def route(self, p, q, raw):
        st = self.server.state
        d = st.d
        org = self.server.org
        m = self.command
        if p == ["health-check"]:
            return (200, {"status": "ok"})
        if p == ["cve-id"] and m == "POST":
            try:
                year, amount = int(q.get("cve_year", "")), int(q.get("amount", ""))
            except ValueError:
                return (400, {"error": "BAD_INPUT", "message": "cve_year and amount are required"})
            if q.get("short_name") != org:
                return (403, {"error": "ORG_CANNOT_RESERVE_FOR_OTHER", "message": "wrong org"})
            if amount < 1 or not 1999 <= year <= 2100:
                return (400, {"error": "BAD_INPUT", "message": "invalid amount or year"})
            if amount > 1 and q.get("batch_type") not in ("sequential", "nonsequential"):
                return (400, {"error": "NO_BATCH_TYPE", "message": "batch_type required"})
            reserved = sum(1 for v in d["ids"].values() if v["state"] == "RESERVED")
            if reserved + amount > d["quota"]:
                return (403, {"error": "EXCEEDED_ID_QUOTA", "message": "quota exceeded"})
            out = []
            for _ in range(amount):
                n = d["next"].get(str(year), 90000)
                d["next"][str(year)] = n + 1
                cid = "CVE-%d-%d" % (year, n)
                d["ids"][cid] = {"cve_id": cid, "cve_year": str(year), "state": "RESERVED",
                                 "owning_cna": org, "reserved": now_iso(),
                                 "requested_by": {"cna": org, "user": self.server.user}}
                out.append(d["ids"][cid])
            st.save()
            return (200, {"cve_ids": out, "meta": {"remaining_quota": d["quota"] - reserved - amount}})
        if p == ["cve-id"] and m == "GET":
            ids = sorted(d["ids"].values(), key=lambda v: (int(v["cve_year"]), v["cve_id"]))
            if "cve_id_year" in q:
                ids = [v for v in ids if v["cve_year"] == q["cve_id_year"]]
            if "state" in q:
                ids = [v for v in ids if v["state"] == q["state"]]
            size = self.server.page_size
            page = int(q.get("page", "1"))
            pages = max(1, (len(ids) + size - 1) // size)
            chunk = ids[(page - 1) * size: page * size]
            return (200, {"totalCount": len(ids), "itemsPerPage": size, "pageCount": pages,
                          "currentPage": page, "prevPage": page - 1 if page > 1 else None,
                          "nextPage": page + 1 if page < pages else None, "cve_ids": chunk})
        real = self.server.rules == "real"
        if len(p) == 2 and p[0] == "cve-id":
            v = d["ids"].get(p[1])
            if not v:
                if real:
                    return (404, {"error": "CVEID_NOT_FOUND", "message": "%s not found" % p[1]})
                return (404, {"error": "CVE_ID_DNE", "message": "%s does not exist" % p[1]})
            if m == "GET":
                return (200, v)
            if m == "PUT":
                s = q.get("state")
                if real and s == "RESERVED":
                    return (400, {"error": "INVALID_STATE", "message": "cannot set RESERVED"})
                if s not in ("REJECTED", "RESERVED", "PUBLISHED"):
                    return (400, {"error": "BAD_INPUT", "message": "state must be REJECTED or RESERVED"})
                if not real and p[1] in d["records"]:
                    return (403, {"error": "CVE_RECORD_EXISTS", "message": "has a record"})
                v["state"] = s
                v["state_changes"] = v.get("state_changes", 0) + 1
                st.save()
                return (200, {"message": "updated", "updated": v})
        if len(p) == 3 and p[0] == "org" and p[2] == "id_quota" and m == "GET":
            if p[1] != org:
                return (403, {"error": "NOT_SAME_ORG_OR_SECRETARIAT", "message": "not your org"})
            reserved = sum(1 for v in d["ids"].values() if v["state"] == "RESERVED")
            return (200, {"id_quota": d["quota"], "total_reserved": reserved,
                          "available": d["quota"] - reserved})
        if len(p) >= 2 and p[0] == "cve":
            cid = p[1]
            rec = d["records"].get(cid)
            if len(p) == 2 and m == "GET":
                if not rec:
                    return (404, {"error": "CVE_RECORD_DNE", "message": "no record"})
                return (200, self.full(cid, rec))
            if len(p) == 3 and p[2] in ("cna", "reject") and m in ("POST", "PUT"):
                try:
                    body = json.loads(raw)
                    cna = body["cnaContainer"]
                    assert isinstance(cna, dict)
                    if p[2] == "reject":
                        assert isinstance(cna["rejectedReasons"], list)
                except Exception:
                    return (400, {"error": "BAD_INPUT", "message": "cnaContainer missing or invalid"})
                if cid not in d["ids"]:
                    if real:
                        return (400, {"error": "CVEID_DNE", "message": "The cve id does not exist."})
                    return (404, {"error": "CVE_ID_DNE", "message": "%s is not reserved" % cid})
                new_state = "PUBLISHED" if p[2] == "cna" else "REJECTED"
                if real:
                    cna = dict(trim_strings(cna))
                    cna["providerMetadata"] = {"orgId": "f4215fc3-5b6b-47ff-a258-f7189bd81038",
                                               "shortName": org, "dateUpdated": now_iso()}
                if m == "POST":
                    if rec:
                        return (400 if real and p[2] == "reject" else 403,
                                {"error": "CVE_RECORD_EXISTS",
                                 "message": "The cve record for the cve id already exists."})
                    rec = d["records"][cid] = {"state": new_state, "cna": cna, "created": 1,
                                               "updates": 0, "history": [new_state],
                                               "versions": 1, "noop_updates": 0}
                    d["ids"][cid]["state"] = new_state
                    st.save()
                    return (200, {"created": self.full(cid, rec),
                                  "message": "%s record was successfully created." % cid})
                if not rec:
                    return (403 if real else 404,
                            {"error": "CVE_RECORD_DNE",
                             "message": "The cve record for the cve id does not exist."})
                if rec["state"] == new_state and same_content(rec["cna"], cna):
                    rec["noop_updates"] = rec.get("noop_updates", 0) + 1
                    rec.setdefault("noop_at", []).append(time.time())
                rec["versions"] = rec.get("versions", 1) + 1
                rec.update(state=new_state, cna=cna, updates=rec["updates"] + 1)
                rec["history"].append(new_state)
                d["ids"][cid]["state"] = new_state
                st.save()
                return (200, {"updated": self.full(cid, rec),
                              "message": "%s record was successfully updated." % cid})
        return (404, {"error": "NOT_FOUND", "message": "no such endpoint"})

    def full(self, cid, rec):
        return {"dataType": "CVE_RECORD", "dataVersion": "5.1",
                "cveMetadata": {"cveId": cid, "assignerShortName": self.server.org,
                                "state": rec["state"], "assignerOrgId": "f4215fc3-5b6b-47ff-a258-f7189bd81038"},
                "containers": {"cna": rec["cna"]}}


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # clients killed mid-request (the point of the crash tests) are not server errors
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def make_server(state_path, org="Linux", user="cna@example.org", key="k", quota=1000,
                page_size=2, port=0, rules="legacy"):
    srv = Server(("127.0.0.1", port), Handler)
    srv.rules = rules
    srv.daemon_threads = True
    srv.state = State(state_path, org, quota)
    srv.org, srv.user, srv.key, srv.page_size = org, user, key, page_size
    srv.faults, srv.rng = {}, random.Random(0)
    srv.stats, srv.stats_lock = [], threading.Lock()
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    return srv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--state", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--org", default="Linux")
    ap.add_argument("--user", default="cna@example.org")
    ap.add_argument("--key-file", help="file holding the API key (keeps it off argv)")
    ap.add_argument("--page-size", type=int, default=2)
    ap.add_argument("--rules", choices=("legacy", "real"), default="legacy")
    a = ap.parse_args()
    key = open(a.key_file).read().strip() if a.key_file else "k"
    srv = make_server(a.state, a.org, a.user, key, page_size=a.page_size, rules=a.rules)
    with open(a.port_file + ".tmp", "w") as f:
        f.write(str(srv.server_address[1]))
    os.replace(a.port_file + ".tmp", a.port_file)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
