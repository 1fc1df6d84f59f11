#!/bin/bash
# Named regressions on the real 2024 record tree (skipped when the shared data is absent):
#  - CVE-2024-56705 and CVE-2024-38547: introduced in 4.12, fixed in 4.18, re-introduced in 5.8,
#    fixed per branch later.  The pair 4.12->4.18 must not close what 5.8 opened again.
#  - CVE-2023-53012 and CVE-2023-54130 at 5.15.160, CVE-2023-54035 at 6.1.90: an unfixed
#    "5.15.86:..:0:0" pair next to a same-release pair that settles the branch; the JSON says
#    unaffected, the pairs say affected: the default verdict follows the JSON, --reading either
#    keeps them, and both the table and --json name the disagreement.
#  - the HTML report of the tree with a check result stays under 1 MB and fetches nothing.
set -u
: "${KCVE:?}" "${KCVE_BUILD:?}"
fail() { echo "FAIL: $*"; exit 1; }
TREE=$("$(dirname "${BASH_SOURCE[0]}")/../lib/real-tree.sh") || { rc=$?; [ $rc = 77 ] && exit 77; fail "unpacking the 2024 record tree"; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$KCVE" db build --tree "$TREE" -o "$T/db" 2>/dev/null || fail "db build"

V=5.10.220,6.6.30,6.8.9,6.9,5.15.160,6.1.90
"$KCVE" check --tree "$TREE" --version $V --ids > "$T/tree.ids" || fail "check --tree"
"$KCVE" check --db "$T/db" --version $V --ids > "$T/db.ids" || fail "check --db"
cmp -s "$T/tree.ids" "$T/db.ids" || fail "--tree and --db differ: $(diff "$T/tree.ids" "$T/db.ids" | head -4)"
"$KCVE" check --db "$T/db" --version $V --ids --reading either > "$T/either.ids" || fail "either"
kept() { # file version cve -> yes|no
	grep "^$2:" "$1" | tr ' ' '\n' | grep -qx "$3" && echo yes || echo no
}
expect() { # version cve yes|no [file]
	local got; got=$(kept "${4:-$T/tree.ids}" "$1" "$2")
	[ "$got" = "$3" ] || fail "$2 at $1: expected kept=$3 ($(basename "${4:-default}")), got $got"
}
for v in 5.10.220 6.6.30 6.8.9 6.9; do expect $v CVE-2024-56705 yes; done
for v in 6.6.30 6.8.9 6.9; do expect $v CVE-2024-38547 yes; done
expect 5.10.220 CVE-2024-38547 no   # fixed in 5.10.219 on its branch
expect 5.15.160 CVE-2023-53012 no
expect 5.15.160 CVE-2023-54130 no
expect 6.1.90 CVE-2023-54035 no
expect 5.15.160 CVE-2023-53012 yes "$T/either.ids"
expect 5.15.160 CVE-2023-54130 yes "$T/either.ids"
expect 6.1.90 CVE-2023-54035 yes "$T/either.ids"

"$KCVE" check --db "$T/db" --version 5.15.160 > "$T/t.txt" || fail table
for id in CVE-2023-53012 CVE-2023-54130 CVE-2024-56705 CVE-2024-38547; do
	grep -q "^  $id .*JSON .*\.dyad " "$T/t.txt" || fail "table at 5.15.160 does not list $id as disagreeing"
done
grep -q "CVE-2024-56705 .*affected ≠" "$T/t.txt" || fail "table: no ≠ marker on CVE-2024-56705"
"$KCVE" check --db "$T/db" --version 5.10.220 --json > "$T/j.json" || fail json
python3 - "$T/j.json" <<'PY' || fail "--json readings of CVE-2024-56705"
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["results"][0]["cves"]}["CVE-2024-56705"]
assert c["outcome"] == "affected" and c["json"] == "affected" and c["dyad"] == "unaffected", c
assert "4.12->4.18" in c["readings"]["dyad"] and "defaultStatus affected" in c["readings"]["json"], c
PY

# --fixed-between V1 V2 = ids(V1) minus ids(V2) for 10 pairs, from --db (all) and --tree (two:
# reading the tree is the slow part under ASan)
PAIRS="5.10.200:5.10.220 5.15.100:5.15.160 6.1.50:6.1.90 6.1.90:6.1.119 6.6.1:6.6.30 6.6.30:6.6.64
6.8:6.8.9 6.9:6.9.3 6.6:6.12 5.4.250:5.4.287"
"$KCVE" check --db "$T/db" --version "$(echo $PAIRS | tr ': ' ',,')" --ids > "$T/pairs.ids" || fail "pair ids"
n=0
for pr in $PAIRS; do
	a=${pr%%:*} b=${pr##*:}
	want=$(comm -23 <(grep "^$a:" "$T/pairs.ids" | cut -d: -f2- | xargs -n1 | sort -u) \
		<(grep "^$b:" "$T/pairs.ids" | cut -d: -f2- | xargs -n1 | sort -u) | xargs)
	[ -n "$want" ] || fail "--fixed-between $a $b: empty on the real tree"
	srcs=("--db $T/db")
	n=$((n + 1))
	[ $n -le 2 ] && srcs+=("--tree $TREE")
	for src in "${srcs[@]}"; do
		got=$("$KCVE" check $src --fixed-between "$a" "$b" --ids | cut -d: -f2- | xargs -n1 | sort | xargs) ||
			fail "--fixed-between $a $b ($src)"
		[ "$got" = "$want" ] || fail "--fixed-between $a $b ($src): $(echo "$got" | wc -w) CVEs, the ids difference has $(echo "$want" | wc -w)"
	done
done
# The report of the real tree with a check result (issue 15): under 1 MB, and it loads nothing
# from the network (links to cve.org and git.kernel.org are fine, fetched resources are not).
"$KCVE" check --tree "$TREE" --version 6.1.50 --json > "$T/c.json" || fail "check --json for the report"
"$KCVE" report --tree "$TREE" --check-json "$T/c.json" --html "$T/r.html" --json > "$T/r.json" || fail report
python3 - "$T/r.html" "$T/r.json" <<'PY' || fail "report of the real tree"
import json, os, re, sys
h = open(sys.argv[1], encoding="utf-8").read()
r = json.load(open(sys.argv[2]))
size = os.path.getsize(sys.argv[1])
assert r["bytes"] == size and r["records"] > 7000, r
assert size < 1_000_000, f"report is {size} bytes, over 1 MB"
fetched = re.findall(r"<(?:script|img|link|iframe|object|embed|source|video|audio|image|use)\b"
                     r"[^>]*\b(?:src|href|data|xlink:href)\s*=\s*[\"']?(?:[a-z]+:)?//", h, re.I)
assert not fetched, f"the page loads external resources: {fetched[:3]}"
assert not re.search(r"url\(\s*[\"']?(?:[a-z]+:)?//|@import|fetch\(|XMLHttpRequest", h), \
    "CSS or script fetches"
print(f"report of the real tree: {size} bytes, {r['records']} records, nothing fetched")
PY
echo "reading-2024: ok"
