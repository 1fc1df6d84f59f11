#!/usr/bin/env bash
# The real kernel CNA vote files (needs ../shared): every file under cve/review parses and
# `kcve review --score` runs over them; the number of files it parsed equals an independent count.
set -euo pipefail
tree=$("$KCVE_SRC/tests/lib/real-tree.sh") || exit $?
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
out=$("$KCVE" --tree "$tree" review --score 2>"$work/err") || { cat "$work/err"; exit 1; }
echo "$out" | head -20
parsed=$(echo "$out" | sed -n 's/^\([0-9]*\) vote files parsed.*/\1/p')
expect=$(find "$tree/cve/review/done" -path '*/gsd' -prune -o -type f ! -name '.*' ! -name '*-annotated-*' -print | wc -l)
[ "$parsed" = "$expect" ] || { echo "parsed $parsed files, expected $expect"; exit 1; }
echo "$out" | grep -q 'Reviewer Accuracy Report' || exit 1
# every reviewer line has numbers; sasha reviewed a lot
echo "$out" | grep -Eq '^sasha +[0-9]+ +[0-9]+ +[0-9]+' || { echo "no line for sasha"; exit 1; }
# the proposed/ files and the whole review dir parse as well
"$KCVE" --tree "$tree" review --score --review-dir "$tree/cve/review" > /dev/null
echo "real vote files: ok ($parsed files)"
