#!/usr/bin/env bash
# kcve check benchmarks (issue 5).
#
#   bench/check.sh [--cache DIR] [--kcve PATH] [--runs N]
#
# Uses the real 2024 record tree (../shared/data/vulns-upto-2024.tar.xz, unpacked once into the
# cache) and the synthetic linux-stable history of tools/gen-history (DIR/huge.git, generated
# there if absent; ~1.4 M commits). Measures wall and CPU (user+sys) time:
#   kcve db build --tree                               (not a target; reported)
#   kcve check --db DB --version 6.1.50 --ids          target <= 0.1 s   (best and median of N)
#   kcve check --db DB --version 6.1.50 (table)
#   kcve check --db DB --version <503 releases> --ids  (the batch form used by the tests)
#   kcve check --db DB --git huge.git --ref R --ids    target <= 5 s for a tree of 100,000+
#                                                      commits; R = linux-3.2.y (~240 k
#                                                      reachable commits) and linux-6.1.y (~890 k)
# and prints a markdown table. The page cache is warm (each command runs once before timing).
set -euo pipefail
kcve_default=build/kcve runs=10
. "$(dirname "$0")/../tests/lib/bench-check-args.sh" "$@"
py=/usr/bin/python3
tree="$cache/check/vulns"
repo="$cache/huge.git"
if [ ! -d "$repo" ]; then
	nice -n 10 $py "$here/tools/gen-history" --size huge --out "$repo" -v
fi
db="$cache/check/vulns.kdb"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# t LABEL CMD...: run once to warm up, then once timed; prints "wall cpu" seconds
t() {
	"$@" >/dev/null 2>&1 || true
	/usr/bin/time -f "%e %U %S" -o "$work/t" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$work/t"
}

read -r bw bc < <(t "$kcve" db build --tree "$tree" -o "$db")
dbsize=$(stat -c %s "$db")

walls=(); cpus=()
"$kcve" check --db "$db" --version 6.1.50 --ids >/dev/null
for _ in $(seq "$runs"); do
	/usr/bin/time -f "%e %U %S" -o "$work/t" "$kcve" check --db "$db" --version 6.1.50 --ids >/dev/null
	read -r w u s < "$work/t"
	walls+=("$w"); cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.3f", u+s}')")
done
stats() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{printf "best %.3f, median %.3f", a[1], a[int((NR+1)/2)]}'; }
vw=$(stats "${walls[@]}"); vc=$(stats "${cpus[@]}")
read -r tw tc < <(t "$kcve" check --db "$db" --version 6.1.50)
vs=$($py -c "print(','.join(['5.4']+['5.4.%d'%z for z in range(1,301)]+['6.1']+['6.1.%d'%z for z in range(1,131)]+['6.6']+['6.6.%d'%z for z in range(1,71)]))")
read -r mw mc < <(t "$kcve" check --db "$db" --version "$vs" --ids)

git_row() { # cold: every commit object read (--no-git-cache); warm: the scan cache filled by
	   # the warm-up run, as on every check of a tree after the first
	local ref=$1 n
	n=$(git -C "$repo" rev-list --count "$ref")
	rm -f "$work/scan.cache"
	read -r gw gc < <(t "$kcve" check --db "$db" --git "$repo" --ref "$ref" --ids --no-git-cache)
	echo "| \`check --db --git huge.git --ref $ref --ids\` ($n commits), cold: no scan cache | $gw | $gc | ≤ 5 s |"
	read -r gw gc < <(t "$kcve" check --db "$db" --git "$repo" --ref "$ref" --ids --git-cache "$work/scan.cache")
	echo "| same, warm: scan cache of an earlier run | $gw | $gc | ≤ 5 s |"
}

nrec=$("$kcve" db info "$db" | head -1 | sed 's/.*: \([0-9]*\) records.*/\1/')
load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "Records: vulns-upto-2024 ($nrec published records), compact db $dbsize bytes."
echo "Machine: $(nproc) cores, load average $load during the run; kcve $("$kcve" --version | cut -d' ' -f2)."
echo
echo "| step | wall s | CPU s (user+sys) | target |"
echo "|---|---|---|---|"
echo "| \`db build --tree\` | $bw | $bc | – |"
echo "| \`check --db --version 6.1.50 --ids\` ($runs runs) | $vw | $vc | ≤ 0.1 s |"
echo "| \`check --db --version 6.1.50\` (table) | $tw | $tc | – |"
echo "| \`check --db --version\` 503 releases \`--ids\` | $mw | $mc | – |"
git_row refs/heads/linux-3.2.y
git_row refs/heads/linux-6.1.y
