#!/usr/bin/env bash
# Print the path of Debian's linux-source-6.1 tree (/usr/src/linux-source-6.1.tar.xz: its
# makefiles, Kbuild files, .c and .S files), unpacked ONCE per build directory into
# $KCVE_BUILD/cache/linux-source-6.1 and shared by the tests that only READ it.
# Exit 77 (meson: skipped) when the package is not installed.
set -euo pipefail
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || { echo "linux-source: $tarball not found (apt-get install linux-source-6.1): skipped" >&2; exit 77; }
cache=${KCVE_BUILD:?KCVE_BUILD not set}/cache
mkdir -p "$cache"
exec 9>"$cache/.linux-source.lock"
flock 9
if [ ! -d "$cache/linux-source-6.1" ]; then
	tmp=$(mktemp -d "$cache/.linux-source.XXXXXX")
	tar -C "$tmp" -xJf "$tarball" --wildcards 'linux-source-6.1/*Makefile*' 'linux-source-6.1/*Kbuild*' \
		'linux-source-6.1/*.c' 'linux-source-6.1/*.S'
	[ -f "$tmp/linux-source-6.1/Kbuild" ] || { echo "linux-source: unpacking $tarball failed" >&2; exit 1; }
	mv "$tmp/linux-source-6.1" "$cache/linux-source-6.1"
	rmdir "$tmp"
fi
echo "$cache/linux-source-6.1"
