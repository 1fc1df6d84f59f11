#!/usr/bin/env bash
# The reproduced defects of a hostile record tree (empty files, planted journals, names with
# newlines, txn links, links and special files in the tree, output temp files, reruns of
# reserve add, cvss without the lock, a corrupt .json), each as a regression check.
# Every refusal must be one clear line on stderr, and nothing outside the tree may change
# (a sentinel directory with checksums).
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
T=$(mktemp -d)
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "$0")/../store/lib_repo.sh"
. "$(dirname "$0")/lib_hostile.sh"
build_repo
build_tree
"$KCVE" --repo "$R" index >/dev/null 2>&1
K reserve add CVE-2024-10000 CVE-2024-10001 CVE-2024-10002 >/dev/null
K create "$FIX_A" CVE-2024-10000 >/dev/null
ID=CVE-2024-10000
P=$V/cve/published/2024/$ID
make_sentinel
cp -a "$V" "$T/pristine"
reset_tree() { rm -rf "$V"; cp -a "$T/pristine" "$V"; }

# 1. empty files are strings, not uninitialised memory
: > "$P.reference"
K update "$ID" > "$T/out" 2> "$T/err" || true
one_line_or_none "$T/err" "update with an empty .reference"
# uninitialised memory shows as escapes (\u0007, \u00be) or raw non-ASCII bytes
if grep -q '\\u00' "$P.json" || LC_ALL=C grep -q '[^[:print:][:space:]]' "$P.json"; then
	fail "1: garbage in the JSON: $(grep -o '"url"[^,]*' "$P.json" | head -c 200)"
fi
printable "$T/out" "$T/err"
reset_tree
: > "$P.sha1"
set +e; K update "$ID" > "$T/out" 2> "$T/err"; rc=$?; set -e
[ "$rc" != 0 ] || fail "1: update with an empty .sha1 succeeded"
one_line "$T/err" "update with an empty .sha1"
printable "$T/err" "$T/out"
reset_tree
: > "$P.vulnerable"
K update "$ID" > "$T/out" 2> "$T/err" || true
printable "$T/err" "$T/out"
: > "$T/empty.json"
set +e; K branches import "$T/empty.json" > "$T/out" 2> "$T/err"; set -e
if grep -q 0xbe "$T/err"; then fail "1: branches import read garbage: $(cat "$T/err")"; fi
printable "$T/err" "$T/out"
echo "1: empty files ok"

# 2. a planted journal with '..' is refused, never replayed, and read-only commands never
# replay at all
reset_tree
mkdir -p "$V/.kcve"
printf 'kcve-journal 1\ndel ../outside/important\nend\n' > "$V/.kcve/journal.0"
for cmd in "verify" "search $ID" "summary" "stats"; do
	# shellcheck disable=SC2086
	K $cmd > /dev/null 2>&1 || true
	[ -f "$V/.kcve/journal.0" ] || fail "2: '$cmd' touched the planted journal"
done
check_sentinel "2 (read-only commands)"
refuse_line "reserve add CVE-2024-10009" "journal" K reserve add CVE-2024-10009
check_sentinel "2 (journal format 1)"
seal_journal 'del ../outside/important' > "$V/.kcve/journal.0"
refuse_line "reserve add, '..' journal" "journal" K reserve add CVE-2024-10009
seal_journal 'del cve/../../outside/important' > "$V/.kcve/journal.0"
refuse_line "reserve add, cve/.. journal" "journal" K reserve add CVE-2024-10009
# a well-formed journal with a wrong checksum
seal_journal "del cve/published/2024/$ID.mbox" | sed 's/^sum ./sum 0/' > "$V/.kcve/journal.0"
refuse_line "reserve add, bad checksum" "checksum" K reserve add CVE-2024-10009
[ -f "$P.mbox" ] || fail "2: a journal with a bad checksum was replayed"
# verify names a pending journal and does not replay it
seal_journal "del cve/published/2024/$ID.mbox" > "$V/.kcve/journal.0"
set +e; K verify > "$T/out" 2>&1; set -e
grep -q 'pending-journal' "$T/out" || fail "2: verify does not report the pending journal: $(cat "$T/out")"
[ -f "$P.mbox" ] || fail "2: verify replayed a journal"
K verify --recover > /dev/null 2>&1 || true
[ ! -f "$P.mbox" ] || fail "2: verify --recover did not replay a valid journal"
check_sentinel "2"
echo "2: planted journals ok"

# 3. a file name with a newline cannot inject journal steps
reset_tree
touch "$P.x"$'\n'"move cve gone"
refuse_line "reject with a newline name" "control character" K reject "$ID" --reason t
[ -d "$V/cve" ] && [ ! -e "$V/gone" ] || fail "3: cve/ was moved"
[ -f "$P.json" ] || fail "3: the refused reject changed the tree"
set +e; K verify > "$T/out" 2>&1; set -e
grep -q 'unsafe-name' "$T/out" || fail "3: verify does not name the file: $(cat "$T/out")"
[ "$(grep -c 'unsafe-name' "$T/out")" = 1 ] || fail "3: not one line for the name"
echo "3: newline names ok"

# 4. a .kcve/txn.N link never empties its target
reset_tree
mkdir -p "$V/.kcve"
ln -s "$S" "$V/.kcve/txn.9"
set +e; K verify > "$T/out" 2>&1; set -e
grep -q '\.kcve/txn\.9: link' "$T/out" || fail "4: verify does not report the txn link: $(cat "$T/out")"
check_sentinel "4 (verify)"
refuse_line "reserve add with a txn link" "txn.9" K reserve add CVE-2024-10009
check_sentinel "4 (writer)"
echo "4: txn links ok"

# 5. output files: a fresh O_EXCL temp file, renamed into place, the mode kept; a link in
# the place of the output is replaced, not followed
reset_tree
mkdir -m 1777 "$T/shared"
echo private > "$T/shared/out.json" && chmod 600 "$T/shared/out.json"
K record --cve "$ID" --json "$T/shared/out.json" "$FIX_A" > /dev/null 2>&1 || fail "5: record failed"
[ "$(stat -c %a "$T/shared/out.json")" = 600 ] || fail "5: mode of the replaced file not kept: $(stat -c %a "$T/shared/out.json")"
grep -q '"cveId"' "$T/shared/out.json" || fail "5: output not written"
ln -s "$S/important" "$T/shared/link.json"
K record --cve "$ID" --json "$T/shared/link.json" "$FIX_A" > /dev/null 2>&1 || fail "5: record failed"
[ -f "$T/shared/link.json" ] && [ ! -L "$T/shared/link.json" ] || fail "5: the link was not replaced"
[ "$(ls "$T/shared" | grep -c '\.tmp\.' || true)" = 0 ] || fail "5: temp files left: $(ls "$T/shared")"
check_sentinel "5"
echo "5: output files ok"

# 6. links and special files inside the tree are refused, and verify names each of them
reset_tree
echo "secret-token-4242" > "$S/secret.conf"
sentinel_sum > "$T/sentinel.sum"
ln -s "$S/secret.conf" "$P.message"
set +e; K update "$ID" > "$T/out" 2> "$T/err"; set -e
if grep -rq secret-token-4242 "$V/cve"; then fail "6: the secret reached the record"; fi
ln -s "$S/disputes.log" "$V/cve/disputes.log"
set +e
K dispute "$ID" --by nobody@example.org --reason x --reject --no-regenerate > /dev/null 2> "$T/err"
set -e
[ ! -e "$S/disputes.log" ] || fail "6: appended through the disputes.log link"
rm "$V/cve/disputes.log" "$P.message"
mv "$P.sha1" "$T/sha1.saved"
ln -s /dev/zero "$P.sha1"
timeout 60 "$KCVE" --repo "$R" --tree "$V" search "$FIX_A" > /dev/null 2>&1 ||
	{ rc=$?; [ "$rc" != 124 ] && [ "$rc" -lt 128 ] || fail "6: search on .sha1 -> /dev/zero: exit $rc"; }
timeout 60 "$KCVE" --repo "$R" --tree "$V" create "$FIX_B" > /dev/null 2>&1 ||
	{ rc=$?; [ "$rc" != 124 ] && [ "$rc" -lt 128 ] || fail "6: create with .sha1 -> /dev/zero: exit $rc"; }
rm "$P.sha1"
mkfifo "$P.sha1"
ln -s "$S/secret.conf" "$V/cve/published/2024/CVE-2024-10001.reference"
set +e; timeout 60 "$KCVE" --repo "$R" --tree "$V" verify > "$T/out" 2>&1; rc=$?; set -e
[ "$rc" != 124 ] || fail "6: verify hangs on a FIFO"
grep -q "$ID.sha1: special-file" "$T/out" || fail "6: verify does not report the FIFO: $(cat "$T/out")"
grep -q "CVE-2024-10001.reference: link" "$T/out" || fail "6: verify does not report the link: $(cat "$T/out")"
check_sentinel "6"
echo "6: links and special files ok"

# 7. reserve add is idempotent
reset_tree
K reserve add CVE-2024-10001 CVE-2024-10003 > "$T/out" 2> "$T/err" || fail "7: rerun failed: $(cat "$T/err")"
grep -q 'CVE-2024-10001 already reserved' "$T/out" || fail "7: not reported: $(cat "$T/out")"
[ -f "$V/cve/reserved/2024/CVE-2024-10003" ] || fail "7: CVE-2024-10003 not added"
set +e; K reserve add "$ID" CVE-2024-10004 > "$T/out" 2> "$T/err"; rc=$?; set -e
[ "$rc" = 14 ] || fail "7: a published id must still be refused (exit $rc)"
[ -f "$V/cve/reserved/2024/CVE-2024-10004" ] || fail "7: the other id was not added"
echo "7: reserve add reruns ok"

# 8. kcve cvss is a writer: it takes the tree lock (and journals its write)
reset_tree
VEC=CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H
mkdir -p "$V/.kcve"
exec 9> "$V/.kcve/lock"
flock 9
set +e; KCVE_LOCK_TIMEOUT=1 K cvss "$ID" "$VEC" > /dev/null 2> "$T/err"; rc=$?; set -e
exec 9>&-
[ "$rc" = 11 ] || fail "8: cvss did not wait for the tree lock (exit $rc): $(cat "$T/err")"
[ ! -e "$P.cvss" ] || fail "8: cvss wrote without the lock"
for i in 1 2 3 4 5; do
	reset_tree
	K cvss "$ID" "$VEC" > /dev/null 2>&1 &
	K reject "$ID" --reason race > /dev/null 2>&1 || true
	wait
	[ ! -e "$P.cvss" ] || fail "8: orphan published .cvss after cvss || reject (run $i)"
done
echo "8: cvss under the lock ok"

# 13. a corrupt .json is regenerated by update
reset_tree
echo '{"broken": ' > "$P.json"
touch -d '2001-01-01' "$P.sha1" "$P.dyad" "$P.mbox" 2>/dev/null || true
K update "$ID" > "$T/out" 2>&1 || fail "13: update failed: $(cat "$T/out")"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$P.json" ||
	fail "13: the corrupt .json was not regenerated: $(cat "$T/out")"
echo "13: corrupt .json ok"
check_sentinel "end"
echo "repro: OK"
