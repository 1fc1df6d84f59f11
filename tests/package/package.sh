#!/usr/bin/env bash
# The Debian packages, like a user gets them: dpkg-buildpackage -us -uc on a clean copy of the
# source (debian/, 3.0 native), lintian at its default level must print nothing, then install
# the three .debs, run `kcve --version`, `man -w kcve`, a small `kcve check`, build the example
# against the installed kcve.pc, and remove the packages again.
# Skips (77) naming what is missing when the packaging tools are absent (scripts/test installs
# them) or when not root (installing needs dpkg as root).  Several minutes: it compiles kcve.
set -euo pipefail
: "${KCVE_SRC:?KCVE_SRC must point at the source tree}"
missing=()
for t in dpkg-buildpackage dh lintian fakeroot man; do command -v "$t" >/dev/null || missing+=("$t"); done
dpkg-query -W -f='${Status}' debhelper 2>/dev/null | grep -q 'install ok installed' || missing+=(debhelper)
[ ${#missing[@]} -eq 0 ] || { echo "skip: ${missing[*]} not installed (scripts/deps installs the packaging tools)"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "skip: installing the .debs needs root (dpkg -i); run as root"; exit 77; }
if dpkg-query -W -f='${Status}' kcve 2>/dev/null | grep -q 'install ok installed'; then
	echo "skip: a kcve package is already installed; this test would replace and remove it"; exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/kcve-package.XXXXXX")
pkgs=(kcve libkcve-dev libkcve0)
# KCVE_PACKAGE_KEEP=1 keeps the work directory (source copy, .debs, logs) for a look
cleanup() { dpkg --purge "${pkgs[@]}" >/dev/null 2>&1 || true; [ -n "${KCVE_PACKAGE_KEEP:-}" ] || rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# ---- build from a clean copy (the checkout's build directories are not part of the source)
version=$(dpkg-parsechangelog -l "$KCVE_SRC/debian/changelog" -S Version)
src=$T/kcve-$version
"$KCVE_SRC/tests/lib/copy-source.sh" "$KCVE_SRC" "$src"
[ -f "$src/debian/control" ] || fail "copy of the source tree has no debian/control"
t0=$SECONDS
(cd "$src" && dpkg-buildpackage -us -uc) >"$T/build.log" 2>&1 || { tail -n 40 "$T/build.log" >&2; fail "dpkg-buildpackage -us -uc"; }
echo "dpkg-buildpackage -us -uc: $((SECONDS - t0)) s"
ls "$T"/*.deb
changes=$(ls "$T"/kcve_*.changes)
# default level: errors and warnings are printed (stdout); stderr only has lintian's own notes
# (e.g. "running with root privileges is not recommended!")
lintian "$changes" >"$T/lintian.log" 2>"$T/lintian.err" || true
[ ! -s "$T/lintian.log" ] || { cat "$T/lintian.log" >&2; fail "lintian is not clean"; }
echo "lintian: clean"

# ---- install, use, remove
dpkg -i "$T"/kcve_*.deb "$T"/libkcve0_*.deb "$T"/libkcve-dev_*.deb >"$T/dpkg.log" 2>&1 || { cat "$T/dpkg.log" >&2; fail "dpkg -i"; }
[ "$(/usr/bin/kcve --version)" = "kcve $version" ] || fail "kcve --version: $(/usr/bin/kcve --version)"
[ "$(man -w kcve)" = /usr/share/man/man1/kcve.1.gz ] || fail "man -w kcve: $(man -w kcve 2>&1)"
man -w kcve-check >/dev/null || fail "man -w kcve-check"
A=1111111111111111111111111111111111111111 B=2222222222222222222222222222222222222222
cat >"$T/spec.json" <<JSON
[{"id": "CVE-2099-0001", "title": "net: fix a leak", "files": ["net/core/dev.c"],
  "pairs": ["5.10:$A:6.1.20:$B"]}, {"id": "CVE-2099-0002", "title": "old", "pairs": ["4.4:$A:5.0:$B"]}]
JSON
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
got=$(/usr/bin/kcve check --tree "$T/tree" --version 6.1.5 --ids)
[ "$got" = "6.1.5: CVE-2099-0001" ] || fail "installed kcve check: '$got'"
cc "$KCVE_SRC/examples/kcve-affected.c" $(pkg-config --cflags --libs kcve) -o "$T/ex" || fail "example against the installed kcve.pc"
[ "$("$T/ex" "$T/tree" 6.1.5 2>/dev/null | cut -f1)" = CVE-2099-0001 ] || fail "example with the installed libkcve0"
dpkg --purge "${pkgs[@]}" >"$T/dpkg.log" 2>&1 || { cat "$T/dpkg.log" >&2; fail "dpkg --purge"; }
[ ! -e /usr/bin/kcve ] && [ ! -e /usr/share/man/man1/kcve.1.gz ] || fail "files left after removal"
echo "packages built, lintian clean, installed, used and removed"
