#!/usr/bin/env bash
# Regenerate kernel/patches/ (a git format-patch series against Debian's pristine
# linux-source-6.1) from kernel/src/. Only the files the series touches are copied into a
# scratch git repository, so this takes a second; the patches apply to the full tree.
# Usage: kernel/make-series.sh [PRISTINE_TREE_OR_TARBALL]
# KCVE_URL=URL adds where kcve lives to the sentence of patch 3 (the droppable kcve pointer).
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
6.1 documentation does not say how.  Add the CVE process document: which
fixes receive an identifier and that they are tracked by the commit id
of the original fix, how to ask for or reserve an identifier, that
unfixed issues and unsupported kernel versions get none, who may dispute
an assignment, what happens to identifiers assigned by others and to
rejected ones, where the records are published and which of their
fields describe the affected versions, commits and files, and that the
applicability of a CVE is for the user to decide.

List the document in the process index and add a MAINTAINERS entry for
it.

$sob
MSG

# 2: point the security-bugs document at it.
/usr/bin/python3 - <<'PY'
p = "Documentation/admin-guide/security-bugs.rst"
s = open(p).read()
old = ("delay the bug handling.  If a reporter wishes to have a CVE identifier\n"
       "assigned, they should find one by themselves, for example by contacting\n"
       "MITRE directly.  However under no circumstances will a patch inclusion\n"
       "be delayed to wait for a CVE identifier to arrive.\n")
new = ("delay the bug handling.  If a reporter wishes to have a CVE identifier\n"
       "assigned for a confirmed issue, they can contact the kernel CVE\n"
       "assignment team to obtain one, as described in\n"
       "Documentation/process/cve.rst.\n")
assert old in s
s = s.replace(old, new, 1)
open(p, "w").write(s)
PY
git add -A
git commit -q -F - <<MSG
Documentation: security-bugs: refer to the CVE process document

The CVE section still tells reporters to obtain identifiers elsewhere,
for example from MITRE.  The kernel now has its own CVE assignment team,
so point reporters who want an identifier for a confirmed issue to it
and to the document that describes its process.

$sob
MSG

# 3: one sentence naming a tool that applies the filters (a reviewer may drop this patch).
KCVE_URL=${KCVE_URL:-} /usr/bin/python3 - <<'PY'
import os
p = "Documentation/process/cve.rst"
s = open(p).read()
anchor = ("  compared with the files that a kernel configuration builds.\n\n")
assert anchor in s
url = os.environ["KCVE_URL"]
where = " (%s)" % url if url else ""
sentence = ("kcve%s, a program developed outside the kernel community and not\n"
            "maintained by the CVE assignment team, is one tool that reads these\n"
            "records and applies these filters to a kernel.\n\n" % where)
s = s.replace(anchor, anchor + sentence, 1)
open(p, "w").write(s)
PY
git add -A
git commit -q -F - <<MSG
Documentation: cve: mention one tool that reads the records

Users who want to filter the published records by version, git tree or
kernel configuration may want a program that does it.  Name one, and say
that it is not part of the kernel community's process.  This patch is
independent of the rest of the series and can be dropped.

$sob
MSG

rm -f "$here"/patches/*.patch
git format-patch -q --no-signature --zero-commit -o "$here/patches" HEAD~3
ls "$here/patches"
