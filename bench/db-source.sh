#!/bin/bash
# Cost of `kcve db build --source` (the per-file Kbuild conditions a compact database keeps) on a
# record tree and a kernel tree, for several kcve binaries side by side (e.g. the release build of
# main before and after a change), interleaved run by run so that the machine's load hits them
# alike.  Since issue 34 the conditions are evaluated for every architecture Debian builds.
# usage: bench/db-source.sh VULNS KSRC [KCVE...]   (default build/kcve; RUNS runs each, default 3)
# Prints every run (wall / user / sys / max RSS, the database's size and its condition count), then
# per binary the median CPU time (user+sys: on a loaded machine wall time is mostly waiting for a
# core) and the load average before and after.
set -euo pipefail
vulns=$1 ksrc=$2
shift 2
kcves=("$@")
[ ${#kcves[@]} -gt 0 ] || kcves=(build/kcve)
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "records $vulns, tree $ksrc, $runs runs each"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
	for k in "${!kcves[@]}"; do
		kcve=${kcves[$k]}
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$kcve" db build --tree "$vulns" --source "$ksrc" \
			-o "$tmp/db.$k" > "$tmp/msg" 2>&1
		read -r w u s m < "$tmp/t"
		echo "$u $s" | awk '{print $1 + $2}' >> "$tmp/cpu.$k"
		echo "  run $i $kcve: $w s wall, $u s user, $s s sys, $m KiB; $(stat -c %s "$tmp/db.$k") bytes," \
			"$(grep -o '[0-9]* file conditions' "$tmp/msg")"
	done
done
for k in "${!kcves[@]}"; do
	echo "${kcves[$k]}: CPU user+sys median $(sort -n "$tmp/cpu.$k" | awk '{v[NR] = $1} END {printf "%.2f s", v[int((NR + 1) / 2)]}')"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
