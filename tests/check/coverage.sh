#!/bin/bash
# kcve check says what its records do not cover (docs/check.md "Coverage"): a release newer
# than the newest of its branch the records name, one far beyond it (may not exist), a branch
# no record names (not tracked by the kernel CNA).  Each is a stderr warning, a "coverage"
# entry in --json, and exit status 21 under --strict; --tree and --db say the same.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
S=1111111111111111111111111111111111111111
cat > "$T/spec.json" <<SPEC
[{"id": "CVE-2099-0201", "title": "fixed on 6.1 and 6.6", "pairs": ["5.15:$S:6.1.119:$S", "5.15:$S:6.6.60:$S", "5.15:$S:6.7:$S"]},
 {"id": "CVE-2099-0202", "title": "fixed on 5.15", "pairs": ["5.10:$S:5.15.170:$S", "5.10:$S:6.1.100:$S", "5.10:$S:6.2:$S"]}]
SPEC
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
"$KCVE" db build --tree "$T/tree" -o "$T/k.db" >/dev/null 2>"$T/err" || fail "db build: $(cat "$T/err")"

# expect SRC VERSION KIND TEXT: warning with TEXT, --json coverage kind KIND, --strict 21
expect() {
	local src=$1 v=$2 kind=$3 text=$4
	"$KCVE" check $src --version "$v" >/dev/null 2>"$T/err"; rc=$?
	[ $rc -eq 0 ] || fail "$src $v: exit $rc without --strict"
	grep -qF "kcve: warning: $text" "$T/err" || fail "$src $v: no warning '$text': $(cat "$T/err")"
	"$KCVE" check $src --version "$v" --strict >/dev/null 2>&1; rc=$?
	[ $rc -eq 21 ] || fail "$src $v --strict: exit $rc, want 21"
	"$KCVE" check $src --version "$v" --json >"$T/json" 2>/dev/null || fail "$src $v --json"
	got=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(",".join(c["kind"] for c in d["results"][0]["coverage"]))' "$T/json")
	[ "$got" = "$kind" ] || fail "$src $v --json coverage '$got', want '$kind'"
}
covered() {
	local src=$1 v=$2
	"$KCVE" check $src --version "$v" --strict --json >"$T/json" 2>"$T/err"; rc=$?
	[ $rc -eq 0 ] || fail "$src $v: covered release, --strict exit $rc: $(cat "$T/err")"
	grep -q "warning" "$T/err" && fail "$src $v: unexpected warning: $(cat "$T/err")"
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["results"][0]["coverage"] != [])' "$T/json" \
		|| fail "$src $v: --json coverage not empty"
}
for src in "--tree $T/tree" "--db $T/k.db"; do
	covered "$src" 6.1.119
	covered "$src" 6.1.50
	covered "$src" 5.15.3
	expect "$src" 6.1.130 newer "records know 6.1 up to 6.1.119; later fixes are not counted for 6.1.130"
	expect "$src" 6.1.999 nonexistent "6.1.999 is more than 50 releases beyond 6.1.119"
	expect "$src" 5.3.7 unsupported "no record names a 5.3 release: the kernel CNA does not track that branch"
	expect "$src" 6.8.1 newer "6.8.1 is on a branch newer than every branch the records know (up to 6.7)"
done
# --fail-if-affected's 18 takes precedence over --strict's 21 (6.1.130 is not affected here,
# 5.3.7 is: 5.10 <= 5.3.7 is false, so use a release on a known branch that is affected)
"$KCVE" check --tree "$T/tree" --version 6.1.130,6.1.99 --strict --fail-if-affected >/dev/null 2>&1; rc=$?
[ $rc -eq 18 ] || fail "--strict --fail-if-affected with an affected release: exit $rc, want 18"
echo "coverage: ok"
