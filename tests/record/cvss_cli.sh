#!/usr/bin/env bash
# kcve cvss on a scratch record tree: scoring, writing .cvss files with rationales (file and
# stdin), keeping / refusing an existing rationale on re-scoring, --check, error paths.
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
unset KCVE_TREE KCVE_REPO
UUID=f4215fc3-5b6b-47ff-a258-f7189bd81038
mkdir -p "$T/cve/published/2024" "$T/cve/rejected/2023" "$T/scripts"
echo "$UUID" > "$T/scripts/linux.uuid"
printf '0123456789abcdef0123456789abcdef01234567' > "$T/cve/published/2024/CVE-2024-00001.sha1"
printf '89abcdef0123456789abcdef0123456789abcdef\n' > "$T/cve/rejected/2023/CVE-2023-00002.sha1"
K() { "$KCVE" --tree "$T" cvss "$@"; }
V=CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H
F=$T/cve/published/2024/CVE-2024-00001.cvss

# expect_error CMD...: non-zero exit, exactly one "kcve: error:" line, nothing on stdout
expect_error() {
	local out err rc=0
	out=$("$@" 2>"$T/err") || rc=$?
	[ "$rc" -ne 0 ] || fail "expected failure: $*"
	[ -z "$out" ] || fail "stdout not empty for: $* ($out)"
	[ "$(wc -l < "$T/err")" -eq 1 ] || fail "expected one error line for: $* ($(cat "$T/err"))"
	grep -q '^kcve: error: ' "$T/err" || fail "bad error line: $(cat "$T/err")"
}

# --vector-only: score, severity, canonical order
[ "$(K --vector-only 'CVSS:3.1/A:H/I:H/C:H/S:C/UI:N/PR:N/AC:L/AV:N')" = "10.0  CRITICAL  CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H" ] || fail "vector-only"
K --vector-only CVSS:3.1/AV:P/AC:H/PR:H/UI:R/S:U/C:L/I:L/A:L --json | grep -q '"score": 3.5' || fail "json score"
for bad in CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H \
	CVSS:3.1/AV:N/AC:L garbage ""; do
	expect_error K --vector-only "$bad"
done

# write with a per-metric rationale from a file (indented, unwrapped: rendered canonically)
cat > "$T/rat" <<'R'
  AV:L - The path is reachable only through a local file descriptor opened by the attacker on the affected device node, so the attacker needs a local account.
  AC:L - deterministic
  PR:L - an unprivileged user suffices
  UI:N - nobody else is involved
  S:U - stays within the kernel
  C:N - nothing is disclosed
  I:H - arbitrary write
  A:H - panic
R
[ "$(K CVE-2024-00001 "$V" --rationale "$T/rat")" = "CVE-2024-00001  7.1  HIGH  $V" ] || fail "write output"
head -1 "$F" | grep -qx "$UUID $V" || fail "header line"
grep -qx '    local account.' "$F" || fail "continuation lines are not wrapped/indented: $(cat "$F")"
awk 'NR > 2 && length > 72 { exit 1 }' "$F" || fail "line over 72 columns"
K --check --canonical "$F" || fail "written file is not canonical"
cp "$F" "$T/orig"

# re-scoring with the same vector keeps the rationale; the file is byte-stable
K CVE-2024-00001 "$V" > /dev/null
cmp -s "$F" "$T/orig" || fail "re-score changed the file"
# a different vector without a new rationale is refused (the old one no longer fits)
expect_error K CVE-2024-00001 CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H
cmp -s "$F" "$T/orig" || fail "refused re-score changed the file"
# ... but accepted with a replacement rationale read from stdin, JSON output names the path
sed 's/AV:L - .*/AV:N - now remote/' "$T/rat" | K CVE-2024-00001 CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:H/A:H \
	--rationale - --json > "$T/json"
grep -q "\"path\": \"$F\"" "$T/json" || fail "json path: $(cat "$T/json")"
grep -q '"rationale": "AV:N - now remote\\nAC:L' "$T/json" || fail "json rationale"
grep -q '^AV:N - now remote$' "$F" || fail "replacement not written"
cp "$F" "$T/orig"

# refused rationales: mismatching value, incomplete, whole .cvss file, over 4096 characters
sed 's/I:H - /I:L - /' "$T/rat" > "$T/mismatch"
expect_error K CVE-2024-00001 "$V" --rationale "$T/mismatch"
grep -v 'A:H' "$T/rat" > "$T/incomplete"
expect_error K CVE-2024-00001 "$V" --rationale "$T/incomplete"
expect_error K CVE-2024-00001 "$V" --rationale "$F"
{ printf 'AV:L - '; head -c 5000 /dev/zero | tr '\0' 'x' | fold -w 50 | tr '\n' ' '; echo; grep -v AV "$T/rat" | sed 's/^ *//'; } > "$T/long"
expect_error K CVE-2024-00001 "$V" --rationale "$T/long"
grep -q 4096 "$T/err" || fail "4096 not mentioned: $(cat "$T/err")"
expect_error K CVE-2024-00001 "$V" --rationale "$T/does-not-exist"
cmp -s "$F" "$T/orig" || fail "a refused write changed the file"
ls "$T/cve/published/2024" | grep -v '^CVE-2024-00001\.\(sha1\|cvss\)$' && fail "temporary file left behind"

# unknown / malformed CVE ids; a rejected CVE gets its file under rejected/
expect_error K CVE-2024-99999 "$V"
expect_error K CVE-2024 "$V"
K CVE-2023-00002 CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H > /dev/null
[ -f "$T/cve/rejected/2023/CVE-2023-00002.cvss" ] || fail "rejected CVE not scored"

# --check: the tree is fine; a broken file is listed and fails the run
K --check || fail "check of a good tree"
printf '%s %s\n\nAV:N - wrong\n' "$UUID" "$V" > "$T/cve/published/2024/CVE-2024-00003.cvss"
rc=0; K --check > "$T/check.out" 2>/dev/null || rc=$?
[ "$rc" -ne 0 ] || fail "check passed a broken file"
grep -q 'CVE-2024-00003.cvss: ' "$T/check.out" || fail "broken file not listed"
[ "$(wc -l < "$T/check.out")" -eq 1 ] || fail "good files listed as bad: $(cat "$T/check.out")"
K --check "$F" || fail "single-file check"
# CRLF files are accepted but not canonical
sed 's/$/\r/' "$F" > "$T/crlf.cvss"
K --check "$T/crlf.cvss" || fail "CRLF file rejected"
rc=0; K --check --canonical "$T/crlf.cvss" > /dev/null 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "CRLF file reported canonical"
echo "cvss CLI: ok"
