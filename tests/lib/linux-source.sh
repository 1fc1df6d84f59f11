#!/usr/bin/env bash
# Print the path of Debian's linux-source-6.1 tree (/usr/src/linux-source-6.1.tar.xz), unpacked
# ONCE per build directory into $KCVE_BUILD/cache/linux-source-6.1 for the tests that evaluate
# Kbuild over the whole tree and only READ it: every makefile (Makefile*, Kbuild*, *.include,
# *.mk) and every C and assembler source, no headers or other files (~30 s, ~0.9 GB).
# Exit 77 (meson: skipped) when the package is not installed.
set -euo pipefail
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || { echo "linux-source: $tarball not found (apt-get install linux-source-6.1): skipped" >&2; exit 77; }
cache=${KCVE_BUILD:?KCVE_BUILD not set}/cache
mkdir -p "$cache"
exec 9>"$cache/.linux-source.lock"
flock 9
if [ ! -f "$cache/linux-source-6.1/.kcve-unpacked" ]; then
	rm -rf "$cache/linux-source-6.1"
	tmp=$(mktemp -d "$cache/.linux-source.XXXXXX")
	tar -xJf "$tarball" -C "$tmp" --wildcards 'linux-source-6.1/*Makefile*' 'linux-source-6.1/*Kbuild*' \
		'linux-source-6.1/*.include' 'linux-source-6.1/*.mk' 'linux-source-6.1/*.c' 'linux-source-6.1/*.S'
	[ -f "$tmp/linux-source-6.1/Kbuild" ] || { echo "linux-source: unpacking $tarball failed" >&2; exit 1; }
	touch "$tmp/linux-source-6.1/.kcve-unpacked"
	mv "$tmp/linux-source-6.1" "$cache/linux-source-6.1"
	rmdir "$tmp"
fi
echo "$cache/linux-source-6.1"
