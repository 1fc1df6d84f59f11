#!/bin/bash
# The compact database answers like the source (issue 34 item 2), on Debian's real 6.1.192 builds
# (../shared/fixtures/kbuild-debian-6.1: each build's .config and the .c files its debug
# information names) and the whole linux-source-6.1 tree: for every .c file, the condition `db
# build --source` stores, evaluated under the build's .config as `check --db` evaluates it
# (export_eval_tool), against the Kbuild evaluation of the tree (`check --source`).
#  - no file the evaluation compiles is "not compiled" or "unknown" in the db (0 false drops);
#  - no file the real build compiled is "not compiled" or "unknown" in the db (0);
#  - the other differences (the db over-approximating) stay within the bound measured when
#    this test was written, so that a regression shows.
# Skips (77) without the fixture or the linux-source-6.1 package.
set -euo pipefail
: "${KCVE_SRC:?}" "${KCVE_BUILD:?}" "${KCVE_SHARED:?}"
tool=${1:?usage: export_real.sh EXPORT_EVAL_TOOL}
fx=$KCVE_SHARED/fixtures/kbuild-debian-6.1
[ -f "$fx/amd64/config.xz" ] && [ -f "$fx/arm64/config.xz" ] || { echo "skip: $fx absent"; exit 77; }
ksrc=$("$KCVE_SRC/tests/lib/linux-source.sh") || exit $?
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$ksrc" && find . -name '*.c' | sed 's|^\./||' | sort) > "$tmp/all"
[ "$(wc -l < "$tmp/all")" -ge 30000 ] || { echo "FAIL: only $(wc -l < "$tmp/all") .c files in $ksrc"; exit 1; }
fail=0
# over-approximation bound per flavour (files the db calls compiled that the evaluation does not)
declare -A bound=([amd64]=2 [arm64]=4)
for flavour in amd64 arm64; do
	xz -dc "$fx/$flavour/config.xz" > "$tmp/config"
	xz -dc "$fx/$flavour/compiled.txt.xz" > "$tmp/compiled"
	"$tool" "$ksrc" "$tmp/config" "$tmp/all" > "$tmp/$flavour.out"
	[ "$(wc -l < "$tmp/$flavour.out")" -eq "$(wc -l < "$tmp/all")" ] || { echo "FAIL: $flavour: tool output incomplete"; fail=1; continue; }
	# source compiled, db not: a CVE of that file would be hidden by --db alone
	awk -F'\t' '$2 == "compiled" && $3 != "compiled"' "$tmp/$flavour.out" > "$tmp/drops"
	if [ -s "$tmp/drops" ]; then
		echo "FAIL: $flavour: $(wc -l < "$tmp/drops") files compiled by the evaluation but not by the db:"
		head -20 "$tmp/drops"
		fail=1
	fi
	# files the real build compiled: the db keeps every one the evaluation keeps
	awk -F'\t' 'NR == FNR { c[$1] = 1; next } ($1 in c)' "$tmp/compiled" "$tmp/$flavour.out" > "$tmp/real"
	[ "$(wc -l < "$tmp/real")" -ge 12000 ] || { echo "FAIL: $flavour: only $(wc -l < "$tmp/real") compiled files in the tree"; fail=1; }
	dbmiss=$(awk -F'\t' '$3 != "compiled"' "$tmp/real" | wc -l)
	srcmiss=$(awk -F'\t' '$2 != "compiled"' "$tmp/real" | wc -l)
	bad=$(awk -F'\t' '$3 != "compiled" && $2 == "compiled"' "$tmp/real" | wc -l)
	[ "$bad" -eq 0 ] || { echo "FAIL: $flavour: $bad really compiled files dropped by the db only"; fail=1; }
	if [ "$dbmiss" -ne 0 ]; then
		echo "FAIL: $flavour: $dbmiss files the real build compiled are not compiled or unknown in the db:"
		awk -F'\t' '$3 != "compiled"' "$tmp/real" | head -20
		fail=1
	fi
	over=$(awk -F'\t' '$2 == "not-compiled" && $3 == "compiled"' "$tmp/$flavour.out" | wc -l)
	if [ "$over" -gt "${bound[$flavour]}" ]; then
		echo "FAIL: $flavour: the db over-approximates $over files (bound ${bound[$flavour]}):"
		awk -F'\t' '$2 == "not-compiled" && $3 == "compiled"' "$tmp/$flavour.out" | head -20
		fail=1
	fi
	echo "$flavour: $(wc -l < "$tmp/real") really compiled files in the tree; not compiled/unknown: db $dbmiss, source $srcmiss; db over-approximates $over; source unknown where the db decides: $(awk -F'\t' '$2 == "unknown" && $3 != "unknown"' "$tmp/$flavour.out" | wc -l)"
done
# a 32-bit x86 configuration made from the amd64 one ($(BITS) is 32, the 32-bit vDSO is built
# by its own gated recipe): no real build to compare with, but still no file the evaluation
# compiles may be dropped by the db
xz -dc "$fx/amd64/config.xz" | sed -e 's/^CONFIG_64BIT=y/# CONFIG_64BIT is not set/' \
	-e 's/^CONFIG_X86_64=y/# CONFIG_X86_64 is not set/' > "$tmp/config"
echo "CONFIG_X86_32=y" >> "$tmp/config"
"$tool" "$ksrc" "$tmp/config" "$tmp/all" > "$tmp/i386.out"
awk -F'\t' '$2 == "compiled" && $3 != "compiled"' "$tmp/i386.out" > "$tmp/drops"
if [ -s "$tmp/drops" ]; then
	echo "FAIL: 32-bit x86: $(wc -l < "$tmp/drops") files compiled by the evaluation but not by the db:"
	head -20 "$tmp/drops"
	fail=1
fi
n32=$(awk -F'\t' '$1 ~ /_32\.c$/ && $2 == "compiled" && $3 == "compiled"' "$tmp/i386.out" | wc -l)
[ "$n32" -ge 20 ] || { echo "FAIL: 32-bit x86: only $n32 *_32.c files compiled by both"; fail=1; }
echo "32-bit x86: $n32 *_32.c files compiled by both; db over-approximates $(awk -F'\t' '$2 == "not-compiled" && $3 == "compiled"' "$tmp/i386.out" | wc -l)"
[ $fail -eq 0 ] && echo "ok: the db keeps every file the evaluation compiles, under both real configs and a 32-bit x86 one"
exit $fail
