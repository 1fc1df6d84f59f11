#!/usr/bin/env bash
# Print the path of the real kernel CNA record tree (../shared/data/vulns-upto-2024.tar.xz),
# unpacked ONCE per build directory into $KCVE_BUILD/cache/vulns and shared by the tests that
# only READ it (extraction costs tens of seconds; tests that modify a tree copy it first).
# Exit 77 (meson: skipped) when the shared data is absent.
set -euo pipefail
tarball=${KCVE_SHARED:-}/data/vulns-upto-2024.tar.xz
[ -f "$tarball" ] || { echo "real-tree: $tarball not found (no ../shared): skipped" >&2; exit 77; }
cache=${KCVE_BUILD:?KCVE_BUILD not set}/cache
mkdir -p "$cache"
exec 9>"$cache/.vulns.lock"
flock 9
if [ ! -d "$cache/vulns" ]; then
	tmp=$(mktemp -d "$cache/.vulns.XXXXXX")
	tar -xJf "$tarball" -C "$tmp"
	mv "$tmp/vulns" "$cache/vulns"
	rmdir "$tmp"
fi
echo "$cache/vulns"
