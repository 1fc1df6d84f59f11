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
printf 'NETWORKING\nM:\tA <a@example.org>\nS:\tMaintained\nF:\tnet/\n' > "$T/MAINTAINERS"
ID_RE="CVE-2024-10000.json.*\(not a CVE id\|not the id of its file\)"
readers() { # LABEL: every reader refuses with one line naming the file, nothing forged on stdout
	refuse_line "$1: check --tree" "$ID_RE" "$KCVE" check --tree "$V" --version 6.1 --all
	! grep -q "CVE-2099" "$T/out" || fail "$1: forged row printed"
	refuse_line "$1: check --ids" "$ID_RE" "$KCVE" check --tree "$V" --version 6.1 --ids
	refuse_line "$1: check --openvex" "$ID_RE" "$KCVE" check --tree "$V" --version 6.1 --openvex
	refuse_line "$1: db build" "$ID_RE" "$KCVE" db build --tree "$V" --out "$T/x.db"
	# the store's readers: search (by id, by full and short sha), stats, dispute
	refuse_line "$1: search id" "$ID_RE" K search CVE-2024-10000
	refuse_line "$1: search sha" "$ID_RE" K search "$FIX_A"
	refuse_line "$1: search short sha" "$ID_RE" K search "${FIX_A:0:12}"
	refuse_line "$1: stats" "$ID_RE" K stats --no-ttf
	refuse_line "$1: stats --json" "$ID_RE" K stats --no-ttf --json
	[ ! -s "$T/out" ] || fail "$1: stats printed: $(head -3 "$T/out")"
	refuse_line "$1: dispute" "$ID_RE" K dispute CVE-2024-10000 --maintainers "$T/MAINTAINERS" --by a@example.org --reason r --reject --no-regenerate
	K verify > "$T/out" 2>&1 && fail "$1: verify passed"
	grep -q "json-id" "$T/out" || fail "$1: verify does not name json-id: $(cat "$T/out")"
	return 0
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
# a NUL inside the id does not hide a forged tail (jansson refuses \u0000 outright)
python3 - "$J" <<'PY'
import sys
p = sys.argv[1]
t = open(p).read().replace('"cveId": "CVE-2024-10000"', '"cveId": "CVE-2024-10000\\u0000\\nCVE-2099-0001 critical affected"')
assert "u0000" in t
open(p, "w").write(t)
PY
refuse_line "cveId with a NUL: search" "CVE-2024-10000.json" K search CVE-2024-10000
refuse_line "cveId with a NUL: check" "CVE-2024-10000.json" "$KCVE" check --tree "$V" --version 6.1 --ids
cp "$T/saved.json" "$J"

# text from the store shown on a terminal: a .sha1 line, a program file (stats), a reserved
# id's note (reserve list): no control or bidi character reaches the output
cp "$P/CVE-2024-10000.sha1" "$T/sha1.saved"
printf '%s\n\033]0;owned\007\033[31mCVE-2099-0001 \342\200\256x\n' "$FIX_A" > "$P/CVE-2024-10000.sha1"
K search CVE-2024-10000 > "$T/out" 2> "$T/err" || fail "search with a control line: $(cat "$T/err")"
grep -q "assigned to git id $FIX_A" "$T/out" || fail "search lost the fix: $(cat "$T/out")"
[ "$(wc -l < "$T/out")" = 1 ] || fail "search printed a non-sha line: $(cat -v "$T/out")"
grep -q "not a git id" "$T/err" || fail "search: no warning for the control line: $(cat "$T/err")"
no_control "$T/out" "$T/err"
if grep -q $'\u202e' "$T/out" "$T/err"; then fail "search: bidi control printed"; fi
K search "${FIX_A:0:8}" > "$T/out" 2> "$T/err" || fail "short search: $(cat "$T/err")"
no_control "$T/out" "$T/err"
cp "$T/sha1.saved" "$P/CVE-2024-10000.sha1"
edit 'r["containers"]["cna"]["affected"][0]["programFiles"] = ["\x1b[31mnet\x1b]0;owned\x07/\u202ex.c"]'
K stats --no-ttf > "$T/out" 2> "$T/err" || fail "stats: $(cat "$T/err")"
no_control "$T/out" "$T/err"
if grep -q $'\u202e' "$T/out"; then fail "stats: bidi control printed"; fi
cp "$T/saved.json" "$J"
K reserve add CVE-2024-10002 > /dev/null
printf 'held for \033[2J\033]0;owned\007 x\r\342\200\256y\n' > "$V/cve/reserved/2024/CVE-2024-10002"
K reserve list > "$T/out" 2> "$T/err" || fail "reserve list: $(cat "$T/err")"
grep -q "CVE-2024-10002 held" "$T/out" || fail "reserve list: note not shown: $(cat "$T/out")"
no_control "$T/out" "$T/err"
if grep -q $'\u202e' "$T/out"; then fail "reserve list: bidi control printed"; fi

# kcve foreign reads other CNAs' records: a forged cveId is refused, an assigner name with
# control or bidi characters is shown neutralised
python3 - "$T/foreign.json" "$T/foreign2.json" <<'PY'
import json, sys
rec = {"dataType": "CVE_RECORD", "dataVersion": "5.1",
       "cveMetadata": {"cveId": "CVE-2024-99999\nCVE-2099-0001\tinvalid\tx\ty", "assignerOrgId": "o",
                       "assignerShortName": "evil\x1b]0;owned\x07\u202e"},
       "containers": {"cna": {"affected": [{"vendor": "Linux", "product": "Linux"}]}}}
json.dump(rec, open(sys.argv[1], "w"))
rec["cveMetadata"]["cveId"] = "CVE-2024-99999"
json.dump(rec, open(sys.argv[2], "w"))
PY
refuse_line "foreign: forged cveId" "not a CVE id" K foreign --supported 6.1 "$T/foreign.json"
! grep -q "CVE-2099" "$T/out" || fail "foreign: forged row printed"
K foreign --supported 6.1 "$T/foreign2.json" > "$T/out" 2> "$T/err" || fail "foreign: $(cat "$T/err")"
grep -q "^CVE-2024-99999" "$T/out" || fail "foreign: record not classified: $(cat "$T/out")"
no_control "$T/out" "$T/err"
if grep -q $'\u202e' "$T/out"; then fail "foreign: bidi control printed"; fi

# kcve kbuild quotes makefile text in its answers: shown without ESC, OSC or bidi controls
python3 - "$T/ksrc" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["KCVE_SRC"], "tests/check"))
import mktree
mktree.kernel_source(sys.argv[1])
open(os.path.join(sys.argv[1], "drivers/Makefile"), "w").write(
    "obj-$(CONFIG_FOO\x1b]0;owned\x07\x1b[31m\u202e) += x.o\n")
PY
"$KCVE" kbuild --config "$T/ksrc.config" --source "$T/ksrc" drivers/x.c > "$T/out" 2> "$T/err" || true
grep -q "drivers/x.c" "$T/out" || fail "kbuild: no answer: $(cat "$T/out" "$T/err")"
no_control "$T/out" "$T/err"
if grep -q $'\u202e' "$T/out"; then fail "kbuild: bidi control printed"; fi

# one id rule everywhere (the CVE JSON 5 schema's: 4 to 19 digits): a 19-digit id is an id
# for the store as for check, a 20-digit one for neither
K reserve add CVE-2024-1234567890123456789 > /dev/null || fail "19-digit id refused by reserve add"
K reserve list | grep -q "^CVE-2024-1234567890123456789 free" || fail "19-digit id not listed"
set +e
K reserve add CVE-2024-12345678901234567890 > /dev/null 2>&1
rc=$?
set -e
[ "$rc" = 2 ] || fail "20-digit id: reserve add exit $rc, want 2"

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
# the .dyad's header forged too: the .json's references still name the fix
cp "$P/CVE-2024-10000.dyad" "$T/dyad.saved"
sed -i "s/for git id $FIX_A/for git id $INTRO_OF_A/" "$P/CVE-2024-10000.dyad"
! grep -q "for git id $FIX_A" "$P/CVE-2024-10000.dyad" && ! grep -q "$FIX_A" "$P/CVE-2024-10000.sha1" || fail "the fix is still named"
grep -q "stable/c/$FIX_A" "$J" || fail "the .json does not reference the fix"
refuse_line "create for a fix a record's .json references" "already has a CVE (CVE-2024-10000" K create "$FIX_A" CVE-2024-10001
# (verify accepts a .sha1 and a .dyad header that agree with each other but not with the
# .json: 7 real records have a .json made from another id of their fix)
# a rejected record counts too (reassigned only with --force)
cp "$T/dyad.saved" "$P/CVE-2024-10000.dyad"
cp "$T/sha1.saved" "$P/CVE-2024-10000.sha1"
K reject CVE-2024-10000 --reason "test" > /dev/null 2>&1 || fail "reject"
R2=$V/cve/rejected/2024
echo "$INTRO_OF_A" > "$R2/CVE-2024-10000.sha1"
sed -i "s/for git id $FIX_A/for git id $INTRO_OF_A/" "$R2/CVE-2024-10000.dyad"
refuse_line "create for a fix a rejected record's .json references" "already has a CVE (CVE-2024-10000, rejected" K create "$FIX_A" CVE-2024-10001
[ -e "$V/cve/reserved/2024/CVE-2024-10001" ] || fail "the reserved id was used"
echo "all forged records refused or neutralised"
