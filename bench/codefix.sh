#!/usr/bin/env bash
# check --source over a full kernel tree with a fix fingerprint for every record (issue 27):
# unpacks Debian's linux-source-6.1 (the .deb given, or the one the codefix fixture test
# cached) and the real 2024 record tree into $KCVE_BENCH_CACHE/codefix, makes one synthetic
# fix per record from a real place of the tree (bench/codefix-synth.py), builds the db
# (size with and without fingerprints) and times `check --db --source` three times.
# Usage: KCVE=build-release/kcve bench/codefix.sh [linux-source-6.1_*.deb]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
K=${KCVE:-$src/build-release/kcve}
W=${KCVE_BENCH_CACHE:-$HOME/.cache/kcve-bench}/codefix
# the .deb the codefix fixture test downloaded (its cache rule: tests/codefix/fixture.py)
fixcache=${KCVE_CODEFIX_CACHE:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/kcve}}
fixcache=${fixcache:-/var/tmp/kcve-codefix-cache}
deb=${1:-$(ls "$fixcache"/codefix-6.1/linux-source-6.1_6.1.192-*_all.deb 2>/dev/null | head -1)}
mkdir -p "$W"
cd "$W"
if [ ! -d linux-source-6.1 ]; then
	[ -f "$deb" ] || { echo "bench/codefix.sh: give linux-source-6.1_*.deb (apt-get download linux-source-6.1)"; exit 2; }
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/linux-source-6.1.tar.xz | tar -xJ
fi
[ -d vulns ] || { mkdir vulns; tar xJf "$src/../shared/data/vulns-upto-2024.tar.xz" -C vulns; }
[ -d patches ] || python3 "$src/bench/codefix-synth.py" linux-source-6.1 vulns/vulns patches
"$K" db build --tree vulns/vulns -o nofp.db 2>/dev/null
/usr/bin/time -f "db build --patches: %e s wall, %U s user" \
	"$K" db build --tree vulns/vulns --patches patches -o fp.db
ls -l nofp.db fp.db
for i in 1 2 3; do
	/usr/bin/time -f "check --source: %e s wall, %U s user, %S s sys, %M KB max RSS" \
		"$K" check --db fp.db --source linux-source-6.1 --json --all > out.json
done
uptime
