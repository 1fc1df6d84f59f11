#!/usr/bin/env bash
# One patch of N hunks on one file (issue 35 item 3): `db build --patches` and `check --source`
# (the fixed and the vulnerable tree) at 1,000 / 10,000 / 100,000 hunks, and the worst case a
# hunk can be (--wide: 600 lines standing at 16 places; 200 hunks), each timed once with
# /usr/bin/time. Inputs from bench/codefix-hunks.py in $KCVE_BENCH_CACHE/codefix-hunks.
# Usage: KCVE=build-release/kcve bench/codefix-hunks.sh [N...]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
K=${KCVE:-$src/build-release/kcve}
W=${KCVE_BENCH_CACHE:-$HOME/.cache/kcve-bench}/codefix-hunks
mkdir -p "$W"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000 wide)
code_of() { python3 -c '
import json, sys
c = json.load(sys.stdin)["results"][0]["cves"][0]
print(c.get("code", {}).get("verdict"), c.get("code", {}).get("found"))'; }
for n in "${sizes[@]}"; do
	d=$W/$n
	if [ ! -f "$d/spec.json" ]; then
		if [ "$n" = wide ]; then python3 "$src/bench/codefix-hunks.py" --wide "$d" 200
		else python3 "$src/bench/codefix-hunks.py" "$d" "$n"; fi
		python3 "$src/tests/check/mktree.py" "$d/vulns" "$d/spec.json"
	fi
	/usr/bin/time -f "$n hunks: db build --patches: %e s wall, %U s user, %M KB max RSS" \
		"$K" db build --tree "$d/vulns" --patches "$d/patches" -o "$d/k.db" 2>&1 | grep -v '^kcve:'
	for t in fixed vulnerable; do
		got=$( { /usr/bin/time -f "%e s wall, %U s user, %M KB max RSS" "$K" check --db "$d/k.db" \
			--source "$d/$t" --json --all 2>"$d/err" | code_of; } )
		echo "$n hunks: check --source ($t tree): $(tail -1 "$d/err"); code: $got"
		grep 'warning: code matching' "$d/err" || true
	done
done
uptime
