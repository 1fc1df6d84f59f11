#!/usr/bin/env bash
# A generated "hostile tree" corpus run through every command that reads the record tree
# (under the ASan+UBSan build with LeakSanitizer, as every script test): links (to files
# and directories outside the tree), FIFOs, devices (as root), empty, huge, binary, CRLF and
# NUL-holding files, names with newlines and "..", planted journals and staging links,
# entries of a foreign owner (as root: files planted by `nobody` through setpriv/runuser).
# Expected: nothing outside the tree changes (sentinel directory + checksums), no crash or
# sanitizer report, no hang, and every diagnostic on stderr is one "kcve:" line.
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
T=${HOSTILE_KEEP:-$(mktemp -d)}
chmod 755 "$T"
[ -n "${HOSTILE_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/../store/lib_repo.sh"
. "$(dirname "$0")/lib_hostile.sh"
build_repo
build_tree
"$KCVE" --repo "$R" index >/dev/null 2>&1
K reserve add CVE-2024-10000 CVE-2024-10001 CVE-2024-10002 CVE-2024-10003 CVE-2024-10004 >/dev/null
K create "$FIX_A" CVE-2024-10000 >/dev/null
K create "$FIX_B" CVE-2024-10001 >/dev/null
make_sentinel
echo "secret-token-4242" > "$S/secret.conf"
mkfifo "$S/fifo"
sentinel_sum > "$T/sentinel.sum"
SECRET=secret-token-4242

# ---- the corpus ---------------------------------------------------------------------------
P=$V/cve/published/2024
plant() {
	local p=$P/CVE-2024-10000 q=$P/CVE-2024-10001
	# links to files and directories outside the tree, in every place a record file can be
	ln -sf "$S/secret.conf" "$p.message"
	ln -sf "$S/secret.conf" "$q.reference"
	ln -sf "$S/important" "$V/cve/reserved/2024/CVE-2024-10004"
	ln -sf "$S/dir" "$V/cve/published/2023"
	ln -sf "$S" "$V/cve/rejected"
	ln -sf "$S/disputes.log" "$V/cve/disputes.log"
	ln -sf "$S/secret.conf" "$V/scripts/linux.uuid.new"
	# records `check` loads: a link to a FIFO and one to /dev/zero
	ln -sf "$S/fifo" "$P/CVE-2024-10002.json"
	ln -sf /dev/zero "$P/CVE-2024-10003.json"
	# special files
	mkfifo "$P/CVE-2024-10002.sha1"
	mkfifo "$p.cvss"
	if [ "$(id -u)" = 0 ]; then
		mknod "$P/CVE-2024-10003.sha1" c 1 5 # /dev/zero
		mknod "$q.vulnerable" c 1 3          # /dev/null
	fi
	# empty, huge (sparse, over the read cap), binary, CRLF and NUL-holding files
	: > "$q.mbox"
	truncate -s 70M "$q.dyad"
	head -c 4096 /dev/urandom > "$P/CVE-2024-10005.sha1"
	printf '%s\r\n' "$FIX_C" > "$P/CVE-2024-10006.sha1"
	printf '%s\0garbage\n' "$FIX_C" > "$P/CVE-2024-10007.sha1"
	printf 'x\0y' > "$P/CVE-2024-10007"
	: > "$P/CVE-2024-10006"
	# names with a newline and with ".."
	: > "$p.x"$'\n'"move cve gone"
	: > "$P/CVE-2024-10001..json"
	: > "$P/CVE-2024-10008"$'\n'"..sha1"
	# planted journals and staging entries
	mkdir -p "$V/.kcve"
	printf 'kcve-journal 1\ndel ../outside/important\nend\n' > "$V/.kcve/journal.0"
	seal_journal 'del cve/../../outside/important' 'move cve gone' > "$V/.kcve/journal.1"
	ln -sf "$S/important" "$V/.kcve/journal.2"
	ln -sf "$S/dir" "$V/.kcve/txn.9"
	mkfifo "$V/.kcve/txn.8"
	ln -sf "$S/important" "$V/.kcve/lock"
	if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
		# a valid journal, but planted by another user: never replayed
		seal_journal "del cve/published/2024/CVE-2024-10000.json" > "$V/.kcve/journal.3"
		chown nobody "$V/.kcve/journal.3"
		# a file written by nobody itself (the tree is made writable to it for that)
		chmod 777 "$P"
		if command -v setpriv >/dev/null; then
			setpriv --reuid=nobody --regid=nogroup --clear-groups -- sh -c \
				"ln -s '$S/secret.conf' '$P/CVE-2024-10009.sha1'" || true
		elif command -v runuser >/dev/null; then
			runuser -u nobody -- ln -s "$S/secret.conf" "$P/CVE-2024-10009.sha1" || true
		fi
		chmod 755 "$P"
	fi
}
plant
cp -a "$V" "$T/corpus"
reset_tree() { rm -rf "$V"; cp -a "$T/corpus" "$V"; }

# ---- every command that reads the tree --------------------------------------------------
VEC=CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H
n=0
run() { # LABEL ARGS... (through K, 60 s limit)
	local label=$1 rc
	shift
	set +e
	timeout 60 "$KCVE" --repo "$R" --tree "$V" "$@" > "$T/out" 2> "$T/err"
	rc=$?
	set -e
	n=$((n + 1))
	[ "$rc" != 124 ] || fail "$label: hangs"
	[ "$rc" -lt 128 ] || fail "$label: killed by signal $((rc - 128)): $(tail -5 "$T/err")"
	if grep -q -e 'Sanitizer' -e 'runtime error' "$T/err"; then fail "$label: sanitizer report: $(grep -m3 -e Sanitizer -e 'runtime error' "$T/err")"; fi
	# diagnostics are "kcve: ..." lines; a few commands end with a count summary
	if grep -v -e '^kcve: ' -e '^[0-9][0-9]* [a-z]' -e '^checked [0-9]' "$T/err" | grep -q .; then fail "$label: stderr holds more than 'kcve:' lines: $(head -c 400 "$T/err")"; fi
	no_control "$T/out" "$T/err"
	if grep -q "$SECRET" "$T/out" "$T/err"; then fail "$label: printed a file from outside the tree"; fi
	if grep -rq "$SECRET" "$V/cve" 2>/dev/null; then fail "$label: copied a file from outside the tree into it"; fi
	check_sentinel "$label"
	[ -d "$V/cve" ] && [ ! -e "$V/gone" ] || fail "$label: cve/ was moved"
}
for label in verify summary stats "branches list" "reserve list" "cvss --check"; do
	# shellcheck disable=SC2086
	run "$label" $label
done
run "verify --recover" verify --recover
run "search id" search CVE-2024-10000 CVE-2024-10001 CVE-2024-10002 CVE-2024-10003
run "search sha" search "$FIX_A" "${FIX_C:0:12}"
run "update" update
run "update one" update CVE-2024-10000
run "update --full" update --full
run "db build" db build -o "$T/db.out"
run "report" report --html "$T/report.html"
run "check" check --version 6.1.1
run "publish --dry-run" publish --dry-run
run "record" record --cve CVE-2024-10000 --json "$T/r.json" "$FIX_A"
for c in "reserve add CVE-2024-10010" "reserve-for --requester a@example.org --summary s" \
	"return CVE-2024-10002" "create $FIX_C" "cvss CVE-2024-10000 $VEC" \
	"dispute CVE-2024-10000 --by nobody@example.org --reason x --reject --no-regenerate" \
	"reject CVE-2024-10000 --reason hostile" "reject CVE-2024-10001 --reason hostile"; do
	reset_tree
	# shellcheck disable=SC2086
	run "$c" $c
done
# check stops at the first unreadable record: without the empty one it meets the links
reset_tree
rm "$P/CVE-2024-10001..json"
run "check (record links)" check --version 6.1.1
grep -q 'CVE-2024-1000[23].json' "$T/err" || fail "check does not name the linked record: $(cat "$T/err")"
# the refusals name what they refuse, one line each (a writer meets the planted journals)
reset_tree
run "reserve add (lock link)" reserve add CVE-2024-10010
grep -q 'tree lock: a symbolic link' "$T/err" || fail "writer: the lock link is not named: $(cat "$T/err")"
rm "$V/.kcve/lock"
run "reserve add (journals)" reserve add CVE-2024-10010
grep -q 'journal' "$T/err" || fail "writer: the planted journal is not named: $(cat "$T/err")"
[ "$(wc -l < "$T/err")" = 1 ] || fail "writer: want one line: $(cat "$T/err")"
reset_tree
run "verify (lines)" verify
for rule in link special-file oversize unsafe-name; do
	grep -q ": $rule: " "$T/out" || fail "verify does not report a $rule: $(head -40 "$T/out")"
done
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	grep -q 'journal.3: foreign-owner' "$T/out" || fail "verify does not report the foreign journal"
	rm -f "$V/.kcve/journal.0" "$V/.kcve/journal.1" "$V/.kcve/journal.2" "$V/.kcve/lock"
	run "reserve add (foreign journal)" reserve add CVE-2024-10010
	grep -q 'owned by another user' "$T/err" || fail "foreign journal not refused: $(cat "$T/err")"
	[ -f "$P/CVE-2024-10000.json" ] || fail "the foreign journal was replayed"
fi
echo "corpus: OK ($n runs, root: $([ "$(id -u)" = 0 ] && echo yes || echo no))"
