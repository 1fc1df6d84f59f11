#!/usr/bin/env bash
# A short Fixes: id expands like the anchor's `git revparse`: to the one object of the whole
# repository with that prefix. When the prefix is shared by the named commit and another object
# (here a blob), revparse fails and the anchor keeps the raw id (dyad then drops it), so kcve must
# not expand it to the commit just because only one *commit* has that prefix.
# The collision is made on purpose: 65,536 blobs are written, then a commit is created (with a
# nonce in its message) until its 7-hex prefix equals one of theirs (~4,096 sha1 tries).
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
PY=/usr/bin/python3
. "$(dirname "${BASH_SOURCE[0]}")/../lib/scratch-git-repo.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/index-query.sh"

base=$(commit "init")
git tag v6.0
intro=$(commit "net: add the plain bug")
# 65,536 blobs (unreferenced objects are still objects: revparse sees them)
$PY - <<'PY' | git fast-import --quiet
import sys
out = sys.stdout.buffer
for i in range(65536):
    data = b"blob %d\n" % i
    out.write(b"blob\ndata %d\n%s\n" % (len(data), data))
PY
# a commit whose 7-hex prefix collides with one of those blobs
ambig=$($PY - "$(git rev-parse HEAD)" "$(git rev-parse HEAD^{tree})" <<'PY'
import hashlib, subprocess, sys
parent, tree = sys.argv[1], sys.argv[2]
def oid(kind, body):
    return hashlib.sha1(b"%s %d\0" % (kind, len(body)) + body).hexdigest()
blobs = {oid(b"blob", b"blob %d\n" % i)[:7] for i in range(65536)}
for nonce in range(10**7):
    body = (b"tree %s\nparent %s\nauthor A U Thor <a@example.org> 1700000100 +0000\n"
            b"committer C O Mitter <c@example.org> 1700000100 +0000\n\n"
            b"net: add the ambiguous bug\n\nnonce %d\n" % (tree.encode(), parent.encode(), nonce))
    c = oid(b"commit", body)
    if c[:7] in blobs:
        got = subprocess.run(["git", "hash-object", "-t", "commit", "-w", "--stdin"], input=body,
                             capture_output=True, check=True).stdout.decode().strip()
        assert got == c, (got, c)
        print(c)
        break
PY
)
[ ${#ambig} = 40 ] || fail "no colliding commit found"
git update-ref refs/heads/master "$ambig"
git reset -q --hard
# the setup is what it claims: git cannot resolve the short id, but can resolve the other one
git rev-parse -q --verify "${ambig:0:7}" >/dev/null 2>&1 && fail "${ambig:0:7} is not ambiguous"
git rev-parse -q --verify "${intro:0:7}^{commit}" >/dev/null || fail "${intro:0:7} does not resolve"
git tag -a v6.1 -m "Linux 6.1"
fix=$(commit "net: fix both bugs

Fixes: ${ambig:0:7} (\"net: add the ambiguous bug\")
Fixes: ${intro:0:7} (\"net: add the plain bug\")")
git tag v6.2

IDX=$T/idx.sqlite
"$KCVE" --repo "$R" --index "$IDX" index >/dev/null
expect "$(sql "select fixes from commits where id='$fix'")" "${ambig:0:7} $intro" \
	"ambiguous short id kept raw, unambiguous one expanded"
# The same answers from packs, which kcve's full build searches itself (no loose objects left):
# the blob and the commit in two packs, then both in one.
loose_left() { find "$R/.git/objects" -mindepth 1 -maxdepth 1 -name '??' -type d -empty -delete
	find "$R/.git/objects" -mindepth 1 -maxdepth 1 -name '??' -type d | wc -l; }
git repack -dq && git prune-packed
[ "$(loose_left)" = 0 ] || fail "loose objects left after repack -d"
[ "$(ls "$R"/.git/objects/pack/*.idx | wc -l)" -ge 2 ] || fail "expected the blobs and commits in separate packs"
rm -f "$IDX"
"$KCVE" --repo "$R" --index "$IDX" index >/dev/null
expect "$(sql "select fixes from commits where id='$fix'")" "${ambig:0:7} $intro" \
	"two packs: ambiguous short id kept raw, unambiguous one expanded"
git repack -adq --keep-unreachable && git prune-packed
[ "$(loose_left)" = 0 ] || fail "loose objects left after repack -a"
[ "$(ls "$R"/.git/objects/pack/*.idx | wc -l)" = 1 ] || fail "expected one pack"
git rev-parse -q --verify "${ambig:0:7}" >/dev/null 2>&1 && fail "${ambig:0:7} is not ambiguous in one pack"
rm -f "$IDX"
"$KCVE" --repo "$R" --index "$IDX" index >/dev/null
expect "$(sql "select fixes from commits where id='$fix'")" "${ambig:0:7} $intro" \
	"one pack: ambiguous short id kept raw, unambiguous one expanded"
echo "ambiguous-fixes: ok (${ambig:0:7} shared by commit $ambig and a blob)"
