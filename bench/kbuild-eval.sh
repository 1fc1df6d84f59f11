#!/bin/bash
# Whole-tree Kbuild evaluation time for one .config (issue 5 / issue 34 target: <= 2 s on a release
# build), and the time for a verdict on every .c file of the tree (which adds the #include "x.c"
# scans and the rules followed from the objects).  Several kcve binaries (e.g. the release build
# of main and of a branch) are run side by side, interleaved run by run so that the machine's load
# hits them alike.
# usage: bench/kbuild-eval.sh KSRC CONFIG [KCVE...]   (default build/kcve; RUNS runs each, default 5)
# Prints every run (wall / user / sys / max RSS), then per binary the min and median wall time of
# each measure (and the CPU time of the whole-tree verdicts: on a loaded machine wall time is
# mostly waiting for a core), and the load average before and after.
set -euo pipefail
ksrc=$1 config=$2
shift 2
kcves=("$@")
[ ${#kcves[@]} -gt 0 ] || kcves=(build/kcve)
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$ksrc" && find . -name '*.c' -type f | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/files"
echo "config $config, tree $ksrc ($(wc -l < "$tmp/files") .c files), $runs runs each"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
	for k in "${!kcves[@]}"; do
		kcve=${kcves[$k]}
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$kcve" kbuild --config "$config" --source "$ksrc" --stats > /dev/null 2>&1
		read -r w u s m < "$tmp/t"
		echo "$w" >> "$tmp/eval.$k"
		echo "  run $i $kcve: evaluation only: $w s wall, $u s user, $s s sys, $m KiB"
		/usr/bin/time -f '%e %U %S %M' -o "$tmp/t" "$kcve" kbuild --config "$config" --source "$ksrc" \
			--files-from "$tmp/files" > "$tmp/out.$k"
		read -r w u s m < "$tmp/t"
		echo "$w" >> "$tmp/all.$k"
		echo "$u $s" | awk '{print $1 + $2}' >> "$tmp/cpu.$k"
		echo "  run $i $kcve: evaluation + verdict for every .c: $w s wall, $u s user, $s s sys, $m KiB"
	done
done
stat() { sort -n "$1" | awk '{v[NR] = $1} END {printf "min %.2f s, median %.2f s", v[1], v[int((NR + 1) / 2)]}'; }
for k in "${!kcves[@]}"; do
	echo "${kcves[$k]}: evaluation only $(stat "$tmp/eval.$k"); every .c $(stat "$tmp/all.$k")" \
		"(CPU user+sys $(stat "$tmp/cpu.$k"));" \
		"$(awk -F'\t' '$2 == "compiled"' "$tmp/out.$k" | wc -l) compiled"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
