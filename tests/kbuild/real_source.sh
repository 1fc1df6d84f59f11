#!/bin/bash
# kcve kbuild on the real Debian linux-source-6.1 tree with a committed .config (data/small.config):
# the verdicts for the files of data/small-expected.txt must equal what a real build of that config
# produced (the expected file was taken from the build's .o files, see its header).  Also checks the
# condition export and the error paths on real inputs.  Skips (77) without the linux-source-6.1
# package.  The tree is tests/lib/linux-source.sh's (unpacked once per build directory, shared with
# the other tests of the real tree).
# Also: boot code, realmode and vDSO files under x86_64_defconfig (data/x86_64_defconfig.config,
# made by `make x86_64_defconfig` of that tree) are compiled by arch recipes, never "not compiled",
# and tools/lib/bpf/relo_core.c is compiled into the kernel when CONFIG_BPF_SYSCALL is set.
set -euo pipefail
: "${KCVE:?}" "${KCVE_SRC:?}" "${KCVE_BUILD:?}"
data=$KCVE_SRC/tests/kbuild/data
ksrc=$("$KCVE_SRC/tests/lib/linux-source.sh") || exit $?
recipe_files=(arch/x86/boot/early_serial_console.c arch/x86/boot/compressed/early_serial_console.c
              arch/x86/boot/compressed/misc.c arch/x86/realmode/rm/wakemain.c
              arch/x86/entry/vdso/vclock_gettime.c)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. verdicts equal the real build
grep -v '^#' "$data/small-expected.txt" | cut -f1 > "$tmp/files"
"$KCVE" kbuild --config "$data/small.config" --source "$ksrc" --files-from "$tmp/files" > "$tmp/out"
n=0
while IFS=$'\t' read -r path want; do
    case $path in ''|'#'*) continue ;; esac
    n=$((n + 1))
    got=$(awk -F'\t' -v p="$path" '$1 == p { print $2 }' "$tmp/out")
    if [ "$got" != "$want" ]; then
        echo "FAIL: $path: kcve says '$got', the real build says '$want': $(grep -F "$path	" "$tmp/out" | cut -f3)"
        fail=1
    fi
done < "$data/small-expected.txt"
[ "$n" -ge 40 ] || { echo "FAIL: only $n expected verdicts"; fail=1; }
# a header is always unknown
"$KCVE" kbuild --config "$data/small.config" --source "$ksrc" include/linux/fs.h | grep -q $'\tunknown\theader' \
    || { echo "FAIL: header not unknown"; fail=1; }

# 2. condition export (config-independent gates)
"$KCVE" kbuild --config "$data/small.config" --source "$ksrc" --export-conditions > "$tmp/cond"
for want in $'fs/ext4/acl.c\tCONFIG_EXT4_FS && CONFIG_EXT4_FS_POSIX_ACL' $'fs/xfs/xfs_inode.c\tCONFIG_XFS_FS' \
            $'kernel/fork.c\ty' $'net/ipv4/tcp.c\tCONFIG_NET && CONFIG_INET' $'drivers/net/virtio_net.c\tCONFIG_VIRTIO_NET'; do
    grep -qxF "$want" "$tmp/cond" || { echo "FAIL: export lacks '$want'"; fail=1; }
done

# 3. errors: malformed .config (exit 13, one line naming the line number), not a kernel tree (7)
printf 'CONFIG_A=y\nnot a config line\n' > "$tmp/bad.config"
set +e
"$KCVE" kbuild --config "$tmp/bad.config" --source "$ksrc" init/main.c > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ $rc -eq 13 ] && grep -q 'line 2' "$tmp/err" && [ "$(wc -l < "$tmp/err")" -eq 1 ] \
    || { echo "FAIL: malformed config: rc=$rc $(cat "$tmp/err")"; fail=1; }
set +e
"$KCVE" kbuild --config "$data/small.config" --source "$tmp" init/main.c > /dev/null 2> "$tmp/err"; rc=$?
set -e
[ $rc -eq 7 ] || { echo "FAIL: non-kernel dir: rc=$rc $(cat "$tmp/err")"; fail=1; }

# 4. x86_64_defconfig: `subdir- += boot` in arch/x86/Kbuild only serves make clean; bzImage's
#    recipe builds the boot code (a real CVE in early_serial_console.c was dropped).  Every one of
#    these files has a .o in a real defconfig build (bench/kbuild-plan.sh).
"$KCVE" kbuild --config "$data/x86_64_defconfig.config" --source "$ksrc" "${recipe_files[@]}" > "$tmp/recipes"
for f in "${recipe_files[@]}"; do
    got=$(awk -F'\t' -v p="$f" '$1 == p { print $2 }' "$tmp/recipes")
    [ "$got" = compiled ] || { echo "FAIL: x86_64_defconfig: $f is '$got', the bzImage/realmode/vDSO recipe compiles it: $(grep -F "$f" "$tmp/recipes" | cut -f3)"; fail=1; }
done
"$KCVE" kbuild --config "$data/x86_64_defconfig.config" --source "$ksrc" --export-conditions > "$tmp/cond"
for want in $'arch/x86/boot/early_serial_console.c\ty' $'arch/x86/boot/compressed/early_serial_console.c\tCONFIG_EARLY_PRINTK'; do
    grep -qxF "$want" "$tmp/cond" || { echo "FAIL: export lacks '$want'"; fail=1; }
done

# 5. kernel/bpf/Makefile compiles tools/lib/bpf/relo_core.c as relo_core.o through an explicit rule:
#    part of the kernel when CONFIG_BPF_SYSCALL is (Debian's build has it), not a host program
sed 's/^# CONFIG_BPF_SYSCALL is not set$/CONFIG_BPF_SYSCALL=y/' "$data/x86_64_defconfig.config" > "$tmp/bpf.config"
"$KCVE" kbuild --config "$tmp/bpf.config" --source "$ksrc" tools/lib/bpf/relo_core.c > "$tmp/relo"
grep -q $'^tools/lib/bpf/relo_core.c\tcompiled\t.*kernel/bpf/relo_core.o by the explicit rule at kernel/bpf/Makefile' "$tmp/relo" \
    || { echo "FAIL: relo_core.c with CONFIG_BPF_SYSCALL=y: $(cat "$tmp/relo")"; fail=1; }

[ $fail -eq 0 ] && echo "ok: $n verdicts equal the real build"
exit $fail
