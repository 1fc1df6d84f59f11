#!/usr/bin/env bash
# Fix fingerprints from the 1.4 M-commit generated history (issue 27: "fingerprints for every
# scenario of the 1.4 M-commit generated history build in at most 2 minutes").
#
#   [FIXES=N] bench/codefix-repo.sh [--cache DIR] [--kcve PATH] [--runs N]
#
# Uses DIR/huge.git (tools/gen-history --size huge --seed 1, generated there if absent; it must
# come from a gen-history with code scenarios: its gen-truth.json has "code_scenarios"). Writes
# one record per planted scenario — every dyad scenario (its mainline fix) and every code
# scenario (its fix and file) — with tests/check/mktree.py (and, with FIXES=N, N more records:
# the first N backported mainline commits of the truth, each a one-line change of a pool
# file, to see the cost per fix and backport), then times
#   kcve db build --tree VULNS --repo huge.git -o kcve.db
# cold (the history index that --repo keeps in huge.git/kcve-index.sqlite removed first, so the
# run builds it: 1.4 M commits) and then N times warm (the index up to date), and prints a
# markdown table. DIR defaults to $KCVE_BENCH_CACHE, else $XDG_CACHE_HOME/kcve-bench, else
# ~/.cache/kcve-bench (bench/check.sh's huge.git); the kcve default is build-release/kcve.
set -euo pipefail
kcve_default=build-release/kcve runs=2 bench_records=0
. "$(dirname "$0")/../tests/lib/bench-check-args.sh" "$@"
nfix=${FIXES:-0}
repo=$cache/huge.git
if [ ! -d "$repo" ]; then
	nice -n 10 python3 "$here/tools/gen-history" --size huge --seed 1 --out "$repo" -v
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$repo/gen-truth.json" "$work/spec.json" "$nfix" <<'EOF'
import json, sys
with open(sys.argv[1]) as f:
    head = json.loads(f.readline().rstrip().rstrip(',') + '}')
    ups = []     # upstream ids of backports, in the truth's order
    seen = set(head['meta']['scenario_commits'])
    for line in f if int(sys.argv[3]) else ():
        i = line.find('"upstream":"')
        if i >= 0:
            up = line[i + 12:i + 52]
            if up not in seen:
                seen.add(up)
                ups.append(up)
                if len(ups) == int(sys.argv[3]):
                    break
if 'code_scenarios' not in head:
    sys.exit('%s has no code scenarios: regenerate it with this tools/gen-history' % sys.argv[1])
spec = []
for s in head['scenarios']:
    spec.append(dict(id='CVE-2098-%05d' % (10000 + len(spec)), fixes=s['fixes'][:1], pairs=[]))
for s in head['code_scenarios']:
    spec.append(dict(id='CVE-2098-%05d' % (10000 + len(spec)), files=[s['file']], fixes=[s['fix']],
                     pairs=[]))
for up in ups:
    spec.append(dict(id='CVE-2098-%05d' % (10000 + len(spec)), fixes=[up], pairs=[]))
json.dump(spec, open(sys.argv[2], 'w'))
print('%d dyad and %d code scenarios, %d more fixes' % (len(head['scenarios']),
                                                      len(head['code_scenarios']), len(ups)))
EOF
python3 "$here/tests/check/mktree.py" "$work/vulns" "$work/spec.json"
nrec=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$work/spec.json")

# t: run the build once, timed; prints "wall cpu maxrss_kb fingerprints"
t() {
	/usr/bin/time -f "%e %U %S %M" -o "$work/t" "$kcve" db build --tree "$work/vulns" --repo "$repo" \
		-o "$work/kcve.db" --json > "$work/out.json" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	read -r w u s m < "$work/t"
	n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["fingerprints"])' "$work/out.json")
	awk -v w="$w" -v u="$u" -v s="$s" -v m="$m" -v n="$n" 'BEGIN{printf "%.2f %.2f %d %s\n", w, u + s, m / 1024, n}'
}
rm -f "$repo"/kcve-index.sqlite "$repo"/kcve-index.sqlite-wal "$repo"/kcve-index.sqlite-shm
load0=$(cut -d' ' -f1-3 /proc/loadavg)
read -r cw cc cm cn < <(t)
rows=()
for i in $(seq "$runs"); do
	read -r w c m n < <(t)
	rows+=("| warm (index up to date), run $i | $w | $c | $m | $n | ≤ 120 s |")
done
commits=$(git --git-dir "$repo" rev-list --all --count)
echo "History: $repo ($commits commits); $nrec records: one per planted scenario, and $nfix backported fixes (FIXES)."
echo "Machine: $(nproc) cores, load average $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; kcve $("$kcve" --version | cut -d' ' -f2)."
echo
echo "| \`db build --tree VULNS --repo huge.git\` | wall s | CPU s (user+sys) | peak RSS MiB | fingerprints | target |"
echo "|---|---|---|---|---|---|"
echo "| cold (builds the history index first) | $cw | $cc | $cm | $cn | ≤ 120 s |"
printf '%s\n' "${rows[@]}"
