#!/bin/bash
# Named regressions on the real 2024 record tree (skipped when the shared data is absent):
#  - CVE-2024-56705 and CVE-2024-38547: introduced in 4.12, fixed in 4.18, re-introduced in 5.8,
#    fixed per branch later.  The pair 4.12->4.18 must not close what 5.8 opened again.
#  - CVE-2023-53012 and CVE-2023-54130 at 5.15.160, CVE-2023-54035 at 6.1.90: an unfixed
#    "5.15.86:..:0:0" pair next to a same-release pair that settles the branch; the JSON says
#    unaffected, the pairs say affected: the default verdict follows the JSON, --reading either
#    keeps them, and both the table and --json name the disagreement.
set -u
: "${KCVE:?}" "${KCVE_BUILD:?}"
TARBALL=${KCVE_SHARED:-}/data/vulns-upto-2024.tar.xz
[ -n "${KCVE_SHARED:-}" ] && [ -f "$TARBALL" ] || { echo "skip: $TARBALL absent"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
C=$KCVE_BUILD/check-cache
mkdir -p "$C"
(
	flock 9
	[ -e "$C/vulns.done" ] || { tar -xJf "$TARBALL" -C "$C" && touch "$C/vulns.done"; }
) 9>"$C/lock" || fail "unpack $TARBALL"
TREE=$C/vulns
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
echo "reading-2024: ok"
