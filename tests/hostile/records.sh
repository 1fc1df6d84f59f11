#!/usr/bin/env bash
# Issue 29 items 8 and 9: record text that forges output, and a .sha1 that names another
# commit than its record (verify refuses it, create does not give the fix a second CVE).
# Item 8: A cveId holding a newline and a fake row,
# a cveId naming another CVE than its file, titles with ESC, OSC, CR and bidi controls: every
# read path (check --tree table and --ids, OpenVEX, db build, check --db --ids) refuses the
# forged id with one line, and no control character reaches text output.
. "$(dirname "$0")/setup29.sh"
P=$V/cve/published/2024
J=$P/CVE-2024-10000.json
cp "$J" "$T/saved.json"
edit() { # PYTHON-EXPRESSION on the record r
	python3 - "$T/saved.json" "$J" "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}
readers() { # LABEL: every reader refuses with one line, nothing forged on stdout
	refuse_line "$1: check --tree" "not a CVE id\|not the id of its file" "$KCVE" check --tree "$V" --version 6.1 --all
	! grep -q "CVE-2099" "$T/out" || fail "$1: forged row printed"
	refuse_line "$1: check --ids" "not a CVE id\|not the id of its file" "$KCVE" check --tree "$V" --version 6.1 --ids
	refuse_line "$1: check --openvex" "not a CVE id\|not the id of its file" "$KCVE" check --tree "$V" --version 6.1 --openvex
	refuse_line "$1: db build" "not a CVE id\|not the id of its file" "$KCVE" db build --tree "$V" --out "$T/x.db"
}
edit 'r["cveMetadata"]["cveId"] = "CVE-2024-10000\nCVE-2099-0001 critical affected"'
readers "cveId with a newline"
edit 'r["cveMetadata"]["cveId"] = "CVE-2024-10001"'
readers "cveId of another CVE"

# titles with ESC, OSC, CR, LF, C1 and bidi controls: shown neutralised
edit 'r["containers"]["cna"]["title"] = "net: \x1b[31mred\x1b[0m \x1b]0;owned\x07 back\rCVE-2099-0001 \u202eevil\u202c \u2066x\u2069 \x85c1"'
"$KCVE" check --tree "$V" --version 6.1 --all > "$T/table" 2> "$T/err" || true
grep -q "CVE-2024-10000" "$T/table" || fail "title: record not shown: $(cat "$T/table" "$T/err")"
no_control "$T/table" "$T/err"
if grep -q $'\u202e\|\u2066\|\u2069\|\u202c\|\xc2\x85' "$T/table"; then fail "bidi or C1 control in the table"; fi
"$KCVE" db build --tree "$V" --out "$T/ok.db" 2> "$T/err" || fail "db build: $(cat "$T/err")"
"$KCVE" check --db "$T/ok.db" --version 6.1 --all > "$T/table" 2> "$T/err" || true
no_control "$T/table" "$T/err"
"$KCVE" check --db "$T/ok.db" --version 6.1 --ids > "$T/ids" 2> "$T/err" || true
[ "$(wc -l < "$T/ids")" -le 1 ] || fail "check --db --ids: more than one line: $(cat "$T/ids")"
cp "$T/saved.json" "$J"

# item 9: a .sha1 that names another commit (the record's introducing commit)
K verify > /dev/null || fail "verify of the intact tree"
INTRO_OF_A=$(sed -n 's/^[^#][^:]*:\([0-9a-f]\{40\}\):.*/\1/p' "$P/CVE-2024-10000.dyad" | head -1)
[ -n "$INTRO_OF_A" ] || fail "no introducing commit in the .dyad"
cp "$P/CVE-2024-10000.sha1" "$T/sha1.saved"
echo "$INTRO_OF_A" > "$P/CVE-2024-10000.sha1"
set +e
K verify > "$T/out" 2>&1
rc=$?
set -e
[ "$rc" != 0 ] && grep -q "sha1-json-fix" "$T/out" && grep -q "sha1-dyad-fix" "$T/out" || fail "verify passed a forged .sha1 (exit $rc): $(cat "$T/out")"
K reserve add CVE-2024-10001 > /dev/null
refuse_line "create for a fix a record's .dyad names" "already has a CVE" K create "$FIX_A" CVE-2024-10001
cp "$T/sha1.saved" "$P/CVE-2024-10000.sha1"
echo "all forged records refused or neutralised"
