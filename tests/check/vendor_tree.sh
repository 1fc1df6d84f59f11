#!/bin/bash
# kcve check --git on vendor branches built from a release before the fix (issue 20): one branch
# per way of writing the fix into a tree.  Each recognised reference form (gitrefs.h) drops the
# CVE; prose mentions, an empty "This reverts commit <fix>", a revert of a present fix (by
# ancestry or of a backport) keep it; a revert of the revert drops it again; a 12-hex
# cherry-pick id resolved in the repository drops it, one that resolves to nothing does not.
# Also: a same-release pair at -rc tags (introduced in rc1, fixed in rc3).
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
g() { git -C "$T/repo" "$@"; }
change() { echo "$1" >> "$T/repo/a.c"; g commit -qam "$2" || fail "commit $1"; g rev-parse HEAD; }

git init -q -b main "$T/repo" || fail "git init"
echo base > "$T/repo/a.c"; g add a.c; g commit -qm "base" || fail commit
INTRO=$(change bug "a: add the feature")
g tag v6.6
FIX=$(change fix "a: fix the use-after-free")
g tag v6.7
# -rc cycle: introduced in rc1, fixed in rc3 (a same-release pair 6.8:RCI:6.8:RCF)
g tag v6.8-rc0-base
RCI=$(change rcbug "b: add a fast path"); g tag v6.8-rc1
change other "c: unrelated" > /dev/null; g tag v6.8-rc2
RCF=$(change rcfix "b: fix the fast path"); g tag v6.8-rc3
g tag v6.8

vendor() { g checkout -q -b "$1" v6.6; }
# branch name, commit message of a commit carrying the fix's change
carry() { vendor "$1"; change "fix-$1" "$2" > /dev/null; }

carry stable-upstream "a: fix the use-after-free

commit $FIX upstream.

Signed-off-by: t"
carry stable-bracket "a: fix the use-after-free

[ Upstream commit $FIX ]"
carry cherry-40 "a: fix the use-after-free

(cherry picked from commit $FIX)"
carry cherry-12 "a: fix the use-after-free

(cherry picked from commit ${FIX:0:12})"
carry cherry-repo "a: fix the use-after-free

(cherry picked from commit $FIX linux-next)"
carry ubuntu-backported "UBUNTU: SAUCE: a: fix the use-after-free

(backported from commit $FIX)
Signed-off-by: t"
carry suse "a: fix the use-after-free

Git-commit: $FIX
Patch-mainline: v6.7
References: bsc#1234567"
carry rhel "a: fix the use-after-free

JIRA: https://issues.redhat.com/browse/RHEL-1

commit $FIX
Author: t <t@example.org>
Date:   Mon Jan 1 00:00:00 2024 +0000"
carry uppercase "a: fix the use-after-free

  COMMIT ${FIX^^} UPSTREAM."
# prose and lookalikes: the fix is not there
carry prose-unlike "a: rework the error path

Unlike commit $FIX (\"a: fix the use-after-free\"), this keeps the old order."
carry prose-see "a: rework the error path

See $FIX and commit $FIX (\"a: fix the use-after-free\")."
carry prose-fixes "a: follow-up

Fixes: $FIX (\"a: fix the use-after-free\")"
carry cherry-unknown "a: fix the use-after-free

(cherry picked from commit 0123456789ab)"
carry prose-upstream "a: fix the use-after-free

As in upstream commit $FIX, free later."
carry empty-revert "Revert \"a: fix the use-after-free\"

This reverts commit $FIX."
# reverts of a present fix, and reverts of those reverts
g checkout -q -b ancestry-reverted v6.7
REV=$(change unfix "Revert \"a: fix the use-after-free\"

This reverts commit $FIX.")
g checkout -q -b ancestry-rereverted
change refix "Revert \"Revert \\\"a: fix the use-after-free\\\"\"

This reverts commit $REV." > /dev/null
vendor backport-reverted
B=$(change fix-b "a: fix the use-after-free

commit $FIX upstream.")
BREV=$(change unfix-b "Revert \"a: fix the use-after-free\"

This reverts commit $B which is commit $FIX upstream.")
g checkout -q -b backport-rereverted
change refix-b "Revert \"Revert \\\"a: fix the use-after-free\\\"\"

This reverts commit ${BREV:0:12}." > /dev/null
g checkout -q -b backport-reapplied backport-reverted
change fix-b2 "a: fix the use-after-free

commit $FIX upstream." > /dev/null
# a chain of 11 reverts starting at the fix: followed to its end (odd: the fix is undone)
g checkout -q -b revert-chain-11 v6.7
prev=$FIX
for i in $(seq 1 11); do prev=$(change "chain$i" "Revert number $i

This reverts commit $prev."); done
# 8 layers of 10 commits, each reverting every commit of the layer below (layer 1: the fix):
# 10^8 paths, decided in linear time because answers are memoised; even layers are live, so
# layer 1 is undone and the fix stands
g checkout -q -b revert-lattice v6.7
below=$FIX
for layer in $(seq 1 8); do
	cur=
	for i in $(seq 1 10); do
		body=$(for b in $below; do echo "This reverts commit $b."; done)
		cur="$cur $(change "l$layer-$i" "Revert layer $layer number $i

$body")"
	done
	below=$cur
done
g checkout -q main

cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-0001", "title": "a: fix the use-after-free", "files": ["a.c"],
  "pairs": ["6.6:$INTRO:6.7:$FIX"], "fixes": ["$FIX"]},
 {"id": "CVE-2099-0002", "title": "b: fix the fast path", "files": ["a.c"],
  "pairs": ["6.8:$RCI:6.8:$RCF"], "fixes": ["$RCF"]}]
EOF
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree

verdict() { # ref -> "outcome reason" of CVE-2099-0001 (or $2)
	"$KCVE" check --tree "$T/tree" --git "$T/repo" --ref "$1" --json --all > "$T/out.json" 2> "$T/err" ||
		fail "check --git --ref $1: $(cat "$T/err")"
	/usr/bin/python3 - "$T/out.json" "${2:-CVE-2099-0001}" <<'EOF'
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["results"][0]["cves"]}[sys.argv[2]]
print(c["outcome"], c["reason"])
EOF
}
expect() { # ref outcome [cve]
	local got; got=$(verdict "$1" "${3:-}")
	[ "${got%% *}" = "$2" ] || fail "ref $1: expected $2, got: $got"
}
n=0
for b in stable-upstream stable-bracket cherry-40 cherry-12 cherry-repo ubuntu-backported suse rhel uppercase \
	 ancestry-rereverted backport-rereverted backport-reapplied revert-lattice v6.7; do
	expect "$b" fixed; n=$((n + 1))
done
for b in prose-unlike prose-see prose-fixes cherry-unknown prose-upstream empty-revert ancestry-reverted \
	 backport-reverted revert-chain-11 v6.6; do
	expect "$b" affected; n=$((n + 1))
done
verdict ancestry-reverted | grep -q "reverted by ${REV:0:12}" || fail "revert not named: $(verdict ancestry-reverted)"
# -rc tags: the same-release pair decides
expect v6.8-rc0-base not_introduced CVE-2099-0002
expect v6.8-rc1 affected CVE-2099-0002
expect v6.8-rc2 affected CVE-2099-0002
expect v6.8-rc3 fixed CVE-2099-0002
expect v6.8 fixed CVE-2099-0002
# the scan cache gives the same answers as a fresh walk
for b in cherry-12 backport-rereverted prose-unlike; do
	a=$("$KCVE" check --tree "$T/tree" --git "$T/repo" --ref $b --ids --no-git-cache) || fail "no cache $b"
	c=$("$KCVE" check --tree "$T/tree" --git "$T/repo" --ref $b --ids) || fail "cache $b"
	[ "$a" = "$c" ] || fail "ref $b: cached '$c' differs from uncached '$a'"
done
echo "ok: $n vendor branches, 5 -rc tags"
