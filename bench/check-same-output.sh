#!/usr/bin/env bash
# Does a change to `kcve check` keep its output byte for byte?  Runs two kcve binaries (the
# one built from main before the change, and the changed one) on the real 2024 record tree and
# compares every output:
#
#   bench/check-same-output.sh --base OLD-KCVE --new NEW-KCVE [--tree VULNS] [--keep DIR]
#
# Checked, by each binary in turn on a fresh copy of the tree at the same path (so each builds
# its own .kcve/check-cache and the messages name the same paths), with KCVE_NOW fixed (the age and end-of-life warnings depend on it):
#   check --json            for ten releases (4.19, 5.4, 5.10, 5.15, 6.1, 6.6, an -rc, an old
#                           end-of-life branch, the newest release the records know, 6.1 again
#                           with --fixed-in --all); stderr too
#   check --ids / table     the ten releases in one run (multi-release path)
#   check --db              a database built by each binary, one release
#   check --batch           1,000 kernels: releases of every branch, -rc, bad lines, per-file
#                           verdict lists (`kcve db files` format) under 20 paths, --fixed-in
# Not a CI test: the base binary is main's, which CI does not have; the command and its result
# go into the report of the change.  --tree defaults to ../shared/data/vulns-upto-2024.tar.xz
# unpacked into a temporary directory.  Exit 0 when everything is identical.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base='' new='' tree='' keep=''
while [ $# -gt 0 ]; do
	case $1 in
	--base) base=$2; shift 2 ;;
	--new) new=$2; shift 2 ;;
	--tree) tree=$2; shift 2 ;;
	--keep) keep=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0"; exit 0 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done
[ -x "$base" ] && [ -x "$new" ] || { echo "give --base KCVE and --new KCVE" >&2; exit 2; }
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
if [ -z "$tree" ]; then
	tar -C "$work" -xJf "${KCVE_SHARED:-$here/../shared}/data/vulns-upto-2024.tar.xz"
	tree=$work/vulns
fi
export KCVE_NOW=1735689600 # 2025-01-01
unset KCVE_TREE KCVE_ROOT KCVE_VEX_AUTHOR
rels=(4.19.300 5.4.250 5.10.200 5.15.150 6.1.100 6.6.50 6.12-rc3 4.9.337 6.12.7 3.16.85)

# run NAME KCVE TREE-COPY: every output of one binary into $work/NAME/
run() {
	local o=$work/$1 k=$2 t=$3 i=0
	mkdir -p "$o"
	rm -rf "$t"; cp -a "$tree" "$t"; rm -rf "$t/.kcve"
	for r in "${rels[@]}"; do
		"$k" check --tree "$t" --version "$r" --json >"$o/json-$i" 2>"$o/json-$i.err" || echo "rc $?" >>"$o/json-$i.err"
		i=$((i + 1))
	done
	"$k" check --tree "$t" --version 6.1.100 --json --fixed-in --all >"$o/json-all" 2>&1 || true
	"$k" check --tree "$t" --version "$(IFS=,; echo "${rels[*]}")" --ids >"$o/ids" 2>&1 || true
	"$k" check --tree "$t" --version 5.15.150,6.6.50 --fixed-in >"$o/table" 2>&1 || true
	"$k" db build --tree "$t" -o "$work/k.kdb" >/dev/null 2>&1
	"$k" check --db "$work/k.kdb" --version 5.10.200 --json >"$o/db-json" 2>"$o/db-json.err" || true
	rm -f "$work/k.kdb"
	"$k" check --tree "$t" --batch "$work/fleet" >"$o/batch" 2>"$o/batch.err" || echo "rc $?" >>"$o/batch.err"
	"$k" check --tree "$t" --batch "$work/fleet" --fixed-in >"$o/batch-fixed" 2>&1 || true
	rm -rf "$t"
}

# the fleet: per-file verdict lists over the records' programFiles (a fixed hash decides each
# file), 1,000 kernels over every branch the records name, a few -rc and bad lines
"$new" check --tree "$tree" --version 6.1.100 --json --all --no-cache >"$work/all.json" 2>/dev/null
python3 - "$work" <<'EOF'
import json, sys, zlib
work = sys.argv[1]
files = sorted({f for r in json.load(open(work + "/all.json"))["results"] for c in r["cves"]
                for f in c.get("files", [])})
for j in range(20):
    with open("%s/p%d.files" % (work, j), "w") as f:
        for p in files:
            h = zlib.crc32(("%d:%s" % (j % 5, p)).encode()) % 10
            f.write("%s\t%s\t\n" % (p, "compiled" if h < 4 else "unknown" if h == 9 else "not-compiled"))
vers = ["%s.%d" % (b, i) for b in ("4.14", "4.19", "5.4", "5.10", "5.15", "6.1", "6.6", "6.11", "6.12")
        for i in range(1, 330, 7)] + ["6.12-rc%d" % i for i in range(1, 8)] + ["5.3.7", "2.6.32.71"]
with open(work + "/fleet", "w") as f:
    for i in range(1000):
        if i % 97 == 0:
            f.write("banana - broken-%d\n" % i)
            continue
        fs = "-" if i % 3 == 0 else "%s/p%d.files" % (work, i % 20)
        f.write("%s %s host-%04d\n" % (vers[(i * 7) % len(vers)], fs, i))
EOF
[ "$(grep -c '"files"' "$work/all.json" || true)" -gt 0 ] || { echo "no programFiles found" >&2; exit 1; }

run base "$base" "$work/tree"
run new "$new" "$work/tree"
n=0 same=0
for f in "$work"/base/*; do
	n=$((n + 1))
	g=$work/new/$(basename "$f")
	if cmp -s "$f" "$g"; then same=$((same + 1)); else echo "DIFFERS: $(basename "$f")"; diff "$f" "$g" | head -5 || true; fi
done
echo "identical: $same of $n outputs ($(cat "$work"/base/json-? | wc -c) bytes of --json, $(wc -l <"$work/base/batch") batch lines)"
[ "$same" = "$n" ]
