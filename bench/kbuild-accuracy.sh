#!/bin/bash
# Kbuild evaluator accuracy against a real build (issue 5).
#
# Builds Debian's linux-source-6.1 out of tree with two configurations -- a small one
# (tinyconfig + 64BIT + a few subsystems, some as modules) and x86_64_defconfig -- then asks
# `kcve kbuild` for a verdict on every .c file of the source tree and compares it with the build:
# a .c file is compiled iff its .o exists in the build directory.  Prints agreement per
# configuration and every disagreement with the evaluator's reason.
#
# This is a quality script, not a CI test: a cold build takes 7 min (small) to ~40 min (defconfig)
# on 2 cores.  Builds run under `nice -n 10` with ccache (CCACHE_DIR) and are reused when present.
#
# KBUILD_BUILD_ONLY=1 only builds; KBUILD_COMPARE_ONLY=1 only compares.  Comparing against a build
# that has not finished (no .build-done) restricts the comparison to settled files: those outside
# the top-level units of the root Kbuild (init/, kernel/, fs/, drivers/, ...; never built, or
# built before the first kernel object, like scripts/ and tools/objtool) and those inside units
# whose built-in.a and modules.order already exist (make writes both after the whole subtree);
# arch/x86/boot/ counts once bzImage exists (its recipe runs after vmlinux).
#
# usage: bench/kbuild-accuracy.sh [-s KSRC] [-w WORKDIR] [-k KCVE] [-j N] [small|defconfig]...
#   KSRC     unpacked linux-source-6.1 (default $KCVE_BENCH_CACHE/src/linux-source-6.1, else unpacked
#            from /usr/src/linux-source-6.1.tar.xz into WORKDIR); never modified.
#   WORKDIR  build directories and reports (default $KCVE_BENCH_CACHE/kbuild)
#   KCVE     kcve binary (default build/kcve)
set -euo pipefail

KSRC=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/src/linux-source-6.1
WORK=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/kbuild
KCVE=${KCVE:-build/kcve}
JOBS=2
while getopts "s:w:k:j:" o; do
    case $o in
        s) KSRC=$OPTARG ;;
        w) WORK=$OPTARG ;;
        k) KCVE=$OPTARG ;;
        j) JOBS=$OPTARG ;;
        *) echo "usage: $0 [-s KSRC] [-w WORKDIR] [-k KCVE] [-j N] [small|defconfig]..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
CONFIGS=("$@")
[ ${#CONFIGS[@]} -gt 0 ] || CONFIGS=(small defconfig)
export CCACHE_DIR=${CCACHE_DIR:-${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/ccache}
mkdir -p "$WORK"

if [ ! -f "$KSRC/Makefile" ]; then
    tarball=/usr/src/linux-source-6.1.tar.xz
    [ -f $tarball ] || { echo "no kernel source: $KSRC nor $tarball (apt-get install linux-source-6.1)" >&2; exit 1; }
    KSRC=$WORK/src/linux-source-6.1
    if [ ! -f "$KSRC/Makefile" ]; then
        mkdir -p "$WORK/src"
        tar -C "$WORK/src" -xf $tarball
    fi
fi

kmake() { # kmake BUILDDIR TARGET...
    local b=$1; shift
    nice -n 10 make -s -C "$KSRC" O="$b" CC="ccache gcc" -j"$JOBS" "$@"
}

configure_small() { # tinyconfig + 64BIT + block/ext4/net/pci/virtio, a few modules
    local b=$1
    kmake "$b" tinyconfig
    "$KSRC/scripts/config" --file "$b/.config" \
        -e 64BIT -e MODULES -e MODULE_UNLOAD -e PRINTK -e TTY -e SERIAL_8250 -e SERIAL_8250_CONSOLE \
        -e BLOCK -e NET -e INET -e NETDEVICES -e NET_CORE -e PCI -e VIRTIO_MENU -e VIRTIO_PCI \
        -e ACPI -e PROC_FS -e SYSFS -e DEVTMPFS -e BINFMT_ELF -e BINFMT_SCRIPT -e MULTIUSER \
        -e EXT4_FS -e EXT4_FS_POSIX_ACL -e TMPFS -e VIRTIO_BLK -e IKCONFIG -e IKCONFIG_PROC \
        -m EXT2_FS -m VIRTIO_NET -m TUN -m NETFILTER -m NF_TABLES -m FAT_FS -m VFAT_FS \
        -m BLK_DEV_LOOP -m CRYPTO_SHA256
    kmake "$b" olddefconfig
    # olddefconfig drops what it cannot satisfy: say so instead of measuring a different config
    for s in 64BIT BLOCK NET INET PCI EXT4_FS VIRTIO_PCI; do
        grep -q "^CONFIG_$s=y" "$b/.config" || echo "warning: CONFIG_$s not set after olddefconfig" >&2
    done
}

for c in "${CONFIGS[@]}"; do
    b=$WORK/build-$c
    [ "${KBUILD_COMPARE_ONLY:-0}" = 1 ] && continue
    if [ ! -f "$b/.build-done" ]; then
        mkdir -p "$b"
        case $c in
            small) configure_small "$b" ;;
            defconfig) kmake "$b" x86_64_defconfig ;;
            *) echo "unknown configuration $c" >&2; exit 2 ;;
        esac
        start=$(date +%s)
        kmake "$b" vmlinux bzImage modules
        echo "$c: build took $(( $(date +%s) - start )) s" >&2
        touch "$b/.build-done"
    fi
done

[ "${KBUILD_BUILD_ONLY:-0}" = 1 ] && exit 0

for c in "${CONFIGS[@]}"; do
    b=$WORK/build-$c
    report=$WORK/accuracy-$c.txt
    # every .c of the tree, relative paths, tools/ and scripts/ included (they are never built
    # into vmlinux; the evaluator must say so)
    (cd "$KSRC" && find . -name '*.c' -type f | sed 's|^\./||' | LC_ALL=C sort) > "$WORK/allc.txt"
    "$KCVE" kbuild --config "$b/.config" --source "$KSRC" --stats --files-from "$WORK/allc.txt" \
        > "$WORK/verdicts-$c.txt" 2> "$WORK/stats-$c.txt"
    # second ground truth: every file a compiled object's .cmd names (catches .c files that are
    # #included into another .c, which never get a .o of their own)
    "$KCVE" kbuild --build "$b" --list > "$WORK/cmdlist-$c.txt"
    /usr/bin/python3 - "$b" "$WORK/verdicts-$c.txt" "$c" "$WORK/cmdlist-$c.txt" > "$report" <<'EOF'
import os, sys
build, verdicts, name, cmdlist = sys.argv[1:5]
deps = set(l.strip() for l in open(cmdlist))
done = os.path.exists(os.path.join(build, '.build-done'))
units = ['init', 'usr', 'kernel', 'certs', 'mm', 'fs', 'ipc', 'security', 'crypto', 'block',
         'io_uring', 'rust', 'lib', 'drivers', 'sound', 'samples', 'net', 'virt']
archsub = ['lib', 'pci', 'power', 'video', 'math-emu']
def unit(p):
    parts = p.split('/')
    if parts[0] == 'arch' and len(parts) > 2 and parts[1] == 'x86':
        return 'arch/x86/' + parts[2] if parts[2] in archsub and len(parts) > 3 else 'arch/x86'
    return parts[0] if parts[0] in units else None
def settled(p):
    if done:
        return True
    if p.startswith('arch/x86/boot/'):
        # built by the bzImage recipe after vmlinux, not with arch/x86's built-in.a
        return os.path.exists(os.path.join(build, 'arch/x86/boot/bzImage'))
    u = unit(p)
    return u is None or (os.path.exists(os.path.join(build, u, 'built-in.a')) and
                         os.path.exists(os.path.join(build, u, 'modules.order')))
skipped = 0
def host(p):
    return p.startswith(('scripts/', 'tools/')) or (p.startswith('arch/') and '/tools/' in p)
total = agree = agree2 = 0
hosttotal = hostagree = 0
unknown, wrong = [], []
for line in open(verdicts):
    path, verdict, reason = line.rstrip('\n').split('\t', 2)
    if not settled(path):
        skipped += 1
        continue
    built = os.path.exists(os.path.join(build, path[:-2] + '.o'))
    built2 = built or path in deps
    total += 1
    if host(path):
        hosttotal += 1
    if verdict == 'unknown':
        unknown.append((path, built, reason))
        continue
    ok = (verdict == 'compiled') == built
    ok2 = (verdict == 'compiled') == built2
    agree += ok
    agree2 += ok2
    if host(path):
        hostagree += ok
    if not ok:
        wrong.append((path, verdict, built, built2, reason))
decided = total - len(unknown)
pct = lambda a, b: 100.0 * a / max(b, 1)
if not done:
    print(f"{name}: BUILD NOT FINISHED: {skipped} .c files in unfinished units left out")
print(f"{name}: {total} .c files, {decided} decided, {len(unknown)} unknown "
      f"({sum(1 for u in unknown if u[1])} of them built)")
print(f"{name}: agreement with the .o files: {agree}/{total} = {pct(agree, total):.2f} % of all .c files")
print(f"{name}: agreement when a .c named in a compiled object's .cmd (an #included .c) counts as "
      f"compiled: {agree2}/{total} = {pct(agree2, total):.2f} %")
print(f"{name}: without host programs (scripts/, tools/, arch/*/tools/: {hosttotal} files, "
      f"{hosttotal - hostagree} of them disagree): {agree - hostagree}/{total - hosttotal} = "
      f"{pct(agree - hostagree, total - hosttotal):.2f} %")
print(f"{name}: {len(wrong)} disagreements with the .o files, "
      f"{sum(1 for w in wrong if (w[1] == 'compiled') == w[3])} of them explained by #include")
for p, v, b, b2, r in wrong:
    tag = 'INCLUDED' if (v == 'compiled') == b2 else 'HOST' if host(p) else 'WRONG'
    print(f"{tag}\t{p}\tsaid {v}, build: {'built' if b else 'no .o'}\t{r}")
for p, b, r in unknown:
    print(f"UNKNOWN\t{p}\tbuild: {'built' if b else 'no .o'}\t{r}")
EOF
    cat "$WORK/stats-$c.txt"
    head -7 "$report"
    echo "  (full list: $report)"
done
