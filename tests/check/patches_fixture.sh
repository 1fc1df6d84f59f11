# Sourced by funclevel_patches.sh and batch_code.sh (after check-env.sh): a generated tree
# without history and the fixes of six CVEs as patches (`db build --patches`: fingerprints
# without function lists), each a version 6.0.2 calls affected:
#   $T/old, $T/new   the files before and after the fixes ($T/new: every fix there)
#   $T/tree          the checked tree (Makefile: 6.0.2): old, but baz_reset and qux_reset
#                    rewritten (their hunks are nowhere) and data after qux_reset
#   $T/kcve.db       the database; $T/img/boot/System.map-6.0.2 an image with foo_probe only
# CVE-2099-0001 widget_frob (a header's real function), 0002 static inline gadget_check,
# 0003 foo_probe, 0004 baz_reset, 0005 qux_reset, 0006 a function added between two others.
mk() { # tree file text
	mkdir -p "$(dirname "$T/$1/$2")"
	printf '%s\n' "$3" >"$T/$1/$2"
}
body() { # the 12-line body of a function whose 9th line is "x += $1;"
	printf '\tint y = x;\n'
	for i in 1 2 3 4 5 6 7; do printf '\ty = y * %s + x;\n' "$i"; done
	printf '\tx += %s;\n\treturn x + y;\n}\n' "$1"
}
for side in old new tree; do
	v=1; [ $side = new ] && v=2
	mk $side Makefile "VERSION = 6
PATCHLEVEL = 0
SUBLEVEL = 2"
	mk $side include/linux/widget_impl.h "/* included by one driver only */
int widget_frob(int x)
{
	return x + $v;
}"
	mk $side include/linux/gadget.h "static inline int gadget_check(int x)
{
	return x > $v;
}"
	mk $side drivers/foo/foo.c "int foo_probe(void)
{
	return $v;
}"
	mk $side drivers/baz/baz.c "int baz_reset(int x)
{
$(body $v)"
	mk $side drivers/qux/qux.c "int qux_reset(int x)
{
$(body $v)"
	ins=""
	[ $side = new ] && ins="int ins_new(void)
{
	return 7;
}
"
	mk $side drivers/ins/ins.c "int ins_a(void)
{
	return 1;
}

${ins}int ins_b(void)
{
	return 2;
}"
done
# the tree: baz_reset and qux_reset rewritten (the hunk is nowhere), data after qux_reset
mk tree drivers/baz/baz.c "int baz_reset(int x)
{
	return x ^ 0x55;
}"
mk tree drivers/qux/qux.c "int qux_reset(int x)
{
	return x ^ 0x55;
}

static const int qux_table[] = { 1, 2, 3 };"
mkdir -p "$T/patches"
n=0
for f in include/linux/widget_impl.h include/linux/gadget.h drivers/foo/foo.c drivers/baz/baz.c \
	drivers/qux/qux.c drivers/ins/ins.c; do
	n=$((n + 1))
	(cd "$T" && diff -u -p "old/$f" "new/$f" |
		sed -e "1s|^--- old/|--- a/|" -e "2s|^+++ new/|+++ b/|" >"patches/CVE-2099-000$n.patch" || true)
done
grep -q '^@@ .* @@ int baz_reset' "$T/patches/CVE-2099-0004.patch" ||
	fail "the baz hunk header names baz_reset: $(cat "$T/patches/CVE-2099-0004.patch")"
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
spec="["
for i in 1 2 3 4 5 6; do
	f=$(sed -n '2s|^+++ b/\([^	]*\).*|\1|p' "$T/patches/CVE-2099-000$i.patch")
	spec+="{\"id\": \"CVE-2099-000$i\", \"files\": [\"$f\"], \"pairs\": [\"6.0:$A:6.0.5:$B\"]},"
done
echo "${spec%,}]" >"$T/spec.json"
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/vulns" "$T/spec.json" || fail mktree
"$KCVE" db build --tree "$T/vulns" --patches "$T/patches" -o "$T/kcve.db" >/dev/null 2>"$T/err" ||
	fail "db build --patches: $(cat "$T/err")"

mkdir -p "$T/img/boot" "$T/img/lib/modules/6.0.2"
: >"$T/img/lib/modules/6.0.2/modules.order"
printf 'ffffffff81000000 T _text\nffffffff81000100 T foo_probe\n' >"$T/img/boot/System.map-6.0.2"
