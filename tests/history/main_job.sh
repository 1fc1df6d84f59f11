#!/usr/bin/env bash
# scripts/run (the README's main job) on its built-in default, with the kcve under test
# (KCVE_BIN skips deps + build): it must index the generated history and compute pairs for the
# fixes of the newest stable release, and say so in its summary (explaining why the counts
# differ), then end with three "try next" commands that work on the kept workspace.
set -euo pipefail
[ -n "${KCVE:-}" ] || { echo "KCVE not set"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kcve-mainjob.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$(KCVE_BIN=$KCVE KCVE_RUN_DIR=$work "$KCVE_SRC/scripts/run" 2>&1) || { echo "$out"; echo "scripts/run failed"; exit 1; }
echo "$out"
echo "$out" | grep -Eq '^  index +[1-9][0-9]* commits indexed, [1-9][0-9]* releases' || { echo "no index summary"; exit 1; }
echo "$out" | grep -Eq '^  pairs +newest stable release [0-9.]+: [1-9][0-9]* fixes, [1-9][0-9]* vulnerable:fixed pairs' ||
	{ echo "no pairs summary"; exit 1; }
echo "$out" | grep -Eq '^  records +[1-9][0-9]* CVE records' || { echo "no records summary"; exit 1; }
echo "$out" | grep -Eq '^  tree +[1-9][0-9]* CVEs assigned from [1-9][0-9]* fixes .*kcve verify: 0 problems' || { echo "no tree summary"; exit 1; }
echo "$out" | grep -Eq '^  check +kcve check --db: [1-9][0-9]* of the new CVEs apply to ' || { echo "no check summary"; exit 1; }
echo "$out" | grep -Eq '^  total ' || { echo "no total"; exit 1; }
echo "$out" | grep -Eq '^  index .*the other [0-9]+ commits are in no release tag yet, and [0-9]+ tags are no release' ||
	{ echo "index summary does not say why the counts differ"; exit 1; }
mapfile -t next < <(echo "$out" | sed -n '/^try next/,$p' | sed -n 's/^  //p')
[ ${#next[@]} -eq 3 ] || { echo "want three 'try next' commands, got ${#next[@]}"; exit 1; }
for c in "${next[@]}"; do
	eval "$c" >"$work/next.out" 2>&1 || { cat "$work/next.out"; echo "try-next command failed: $c"; exit 1; }
	[ -s "$work/next.out" ] || { echo "try-next command printed nothing: $c"; exit 1; }
done
