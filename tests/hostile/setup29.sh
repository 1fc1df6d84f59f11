# Sourced by the issue 29 hostile tests: scratch directory T (kept with HOSTILE_KEEP=DIR),
# the store test library, the hostile helpers, and a repository R with the record tree V
# holding CVE-2024-10000 for FIX_A.
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
T=${HOSTILE_KEEP:-$(mktemp -d)}
[ -n "${HOSTILE_KEEP:-}" ] || trap 'rm -rf "$T"' EXIT
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$HERE/../store/lib_repo.sh"
. "$HERE/lib_hostile.sh"
repo_with_record
