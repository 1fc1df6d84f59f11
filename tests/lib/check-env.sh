#!/usr/bin/env bash
# Sourced (not run) by the `kcve check` integration tests, the start they share: KCVE (the
# binary) and KCVE_SRC (the source tree) must be set (meson sets both), unset variables are
# errors (set -u), a scratch directory $T is removed on exit, fail MESSAGE prints "FAIL:
# MESSAGE" and exits 1, and PY is the system python3 (never one from a virtualenv on PATH).
set -u
: "${KCVE:?}" "${KCVE_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PY=/usr/bin/python3
