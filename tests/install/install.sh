#!/usr/bin/env bash
# `meson install` into a scratch root, then use what it installed as an outside program would:
# the shared libkcve (soname, only the public symbols exported), the public header alone, kcve.pc,
# the example program (examples/kcve-affected.c) built through pkg-config and run on a record tree
# and a database (same answers as `kcve check`), the man pages (render without warnings, found
# by man -w), and the bash completion.
set -euo pipefail
: "${KCVE_BUILD:?KCVE_BUILD must point at the build directory}" "${KCVE_SRC:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/kcve-install.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
root=$T/root

meson install -C "$KCVE_BUILD" --destdir "$root" --no-rebuild >"$T/install.log" 2>&1 ||
	{ cat "$T/install.log" >&2; fail "meson install"; }
pc=$(find "$root" -name kcve.pc) && [ -n "$pc" ] || fail "no kcve.pc installed"
prefix=$(sed -n 's/^prefix=//p' "$pc")
p=$root$prefix
export PKG_CONFIG_LIBDIR=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$root
libdir=$root$(pkg-config --variable=libdir kcve | sed "s|^$root||")

# ---- what is installed
[ -x "$p/bin/kcve" ] || fail "no bin/kcve"
# bin/kcve links kcve's own code statically and the other projects' libraries dynamically, so
# their security fixes reach it without a rebuild (docs/library.md)
needed=$(readelf -d "$p/bin/kcve" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for lib in libgit2 libsqlite3 libjansson libcurl libz libpcre2-8; do
	grep -q "^$lib\.so" <<<"$needed" || fail "bin/kcve does not link $lib dynamically (NEEDED: $(echo $needed))"
done
if grep -q '^libkcve\.so' <<<"$needed"; then fail "bin/kcve needs libkcve.so; it links kcve's code statically"; fi
[ "$(ls "$p/include/kcve")" = "kcve.h" ] || fail "include/kcve holds more than the public header: $(ls "$p/include/kcve")"
[ -L "$libdir/libkcve.so" ] && [ -L "$libdir/libkcve.so.0" ] || fail "libkcve.so symlinks missing in $libdir"
soname=$(readelf -d "$libdir/libkcve.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libkcve.so.0" ] || fail "soname is '$soname', want libkcve.so.0"
# exported functions = the functions the public header declares
nm -D --defined-only "$libdir/libkcve.so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >"$T/exported"
grep -oE '\bkcve_[a-z_]+\(' "$p/include/kcve/kcve.h" | tr -d '(' | sort -u >"$T/declared"
diff "$T/declared" "$T/exported" >&2 || fail "exported symbols differ from the header's functions"
ncmd=$(grep -c '^KCVE_CMD(' "$KCVE_SRC/src/cli/commands.def")
nman=$(find "$p/share/man/man1" -name 'kcve*.1' | wc -l)
[ "$nman" -eq $((ncmd + 1)) ] || fail "$nman man pages, want kcve.1 + $ncmd command pages"
[ -f "$p/share/bash-completion/completions/kcve" ] && [ -f "$p/share/zsh/vendor-completions/_kcve" ] ||
	fail "shell completion not installed"

# ---- the public header stands alone (C11 and C++)
printf '#include <kcve/kcve.h>\nint main(void) { return KCVE_API_VERSION != 1; }\n' >"$T/h.c"
cc -std=c11 -Wall -Wextra -Werror -pedantic $(pkg-config --cflags kcve) -c "$T/h.c" -o "$T/h.o" ||
	fail "kcve.h does not compile alone as C11"
c++ -x c++ -Wall -Wextra -Werror $(pkg-config --cflags kcve) -c "$T/h.c" -o "$T/hpp.o" ||
	fail "kcve.h does not compile as C++"

# ---- the example program through pkg-config, against the installed library
san=()
[ "${KCVE_SANITIZE:-none}" = none ] || san=(-fsanitize="$KCVE_SANITIZE")
cc -std=c11 -Wall -Wextra -Werror "${san[@]}" "$KCVE_SRC/examples/kcve-affected.c" \
	$(pkg-config --cflags --libs kcve) -o "$T/kcve-affected" || fail "example does not build"
readelf -d "$T/kcve-affected" | grep -q 'NEEDED.*\[libkcve.so.0\]' || fail "example not linked to libkcve.so.0"

A=1111111111111111111111111111111111111111 B=2222222222222222222222222222222222222222
C=3333333333333333333333333333333333333333
cat >"$T/spec.json" <<JSON
[{"id": "CVE-2099-0001", "title": "net: fix a leak", "files": ["net/core/dev.c"],
  "pairs": ["5.10:$A:6.1.20:$B", "5.10:$A:6.2:$C"], "severity": "HIGH", "score": 7.8},
 {"id": "CVE-2099-0002", "title": "foo: fix driver", "files": ["drivers/foo.c"],
  "pairs": ["0:0:6.1.30:$B", "0:0:6.3:$C"]},
 {"id": "CVE-2099-0003", "title": "old: fixed long ago", "files": ["fs/ext4/inode.c"],
  "pairs": ["4.4:$A:5.0:$C"]}]
JSON
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
"$KCVE" db build --tree "$T/tree" -o "$T/k.db" >/dev/null || fail "db build"
export LD_LIBRARY_PATH=$libdir
for recs in "$T/tree" "$T/k.db"; do
	for v in 6.1.5 6.1.25 6.4; do
		got=$("$T/kcve-affected" "$recs" "$v" 2>"$T/err" | cut -f1 | xargs)
		want=$("$KCVE" check --tree "$T/tree" --version "$v" --ids | sed 's/^[^:]*: *//' | xargs)
		[ "$got" = "$want" ] || fail "example on $recs $v: '$got', kcve check: '$want'"
	done
done
line=$("$T/kcve-affected" "$T/tree" 6.1.5 2>/dev/null | head -1)
[ "$line" = "CVE-2099-0001	affected	6.1.20	HIGH	net: fix a leak" ] || fail "example line: '$line'"
grep -q "^0 of 3 CVEs apply to 6.4 (libkcve " "$T/err" || fail "example summary: $(cat "$T/err")"
rc=0; "$T/kcve-affected" "$T/nope" 6.1.5 2>"$T/err" || rc=$?
[ $rc -eq 7 ] || fail "missing records: exit $rc, want 7"
rc=0; "$T/kcve-affected" "$T/tree" banana 2>"$T/err" || rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] || fail "bad version: exit $rc, $(cat "$T/err")"

# ---- man pages: render without groff warnings (lintian's check), found by man -w
for f in "$p"/share/man/man1/kcve*.1; do
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$f" 2>&1 >/dev/null) || fail "man $f"
	[ -z "$w" ] || fail "$(basename "$f"): $w"
done
[ "$(MANPATH=$p/share/man man -w kcve-check)" = "$p/share/man/man1/kcve-check.1" ] || fail "man -w kcve-check"

# ---- bash completion: commands, a command's subcommands and options
comp() { bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _kcve; echo "${COMPREPLY[*]}"' _ \
	"$p/share/bash-completion/completions/kcve" "$@"; }
[ "$(comp kcve chec)" = check ] || fail "completion of 'kcve chec': $(comp kcve chec)"
[ "$(comp kcve db i)" = info ] || fail "completion of 'kcve db i'"
[ "$(comp kcve --tree t check --fixed-i)" = --fixed-in ] || fail "completion of check --fixed-i"
zsh -n "$p/share/zsh/vendor-completions/_kcve" || fail "zsh completion: syntax error"
echo "installed tree, libkcve.so.0, kcve.pc, example, $nman man pages and completion OK"
