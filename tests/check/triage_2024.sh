#!/bin/bash
# Exploitation evidence on the real 2024 record tree (issue 28 item 3; skipped when the shared
# data is absent):
#  - --kev with CISA's real catalogue (2025-08-25): at 6.1.100, which those records leave
#    unfixed for all four, the kernel CNA's four 2024 KEV entries (CVE-2024-53104,
#    CVE-2024-50302, CVE-2024-53150, CVE-2024-53197) are flagged and ranked 1-4; every Linux
#    kernel entry of the catalogue without a record (CVE-2024-1086 among them) is listed as
#    untracked_kev; the whole order follows the ranking rule, recomputed here independently;
#  - --epss with a generated CSV (plain and gzip): scores change the order after KEV only;
#  - the table marks KEV and lists in the same order; --batch gives the same order;
#  - the HTML report lists the applicable CVEs in the same order with the KEV marker;
#  - hostile catalogue and score files: one-line errors, exit 13 / 9, nothing on stdout.
set -u
: "${KCVE:?}" "${KCVE_BUILD:?}"
KEVF=${KCVE_SHARED:-}/data/kev/known_exploited_vulnerabilities.json
[ -n "${KCVE_SHARED:-}" ] && [ -f "$KEVF" ] || { echo "skip: $KEVF absent"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
PY=/usr/bin/python3
TREE=$("$(dirname "${BASH_SOURCE[0]}")/../lib/real-tree.sh") || { rc=$?; [ $rc = 77 ] && exit 77; fail "unpacking the 2024 record tree"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# ---- KEV alone
"$KCVE" check --tree "$TREE" --version 6.1.100 --kev "$KEVF" --json > "$T/k.json" 2>"$T/err" \
	|| fail "check --kev: $(cat "$T/err")"
cat > "$T/rule.py" <<'PYEOF'
import glob, json, os, sys
def cve_key(i):
    _, y, n = i.split("-")
    return (int(y), len(n), n)
def rank_key(c):
    """the ranking rule of docs/check.md, written again from the documentation"""
    ep = c.get("epss")
    return (not c.get("kev", False), c["outcome"] != "affected", ep is None,
            -(ep["probability"] if ep else 0), -(c["score"] or 0), cve_key(c["id"]))
def check_order(res):
    kept = [c for c in res["cves"] if c["outcome"] in ("affected", "unknown", "no_data")]
    assert [c["rank"] for c in kept] == list(range(1, len(kept) + 1)), "ranks not 1..n in order"
    want = sorted(kept, key=rank_key)
    bad = [(a["id"], b["id"]) for a, b in zip(kept, want) if a["id"] != b["id"]]
    assert not bad, bad[:5]
    return kept
PYEOF
$PY - "$T/k.json" "$KEVF" "$TREE" "$T/rule.py" <<'PYEOF' || fail "KEV ranking"
import glob, json, os, sys
exec(open(sys.argv[4]).read())
res = json.load(open(sys.argv[1]))["results"][0]
kev = json.load(open(sys.argv[2]))["vulnerabilities"]
kept = check_order(res)
four = {"CVE-2024-53104", "CVE-2024-50302", "CVE-2024-53150", "CVE-2024-53197"}
assert {c["id"] for c in kept[:4]} == four, [c["id"] for c in kept[:6]]
assert all(c["kev"] for c in kept[:4]) and not any(c["kev"] for c in kept[4:])
assert len(kept) > 500, len(kept)
# untracked: every Linux kernel entry of the catalogue without a record in the tree
have = {os.path.basename(p)[:-5] for p in glob.glob(os.path.join(sys.argv[3], "cve/published/*/*.json"))}
lk = {v["cveID"] for v in kev if v["vendorProject"] == "Linux" and v["product"] == "Kernel"}
want = sorted(lk - have, key=cve_key)
assert res["untracked_kev"] == want, (res["untracked_kev"], want)
assert "CVE-2024-1086" in want and not (four & set(want)) and len(want) == 17, want
print(f"{len(kept)} kept; KEV first: {[c['id'] for c in kept[:4]]}; {len(want)} untracked")
PYEOF

# ---- KEV + EPSS (generated: a score for every fourth kept CVE, and for the four KEV ones)
$PY - "$T/k.json" "$T/epss.csv" <<'PYEOF' || fail "generate EPSS"
import hashlib, json, sys
res = json.load(open(sys.argv[1]))["results"][0]
kept = [c["id"] for c in res["cves"] if "rank" in c]
with open(sys.argv[2], "w") as f:
    f.write("#model_version:v2025.03.14,score_date:2025-08-25T00:00:00Z\ncve,epss,percentile\n")
    for i, cve in enumerate(kept):
        if i < 4 or i % 4 == 0:
            h = int(hashlib.sha256(cve.encode()).hexdigest()[:8], 16)
            f.write(f"{cve},{h % 100000 / 100000:.5f},{h % 1000 / 1000:.3f}\n")
    f.write("CVE-1999-0001,0.5,0.5\n")     # a score for a CVE no record has: ignored
PYEOF
gzip -c "$T/epss.csv" > "$T/epss.csv.gz"
for e in epss.csv epss.csv.gz; do
	"$KCVE" check --tree "$TREE" --version 6.1.100 --kev "$KEVF" --epss "$T/$e" --json > "$T/ke.json" \
		2>"$T/err" || fail "check --kev --epss $e: $(cat "$T/err")"
	$PY - "$T/ke.json" "$T/rule.py" <<'PYEOF' || fail "KEV+EPSS ranking ($e)"
import json, sys
exec(open(sys.argv[2]).read())
res = json.load(open(sys.argv[1]))["results"][0]
kept = check_order(res)
assert all(c["kev"] for c in kept[:4]) and all("epss" in c for c in kept[:4])
scored = [c for c in kept[4:] if "epss" in c]
assert len(scored) > 100 and kept[4:4 + len(scored)] == scored      # scored right after KEV
p = [c["epss"]["probability"] for c in scored]
assert p == sorted(p, reverse=True) and 0 <= min(p) and max(p) <= 1
PYEOF
done

# ---- the table: KEV marked and first, in the JSON's order
"$KCVE" check --tree "$TREE" --version 6.1.100 --kev "$KEVF" --epss "$T/epss.csv" > "$T/t.txt" 2>/dev/null \
	|| fail "table"
$PY - "$T/t.txt" "$T/ke.json" <<'PYEOF' || fail "table order"
import json, re, sys
t = open(sys.argv[1]).read()
assert "== ranked: KEV first" in t
rows = re.findall(r"^  (KEV\+R|KEV)? +(CVE-\d+-\d+) ", t.split("== ranked:")[1], re.M)
res = json.load(open(sys.argv[2]))["results"][0]
kept = [c["id"] for c in res["cves"] if "rank" in c]
assert [r[1] for r in rows] == kept, ([r[1] for r in rows][:5], kept[:5])
assert all(r[0] for r in rows[:4]) and not any(r[0] for r in rows[4:])
assert "CVE-2024-1086" in t.split("no record here carries")[1]
PYEOF

# ---- --batch: the same ranking
printf '6.1.100 - a\n6.6.30 - b\n' > "$T/fleet"
"$KCVE" check --tree "$TREE" --batch "$T/fleet" --kev "$KEVF" --epss "$T/epss.csv" > "$T/b.jsonl" 2>"$T/err" \
	|| fail "batch: $(cat "$T/err")"
"$KCVE" check --tree "$TREE" --version 6.6.30 --kev "$KEVF" --epss "$T/epss.csv" --json > "$T/k66.json" \
	2>/dev/null || fail "check 6.6.30"
$PY - "$T/b.jsonl" "$T/ke.json" "$T/k66.json" <<'PYEOF' || fail "batch order"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
for line, path in zip(lines, sys.argv[2:]):
    res = json.load(open(path))["results"][0]
    aff = [c["id"] for c in res["cves"] if c["outcome"] == "affected"]
    assert line["affected"] == aff, (line["id"], line["affected"][:5], aff[:5])
    assert line["kev"] == [c["id"] for c in res["cves"] if c.get("kev") and "rank" in c]
    assert line["untracked_kev"] == res["untracked_kev"]
assert len(lines[0]["kev"]) == 4
PYEOF

# ---- the report: same order, KEV marker, untracked note
"$KCVE" report --tree "$TREE" --check-json "$T/ke.json" --html "$T/r.html" 2>"$T/err" || fail "report: $(cat "$T/err")"
$PY - "$T/r.html" "$T/ke.json" <<'PYEOF' || fail "report order"
import json, re, sys
h = open(sys.argv[1]).read()
res = json.load(open(sys.argv[2]))["results"][0]
kept = [c["id"] for c in res["cves"] if "rank" in c]
rows = re.findall(r'<tr><td data-k="(\d+)">\d+</td><td><a href="https://www.cve.org/CVERecord\?id=(CVE-[\d-]+)">', h)
assert [r[1] for r in rows] == kept and [int(r[0]) for r in rows] == list(range(1, len(kept) + 1))
assert h.count('<span class="kev">KEV</span>') == 4 + 1      # four rows and the untracked note
assert "CVE-2024-1086" in h.split('class="untracked"')[1]
PYEOF

# ---- hostile inputs: one line, the right exit code, nothing written
expect() { # code what -- args...
	local code=$1 what=$2; shift 3
	"$KCVE" check --tree "$TREE" --version 6.1.100 --json "$@" > "$T/out" 2>"$T/err"; local rc=$?
	[ $rc -eq "$code" ] || fail "$what: exit $rc, expected $code: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "$what: something on stdout"
	[ "$(wc -l < "$T/err")" -eq 1 ] || fail "$what: not one line: $(cat "$T/err")"
}
head -c 5000 "$KEVF" > "$T/trunc.json"
expect 13 "truncated KEV" -- --kev "$T/trunc.json"
$PY - "$KEVF" "$T/bad.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["vulnerabilities"][7]["cveID"] = "CVE-2024-1086\u001b[2J"
json.dump(d, open(sys.argv[2], "w"))
PYEOF
expect 13 "bad cveID" -- --kev "$T/bad.json"
grep -q 'vulnerabilities\[7\].cveID' "$T/err" || fail "bad cveID not named: $(cat "$T/err")"
mkfifo "$T/fifo"
expect 9 "KEV FIFO" -- --kev "$T/fifo"
expect 7 "missing EPSS" -- --epss "$T/none.csv"
printf 'cve,epss,percentile\nCVE-2024-1086,0.5,0.9\nCVE-2024-1087,NaN,0.1\n' > "$T/bad.csv"
expect 13 "EPSS NaN" -- --epss "$T/bad.csv"
grep -q "bad.csv:3:" "$T/err" || fail "EPSS line not named: $(cat "$T/err")"
head -c 200 "$T/epss.csv.gz" > "$T/trunc.gz"
expect 13 "truncated EPSS gzip" -- --epss "$T/trunc.gz"
echo "triage 2024: ok"
