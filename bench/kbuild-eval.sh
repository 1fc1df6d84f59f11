#!/bin/bash
# Whole-tree Kbuild evaluation time for one .config (issue 5 target: <= 2 s), and the time for a
# verdict on every .c file of the tree (which adds the #include "x.c" scans).
# usage: bench/kbuild-eval.sh KSRC CONFIG [KCVE]   (5 runs each; prints every run)
set -euo pipefail
ksrc=$1 config=$2 kcve=${3:-build/kcve}
files=$(mktemp)
trap 'rm -f "$files"' EXIT
(cd "$ksrc" && find . -name '*.c' -type f | sed 's|^\./||' | LC_ALL=C sort) > "$files"
echo "evaluation only (kcve kbuild --config $config --source $ksrc --stats):"
for i in 1 2 3 4 5; do "$kcve" kbuild --config "$config" --source "$ksrc" --stats 2>&1 >/dev/null | sed 's/^/  /'; done
echo "evaluation + verdict for all $(wc -l < "$files") .c files (wall / user / sys):"
for i in 1 2 3 4 5; do
    /usr/bin/time -f '  %e s wall, %U s user, %S s sys, %M KiB' \
        "$kcve" kbuild --config "$config" --source "$ksrc" --files-from "$files" > /dev/null
done
