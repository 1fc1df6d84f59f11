#!/usr/bin/env bash
# Build the QEMU test kernel out of tree from the PATCHED linux-source-6.1 (kernel/apply.sh):
# tinyconfig + config.fragment, then bzImage and modules. Every requested symbol is checked
# after olddefconfig (which silently drops options whose dependencies are off).
# Usage: kernel/qemu/build-kernel.sh WORKDIR      (WORKDIR/src = patched tree, WORKDIR/out = build)
# Uses ccache when installed (CCACHE_DIR defaults to WORKDIR/ccache).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:?usage: build-kernel.sh WORKDIR}
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -d "$work/src" ] || "$here/../apply.sh" "$work/src" "${KCVE_KERNEL_SRC:-/usr/src/linux-source-6.1.tar.xz}"
out=$work/out
mkdir -p "$out"
cc=gcc
if command -v ccache >/dev/null; then cc="ccache gcc"; export CCACHE_DIR=${CCACHE_DIR:-$work/ccache}; fi
mk() { nice -n 10 make -C "$work/src" O="$out" ARCH=x86_64 CC="$cc" -j"$(nproc)" "$@"; }
mk tinyconfig >/dev/null
"$work/src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$here/config.fragment" >/dev/null
mk olddefconfig >/dev/null
missing=0
while IFS= read -r line; do
	case $line in CONFIG_*=*) ;; *) continue ;; esac
	grep -qx "$line" "$out/.config" || { echo "build-kernel: $line did not survive olddefconfig" >&2; missing=1; }
done < "$here/config.fragment"
[ $missing -eq 0 ] || exit 1
start=$(date +%s)
mk bzImage modules > "$work/build.log" 2>&1 || { tail -30 "$work/build.log" >&2; exit 1; }
rm -rf "$work/modules"
mk INSTALL_MOD_PATH="$work/modules" modules_install >/dev/null
echo "build-kernel: $(make -s -C "$work/src" O="$out" kernelrelease 2>/dev/null) built in $(( $(date +%s) - start )) s"
