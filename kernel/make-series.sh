#!/usr/bin/env bash
# Regenerate kernel/patches/ (a git format-patch series against Debian's pristine
# linux-source-6.1) from kernel/src/. Only the files the series touches are copied into a
# scratch git repository, so this takes a second; the patches apply to the full tree.
# Usage: kernel/make-series.sh [PRISTINE_TREE_OR_TARBALL]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:-/usr/src/linux-source-6.1.tar.xz}
files=(Documentation/process/index.rst Documentation/admin-guide/security-bugs.rst MAINTAINERS)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/k"
if [ -d "$src" ]; then
	for f in "${files[@]}"; do mkdir -p "$work/k/$(dirname "$f")"; cp "$src/$f" "$work/k/$f"; done
else
	tar -xJf "$src" -C "$work" "${files[@]/#/linux-source-6.1/}"
	cp -r "$work/linux-source-6.1/." "$work/k/"
fi
cd "$work/k"
export GIT_AUTHOR_NAME="kcve developers" GIT_AUTHOR_EMAIL="kcve@example.org"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME" GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"
export GIT_AUTHOR_DATE="2026-12-03T10:00:00Z" GIT_COMMITTER_DATE="2026-12-03T10:00:00Z"
git init -q && git add -A && git commit -qm "linux-source-6.1 (Debian, pristine)"
sob="Signed-off-by: $GIT_AUTHOR_NAME <$GIT_AUTHOR_EMAIL>"

# 1: the document, its index entry and its MAINTAINERS entry.
mkdir -p Documentation/process
cp "$here/src/cve.rst" Documentation/process/cve.rst
/usr/bin/python3 - <<'PY'
import re
p = "Documentation/process/index.rst"
s = open(p).read()
s = s.replace("   embargoed-hardware-issues\n", "   embargoed-hardware-issues\n   cve\n", 1)
open(p, "w").write(s)
p = "MAINTAINERS"
s = open(p).read()
entry = ("KERNEL CVE PROCESS\n"
         "M:\tLinux kernel CVE assignment team <cve@kernel.org>\n"
         "L:\tlinux-doc@vger.kernel.org\n"
         "S:\tMaintained\n"
         "F:\tDocumentation/process/cve.rst\n\n")
anchor = "KERNEL HARDENING (not covered by other areas)\n"
assert anchor in s
s = s.replace(anchor, entry + anchor, 1)
open(p, "w").write(s)
PY
git add -A
git commit -q -F - <<MSG
Documentation: process: describe how kernel CVE identifiers are assigned

The kernel community assigns CVE identifiers to its own fixes, but the
6.1 documentation does not say how.  Add a document that explains which
fixes receive an identifier and how they are tracked by their mainline
commit, how to ask for or reserve an identifier, why unfixed problems and
unsupported branches get none, that only the maintainers of the affected
code may dispute an assignment, how identifiers assigned by other
organisations are handled, and how users can decide which identifiers
apply to their kernel.

List the document in the process index and add a MAINTAINERS entry for
it.

$sob
MSG

# 2: point the security-bugs document at it.
/usr/bin/python3 - <<'PY'
p = "Documentation/admin-guide/security-bugs.rst"
s = open(p).read()
old_start = s.index("CVE assignment\n--------------\n")
old_end = s.index("Non-disclosure agreements\n")
new = ("CVE assignment\n--------------\n\n"
       "The security team does not assign CVEs, nor do we require them for\n"
       "reports or fixes, as this can needlessly complicate the process and may\n"
       "delay the bug handling.  Identifiers for fixed kernel problems are\n"
       "assigned by the kernel's CVE assignment team, which does not take part\n"
       "in the handling of security reports; see\n"
       "Documentation/process/cve.rst for how that works and how to ask for an\n"
       "identifier.  Under no circumstances will a patch inclusion be delayed\n"
       "to wait for a CVE identifier.\n\n")
s = s[:old_start] + new + s[old_end:]
open(p, "w").write(s)
PY
git add -A
git commit -q -F - <<MSG
Documentation: security-bugs: refer to the CVE process document

The CVE section still tells reporters to obtain identifiers elsewhere,
for example from MITRE.  The kernel now assigns identifiers for its own
fixes, so point reporters to the document that describes that process
instead, and keep the statement that fixes are never delayed for an
identifier.

$sob
MSG

rm -f "$here"/patches/*.patch
git format-patch -q --no-signature --zero-commit -o "$here/patches" HEAD~2
ls "$here/patches"
