#!/bin/bash
# Issue 29 item 12: $SOURCE_DATE_EPOCH and $KCVE_NOW at their limits (core/clock.h).
#  - Every command refuses a value that is not decimal seconds in 1970..9999 ("abc", "-5",
#    "9223372036854775807", "1e9", " 5", one past 9999-12-31T23:59:59Z) with the same one line
#    and exit code 2: check --openvex, db build, check --db, reserve list.
#  - The limits themselves are accepted and written as four-digit years (OpenVEX timestamp,
#    db info's build time).
#  - A db cannot be "built unknown" any more: built at 0 (1970-01-01) it is decades old for the
#    staleness check, which warns instead of switching itself off.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-1201", "title": "ext4: fix", "files": ["fs/ext4/inode.c"],
  "pairs": ["5.10:$A:6.1.20:$B"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
unset SOURCE_DATE_EPOCH KCVE_NOW
"$KCVE" db build --tree "$T/tree" -o "$T/ok.db" >/dev/null 2>"$T/err" || fail "db build: $(cat "$T/err")"

# refused: same line (up to the value) and exit code everywhere
refused() { # VAR VALUE LABEL -- command...
	local var=$1 val=$2 label=$3 rc=0
	shift 4
	env "$var=$val" "$@" >"$T/out" 2>"$T/err" || rc=$?
	[ "$rc" = 2 ] || fail "$label with $var='$val': exit $rc, want 2 ($(head -c 300 "$T/err"))"
	[ "$(wc -l < "$T/err")" = 1 ] || fail "$label with $var='$val': not one line: $(cat "$T/err")"
	grep -q "^kcve: error: $var='.*' is not a time between 1970 and 9999 " "$T/err" ||
		fail "$label with $var='$val': wrong message: $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "$label with $var='$val': wrote output: $(head -c 200 "$T/out")"
	[ ! -e "$T/new.db" ] || fail "$label with $var='$val': wrote a database"
}
for v in abc -5 9223372036854775807 1e9 " 5" 253402300800 99999999999999999999 +5; do
	for var in SOURCE_DATE_EPOCH KCVE_NOW; do
		refused $var "$v" "check --openvex" -- "$KCVE" check --tree "$T/tree" --version 6.1.5 --openvex
		refused $var "$v" "db build" -- "$KCVE" db build --tree "$T/tree" -o "$T/new.db"
		refused $var "$v" "check --db" -- "$KCVE" check --db "$T/ok.db" --version 6.1.5
		refused $var "$v" "reserve list" -- "$KCVE" --tree "$T/tree" reserve list
	done
done
# a control character in the value does not reach the terminal raw
refused KCVE_NOW $'12\e[31m' "escape" -- "$KCVE" check --tree "$T/tree" --version 6.1.5 --ids
if LC_ALL=C grep -q $'\e' "$T/err"; then fail "the refused value's ESC reached stderr"; fi

# the limits: four-digit years
stamp() { SOURCE_DATE_EPOCH=$1 "$KCVE" check --tree "$T/tree" --version 6.1.5 --openvex 2>/dev/null |
	$PY -c 'import json,sys; print(json.load(sys.stdin)["timestamp"])'; }
[ "$(stamp 253402300799)" = 9999-12-31T23:59:59Z ] || fail "max timestamp: $(stamp 253402300799)"
[ "$(stamp 0)" = 1970-01-01T00:00:00Z ] || fail "min timestamp: $(stamp 0)"
SOURCE_DATE_EPOCH=253402300799 "$KCVE" db build --tree "$T/tree" -o "$T/max.db" >/dev/null 2>&1 ||
	fail "db build at 9999-12-31"
"$KCVE" db info "$T/max.db" > "$T/info"
grep -q "9999-12-31" "$T/info" || fail "db info at the max: $(cat "$T/info")"

# built at 1970: known, and stale for the staleness check (not "age unknown", not silent)
SOURCE_DATE_EPOCH=0 "$KCVE" db build --tree "$T/tree" -o "$T/old.db" >/dev/null 2>&1 || fail "db build at 0"
"$KCVE" db info "$T/old.db" > "$T/info"
if grep -q "built unknown" "$T/info"; then fail "db built at 0 is 'built unknown': $(cat "$T/info")"; fi
grep -q "1970-01-01" "$T/info" || fail "db built at 0: $(cat "$T/info")"
KCVE_NOW=1800000000 "$KCVE" check --db "$T/old.db" --version 6.1.5 --ids >/dev/null 2>"$T/err" || true
grep -q "days old" "$T/err" || fail "no staleness warning for a db built in 1970: $(cat "$T/err")"
echo "ok: clock limits"
