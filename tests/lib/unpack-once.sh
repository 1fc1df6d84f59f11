# Sourced (not run) by the helpers that print the path of a large tarball's tree unpacked for the
# tests (tests/lib/linux-source.sh, tests/lib/real-tree.sh): the one way they unpack it.
#
# unpack_once TARBALL TOP PROBE [PATTERN...]
#   Prints $KCVE_BUILD/cache/TOP: the directory TOP of TARBALL (an .xz tarball whose members all
#   start with TOP/), only the members matching the tar --wildcards PATTERNs when any are given.
#   It is unpacked ONCE per build directory and shared by every test that only READS it (a test
#   that modifies a tree copies it first): tests running in parallel wait for each other on
#   $KCVE_BUILD/cache/.TOP.lock while one of them unpacks; the tree is unpacked into a temporary
#   directory beside it and renamed into place with a .kcve-unpacked marker inside, so a tree
#   without the marker (an interrupted run, an older helper) is unpacked again, and a tree with
#   it is complete. PROBE, a path relative to TOP, must exist after unpacking (else "unpacking
#   failed", exit 1).
#   Exits 77 (meson: skipped) with one line on stderr when TARBALL is not a file; $UNPACK_HINT,
#   if set, is added to that line (how to get it).
unpack_once() {
	local tarball=$1 top=$2 probe=$3 cache tmp
	shift 3
	[ -f "$tarball" ] || { echo "$top: $tarball not found${UNPACK_HINT:+ ($UNPACK_HINT)}: skipped" >&2; exit 77; }
	cache=${KCVE_BUILD:?KCVE_BUILD not set}/cache
	mkdir -p "$cache"
	(
		flock 9
		if [ ! -f "$cache/$top/.kcve-unpacked" ]; then
			rm -rf "$cache/$top"
			tmp=$(mktemp -d "$cache/.$top.XXXXXX") || exit 1
			trap 'rm -rf "$tmp"' EXIT
			# (set -e does not hold in here: the subshell is the left side of ||)
			if [ $# -gt 0 ]; then
				tar -xJf "$tarball" -C "$tmp" --wildcards "${@/#/$top/}"
			else
				tar -xJf "$tarball" -C "$tmp"
			fi || { echo "$top: unpacking $tarball failed" >&2; exit 1; }
			[ -e "$tmp/$top/$probe" ] || { echo "$top: unpacking $tarball failed: no $probe" >&2; exit 1; }
			touch "$tmp/$top/.kcve-unpacked" && mv "$tmp/$top" "$cache/$top" || exit 1
		fi
	) 9>"$cache/.$top.lock" || exit $?
	echo "$cache/$top"
}
