#!/bin/bash
# kcve kbuild on the real Debian linux-source-6.1 tree with a committed .config (data/small.config):
# the verdicts for the files of data/small-expected.txt must equal what a real build of that config
# produced (the expected file was taken from the build's .o files, see its header).  Also checks the
# condition export and the error paths on real inputs.  Skips (77) without the linux-source-6.1
# package.  Only makefiles and the listed sources are unpacked (once per build directory).
set -euo pipefail
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || { echo "skip: $tarball absent (apt-get install linux-source-6.1)"; exit 77; }
: "${KCVE:?}" "${KCVE_SRC:?}" "${KCVE_BUILD:?}"
data=$KCVE_SRC/tests/kbuild/data
cache=$KCVE_BUILD/kbuild-linux-source-6.1
ksrc=$cache/linux-source-6.1
if [ ! -f "$cache/.done" ]; then
    rm -rf "$cache"
    mkdir -p "$cache"
    members=()
    while IFS=$'\t' read -r path _; do
        case $path in ''|'#'*) continue ;; esac
        members+=("linux-source-6.1/$path")
    done < "$data/small-expected.txt"
    tar -C "$cache" -xJf "$tarball" --wildcards 'linux-source-6.1/*Makefile*' \
        'linux-source-6.1/*Kbuild*' "${members[@]}"
    [ -f "$ksrc/Kbuild" ] && [ -f "$ksrc/arch/x86/Makefile" ] || { echo "FAIL: unpacking $tarball"; exit 1; }
    touch "$cache/.done"
fi
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

[ $fail -eq 0 ] && echo "ok: $n verdicts equal the real build"
exit $fail
