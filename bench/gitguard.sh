#!/usr/bin/env bash
# The cost of the guarded object database (history/gitguard.c: every object's delta chain and
# declared size checked in front of libgit2) on `check --git` and `index`.
#
#   bench/gitguard.sh KCVE_A KCVE_B [RUNS]
#
# Generates tools/gen-history --size medium --seed 1 (65,818 commits, one pack) once in a
# temporary directory, then runs each binary RUNS times (default 7), alternating A and B so
# that the machine's load hits both alike:
#   check --tree T --git REPO --no-git-cache --ids   (T: 4 records; the walk reads every commit)
#   --repo REPO index                                 (index removed before each run)
# and prints per binary and command the median and best CPU time (user+sys) and wall time.
# Compare two builds of the same commit (e.g. a build with the guard and one without) or a
# commit before and after a change; both must be release builds (scripts/build --release).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: bench/gitguard.sh KCVE_A KCVE_B [RUNS]" >&2; exit 2; }
A=$(realpath "$1") B=$(realpath "$2") RUNS=${3:-7}
SRC=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$SRC/tools/gen-history" --size medium --seed 1 --out "$work/linux.git" > /dev/null
R=$work/linux.git
fix=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
head3=$(git -C "$R" rev-parse HEAD~3)
cat > "$work/spec.json" <<EOF
[{"id": "CVE-2099-2001", "title": "a", "files": ["fs/a.c"], "pairs": ["7.2:$head3:7.3:$fix"]},
 {"id": "CVE-2099-2002", "title": "b", "files": ["fs/b.c"], "pairs": ["6.1:$head3:6.2:$fix"]},
 {"id": "CVE-2099-2003", "title": "c", "files": ["fs/c.c"], "pairs": ["5.10:$fix:6.1:$head3"]},
 {"id": "CVE-2099-2004", "title": "d", "files": ["fs/d.c"], "pairs": ["7.3:$fix:7.4:$head3"]}]
EOF
python3 "$SRC/tests/check/mktree.py" "$work/tree" "$work/spec.json"
one() { # LABEL BINARY ARGS... -> "cpu wall" appended to $work/LABEL
	local label=$1 bin=$2
	shift 2
	/usr/bin/time -f "%U %S %e" -o "$work/t" "$bin" "$@" > /dev/null 2>&1 || true
	awk '{printf "%.3f %.3f\n", $1 + $2, $3}' "$work/t" >> "$work/$label"
}
for i in $(seq "$RUNS"); do
	for which in A B; do
		bin=$A
		[ $which = B ] && bin=$B
		one "check-$which" "$bin" check --tree "$work/tree" --git "$R" --no-git-cache --ids
		rm -f "$R"/kcve-index.sqlite*
		one "index-$which" "$bin" --repo "$R" index
	done
done
med() { sort -n | awk '{v[NR] = $1} END {printf "median %.2f s best %.2f s", v[int((NR + 1) / 2)], v[1]}'; }
for cmd in check index; do
	for which in A B; do
		f=$work/$cmd-$which
		echo "$cmd $which: cpu $(cut -d' ' -f1 "$f" | med), wall $(cut -d' ' -f2 "$f" | med) ($RUNS runs)"
	done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
