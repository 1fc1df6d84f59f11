#!/usr/bin/python3
"""CLI conformance: every command of src/cli/commands.def follows docs/cli.md.

--help exits 0 with the standard usage line on stdout and nothing on stderr; an unknown
option, a missing value and a bad number exit 2 with exactly one "kcve: error:" line; "--"
ends the options; global options work after the command; the exit-code table of
'kcve help exit-codes' equals the one in docs/cli.md; every command whose help offers --json
prints a document that parses and has the documented fields; with NO_COLOR, TERM=dumb or
--color=never a terminal gets no escape codes (and gets them otherwise)."""
import os
import pty
import re
import subprocess
import sys
import tempfile

KCVE = os.environ["KCVE"]
SRC = os.environ["KCVE_SRC"]
sys.path.insert(0, os.path.join(SRC, "tests/check"))
import mktree  # noqa: E402
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def run(args, env=None, stdin=subprocess.DEVNULL):
    e = dict(os.environ)
    e.pop("KCVE_TREE", None)
    e.update(env or {})
    p = subprocess.run([KCVE] + args, capture_output=True, text=True, env=e, stdin=stdin,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def commands():
    names = []
    with open(os.path.join(SRC, "src/cli/commands.def")) as f:
        for line in f:
            m = re.match(r"KCVE_CMD\((\w+),", line)
            if m:
                names.append(m.group(1).replace("_", "-"))
    return names


def one_error(what, rc, out, err):
    lines = err.splitlines()
    if rc != 2 or out or len(lines) != 1 or not lines[0].startswith("kcve: error: "):
        fail(f"{what}: want exit 2 and one 'kcve: error:' line on stderr, got exit {rc}, "
             f"stdout {out[:80]!r}, stderr {err[:200]!r}")


def check_command(name):
    for h in ("--help", "-h"):
        rc, out, err = run([name, h])
        if rc != 0 or err or not out.startswith(f"usage: kcve [global options] {name}"):
            fail(f"{name} {h}: exit {rc}, stdout {out[:80]!r}, stderr {err[:120]!r}")
        if name != "help" and "Global options" not in out:
            fail(f"{name} {h}: the help does not list the global options")
    one_error(f"{name} --no-such-option", *run([name, "--no-such-option"]))
    one_error(f"{name} --repo (no value)", *run([name, "--repo"]))


BAD_NUMBERS = [
    ["stats", "--top", "abc"],
    ["stats", "--top", "12x"],
    ["reserve", "list", "--year", "abc"],
    ["reserve", "list", "--year", "99999999999"],
    ["reserve-for", "--year", "99999999999", "--requester", "a@b.c", "--summary", "x"],
    ["reserve", "--remote", "--year", "abc", "--count", "1"],
    ["remote", "reserve", "--year", "2024", "--count", "0"],
    ["update", "-j", "0"],
    ["update", "--jobs", "65"],
    ["votes", "--min-agree", "x", "v1.0..v1.1"],
    ["verify", "0000"],
    ["update", "99999"],
    ["check", "--version", "6.1.1", "--max-age", "3d"],
    ["check", "--version", "6.1.1", "--max-age", "-1"],
]


def docs_exit_codes():
    """The exit-code table of docs/cli.md: [(code, name, meaning)]."""
    want = []
    with open(os.path.join(SRC, "docs/cli.md")) as f:
        for line in f:
            m = re.match(r"^\|\s*(\d+)\s*\|\s*(\S+)\s*\|\s*(.*?)\s*\|$", line)
            if m:
                want.append((int(m.group(1)), m.group(2), m.group(3)))
    return want


def exit_code_tables():
    rc, out, _ = run(["help", "exit-codes"])
    if rc != 0:
        fail(f"help exit-codes: exit {rc}")
    got = [(int(m.group(1)), m.group(2), m.group(3).strip())
           for m in re.finditer(r"^\s+(\d+)\s+(\S+)\s+(.*)$", out, re.M)]
    want = docs_exit_codes()
    if not got or got != want:
        fail(f"kcve help exit-codes and docs/cli.md differ:\n{got}\n{want}")


def tty_run(args, env):
    """Run kcve with stdout on a pseudo-terminal; return what the terminal received."""
    master, slave = pty.openpty()
    e = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM", "KCVE_TREE")}
    e.update(env)
    p = subprocess.Popen([KCVE] + args, stdout=slave, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, env=e)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    p.wait(timeout=60)
    os.close(master)
    return data


def make_tree(tmp):
    spec = os.path.join(tmp, "spec.json")
    a, b = "a" * 40, "b" * 40
    with open(spec, "w") as f:
        f.write('[{"id": "CVE-2099-0001", "title": "ext4: fix", "files": ["fs/ext4/inode.c"], '
                f'"pairs": ["5.10:{a}:6.1.20:{b}"], "fixes": ["{b}"], "severity": "HIGH", '
                '"score": 7.8}, {"id": "CVE-2099-0002", "title": "x: unscored", '
                f'"files": ["drivers/x.c"], "pairs": ["5.10:{a}:6.1.21:{b}"]}}]')
    tree = os.path.join(tmp, "tree")
    subprocess.run([sys.executable, os.path.join(SRC, "tests/check/mktree.py"), tree, spec],
                   check=True)
    rc, out, err = run(["--tree", tree, "reserve", "add", "CVE-2099-1000", "CVE-2099-1001"])
    if rc:
        fail(f"reserve add: {err}")
    return tree


# Commands that print data and take --json: the arguments, a check of the parsed document and
# the exit codes allowed. These need only the record tree; repo_cases() the kernel repository.
def json_cases(tree, tmp):
    maint = os.path.join(SRC, "tests/maintainers/data/MAINTAINERS")
    html = os.path.join(tmp, "report.html")
    return [
        (["search", "--json", "CVE-2099-0001", "bbbb"],
         lambda d: [x["cve"] for x in d] == ["CVE-2099-0001", "CVE-2099-0001"]),
        (["summary", "--json"], lambda d: d["years"][0]["year"] == 2099
         and d["total"]["reserved"] == 2),
        (["stats", "--json", "--no-ttf"], lambda d: d["published"] == 2
         and d["time_to_fix"] is None),
        (["verify", "--json", "CVE-2099-0001"], lambda d: d["checked"] == 1
         and all({"subject", "rule", "evidence"} <= set(p) for p in d["problems"]), (0, 17)),
        (["reserve", "list", "--json"], lambda d: [x["state"] for x in d] == ["free", "free"]),
        (["branches", "list", "--json"], lambda d: d["has_data"] is False),
        (["branches", "import", "--json", releases_json(tmp)],
         lambda d: d == {"imported": 1, "file": "scripts/kcve-branches"}),
        (["maintainers", "--json", "--maintainers", maint, "--root", tree, "drivers/net/x.c"],
         lambda d: d[0]["file"] == "drivers/net/x.c" and d[0]["sections"]),
        (["check", "--json", "--version", "6.1.5"],
         lambda d: {c["id"]: c["severity"] for r in d["results"] for c in r["cves"]}
         == {"CVE-2099-0001": "HIGH", "CVE-2099-0002": None}),
        (["foreign", "--json", "--supported", "6.6",
          os.path.join(SRC, "tests/maintainers/data/foreign/dup.json")],
         lambda d: d[0]["class"] and d[0]["duplicate_of"] is None),
        (["version", "--json"], lambda d: d["version"]),
        (["help", "--json"], lambda d: [x["name"] for x in d] == commands()
         and all(x["summary"] for x in d)),
        (["help", "exit-codes", "--json"],
         lambda d: [(x["code"], x["name"], x["meaning"]) for x in d] == docs_exit_codes()),
        (["cvss", "--json", "--vector-only", "CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H"],
         lambda d: d["score"] == 7.8),
        (["cvss", "--check", "--json", bad_cvss(tmp)],
         lambda d: d["checked"] == 1 and d["bad"][0]["file"] == bad_cvss(tmp)
         and "CNA_ID VECTOR" in d["bad"][0]["error"], (13,)),
        (["kbuild", "--json", "--source", os.path.join(tmp, "ksrc"), "--config",
          mktree.kernel_source(os.path.join(tmp, "ksrc")), "fs/ext4/inode.c", "drivers/x.c"],
         lambda d: [x["verdict"] for x in d] == ["compiled", "not compiled"]),
        (["db", "build", "--json", "-o", os.path.join(tmp, "records.db")],
         lambda d: d["records"] == 2 and d["conditions"] == 0),
        (["db", "info", "--json", os.path.join(tmp, "records.db")],
         lambda d: d["records"] == 2),
        (["report", "--json", "--html", html],
         lambda d: d["html"] == html and d["records"] == 2 and d["bytes"] ==
         os.path.getsize(html) and d["dates"] == "datePublished"),
        (["request", "--json", os.path.join(SRC, "tests/maintainers/data/req_reserve.eml")],
         lambda d: d["kind"] == "reserve" and d["queued"] is None and d["commits"] == []
         and d["reply"].startswith("From ")),
        # a refused dispute (nobody of the file's section) still answers in JSON, exit 16
        (["dispute", "--json", "CVE-2099-0001", "--by", "nobody@example.org", "--reason", "x",
          "--reject", "--maintainers", maint, "--no-regenerate"],
         lambda d: d["cve"] == "CVE-2099-0001" and d["action"] == "reject"
         and d["allowed"] is False and d["why"], (16,)),
    ]


def releases_json(tmp):
    path = os.path.join(tmp, "releases.json")
    with open(path, "w") as f:
        f.write('{"releases": [{"iseol": false, "version": "6.1.2", "moniker": "longterm"}]}')
    return path


def bad_cvss(tmp):
    path = os.path.join(tmp, "bad.cvss")
    with open(path, "w") as f:
        f.write("CVSS:3.1/AV:L\n")
    return path


def repo_cases(tmp):
    """The commands that need a kernel repository, on the store tests' small kernel-shaped
    repository (tests/store/lib_repo.sh), and remote/publish against the local CVE Services
    server of the publish tests. Returns (global arguments, environment, cases)."""
    t = os.path.join(tmp, "repo")
    os.makedirs(t)
    p = subprocess.run(["bash", "-c", 'set -e; unset T; T=$1; . "$2"; build_repo >/dev/null; build_tree; '
                        'echo "$R $V $FIX_A $FIX_B $FIX_C $FIX_Y"', "repo", t,
                        os.path.join(SRC, "tests/store/lib_repo.sh")],
                       capture_output=True, text=True, env=dict(os.environ, KCVE=KCVE))
    if p.returncode:
        fail(f"lib_repo.sh: {p.stderr[-500:]}")
        return [], {}, []
    r, v, fix_a, fix_b, fix_c, fix_y = p.stdout.split()
    env = {"HOME": t, "GIT_CONFIG_NOSYSTEM": "1", "KCVE_FROM": "Test <sender@example.org>"}
    g = ["--repo", r, "--tree", v]
    batch = os.path.join(tmp, "batch")
    with open(batch, "w") as f:
        f.write(f"{fix_b}\n{fix_c}\n")
    sys.path.insert(0, os.path.join(SRC, "tests/publish"))
    import cve_services_server
    srv = cve_services_server.make_server(os.path.join(tmp, "cve-services.json"), "Linux",
                                          "cna@example.org", "k")
    env.update({"KCVE_CVE_API_URL": "http://127.0.0.1:%d/api/" % srv.server_address[1],
                "KCVE_CVE_API_ORG": "Linux", "KCVE_CVE_API_USER": "cna@example.org",
                "KCVE_CVE_API_KEY": "k", "KCVE_CVE_API_TIMEOUT": "5"})
    ids = [f"CVE-2024-1000{i}" for i in range(1, 6)]
    return g, env, [
        (["reserve", "add", "--json"] + ids + ["CVE-2024-10001"],
         lambda d: [x["result"] for x in d] == ["reserved"] * 5 + ["already-reserved"]
         and d[0]["error"] is None),
        (["index", "--json"], lambda d: d["commits_added"] > 0),
        (["dyad", "--json", fix_a], lambda d: d["pairs"][0]["fixed_commit"]),
        (["review", "v6.1..v6.1.1", "--auto", "--vote", "--reviewer", "alice", "--json"],
         lambda d: {x["upstream"] for x in d} == {fix_a, fix_y}),
        (["votes", "v6.1..v6.1.1", "--json"], lambda d: d["reviewers"] == ["alice"]
         and d["min_agree"] == 2 and all(x["agreed"] is False for x in d["commits"])),
        (["create", "--json", "--dry-run", "--batch", batch],
         lambda d: d["dry_run"] and [x["cve"] for x in d["created"]]
         == ["CVE-2024-10001", "CVE-2024-10002"] and d["failed"] == []),
        (["create", "--json", fix_a], lambda d: d["created"][0]["cve"] == "CVE-2024-10001"
         and d["created"][0]["sha"] == fix_a and d["created"][0]["held_id_bound"] is False),
        (["create", "--json", fix_a], lambda d: d["created"] == []
         and d["failed"][0]["exit"] == 14 and "already has a CVE" in d["failed"][0]["error"],
         (14,)),
        (["update", "--json", "--full"], lambda d: d["checked"] == 1 and d["failed"] == 0
         and all(x["cve"] == "CVE-2024-10001" for x in d["cves"])),
        (["reserve-for", "--json", "--year", "2024", "--requester", "r@example.org",
          "--summary", "embargo"],
         lambda d: d == {"cve": "CVE-2024-10002", "state": "held",
                         "requester": "r@example.org", "summary": "embargo"}),
        (["return", "--json", "CVE-2024-10005"],
         lambda d: d["cve"] == "CVE-2024-10005" and d["state"] == "returned"
         and "CVE-2024-10005" in d["commands"][0]),
        (["reject", "--json", "--reason", "duplicate", "CVE-2024-10001"],
         lambda d: d["state"] == "rejected" and d["reason"] == "duplicate"
         and d["mbox"].endswith("CVE-2024-10001.mbox.rejected") and len(d["commands"]) == 2),
        # a dry run counts nothing (its "would ..." lines go to stderr with --json)
        (["publish", "--json", "--dry-run"], lambda d: d["dry_run"] is True
         and d["baseline"] is False and d["failed"] == 0 and d["published"] == 0),
        (["remote", "quota", "--json"], lambda d: d["id_quota"] > 0),
        (["remote", "reserve", "--json", "--year", "2025", "--count", "2"],
         lambda d: len(d["ids"]) == 2 and all(i.startswith("CVE-2025-") for i in d["ids"])),
        (["remote", "list", "--json"], lambda d: len(d) == 2),
    ]


# Commands whose --json is not a document on stdout, or needs what this test cannot build.
JSON_ELSEWHERE = {
    "record": "--json OUT names the CVE record file to write (tests/record)",
}


def json_outputs(tree, tmp):
    import json
    cases = [(["--tree", tree], {}, c) for c in json_cases(tree, tmp)]
    g, env, rcases = repo_cases(tmp)
    cases += [(g, env, c) for c in rcases]
    covered = set()
    for prefix, env, (args, ok, *codes) in cases:
        covered.add(args[0])
        rc, out, err = run(prefix + args, env=env)
        try:
            doc = json.loads(out)
        except ValueError as e:
            fail(f"{' '.join(args)}: output is not JSON ({e}): {out[:200]!r} {err[:200]!r}")
            continue
        try:
            good = ok(doc)
        except (KeyError, IndexError, TypeError) as e:
            good = False
            err += f" ({e!r})"
        if rc not in (codes[0] if codes else (0,)) or not good:
            fail(f"{' '.join(args)}: exit {rc}, unexpected document {out[:300]!r} {err[:200]!r}")
    # every command whose help offers --json is run with it above
    for name in commands():
        _, out, _ = run([name, "--help"])
        if "--json" in out and name not in covered and name not in JSON_ELSEWHERE:
            fail(f"{name} has --json but the conformance test does not parse it")


def colour(tree):
    # every command's help on a terminal with NO_COLOR: no escape codes
    for name in commands():
        if b"\x1b[" in tty_run([name, "--help"], {"TERM": "xterm", "NO_COLOR": "1"}):
            fail(f"{name} --help on a terminal with NO_COLOR has escape codes")
    args = ["check", "--tree", tree, "--version", "6.1.5"]
    cases = [({"TERM": "xterm"}, [], True),
             ({"TERM": "xterm", "NO_COLOR": "1"}, [], False),
             ({"TERM": "dumb"}, [], False),
             ({"TERM": "xterm"}, ["--color=never"], False),
             ({"TERM": "dumb", "NO_COLOR": "1"}, ["--color=always"], True)]
    for env, extra, want in cases:
        got = b"\x1b[" in tty_run(extra + args, env)
        if got != want:
            fail(f"colour on a terminal with {env} {extra}: escape codes {got}, want {want}")
    rc, out, _ = run(args + ["--color=always"])
    if "\x1b[" not in out:
        fail("--color=always into a pipe: no escape codes")
    rc, out, _ = run(args)
    if "\x1b[" in out:
        fail("a pipe got escape codes without --color=always")


def main():
    names = commands()
    if len(names) < 20:
        fail(f"only {len(names)} commands read from commands.def")
    for name in names:
        check_command(name)
    for args in BAD_NUMBERS:
        one_error(" ".join(args), *run(args))
    one_error("search -Q", *run(["search", "-Q"]))
    one_error("stats --no-such-option=1", *run(["stats", "--no-such-option=1"]))
    # "--" ends the options: "--foo" after it is an operand (an unknown help topic here)
    rc, out, err = run(["help", "--", "--foo"])
    if rc != 2 or "'--foo'" not in err:
        fail(f"help -- --foo: exit {rc}, stderr {err!r}")
    # global options after the command
    rc, out, err = run(["version", "-v", "--color=never"])
    if rc != 0 or not out.startswith("kcve "):
        fail(f"version -v: exit {rc}, {out!r} {err!r}")
    rc, out, err = run(["version", "extra"])
    one_error("version extra", rc, out, err)
    rc, out, err = run(["help", "search"])
    if rc != 0 or not out.startswith("usage: kcve [global options] search"):
        fail(f"help search: exit {rc}")
    exit_code_tables()
    with tempfile.TemporaryDirectory() as tmp:
        tree = make_tree(tmp)
        json_outputs(tree, tmp)
        colour(tree)
    print(f"{len(names)} commands checked, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
