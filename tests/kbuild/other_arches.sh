#!/bin/bash
# The architectures Debian builds besides amd64 and arm64 (armhf, ppc64el, i386, s390x), on the
# real linux-source-6.1 tree with small configurations written here (the architecture taken
# from each): code that the arch's own rules compile outside the object lists is "compiled"
# when its gate is on -- the vDSO (arm's $(obj-vdso), s390's $(obj-cvdso64), powerpc's
# `%-64.o: %.c`, x86's vdso32), the boot code of the default image (s390 bzImage, arm zImage) --
# and never "compiled" when it is off; $(BITS) picks *_32.c / *_64.c.  No real build of these
# architectures is used: the makefiles' rules are what is tested.  Skips (77) without the
# linux-source-6.1 package.
set -euo pipefail
: "${KCVE:?}" "${KCVE_SRC:?}" "${KCVE_BUILD:?}"
rc=0
ksrc=$(bash "$KCVE_SRC/tests/lib/linux-source.sh") || rc=$?
[ $rc -eq 0 ] || exit $rc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# expect CONFIG-LINES VERDICT FILE...: every file has that verdict ("!compiled": any other)
expect() {
	local cfg=$1 want=$2; shift 2
	printf "$cfg" > "$tmp/config"
	"$KCVE" kbuild --config "$tmp/config" --source "$ksrc" "$@" > "$tmp/out"
	local f got
	for f in "$@"; do
		got=$(awk -F'\t' -v p="$f" '$1 == p { print $2 }' "$tmp/out")
		if [ "$want" = '!compiled' ]; then [ "$got" != compiled ] && continue
		else [ "$got" = "$want" ] && continue; fi
		echo "FAIL: $(printf "$cfg" | tr '\n' ' '): $f is '$got', want $want: $(grep -F "$f" "$tmp/out" | cut -f3)"
		fail=1
	done
}
arm='CONFIG_ARM=y\nCONFIG_MMU=y\nCONFIG_AEABI=y\n'
expect "${arm}CONFIG_VDSO=y\n" compiled arch/arm/vdso/vgettimeofday.c arch/arm/boot/compressed/misc.c \
	arch/arm/boot/compressed/decompress.c
expect "$arm" '!compiled' arch/arm/vdso/vgettimeofday.c
s390='CONFIG_S390=y\nCONFIG_64BIT=y\nCONFIG_MMU=y\n'
expect "$s390" compiled arch/s390/kernel/vdso64/vdso64_generic.c arch/s390/kernel/vdso64/getcpu.c \
	arch/s390/boot/als.c arch/s390/boot/startup.c
ppc='CONFIG_PPC=y\nCONFIG_PPC64=y\nCONFIG_64BIT=y\nCONFIG_MMU=y\n'
expect "$ppc" compiled arch/powerpc/kernel/vdso/vgettimeofday.c arch/powerpc/kernel/signal_64.c
expect "$ppc" 'not compiled' arch/powerpc/kernel/signal_32.c
x32='CONFIG_X86=y\nCONFIG_X86_32=y\nCONFIG_MMU=y\n'
expect "$x32" compiled arch/x86/entry/vdso/vdso32/vclock_gettime.c arch/x86/kernel/process_32.c
expect "$x32" 'not compiled' arch/x86/kernel/process_64.c
expect "$x32" '!compiled' arch/x86/entry/vdso/vclock_gettime.c
[ $fail -eq 0 ] && echo "ok: vDSO, boot code and \$(BITS) of arm, s390, powerpc, i386"
exit $fail
