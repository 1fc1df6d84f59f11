#!/usr/bin/env bash
# kcve maintainers vs scripts/get_maintainer.pl on an unpacked linux-source-6.1 tree:
# per-file address-set comparison of the fixed-seed sample (see
# tests/maintainers/peer_get_maintainer.py) plus one timed run of each tool over all sampled
# files at once (get_maintainer.pl --nogit --nogit-fallback --norolestats -f F1 ... FN).
#   bench/maintainers-peer.sh [TREE] [KCVE]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/src/linux-source-6.1}
export KCVE=${2:-$here/build/kcve}
exec /usr/bin/python3 "$here/tests/maintainers/peer_get_maintainer.py" --tree "$tree" --times
