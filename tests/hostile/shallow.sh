#!/bin/bash
# Issue 29 item 2: check --git on a shallow clone warns for exactly the records whose
# introducing commit may lie beyond the boundary. A generated kernel-shaped repository
# (tools/gen-history --size small --seed 1) is cloned with --depth 8: its boundary commits
# declare release 7.1 in their Makefile, HEAD is 7.2-rc2. Records:
#   INSIDE  introduced by a commit of the clone (HEAD~3), fix absent: affected, no warning
#   BEYOND  introduced by the commit of v7.0 (released in 7.0 <= 7.1): missing from the clone,
#           "not introduced" is no conclusion: a warning naming it
#   EQUAL   introduced in 7.1 itself (the boundary's release: before or after it): a warning
#   NEWER   introduced by a commit the repository has nowhere, released in 7.3 (after the
#           boundary, so it would be inside the clone): not introduced, no warning
# --strict exits 21 on the shallow clone; the full repository gives no warning at all, and
# the same records are then affected / not introduced by the commits themselves.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
set -e
$PY "$KCVE_SRC/tools/gen-history" --size small --seed 1 --out "$T/linux.git" > /dev/null 2>&1 ||
	fail "gen-history"
G=$T/linux.git
git clone -q --depth 8 "file://$G" "$T/shallow" || fail "git clone --depth 8"
S=$T/shallow
[ -s "$S/.git/shallow" ] || fail "the clone is not shallow"
for c in $(cat "$S/.git/shallow"); do
	git -C "$S" show "$c:Makefile" | grep -q "^PATCHLEVEL = 1$" ||
		fail "boundary $c does not declare 7.1 (gen-history changed?)"
done
inside=$(git -C "$S" rev-parse HEAD~3)
beyond=$(git -C "$G" rev-parse "v7.0^{commit}")
equal=$(git -C "$G" rev-parse "v7.1^{commit}~2")
! git -C "$S" cat-file -e "$beyond" 2> /dev/null || fail "v7.0 is inside the clone"
! git -C "$S" cat-file -e "$equal" 2> /dev/null || fail "v7.1~2 is inside the clone"
newer=7777777777777777777777777777777777777777
fix=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-2001", "title": "inside", "files": ["fs/ext4/inode.c"], "pairs": ["7.2:$inside:7.3:$fix"]},
 {"id": "CVE-2099-2002", "title": "beyond", "files": ["fs/ext4/inode.c"], "pairs": ["7.0:$beyond:7.3:$fix"]},
 {"id": "CVE-2099-2003", "title": "equal", "files": ["fs/ext4/inode.c"], "pairs": ["7.1:$equal:7.3:$fix"]},
 {"id": "CVE-2099-2004", "title": "newer", "files": ["fs/ext4/inode.c"], "pairs": ["7.3:$newer:7.4:$fix"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree

rc=0
"$KCVE" check --tree "$T/tree" --git "$S" --json --all --max-age 36500 > "$T/out" 2> "$T/err" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "check --git on the shallow clone: exit $rc: $(cat "$T/err")"
! grep -q "Sanitizer\|runtime error" "$T/err" || fail "sanitizer report: $(cat "$T/err")"
grep -q "has a shallow clone" "$T/err" || fail "no repository warning: $(cat "$T/err")"
for id in 2002 2003; do
	grep -q "^kcve: warning: CVE-2099-$id: not introduced by git, but its introducing commit .*beyond the shallow clone's boundary (release 7.1)" "$T/err" ||
		fail "no warning for CVE-2099-$id: $(cat "$T/err")"
done
for id in 2001 2004; do
	! grep -q "CVE-2099-$id" "$T/err" || fail "a warning for CVE-2099-$id: $(grep "CVE-2099-$id" "$T/err")"
done
[ "$(grep -c "not introduced by git" "$T/err")" = 2 ] || fail "want 2 record warnings: $(cat "$T/err")"
outcome() { $PY -c 'import json,sys
for e in json.load(open(sys.argv[1]))["results"][0]["cves"]:
    if e["id"] == sys.argv[2]:
        print(e["outcome"])' "$T/out" "$1"; }
[ "$(outcome CVE-2099-2001)" = affected ] || fail "INSIDE: $(outcome CVE-2099-2001)"
[ "$(outcome CVE-2099-2004)" = not_introduced ] || fail "NEWER: $(outcome CVE-2099-2004)"

# --strict (the records' age allowed: the shallow clone is the only gap)
M="--max-age 36500"
rc=0
"$KCVE" check --tree "$T/tree" --git "$S" --ids --strict $M > /dev/null 2> "$T/err" || rc=$?
[ "$rc" = 21 ] || fail "--strict on a shallow clone: exit $rc, want 21: $(cat "$T/err")"
rc=0
"$KCVE" check --tree "$T/tree" --git "$G" --ids --strict $M > /dev/null 2> "$T/err" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "--strict on the full repository: exit $rc: $(cat "$T/err")"

# the full repository: the same records, no warning
rc=0
"$KCVE" check --tree "$T/tree" --git "$G" --json --all --max-age 36500 > "$T/out" 2> "$T/err" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "check --git on the full repository: exit $rc: $(cat "$T/err")"
! grep -q "shallow\|not introduced by git" "$T/err" || fail "warning on the full repository: $(cat "$T/err")"
for id in 2001 2002 2003; do
	[ "$(outcome CVE-2099-$id)" = affected ] || fail "full repository: CVE-2099-$id is $(outcome CVE-2099-$id)"
done
echo "ok: shallow warnings for exactly the records beyond the boundary"
