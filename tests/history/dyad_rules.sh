#!/usr/bin/env bash
# dyad rules (docs/spec/dyad.md) on a small repository whose answers are worked out by
# hand: a backport of the introducer reverted on its branch (the revert is that branch's fix),
# an introducer backported to an older branch that never got the fix (V:VG:0:0), pairing by
# branch (P3) and mainline-to-mainline (P2), a fix that is a revert without Fixes: (the
# reverted commit becomes the introducer), scripts/not_fixes from the record tree, and a fix
# that is in no release yet (version 0; its Fixes: come from its stable backport).
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/scratch-git-repo.sh"
commit "base" >/dev/null; git tag v5.15
commit "more" >/dev/null; git tag v6.0
intro=$(commit "net: add bug")
git tag v6.1
fix=$(commit "net: fix bug

Fixes: ${intro:0:12} (\"net: add bug\")")
git tag v6.2
rev=$(commit "Revert \"net: add bug\"

This reverts commit $intro.")
git tag v6.3
fix2=$(commit "net: fix bug harder

Fixes: ${intro:0:12} (\"net: add bug\")")   # in no release yet

git checkout -q -b linux-5.15.y v5.15
bp515=$(commit "net: add bug

commit $intro upstream.")
git tag v5.15.1
git checkout -q -b linux-6.0.y v6.0
bp60=$(commit "net: add bug

[ Upstream commit $intro ]")
git tag v6.0.1
rv60=$(commit "Revert \"net: add bug\"

This reverts commit $bp60.")
git tag v6.0.2
git checkout -q -b linux-6.1.y v6.1
bpfix=$(commit "net: fix bug

[ Upstream commit $fix ]

Fixes: ${intro:0:12} (\"net: add bug\")")
git tag v6.1.1
bpfix2=$(commit "net: fix bug harder

[ Upstream commit $fix2 ]

Fixes: ${intro:0:12} (\"net: add bug\")")
git tag v6.1.2
git checkout -q master

IDX=$T/idx.sqlite
"$KCVE" --repo "$R" --index "$IDX" index >/dev/null
pairs() { "$KCVE" --repo "$R" --index "$IDX" "$@" | grep -v '^#'; }
check() { # check NAME EXPECTED ARGS...
	local name=$1 want=$2
	shift 2
	local got
	got=$(pairs "$@") || fail "$name: kcve failed"
	[ "$got" = "$want" ] || fail "$name:
expected:
$want
got:
$got"
}

check "reverted backport, branch pairing, unfixed older branch" "6.0.1:$bp60:6.0.2:$rv60
6.1:$intro:6.1.1:$bpfix
6.1:$intro:6.2:$fix
5.15.1:$bp515:0:0" dyad "$fix"

check "fix that is a revert" "6.0.1:$bp60:6.0.2:$rv60
6.1:$intro:6.3:$rev
5.15.1:$bp515:0:0" dyad "$rev"

mkdir -p "$T/tree/scripts"
printf '# broken backport\n%s\n' "${bpfix:0:12}" > "$T/tree/scripts/not_fixes"
check "not_fixes" "6.0.1:$bp60:6.0.2:$rv60
6.1:$intro:6.2:$fix
5.15.1:$bp515:0:0" --tree "$T/tree" dyad "$fix"

check "unreleased fix" "6.0.1:$bp60:6.0.2:$rv60
6.1:$intro:6.1.2:$bpfix2
5.15.1:$bp515:0:0" dyad "${fix2:0:10}"

# explicit introducer: Fixes: are not consulted; the explicit commit pairs with every fix
check "explicit vulnerable" "6.0.1:$bp60:6.0.2:$rv60
6.1:$intro:6.1.1:$bpfix
6.1:$intro:6.2:$fix
5.15.1:$bp515:0:0" dyad --vulnerable "${intro:0:12}" "$fix"
echo "dyad rule tests passed"
