#!/usr/bin/env bash
# Quality of kcve review's rule-based classifier (QUALITY.md):
#  - recall: the commit messages of the real 2024 published CVEs (the Description section of
#    each .mbox carries the message, trailers already stripped) must be flagged as candidates;
#  - false positives: tests/review/data/nonfix-messages.txt, a labelled set of non-fix changes.
# Usage: bench/review-quality.sh [KCVE_BINARY]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kcve=$(realpath "${1:-$here/build/kcve}")
tarball=${KCVE_SHARED:-$here/../shared}/data/vulns-upto-2024.tar.xz
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tar -xJf "$tarball" -C "$work" vulns/cve/published/2024
mkdir -p "$work/pos" "$work/neg"
/usr/bin/python3 - "$work" "$here/tests/review/data/nonfix-messages.txt" <<'PY'
import glob, os, re, sys
work, nonfix = sys.argv[1], sys.argv[2]
for p in sorted(glob.glob(work + "/vulns/cve/published/2024/*.mbox")):
    t = open(p, encoding="utf-8", errors="replace").read()
    m = re.search(r"has been resolved:\n\n(.*?)\n\nThe Linux kernel CVE team has assigned", t, re.S)
    if m:
        open(os.path.join(work, "pos", os.path.basename(p)[:-5]), "w").write(m.group(1) + "\n")
parts = open(nonfix).read().split("\n%%\n")[1:]
for i, msg in enumerate(parts):
    open(os.path.join(work, "neg", "%03d" % i), "w").write(msg.strip("\n") + "\n")
PY
pos=$(ls "$work/pos" | wc -l); neg=$(ls "$work/neg" | wc -l)
tp=$(cd "$work/pos" && "$kcve" review --classify * 2>/dev/null | awk -F'\t' '$3=="candidate"' | wc -l)
fp=$(cd "$work/neg" && "$kcve" review --classify * 2>/dev/null | awk -F'\t' '$3=="candidate"' | wc -l)
printf '| set | messages | flagged | rate |\n|---|---|---|---|\n'
printf '| real 2024 CVE fixes (recall) | %d | %d | %.1f %% |\n' "$pos" "$tp" "$(echo "100*$tp/$pos" | bc -l)"
printf '| labelled non-fixes (false positives) | %d | %d | %.1f %% |\n' "$neg" "$fp" "$(echo "100*$fp/$neg" | bc -l)"
echo
echo "false positives:"
(cd "$work/neg" && "$kcve" review --classify * 2>/dev/null | awk -F'\t' '$3=="candidate"{print "  " $1 ": " $4}')
