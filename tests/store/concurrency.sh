#!/usr/bin/env bash
# 8 `kcve create` processes at once on one tree: the tree lock serialises them, every one gets
# a distinct id, no file is lost, the tree verifies clean.
set -euo pipefail
. "$(dirname "$0")/lib_repo.sh"
build_repo
more_fixes 8
build_tree
ids=""
for i in $(seq 30001 30010); do ids="$ids CVE-2024-$i"; done
K reserve add $ids >/dev/null
"$KCVE" --repo "$R" index >/dev/null 2>&1
i=0
for c in $MORE_FIXES; do
	i=$((i + 1))
	K create "$c" > "$T/out.$i" 2> "$T/err.$i" &
done
wait
cat "$T"/out.* > "$T/all"
cat "$T"/err.* >&2 || true
expect "$(wc -l < "$T/all")" 8 "eight allocations"
expect "$(cut -d' ' -f1 "$T/all" | sort -u | wc -l)" 8 "distinct ids"
expect "$(ls "$V/cve/published/2024/"*.sha1 | wc -l)" 8 "eight .sha1"
expect "$(ls "$V/cve/reserved/2024" | wc -l)" 2 "two ids left"
for c in $MORE_FIXES; do
	grep -q "is assigned to git id $c$" <<< "$(K search "$c")" || fail "lost $c"
done
for f in "$V"/cve/published/2024/*.sha1; do
	b=${f%.sha1}
	for ext in "" .dyad .json .mbox; do [ -f "$b$ext" ] || fail "missing $b$ext"; done
done
K verify > "$T/v" || fail "verify: $(cat "$T/v")"
echo "concurrency: OK"
