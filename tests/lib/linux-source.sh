#!/usr/bin/env bash
# Print the path of Debian's linux-source-6.1 tree (/usr/src/linux-source-6.1.tar.xz), unpacked
# ONCE per build directory into $KCVE_BUILD/cache/linux-source-6.1 (tests/lib/unpack-once.sh) for
# the tests that evaluate Kbuild over the whole tree and only READ it: every makefile
# (Makefile*, Kbuild*, *.include, *.mk) and every C and assembler source, no headers or other
# files (~30 s, ~0.9 GB).
# Exit 77 (meson: skipped) when the package is not installed.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/unpack-once.sh"
UNPACK_HINT="apt-get install linux-source-6.1"
unpack_once /usr/src/linux-source-6.1.tar.xz linux-source-6.1 Kbuild \
	'*Makefile*' '*Kbuild*' '*.include' '*.mk' '*.c' '*.S'
