#!/bin/bash
# kcve kbuild over the whole linux-source-6.1 tree under the .config of each of Debian's real
# 6.1 builds (amd64, arm64; $KCVE_SHARED/fixtures/kbuild-debian-6.1): no .c file that the build
# really compiled (a compile unit of vmlinux or a module, or of the vDSO) may be called "not
# compiled" or "unknown" -- a false "not compiled" hides every CVE of the file.  The architecture
# comes from the config (no --arch).  Then --arch that disagrees with such a config is an error
# (exit 22, one line naming both) for kbuild and for check (--source and --db).
# Skips (77) without the fixture or the linux-source-6.1 package.
set -euo pipefail
: "${KCVE:?}" "${KCVE_SRC:?}" "${KCVE_BUILD:?}"
fx=${KCVE_SHARED:-}/fixtures/kbuild-debian-6.1
[ -f "$fx/arm64/compiled.txt.xz" ] || { echo "skip: $fx absent (no ../shared)"; exit 77; }
rc=0
ksrc=$(bash "$KCVE_SRC/tests/lib/linux-source.sh") || rc=$?
[ $rc -eq 0 ] || exit $rc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
(cd "$ksrc" && find . -name '*.c' -type f | sed 's|^\./||' | LC_ALL=C sort) > "$tmp/tree"
[ "$(wc -l < "$tmp/tree")" -gt 30000 ] || { echo "FAIL: only $(wc -l < "$tmp/tree") .c files in $ksrc"; exit 1; }

for a in amd64 arm64; do
	xz -dc "$fx/$a/config.xz" > "$tmp/$a.config"
	# the compile units that are files of the tree (the modules' generated .mod.c are not)
	(xz -dc "$fx/$a/compiled.txt.xz"; cat "$fx/$a/vdso.txt") | LC_ALL=C sort -u | LC_ALL=C comm -12 - "$tmp/tree" > "$tmp/$a.want"
	n=$(wc -l < "$tmp/$a.want")
	[ "$n" -gt 12000 ] || { echo "FAIL: $a: only $n compiled files of the tree in the fixture"; fail=1; continue; }
	"$KCVE" kbuild --config "$tmp/$a.config" --source "$ksrc" --files-from "$tmp/$a.want" > "$tmp/$a.out"
	[ "$(wc -l < "$tmp/$a.out")" -eq "$n" ] || { echo "FAIL: $a: $n files asked, $(wc -l < "$tmp/$a.out") answered"; fail=1; }
	awk -F'\t' '$2 != "compiled"' "$tmp/$a.out" > "$tmp/$a.bad"
	if [ -s "$tmp/$a.bad" ]; then
		echo "FAIL: $a: $(wc -l < "$tmp/$a.bad") of the $n files Debian's build compiled are not called compiled:"
		sed 's/^/  /' "$tmp/$a.bad"
		fail=1
	else
		echo "ok: $a: all $n files Debian's build compiled (vmlinux, modules, vDSO) are compiled"
	fi
done

# --arch against the config: an error naming both, exit 22, one line; the matching name is fine
expect_arch_error() { # what config arch cmd...
	local what=$1 config=$2 arch=$3; shift 3
	local r=0
	"$@" > /dev/null 2> "$tmp/err" || r=$?
	if [ $r -ne 22 ] || [ "$(wc -l < "$tmp/err")" -ne 1 ] || ! grep -q "'$arch'" "$tmp/err" || ! grep -q "$config" "$tmp/err"; then
		echo "FAIL: $what: exit $r, want 22 and one line naming '$arch' and $config: $(cat "$tmp/err")"
		fail=1
	fi
}
expect_arch_error "kbuild arm64 config --arch x86" arm64 x86 \
	"$KCVE" kbuild --config "$tmp/arm64.config" --source "$ksrc" --arch x86 init/main.c
expect_arch_error "kbuild amd64 config --arch arm64" x86 arm64 \
	"$KCVE" kbuild --config "$tmp/amd64.config" --source "$ksrc" --arch arm64 init/main.c
expect_arch_error "kbuild amd64 config --arch i386" 64-bit i386 \
	"$KCVE" kbuild --config "$tmp/amd64.config" --source "$ksrc" --arch i386 init/main.c
for ok in arm64; do
	"$KCVE" kbuild --config "$tmp/arm64.config" --source "$ksrc" --arch $ok init/main.c | grep -q $'\tcompiled\t' \
		|| { echo "FAIL: --arch $ok with the arm64 config"; fail=1; }
done
for ok in x86 x86_64; do
	"$KCVE" kbuild --config "$tmp/amd64.config" --source "$ksrc" --arch $ok init/main.c | grep -q $'\tcompiled\t' \
		|| { echo "FAIL: --arch $ok with the amd64 config"; fail=1; }
done
# check --config: the same error before any record is read
S=1111111111111111111111111111111111111111
printf '[{"id": "CVE-2099-0001", "title": "t", "files": ["init/main.c"], "pairs": ["5.10:%s:6.1.100:%s"]}]\n' $S $S > "$tmp/spec.json"
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$tmp/records" "$tmp/spec.json"
expect_arch_error "check arm64 config --arch x86" arm64 x86 \
	"$KCVE" check --tree "$tmp/records" --config "$tmp/arm64.config" --source "$ksrc" --arch x86 --version 6.1.1
# check --db (conditions kept by db build --source) --config: the same error
"$KCVE" db build --tree "$tmp/records" -o "$tmp/k.db" --source "$ksrc" > /dev/null 2>&1 \
	|| { echo "FAIL: db build --source"; fail=1; }
expect_arch_error "check --db arm64 config --arch x86" arm64 x86 \
	"$KCVE" check --db "$tmp/k.db" --config "$tmp/arm64.config" --arch x86 --version 6.1.1
exit $fail
