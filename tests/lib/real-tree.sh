#!/usr/bin/env bash
# Print the path of the real kernel CNA record tree (../shared/data/vulns-upto-2024.tar.xz),
# unpacked ONCE per build directory into $KCVE_BUILD/cache/vulns (tests/lib/unpack-once.sh) and
# shared by the tests that only READ it (extraction costs tens of seconds; tests that modify a
# tree copy it first; `kcve check --tree` keeps its own cache in it, .kcve/check-cache, written
# atomically, so parallel checks of it are fine).
# Exit 77 (meson: skipped) when the shared data is absent.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/unpack-once.sh"
UNPACK_HINT="no ../shared"
unpack_once "${KCVE_SHARED:-}/data/vulns-upto-2024.tar.xz" vulns cve/published
