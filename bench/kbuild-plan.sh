#!/bin/bash
# Kbuild evaluator against x86_64_defconfig on Debian's linux-source-6.1 when a complete build
# does not fit the machine's time (issue 13: a .c file that gets a .o must never be "not
# compiled"; boot code, realmode and vDSO objects are built by arch recipes, not obj-y).
#
# Ground truth, Kbuild's own decisions:
#  1. the compile plan of `make -n -k vmlinux modules` (every `-c -o X.o` command; make decides
#     which objects a build compiles without compiling them);
#  2. a real build of the recipe directories: `make -k -o vmlinux bzImage` (bzImage's boot code:
#     setup.elf and the compressed kernel's objects; the steps that need the linked vmlinux fail
#     and are skipped), `make arch/x86/realmode/` and `make arch/x86/entry/vdso/`.
# A .c file is compiled iff its .o is in the plan or in the build directory.  Prints the counts
# and every "not compiled" verdict for a compiled kernel file (the number must be 0).  Build-time
# host programs (scripts/, tools/, arch/*/tools/: kconfig, modpost, objtool, relocs) get .o
# files too but are not part of the kernel; they are counted apart.
#
# usage: bench/kbuild-plan.sh [-s KSRC] [-b BUILDDIR] [-k KCVE] [-j N]
#   KSRC     unpacked linux-source-6.1 (default $KCVE_BENCH_CACHE/src/linux-source-6.1)
#   BUILDDIR build directory (default $KCVE_BENCH_CACHE/kbuild/build-defconfig; configured with
#            x86_64_defconfig when it has no .config)
set -euo pipefail
KSRC=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/src/linux-source-6.1
B=${KCVE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kcve-bench}/kbuild/build-defconfig
KCVE=${KCVE:-build/kcve}
JOBS=2
while getopts "s:b:k:j:" o; do
    case $o in
        s) KSRC=$OPTARG ;;
        b) B=$OPTARG ;;
        k) KCVE=$OPTARG ;;
        j) JOBS=$OPTARG ;;
        *) sed -n '16,19p' "$0" >&2; exit 2 ;;
    esac
done
KCVE=$(realpath "$KCVE")
[ -f "$KSRC/Makefile" ] || { echo "no kernel source at $KSRC" >&2; exit 1; }
mkdir -p "$B"
kmake() { nice -n 10 make -C "$B" CC="ccache gcc" "$@"; }
[ -f "$B/.config" ] || nice -n 10 make -s -C "$KSRC" O="$B" x86_64_defconfig
if [ ! -f "$B/.plan-done" ]; then
    kmake -j"$JOBS" prepare >/dev/null
    # -k: the link steps of the plan need files a dry run does not make; every compile is listed
    kmake -n -k vmlinux modules > "$B/plan.txt" 2>/dev/null || true
    kmake -k -j"$JOBS" -o vmlinux bzImage > "$B/bzimage.log" 2>&1 || true
    kmake -k -j"$JOBS" arch/x86/realmode/ arch/x86/entry/vdso/ > "$B/recipes.log" 2>&1 || true
    touch "$B/.plan-done"
fi
(cd "$KSRC" && find . -name '*.c' -type f | sed 's|^\./||' | LC_ALL=C sort) > "$B/allc.txt"
"$KCVE" kbuild --config "$B/.config" --source "$KSRC" --files-from "$B/allc.txt" > "$B/verdicts.txt"
/usr/bin/python3 - "$B" <<'EOF'
import os, re, sys
b = sys.argv[1]
plan = set(re.findall(r' -c -o (\S+?\.o)[ ;]', open(os.path.join(b, 'plan.txt')).read()))
total = comp = notc = unk = 0
planned = built = 0
bad, host, recipe = [], [], {}
def is_host(p):
    return p.startswith(('scripts/', 'tools/')) or (p.startswith('arch/') and '/tools/' in p)
for line in open(os.path.join(b, 'verdicts.txt')):
    path, verdict, reason = line.rstrip('\n').split('\t', 2)
    o = path[:-2] + '.o'
    inplan, onfile = o in plan, os.path.exists(os.path.join(b, o))
    total += 1
    if not (inplan or onfile):
        continue
    comp += 1
    planned += inplan
    built += onfile
    if is_host(path):
        host.append((path, verdict))
        continue
    if verdict == 'not compiled':
        bad.append((path, 'plan' if inplan else 'built', reason))
    elif verdict == 'unknown':
        unk += 1
    for d in ('arch/x86/boot/compressed', 'arch/x86/boot', 'arch/x86/realmode/rm',
              'arch/x86/entry/vdso'):
        if path.startswith(d + '/'):
            r = recipe.setdefault(d, [0, 0, 0])
            r[0] += 1
            r[1] += verdict == 'compiled'
            r[2] += verdict == 'unknown'
            break
kern = comp - len(host)
print(f"{total} .c files; {comp} compiled by the build ({planned} in the make -n plan, "
      f"{built} with a .o in {b})")
print(f"kernel files: {kern}; kcve: {kern - len(bad) - unk} compiled, {unk} unknown, "
      f"{len(bad)} not compiled")
print(f"host programs with a .o: {len(host)}; kcve: " + ", ".join(
    f"{sum(1 for h in host if h[1] == v)} {v}" for v in ('compiled', 'unknown', 'not compiled')))
for d, (n, c, u) in sorted(recipe.items()):
    print(f"  {d}/: {n} compiled .c files, kcve compiled {c}, unknown {u}, not compiled {n - c - u}")
for p, src, r in bad:
    print(f"NOT-COMPILED-BUT-BUILT\t{p}\t({src})\t{r}")
sys.exit(1 if bad else 0)
EOF
