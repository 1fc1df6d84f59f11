#!/usr/bin/env bash
# Sourced (not run) by the `kcve check` benchmarks (bench/check.sh, bench/check-fleet.sh), the
# start they share.  The caller sets kcve_default (binary, relative to the source tree) and runs
# (default run count); this reads --cache DIR, --kcve PATH, --runs N and -h/--help (prints the
# caller's header comment), and unpacks the real 2024 record tree from the shared data once
# into $cache/check/vulns (not when the caller set bench_records=0).  Sets here (the source
# tree), cache, kcve, runs, shared.
here=$(cd "$(dirname "$0")/.." && pwd)
cache=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}
kcve=${KCVE:-$here/$kcve_default}
shared=${KCVE_SHARED:-$here/../shared}
while [ $# -gt 0 ]; do
	case $1 in
	--cache) cache=$2; shift 2 ;;
	--kcve) kcve=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0"; exit 0 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done
mkdir -p "$cache/check"
if [ "${bench_records:-1}" = 1 ] && [ ! -d "$cache/check/vulns/cve/published" ]; then
	tar -C "$cache/check" -xJf "$shared/data/vulns-upto-2024.tar.xz"
fi
