#!/usr/bin/env bash
# kcve check on the real 2024 record tree without a db, and for a fleet (issue 18).
#
#   bench/check-fleet.sh [--cache DIR] [--kcve PATH] [--runs N]
#
# Uses ../shared/data/vulns-upto-2024.tar.xz (unpacked once into DIR/check/vulns; a copy is
# made so the tree's .kcve/ cache starts absent). Measures wall and CPU (user+sys):
#   check --tree T --version 6.1.50 --ids, first run (builds .kcve/check-cache)
#   the same, later runs (best and median of N)                 target <= 0.15 s
#   the same with --no-cache, and with --db (for comparison)
#   check --tree T --batch of 100 / 1,000 / 10,000 kernels       target 10,000 <= 10 s
# The fleet: 300 releases (5.10.1-100, 5.15.1-100, 6.1.1-100) x 4 configurations. The
# configurations are per-file verdict lists (`kcve db files` format) drawn from the records'
# programFiles with a fixed hash (40-45 % compiled), stored under 40 paths (10 copies each, to
# exercise deduplication by content); kernel i gets release i mod 300. Output to a file.
set -euo pipefail
kcve_default=build-release/kcve runs=5
. "$(dirname "$0")/../tests/lib/bench-check-args.sh" "$@"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tree=$work/vulns
cp -a "$cache/check/vulns" "$tree"
rm -rf "$tree/.kcve"
# t CMD...: one timed run; prints "wall cpu" seconds
t() {
	/usr/bin/time -f "%e %U %S" -o "$work/t" "$@" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
	awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$work/t"
}
stats() { sort -n | awk '{v[NR]=$1} END {printf "best %.3f, median %.3f", v[1], v[int((NR+1)/2)]}'; }
echo "kcve: $kcve ($(git -C "$here" rev-parse --short HEAD)); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| step | wall s | CPU s |"
echo "|---|---|---|"
q=(check --tree "$tree" --version 6.1.50 --ids)
read -r w c < <(t "$kcve" "${q[@]}")
echo "| \`check --tree\` first run (builds .kcve/check-cache) | $w | $c |"
: >"$work/w"; : >"$work/c"
for _ in $(seq "$runs"); do read -r w c < <(t "$kcve" "${q[@]}"); echo "$w" >>"$work/w"; echo "$c" >>"$work/c"; done
echo "| \`check --tree\` later runs ($runs) | $(stats <"$work/w") | $(stats <"$work/c") |"
read -r w c < <(t "$kcve" "${q[@]}" --no-cache)
echo "| \`check --tree --no-cache\` | $w | $c |"
"$kcve" db build --tree "$tree" -o "$work/vulns.kdb" >/dev/null 2>&1
read -r w c < <(t "$kcve" check --db "$work/vulns.kdb" --version 6.1.50 --ids)
echo "| \`check --db\` | $w | $c |"

# the fleet
"$kcve" check --tree "$tree" --version 6.1.50 --json --all >"$work/all.json"
/usr/bin/python3 - "$work" <<'EOF'
import json, shutil, sys, zlib
work = sys.argv[1]
files = set()
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k == "files" and isinstance(v, list):
                files.update(x for x in v if isinstance(x, str))
            else:
                walk(v)
    elif isinstance(o, list):
        for x in o:
            walk(x)
walk(json.load(open(work + "/all.json")))
for c in range(4):
    with open("%s/cfg%d.files" % (work, c), "w") as f:
        for p in sorted(files):
            h = zlib.crc32(("%d:%s" % (c, p)).encode()) % 10
            f.write("%s\t%s\t\n" % (p, "compiled" if h < 4 else "unknown" if h == 9 else "not-compiled"))
for j in range(40):
    shutil.copy("%s/cfg%d.files" % (work, j % 4), "%s/p%d.files" % (work, j))
vers = ["%s.%d" % (b, i) for b in ("5.10", "5.15", "6.1") for i in range(1, 101)]
for n in (100, 1000, 10000):
    with open("%s/fleet-%d" % (work, n), "w") as f:
        for i in range(n):
            f.write("%s %s/p%d.files host-%05d\n" % (vers[i % 300], work, (i // 300 + i) % 40, i))
EOF
for n in 100 1000 10000; do
	read -r w c < <(t "$kcve" -v check --tree "$tree" --batch "$work/fleet-$n")
	shared_line=$(grep -o '[0-9]* releases, [0-9]* distinct file inputs, [0-9]* evaluations' "$work/err")
	echo "| \`check --batch\` $n kernels ($shared_line; $(wc -c <"$work/out") bytes out) | $w | $c |"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
