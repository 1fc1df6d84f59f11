#!/usr/bin/env bash
# History engine benchmarks (issue 2) on the ~1.4 M-commit synthetic linux-stable history.
#
#   bench/history.sh [--cache DIR] [--kcve PATH] [--size huge|medium|small] [--dyads N] [--verify]
#                    [--rounds N]
#
# --rounds N runs the git log floor and the full build alternately N times (default 1) and
# prints their wall and CPU ratios per round (target: full build <= 1.2x the floor's wall).
# --verify also compares the whole index and the planted scenarios with the ground truth
# (tools/check-history-index, not timed).
# Generates the repository once into DIR (default $KCVE_BENCH_CACHE, i.e.
# outside the source tree) with tools/gen-history, then measures wall time and peak RSS
# (/usr/bin/time -v) of:
#   git rev-list --all --count                 (floor: walking the graph)
#   git log --all --format=%H%n%B > /dev/null  (floor: walking + reading every message)
#   kcve index, full build                     target <= 1.2x the git log floor (wall), <= 600 MiB
#   kcve index after one new stable release    target <= 0.3 s (gen-history --extend, not timed)
#   kcve index with nothing new                target <= 0.05 s
#   kcve dyad --batch with N fix commits       target <= 5 s for 10,000
# and prints a markdown table. Each run adds one stable release to the cached repository (the
# incremental step needs a new one); that changes the repository by a few dozen commits.
# The page cache is warm for every step (the first git command reads the pack once before).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}
kcve=${KCVE:-$here/build/kcve}
size=huge
ndyads=10000
verify=0
rounds=1
while [ $# -gt 0 ]; do
	case $1 in
	--cache) cache=$2; shift 2 ;;
	--kcve) kcve=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--dyads) ndyads=$2; shift 2 ;;
	--verify) verify=1; shift ;;
	--rounds) rounds=$2; shift 2 ;;
	-h|--help) sed -n '2,27p' "$0"; exit 0 ;;
	*) echo "bench/history.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -x "$kcve" ] || { echo "bench/history.sh: no kcve binary at $kcve (scripts/build, or --kcve PATH)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/history.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
py=/usr/bin/python3
repo=$cache/$size.git
index=$cache/$size-index.sqlite
truth=$repo/gen-truth.json
mkdir -p "$cache"
work=$(mktemp -d "$cache/run.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ ! -f "$truth" ]; then
	rm -rf "$repo"
	echo "generating the $size history into $repo (once)..." >&2
	/usr/bin/time -v -o "$work/gen.time" nice -n 10 $py "$here/tools/gen-history" --size "$size" --out "$repo" -v
	gen_wall=$(awk -F': ' '/Elapsed/ {print $2}' "$work/gen.time")
	echo "generated in $gen_wall" >&2
fi

rows=()
# measure LABEL TARGET COMMAND...  (stdout of the command goes to $work/out)
measure() {
	local label=$1 target=$2; shift 2
	local cmd="$*" load
	load=$(cut -d' ' -f1 /proc/loadavg)
	cmd=${cmd//$here\//}
	cmd=${cmd//$work\//}
	if ! /usr/bin/time -v -o "$work/time" "$@" >"$work/out" 2>"$work/err"; then
		echo "bench/history.sh: '$cmd' failed:" >&2
		tail -5 "$work/err" >&2
		rows+=("| $label | \`${cmd//$cache/\$CACHE}\` | failed (exit status) | | | $load | $target |")
		return 0
	fi
	local wall rss secs cpu
	cpu=$(awk -F': ' '/User time|System time/ {t += $2} END {printf "%.2f", t}' "$work/time")
	wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time")
	rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
	secs=$(echo "$wall" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
	rows+=("| $label | \`${cmd//$cache/\$CACHE}\` | $secs | $cpu | $((rss / 1024)) | $load | $target |")
	echo "$label: $secs s wall, $cpu s CPU, $((rss / 1024)) MiB, load $load" >&2
	last_secs=$secs last_cpu=$cpu
}

ncommits=$(git --git-dir "$repo" rev-list --all --count)   # also warms the page cache
measure "git rev-list --all --count (floor)" "" git --git-dir "$repo" rev-list --all --count
ratios=()
for round in $(seq "$rounds"); do
	measure "git log --all --format=%H%n%B (floor)" "" sh -c "git --git-dir '$repo' log --all --format=%H%n%B > /dev/null"
	floor_secs=$last_secs floor_cpu=$last_cpu
	rm -f "$index" "$index"-journal "$index"-wal "$index"-shm
	measure "kcve index, full build" "<= 1.2x floor wall, <= 600 MiB" "$kcve" --repo "$repo" --index "$index" index
	ratios+=("round $round: full build / git log floor = $(awk -v a="$last_secs" -v b="$floor_secs" 'BEGIN {printf "%.2f", a / b}')x wall, $(awk -v a="$last_cpu" -v b="$floor_cpu" 'BEGIN {printf "%.2f", a / b}')x CPU")
done
newtag=$($py "$here/tools/gen-history" --extend --out "$repo")
measure "kcve index, incremental ($newtag)" "<= 0.3 s" "$kcve" --repo "$repo" --index "$index" index
measure "kcve index, nothing new" "<= 0.05 s" "$kcve" --repo "$repo" --index "$index" index
nrows=$($py -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from commits').fetchone()[0])" "$index")

# N fix commits from the ground truth: mainline commits that were backported or carry Fixes:
$py - "$truth" "$ndyads" "$work/batch" <<'EOF'
import json, random, sys
truth, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
ups, fixes = set(), []
with open(truth) as f:
    f.readline(); f.readline()
    for line in f:
        line = line.strip().rstrip(',')
        if not line.startswith('"'):
            continue
        sha, _, ent = line.partition(': ')
        e = json.loads(ent)
        if e.get('upstream'):
            ups.add(e['upstream'])
        if e['mainline'] and e['release'] and e.get('fixes'):
            fixes.append(sha.strip('"'))
cands = sorted(ups | set(fixes))
pick = random.Random(1).sample(cands, min(n, len(cands)))
with open(out, 'w') as f:
    for i, sha in enumerate(pick):
        f.write('CVE-2099-%05d %s\n' % (i, sha))
print('%d candidates, %d picked' % (len(cands), len(pick)), file=sys.stderr)
EOF
nbatch=$(wc -l <"$work/batch")
measure "kcve dyad --batch, $nbatch fix commits" "<= 5 s for 10,000" "$kcve" --repo "$repo" --index "$index" dyad --batch "$work/batch"
npairs=$(grep -vc '^#' "$work/out" || true)
verdict=""
if [ "$verify" = 1 ]; then
	verdict=$($py "$here/tools/check-history-index" --repo "$repo" --index "$index" --kcve "$kcve" | tail -2 | tr '\n' ' ')
fi

echo
echo "Repository: \`$size\` synthetic history (tools/gen-history --size $size), $ncommits commits,"
echo "$(git --git-dir "$repo" tag | wc -l) tags, $(git --git-dir "$repo" branch | wc -l) branches; index: $nrows commits."
echo "Machine: $(nproc) CPUs ($(lscpu | awk -F': +' '/Model name/ {print $2; exit}')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM;"
echo "kcve commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'); $(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg)."
echo "dyad batch: $npairs pair lines printed."
[ -z "$verdict" ] || echo "Ground truth check (tools/check-history-index): $verdict"
echo
echo "| step | command | wall s | CPU s (user+sys) | peak RSS MiB | load at start | target |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
printf '%s\n' "${ratios[@]}"
