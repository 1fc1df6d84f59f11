#!/usr/bin/env bash
# Build the QEMU test kernel out of tree from the PATCHED linux-source-6.1 (kernel/apply.sh) in
# its two configurations: tinyconfig + config.fragment + variant-a.fragment, then the same
# with variant-b.fragment applied on top, built INCREMENTALLY in the same output directory
# (the variants differ only in modules, so the second build compiles those modules and relinks
# vmlinux, whose IKCONFIG copy of .config changed). Every requested symbol is checked after
# olddefconfig (which silently drops options whose dependencies are off).
# Result per variant V (a, b): WORKDIR/V/bzImage, WORKDIR/V/config, WORKDIR/V/modules/.
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
# every CONFIG_X=v line of the fragments must be in .config, every "# CONFIG_X is not set" absent
verify() {
	local missing=0 line sym
	while IFS= read -r line; do
		case $line in
		CONFIG_*=*) grep -qx "$line" "$out/.config" || { echo "build-kernel: $line did not survive olddefconfig" >&2; missing=1; } ;;
		"# CONFIG_"*" is not set") sym=${line#\# }; sym=${sym%% *}
			! grep -q "^$sym=" "$out/.config" || { echo "build-kernel: $sym is set, wanted unset" >&2; missing=1; } ;;
		esac
	done < <(cat "$@")
	return $missing
}
build() { # variant: build and keep bzImage, .config and the installed modules
	local v=$1 start
	start=$(date +%s)
	mk bzImage modules > "$work/build-$v.log" 2>&1 || { tail -30 "$work/build-$v.log" >&2; exit 1; }
	rm -rf "$work/$v"
	mkdir -p "$work/$v"
	mk INSTALL_MOD_PATH="$work/$v/modules" modules_install >/dev/null
	cp "$out/arch/x86/boot/bzImage" "$work/$v/bzImage"
	cp "$out/.config" "$work/$v/config"
	echo "build-kernel: variant $v: $(cat "$out/include/config/kernel.release") built in $(( $(date +%s) - start )) s"
}
mk tinyconfig >/dev/null
"$work/src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$here/config.fragment" \
	"$here/variant-a.fragment" >/dev/null
mk olddefconfig >/dev/null
verify "$here/config.fragment" "$here/variant-a.fragment"
build a
"$work/src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$here/variant-b.fragment" >/dev/null
mk olddefconfig >/dev/null
verify "$here/config.fragment" "$here/variant-b.fragment"
build b
