#!/usr/bin/env bash
# kcve update killed with SIGKILL at random moments (and at every step boundary, through the
# KCVE_TEST_CRASH_STEP hook): afterwards `kcve verify --recover` (verify completes the
# interrupted operation only when asked) is clean every time (each CVE is old or new, never
# mixed), and a rerun completes with exactly the result of an uninterrupted run.
set -euo pipefail
. "$(dirname "$0")/lib_repo.sh"
build_repo
build_tree
K reserve add CVE-2024-20001 CVE-2024-20002 CVE-2024-20003 CVE-2024-20004 >/dev/null
for c in "$FIX_A" "$FIX_B" "$FIX_C" "$FIX_Y"; do K create "$c" >/dev/null; done
# new stable release: backports of FIX_C and FIX_B change two CVEs (6 files)
stable_release
cd "$R"
git checkout -q linux-6.1.y
commit "mm: fix another buggy thing

commit $FIX_B upstream." mm/other.c >/dev/null
git tag v6.1.3
git checkout -q master
cd "$T"
"$KCVE" --repo "$R" index >/dev/null 2>&1 # the index is not what this test kills
cp -a "$V" "$T/stale"
V0=$V
# the reference: one uninterrupted run
V=$T/ref
cp -a "$T/stale" "$V"
start=$(date +%s%N)
K update > "$T/ref.out"
dur_ms=$(( ($(date +%s%N) - start) / 1000000 ))
grep -q '^4 checked, 2 updated, 0 failed$' "$T/ref.out" || fail "reference run: $(cat "$T/ref.out")"
rm -rf "$T/ref/.kcve"
same_as_ref() { diff -r -x .kcve "$T/ref" "$V" > "$T/diff" || fail "$1: tree differs from the reference: $(head -5 "$T/diff")"; }
check_after_kill() { # $1 = label
	set +e
	K verify --recover > "$T/v.out" 2>&1
	local rc=$?
	set -e
	[ "$rc" = 0 ] || fail "$1: verify after the kill: $(cat "$T/v.out")"
	K update > "$T/re.out" 2>&1 || fail "$1: rerun failed: $(cat "$T/re.out")"
	grep -q '^4 checked, [0-9] updated, 0 failed$' <<< "$(tail -1 "$T/re.out")" || fail "$1: rerun: $(cat "$T/re.out")"
	same_as_ref "$1"
}
V=$T/work
# parallel workers (own journals) give the same result
cp -a "$T/stale" "$V"
K update -j 2 > "$T/j2.out"
grep -q '^4 checked, 2 updated, 0 failed$' "$T/j2.out" || fail "-j 2: $(cat "$T/j2.out")"
same_as_ref "-j 2"
K verify > /dev/null || fail "verify after -j 2"
# 1) every step boundary (staging writes, commit point, each rename) deterministically
step=0
while :; do
	rm -rf "$V" && cp -a "$T/stale" "$V"
	set +e
	KCVE_TEST_CRASH_STEP=$step K update > /dev/null 2>&1
	rc=$?
	set -e
	if [ "$rc" = 0 ]; then break; fi
	[ "$rc" = 137 ] || fail "step $step: exit $rc (want SIGKILL)"
	check_after_kill "step $step"
	step=$((step + 1))
done
# the 2 changed CVEs go into one journaled batch: 6 staging writes + the commit + 6 renames
[ "$step" -ge 13 ] || fail "only $step crash points were hit (2 CVEs x 3 writes + commit + 2 x 3 renames)"
echo "deterministic crash points: $step"
# 2) random SIGKILLs over the run time of an uninterrupted update
RANDOM=4242
window=$(( dur_ms > 20 ? dur_ms : 20 ))
for i in $(seq 1 50); do
	rm -rf "$V" && cp -a "$T/stale" "$V"
	K update > /dev/null 2>&1 &
	pid=$!
	delay=$(( RANDOM % window ))
	sleep "$(printf '0.%03d' "$delay")"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	check_after_kill "random kill $i after ${delay}ms"
done
# 3) reject and create are journaled too: a kill at any step leaves the id old or new
crash_steps() { # LABEL CHECK_OLD CHECK_NEW COMMAND...
	local label=$1 old=$2 new=$3 step=0 rc
	shift 3
	while :; do
		rm -rf "$V" && cp -a "$T/stale" "$V"
		set +e
		KCVE_TEST_CRASH_STEP=$step "$@" > /dev/null 2>&1
		rc=$?
		set -e
		K verify --recover > "$T/v.out" 2>&1 || fail "$label step $step: verify: $(cat "$T/v.out")"
		if [ "$rc" = 0 ]; then
			$new || fail "$label: final state"
			break
		fi
		[ "$rc" = 137 ] || fail "$label step $step: exit $rc"
		$old || $new || fail "$label step $step: neither old nor new"
		step=$((step + 1))
	done
	echo "$label: $step crash points"
}
id=$(basename "$(ls "$T/stale/cve/published/2024/"*.sha1 | sed -n 1p)" .sha1)
rej_old() { [ -f "$V/cve/published/2024/$id.json" ] && [ ! -e "$V/cve/rejected/2024/$id" ]; }
rej_new() { [ -f "$V/cve/rejected/2024/$id.mbox.rejected" ] && [ -f "$V/cve/rejected/2024/$id.json" ] &&
	[ -z "$(ls "$V/cve/published/2024" | grep -F "$id" || true)" ]; }
crash_steps reject rej_old rej_new K reject "$id" --reason "crash test"
mkdir -p "$T/stale/cve/reserved/2024" && : > "$T/stale/cve/reserved/2024/CVE-2024-20005"
cre_old() { [ -f "$V/cve/reserved/2024/CVE-2024-20005" ] && [ ! -e "$V/cve/published/2024/CVE-2024-20005.sha1" ]; }
cre_new() { [ ! -e "$V/cve/reserved/2024/CVE-2024-20005" ] && [ -f "$V/cve/published/2024/CVE-2024-20005.mbox" ]; }
crash_steps create cre_old cre_new K create "$FIX_OLD" CVE-2024-20005
echo "crash: OK (window ${window}ms)"
