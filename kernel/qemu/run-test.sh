#!/usr/bin/env bash
# QEMU boot test: a kernel built from the PATCHED linux-source-6.1 (build-kernel.sh) boots with
# an initramfs holding a static kcve (kcve-embedded), a compact CVE database built from the
# real record tree with the kernel's per-file CONFIG conditions, and a tiny init (init.c).
# In the guest `kcve check --running --db` runs, modules are loaded, the check runs again to
# show the module marking, and the failure paths run (no config, unknown version, empty db).
# On the host `kcve check --version <same> --config <same .config> --source <patched tree>`
# runs; the test asserts both lists are equal, that the guest used /proc/config.gz and that
# it reported the release it was booted with.
# Usage: kernel/qemu/run-test.sh [--work DIR]   (env: KCVE = host kcve binary, KCVE_SHARED)
# Exit 0 pass, 1 fail, 77 when linux-source-6.1, qemu or ../shared is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${KCVE_QEMU_WORK:-}
while [ $# -gt 0 ]; do
	case $1 in --work) work=$2; shift 2 ;; *) echo "run-test.sh: unknown option $1" >&2; exit 2 ;; esac
done
skip() { echo "qemu test: $* (skipped)"; exit 77; }
[ -f /usr/src/linux-source-6.1.tar.xz ] || [ -n "${KCVE_KERNEL_SRC:-}" ] || skip "linux-source-6.1 not installed"
command -v qemu-system-x86_64 >/dev/null || skip "qemu-system-x86_64 not installed"
[ -f "${KCVE_SHARED:-$top/../shared}/data/vulns-upto-2024.tar.xz" ] || skip "no ../shared record tree"
export KCVE_SHARED=${KCVE_SHARED:-$top/../shared}
kcve=${KCVE:-$top/build/kcve}
[ -n "$work" ] || work=$(mktemp -d)
mkdir -p "$work"; work=$(cd "$work" && pwd)
export KCVE_BUILD=${KCVE_BUILD:-$work}
fail=0
bad() { echo "qemu test: FAIL: $*"; fail=1; }
t0=$(date +%s)

# 1. kernel
"$here/build-kernel.sh" "$work" || { echo "qemu test: FAIL: kernel build"; exit 1; }
t1=$(date +%s)
krel=$(cat "$work/out/include/config/kernel.release")
echo "qemu test: kernel $krel built in $((t1 - t0)) s"

# 2. static kcve
emb=$work/build-embedded
if [ -f "$emb/build.ninja" ]; then meson setup --reconfigure "$emb" "$top" -Dembedded=true -Dtests=false >/dev/null
else meson setup "$emb" "$top" -Dembedded=true -Dtests=false -Dbuildtype=debugoptimized -Dstrip=true >/dev/null; fi
ninja -C "$emb" kcve-embedded >/dev/null || { echo "qemu test: FAIL: kcve-embedded build"; exit 1; }
file "$emb/kcve-embedded" 2>/dev/null | grep -q 'statically linked' || ldd "$emb/kcve-embedded" 2>&1 | grep -q 'not a dynamic' ||
	bad "kcve-embedded is not statically linked"

# 3. databases: the real tree (+ the kernel's per-file conditions), and an empty file
tree=$("$top/tests/lib/real-tree.sh") || exit $?
"$kcve" db build --tree "$tree" --source "$work/src" -o "$work/kcve.db" >/dev/null || { echo "qemu test: FAIL: db build"; exit 1; }
: > "$work/empty.db"   # an empty (zero-byte) database file must be refused clearly

# 4. initramfs
root=$work/initramfs
rm -rf "$root"; mkdir -p "$root"/{bin,proc,sys,dev,mod,noconf/proc/sys/kernel,bootconf/proc/sys/kernel,bootconf/boot}
gcc -static -Os -Wall -Wextra -Werror -o "$root/init" "$here/init.c" || { echo "qemu test: FAIL: init build"; exit 1; }
cp "$emb/kcve-embedded" "$root/bin/kcve"
cp "$work/kcve.db" "$work/empty.db" "$root/"
# fake roots for the failure paths: no config at all; only /boot/config-RELEASE
for r in noconf bootconf; do echo "$krel" > "$root/$r/proc/sys/kernel/osrelease"; done
cp "$work/out/.config" "$root/bootconf/boot/config-$krel"
# modules to load: nf_tables and virtio_net with their dependencies, deepest first
moddir=$work/modules/lib/modules/$krel
order=()
add_mod() { # relative path in modules.dep
	local m=$1 deps d
	for d in "${order[@]:-}"; do [ "$d" = "$m" ] && return; done
	deps=$(sed -n "s|^$m: *||p" "$moddir/modules.dep")
	for d in $deps; do add_mod "$d"; done
	order+=("$m")
}
for want in nf_tables virtio_net; do
	m=$(grep -o "^[^:]*/$want\.ko[^:]*" "$moddir/modules.dep" | head -1)
	[ -n "$m" ] && add_mod "$m" || bad "module $want was not built"
done
extra=$(grep -o '^[^:]*/crc32c_generic\.ko[^:]*' "$moddir/modules.dep" | head -1)
[ -n "$extra" ] && order=("$extra" "${order[@]}")
steps=$root/steps
{
	printf 'version\t/bin/kcve version\n'
	printf 'check1\t/bin/kcve check --running --db /kcve.db --ids\n'
	for m in "${order[@]}"; do cp "$moddir/$m" "$root/mod/"; printf 'insmod\t!insmod /mod/%s\n' "$(basename "$m")"; done
	printf 'modules\t/bin/kcve check --running --db /kcve.db\n'
	printf 'noconf\t/bin/kcve check --running --root /noconf --db /kcve.db --ids\n'
	printf 'bootconf\t/bin/kcve check --running --root /bootconf --db /kcve.db --ids\n'
	printf 'badversion\t/bin/kcve check --version not-a-kernel --db /kcve.db --ids\n'
	printf 'emptydb\t/bin/kcve check --version %s --db /empty.db --ids\n' "$krel"
} > "$steps"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initramfs.gz"

# 5. boot
t2=$(date +%s)
timeout 300 qemu-system-x86_64 -accel tcg -m 1024 -nographic -no-reboot -nic none \
	-kernel "$work/out/arch/x86/boot/bzImage" -initrd "$work/initramfs.gz" \
	-append "console=ttyS0 panic=-1 loglevel=1 rdinit=/init" > "$work/serial.log" 2>&1
qrc=$?
t3=$(date +%s)
tr -d '\r' < "$work/serial.log" > "$work/serial.txt"
echo "qemu test: boot to power-off $((t3 - t2)) s (qemu exit $qrc), serial log $work/serial.txt"
grep -q '^@@KCVE-DONE@@' "$work/serial.txt" || { tail -30 "$work/serial.txt"; bad "the guest did not finish its steps"; }
section() { awk -v l="$1" '$0 ~ "^@@KCVE-BEGIN "l"@@" {on=1; next} $0 ~ "^@@KCVE-END "l" " {on=0} on' "$work/serial.txt"; }
status() { sed -n "s/^@@KCVE-END $1 rc=\([0-9]*\)@@/\1/p" "$work/serial.txt" | head -1; }

# 6. assertions
guest_rel=$(grep -o '@@KCVE-UNAME [^@]*@@' "$work/serial.txt" | head -1 | sed 's/^@@KCVE-UNAME \(.*\)@@$/\1/')
[ "$guest_rel" = "$krel" ] || bad "guest booted '$guest_rel', expected '$krel'"
section check1 > "$work/guest-check1.txt"
[ "$(status check1)" = 0 ] || { cat "$work/guest-check1.txt"; bad "guest check failed"; }
grep -q "/proc/config.gz" "$work/guest-check1.txt" || bad "guest check did not report reading /proc/config.gz"
grep -q "running kernel $krel" "$work/guest-check1.txt" || bad "guest check did not report the booted release $krel"
ver=$(echo "$krel" | sed 's/[^0-9.].*//')   # "6.1.192+" (git tree build) -> 6.1.192
"$kcve" check --tree "$tree" --version "$ver" --config "$work/out/.config" --source "$work/src" --ids \
	> "$work/host-check.txt" 2> "$work/host-check.err" || { cat "$work/host-check.err"; bad "host check failed"; }
ids() { grep -Eo 'CVE-[0-9]{4}-[0-9]+' "$1" | sort -u; }
ids "$work/guest-check1.txt" > "$work/guest.ids"; ids "$work/host-check.txt" > "$work/host.ids"
echo "qemu test: guest lists $(wc -l < "$work/guest.ids") CVEs, host lists $(wc -l < "$work/host.ids")"
[ -s "$work/host.ids" ] || bad "the host check found no CVE at all (nothing compared)"
cmp -s "$work/guest.ids" "$work/host.ids" || { diff "$work/guest.ids" "$work/host.ids" | head; bad "guest and host CVE lists differ"; }
insmods=$(grep -c '^insmod: loaded' "$work/serial.txt")
[ "$insmods" -ge 2 ] || bad "modules did not load ($insmods loaded)"
section modules > "$work/guest-modules.txt"
grep -q '[1-9][0-9]* modules loaded' "$work/guest-modules.txt" || bad "the second check did not see the loaded modules"
grep -q '\[module loaded\]' "$work/guest-modules.txt" || bad "the second check marks no CVE as being in a loaded module"
section noconf > "$work/guest-noconf.txt"
grep -q 'neither .*proc/config.gz' "$work/guest-noconf.txt" || bad "no clear message without any configuration"
section bootconf > "$work/guest-bootconf.txt"
grep -q "boot/config-$krel" "$work/guest-bootconf.txt" || bad "the /boot/config fallback was not used"
[ "$(status badversion)" != 0 ] && [ "$(section badversion | grep -c 'kcve: error')" = 1 ] || bad "unknown version string not refused with one error line"
section emptydb > "$work/guest-emptydb.txt"
[ "$(status emptydb)" != 0 ] && [ "$(grep -c 'kcve: error' "$work/guest-emptydb.txt")" = 1 ] &&
	[ "$(ids "$work/guest-emptydb.txt" | wc -l)" = 0 ] || bad "an empty db was not refused with one error line"
echo "qemu test: total $(( $(date +%s) - t0 )) s"
[ $fail -eq 0 ] && echo "qemu test: all checks passed"
exit $fail
