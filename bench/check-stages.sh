#!/usr/bin/env bash
# Effect of each kcve check stage on the real 2024 record set for kernel builds (issue 5):
# records -> by version -> by .config (Kbuild evaluation) -> by the build's .cmd files.
#
#   bench/check-stages.sh [-k KCVE] [-s KSRC] [-t TREE] VERSION BUILD_DIR...
#
# TREE: an unpacked vulns tree (default: $KCVE_BENCH_CACHE/bench/check/vulns, unpacked from
# ../shared/data/vulns-upto-2024.tar.xz when absent). For each build directory (made by
# bench/kbuild-accuracy.sh) prints one markdown row, plus the config-vs-build cross-check:
# CVEs kept by config whose files the build never compiled, and CVEs dropped by config whose
# files it did compile.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
KCVE=${KCVE:-$here/build/kcve}
KSRC=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/src/linux-source-6.1
TREE=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/bench/check/vulns
while getopts "k:s:t:" o; do
	case $o in
	k) KCVE=$OPTARG ;;
	s) KSRC=$OPTARG ;;
	t) TREE=$OPTARG ;;
	*) sed -n '5p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { sed -n '5p' "$0" >&2; exit 2; }
ver=$1; shift
if [ ! -d "$TREE/cve/published" ]; then
	mkdir -p "$(dirname "$TREE")"
	tar -C "$(dirname "$TREE")" -xJf "$here/../shared/data/vulns-upto-2024.tar.xz"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$KCVE" db build --tree "$TREE" --source "$KSRC" -o "$work/vulns.kdb" >/dev/null
echo "| build | records | by version | by config (undecided) | by build |"
echo "|---|---|---|---|---|"
for b in "$@"; do
	"$KCVE" check --db "$work/vulns.kdb" --version "$ver" --config "$b/.config" --source "$KSRC" \
		--build "$b" --json > "$work/all.json"
	"$KCVE" check --db "$work/vulns.kdb" --version "$ver" --config "$b/.config" --source "$KSRC" \
		--json > "$work/config.json"
	"$KCVE" check --db "$work/vulns.kdb" --version "$ver" --build "$b" --json > "$work/build.json"
	/usr/bin/python3 - "$b" "$work" <<'PY'
import json, os, sys
b, w = sys.argv[1], sys.argv[2]
def res(name):
    return json.load(open(os.path.join(w, name)))["results"][0]
a = res("all.json")
st = {s["name"]: s for s in a["stages"]}
row = [os.path.basename(b.rstrip("/")), st["records"]["count"], st["version"]["count"],
       "%d (%d)" % (st["config"]["count"], st["config"]["undecided"]), st["build"]["count"]]
print("| " + " | ".join(str(x) for x in row) + " |")
# the JSON lists every CVE that passed the version stage with its outcome at the last stage
def outcomes(r):
    return {c["id"]: c["outcome"] for c in r["cves"]}
cfg, bld = outcomes(res("config.json")), outcomes(res("build.json"))
keep = ("affected", "unknown")
n = lambda f: sum(1 for i in cfg if f(cfg[i], bld.get(i)))
print("  config compiled, build not: %d; config not compiled, build compiled: %d; "
      "config undecided -> build kept %d, dropped %d" % (
          n(lambda c, b: c == "affected" and b not in keep),
          n(lambda c, b: c not in keep and b in keep),
          n(lambda c, b: c == "unknown" and b in keep),
          n(lambda c, b: c == "unknown" and b not in keep)), file=sys.stderr)
PY
done
