#!/usr/bin/env bash
# Benchmark: full `kcve update` of a synthetic record tree of N CVEs (default 15,000) over a
# generated history (default the 1.4 M-commit huge.git of tools/gen-history).
#   bench/store-update.sh [REPO [N [JOBS]]]     env KCVE (binary), WORK (scratch dir),
#                                               INDEX (history index file, default in the git dir)
# Steps: index the repo (timed separately), pick N released mainline commits that carry a
# Fixes: tag (every Nth of them, spread over history), write one published CVE per commit
# (placeholder + .sha1 only), then
#   run 1: `kcve update -j JOBS`  generates .dyad/.json/.mbox for every CVE (all files new)
#   run 2: `kcve update -j JOBS`  regenerates everything and compares: nothing is rewritten
#   run 3: `kcve update -j JOBS --full` re-renders every record and compares it with the tree
# Run 2 is the steady-state job after a stable release (target <= 30 s on 2 cores); run 3 is
# the worst case (every record rebuilt from git).
set -euo pipefail
REPO=${1:-${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/bench/huge.git}
N=${2:-15000}
JOBS=${3:-2}
KCVE=${KCVE:-$(cd "$(dirname "$0")/.." && pwd)/build/kcve}
WORK=${WORK:-${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/store/bench}
export KCVE_FROM="Bench Sender <bench@example.org>"
rm -rf "$WORK/vulns" && mkdir -p "$WORK/vulns/cve/published" "$WORK/vulns/scripts"
echo f4215fc3-5b6b-47ff-a258-f7189bd81038 > "$WORK/vulns/scripts/linux.uuid"
now() { date +%s.%N; }
t0=$(now)
IDX=${INDEX:-$(git -C "$REPO" rev-parse --absolute-git-dir)/kcve-index.sqlite}
"$KCVE" --repo "$REPO" --index "$IDX" index >/dev/null
t1=$(now)
/usr/bin/python3 - "$IDX" "$WORK/vulns" "$N" <<'PY'
import os, sqlite3, sys, time
idx, root, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
db = sqlite3.connect(idx)
# released mainline fixes whose first Fixes: target shipped in an earlier release (fixes of
# same-release bugs get no CVE, docs/spec/record.md "Issuance policy")
rows = db.execute("select c.id, c.commit_time from commits c join commits f "
                  "on f.id = substr(c.fixes, 1, 40) where c.mainline = 1 "
                  "and c.release not like '%-rc%' and f.release != c.release "
                  "order by c.commit_time, c.id").fetchall()
if len(rows) < n:
    sys.exit("only %d candidate fix commits" % len(rows))
step = len(rows) / n
seq = {}
for i in range(n):
    sha, ct = rows[int(i * step)]
    year = time.gmtime(ct).tm_year
    seq[year] = seq.get(year, 10000) + 1
    d = os.path.join(root, "cve", "published", str(year))
    os.makedirs(d, exist_ok=True)
    cve = "CVE-%d-%d" % (year, seq[year])
    open(os.path.join(d, cve), "w").close()
    with open(os.path.join(d, cve + ".sha1"), "w") as f:
        f.write(sha)
print("%d CVEs over %d years from %d candidates" % (n, len(seq), len(rows)))
PY
# timed KCVE ARGS... > OUT 2> ERR: run kcve and append "wall user sys maxrss_kb" to $WORK/times
timed() { /usr/bin/time -a -o "$WORK/times" -f '%e %U %S %M' "$KCVE" "$@"; }
: > "$WORK/times"
timed --repo "$REPO" --index "$IDX" --tree "$WORK/vulns" update -j "$JOBS" > "$WORK/run1.out" 2> "$WORK/run1.err" || true
timed --repo "$REPO" --index "$IDX" --tree "$WORK/vulns" update -j "$JOBS" > "$WORK/run2.out" 2> "$WORK/run2.err" || true
timed --repo "$REPO" --index "$IDX" --tree "$WORK/vulns" update -j "$JOBS" --full > "$WORK/run3.out" 2> "$WORK/run3.err" || true
"$KCVE" --tree "$WORK/vulns" verify > "$WORK/verify.out" || true
row() { # row N LABEL OUTFILE
    sed -n "${1}p" "$WORK/times" | { read -r w u s m
        printf '%-44s %7.1f s wall %7.1f s CPU %5d MiB  -- %s\n' "$2" "$w" "$(echo "$u + $s" | bc)" \
            $((m / 1024)) "$(tail -1 "$3")"; }
}
printf 'index build/update: %.1f s\n' "$(echo "$t1 - $t0" | bc)"
row 1 'run 1 (all files new):' "$WORK/run1.out"
row 2 'run 2 (steady state, nothing changed):' "$WORK/run2.out"
row 3 'run 3 (--full: re-render and compare all):' "$WORK/run3.out"
echo "verify: $(tail -1 "$WORK/verify.out")"
echo "errors in run 1: $(grep -c 'error' "$WORK/run1.err" || true) (see $WORK/run1.err)"
