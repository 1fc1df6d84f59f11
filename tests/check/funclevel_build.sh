#!/usr/bin/env bash
# Function level on a kernel-shaped tree with a build directory whose vmlinux and module are
# real ELF objects compiled here (gcc -c) with chosen symbols:
# - a header-only fix of a real (non-static) function missing from the image: absent;
# - a header-only fix of a static inline function: undecided (it may have no symbol);
# - a fix in a function the image has, and one in a syscall (its __x64_sys_ wrapper): present;
# - a fix that also changes a #define: undecided; a kernel built with LTO: undecided;
# - without the module that modules.order lists (modules not covered), and with a System.map
#   alone: the absent fix turns undecided.
set -euo pipefail
tool=$KCVE_BUILD/tests/check/funclevel_tool
command -v gcc >/dev/null || { echo "SKIP: no gcc to compile the test's ELF objects"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "FAIL: $*"; cat "$t/out" 2>/dev/null; exit 1; }

mk() { # tree file text
	mkdir -p "$(dirname "$t/$1/$2")"
	printf '%s\n' "$3" >"$t/$1/$2"
}
for side in old new; do
	if [ $side = old ]; then v=1; else v=2; fi
	mk $side include/linux/widget_impl.h "/* included by one driver only */
int widget_frob(int x)
{
	return x + $v;
}"
	mk $side include/linux/gadget.h "static inline int gadget_check(int x)
{
	return x > $v;
}"
	mk $side drivers/foo/foo.c "#include <linux/widget_impl.h>
#define FOO_LIMIT $v
int foo_probe(void)
{
	return $v;
}"
	mk $side kernel/thing.c "SYSCALL_DEFINE1(thing, int, a)
{
	return a * $v;
}"
done
mkdir -p "$t/patches"
for f in include/linux/widget_impl.h:CVE-2099-0001 include/linux/gadget.h:CVE-2099-0002 \
	drivers/foo/foo.c:CVE-2099-0003 kernel/thing.c:CVE-2099-0004; do
	(cd "$t" && diff -u -p "old/${f%%:*}" "new/${f%%:*}" |
		sed -e "1s|^--- old/|--- a/|" -e "2s|^+++ new/|+++ b/|" >"patches/${f##*:}.patch" || true)
done
# the image: vmlinux with foo_probe and the syscall wrapper, one module; no widget_frob
mkdir -p "$t/build/drivers/bar"
cat >"$t/vmlinux.c" <<'EOF'
void _text(void) {}
int foo_probe(void) { return 0; }
long __x64_sys_thing(long a) { return a; }
EOF
echo 'int bar_init(void) { return 0; }' >"$t/bar.c"
gcc -c -o "$t/build/vmlinux" "$t/vmlinux.c"
gcc -c -o "$t/build/drivers/bar/bar.ko" "$t/bar.c"
echo drivers/bar/bar.ko >"$t/build/modules.order"

run() { "$tool" "$@" --patches "$t/patches" --old "$t/old" --new "$t/new" >"$t/out" 2>"$t/err" ||
	{ cat "$t/err"; fail "funclevel_tool $*"; }; }
expect() { # CVE verdict reason-part
	grep -q "^$1	$2	.*$3" "$t/out" || fail "$1: expected $2 ($3)"
}
run --build "$t/build"
expect CVE-2099-0001 absent "not affected: the changed code is not in this kernel: widget_frob (include/linux/widget_impl.h) not in symbols of $t/build/vmlinux + 1 modules"
expect CVE-2099-0002 undecided "gadget_check (include/linux/gadget.h) is inline"
expect CVE-2099-0003 present "foo_probe (drivers/foo/foo.c) is in"
expect CVE-2099-0004 present "syscall thing (kernel/thing.c) is in"

# a kernel built with link-time optimisation: absence proves nothing
echo CONFIG_LTO_CLANG_THIN=y >"$t/build/.config"
run --build "$t/build"
expect CVE-2099-0001 undecided "link-time optimisation"
expect CVE-2099-0003 present "foo_probe"
rm "$t/build/.config"

# foo_probe gone from the image: its fix also changes a #define outside every function
gcc -c -o "$t/build/vmlinux" -x c - <<'EOF'
void _text(void) {}
long __x64_sys_thing(long a) { return a; }
EOF
run --build "$t/build"
expect CVE-2099-0003 undecided "outside every function"

# modules not covered: a module of modules.order is missing, or a System.map alone
echo drivers/baz/baz.ko >>"$t/build/modules.order"
run --build "$t/build"
expect CVE-2099-0001 undecided "may be built as a module"
printf 'ffffffff81000000 T _text\nffffffff81000100 T foo_probe\n' >"$t/System.map"
run --system-map "$t/System.map"
expect CVE-2099-0001 undecided "does not cover the modules"
expect CVE-2099-0003 present "foo_probe"
echo "ok: function level on a compiled build directory"
