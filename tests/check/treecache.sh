#!/bin/bash
# kcve check --tree's record cache (.kcve/check-cache): built on the first run, used while the
# records are unchanged, rebuilt when a record changes, bypassed by --no-cache, ignored and
# rewritten when damaged, never written through symbolic links or under a writer's lock; every
# answer equals the one read from the records themselves.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"

A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
C=cccccccccccccccccccccccccccccccccccccccc
cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-0001", "title": "ext4: fix inode bug", "files": ["fs/ext4/inode.c"],
  "pairs": ["5.10:$A:6.1.20:$B", "5.10:$A:6.2:$C"], "severity": "HIGH", "score": 7.8},
 {"id": "CVE-2099-0002", "title": "foo: fix driver", "files": ["drivers/foo.c"],
  "pairs": ["0:0:6.1.30:$B", "0:0:6.3:$C"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
R=$T/tree
CACHE=$R/.kcve/check-cache
DYAD2=$R/cve/published/2099/CVE-2099-0002.dyad

# run ARGS...: the JSON of 6.1.5 and 6.1.25 through the cache; the cache state in $T/state
run() {
	"$KCVE" -v check --tree "$R" --version 6.1.5,6.1.25 --json --all "$@" >"$T/out" 2>"$T/err" ||
		fail "check $*: $(cat "$T/err")"
	sed -n 's/^kcve: record cache of [^:]*: \([a-z]*\).*/\1/p' "$T/err" >"$T/state"
}
# the same, read from the records only, for comparison
truth() { "$KCVE" check --tree "$R" --no-cache --version 6.1.5,6.1.25 --json --all >"$T/truth" || fail truth; }
expect() { # STATE WHAT
	[ "$(cat "$T/state")" = "$1" ] || fail "$2: cache state '$(cat "$T/state")', expected '$1' ($(cat "$T/err"))"
	truth
	cmp -s "$T/out" "$T/truth" || fail "$2: result differs from the records' own"
}
ids() { "$KCVE" check --tree "$R" --version 6.1.25 --ids | sed 's/^[^:]*: *//'; }

# ---- first run builds, the second one uses it; git never sees the state directory
run; expect built "first run"
[ -f "$CACHE" ] || fail "no cache file after the first run"
[ "$(cat "$R/.kcve/.gitignore")" = "*" ] || fail ".kcve/.gitignore must ignore everything"
run; expect hit "second run"
[ "$(ids)" = "CVE-2099-0002" ] || fail "6.1.25 before the change: $(ids)"

# ---- a record edited in place (same directory entries) is seen: rebuilt, new answer
printf '# dyad version: test\n0:0:6.1.22:%s\n0:0:6.3:%s\n' "$B" "$C" >"$DYAD2"
run; expect rebuilt "edited .dyad"
[ "$(ids)" = "" ] || fail "6.1.25 after the fix moved to 6.1.22: $(ids)"
run; expect hit "after the rebuild"

# ---- a new record is seen
cat > "$T/spec2.json" <<EOF
[{"id": "CVE-2099-0003", "title": "bar: new", "files": ["drivers/bar.c"], "pairs": ["0:0:6.1.40:$B"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$R" "$T/spec2.json" || fail mktree2
run; expect rebuilt "new record"
[ "$(ids)" = "CVE-2099-0003" ] || fail "new record not in the answer: $(ids)"

# ---- --no-cache neither reads nor writes the cache
rm -f "$CACHE"
run --no-cache; expect off "--no-cache"
[ -e "$CACHE" ] && fail "--no-cache wrote a cache"
"$KCVE" check --db "$T/x.kdb" --no-cache --version 6.1.5 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "--no-cache with --db: rc=$rc"
run; expect built "after --no-cache"

# ---- damaged caches are ignored and rewritten: garbage, truncated, a flipped payload byte
cp "$CACHE" "$T/good"
printf 'not a cache at all' >"$CACHE"
run; expect rebuilt "garbage cache"
cmp -s "$CACHE" "$T/good" || fail "garbage cache not rewritten to the same content"
head -c 60 "$T/good" >"$CACHE"
run; expect rebuilt "truncated cache"
size=$(stat -c %s "$T/good")
cp "$T/good" "$CACHE"
$PY - "$CACHE" $((size - 10)) <<'EOF' || fail flip
import sys
p, at = sys.argv[1], int(sys.argv[2])
b = bytearray(open(p, "rb").read()); b[at] ^= 0xff; open(p, "wb").write(b)
EOF
run; expect rebuilt "flipped byte"
run; expect hit "after the repair"
: >"$CACHE"
run; expect rebuilt "empty cache"

# ---- symbolic links are never followed
echo outside >"$T/outside"
rm -f "$CACHE"; ln -s "$T/outside" "$CACHE"
run; expect rebuilt "cache is a symlink"
[ "$(cat "$T/outside")" = outside ] || fail "the cache was written through a symlink"
[ -L "$CACHE" ] && fail "the symlink was left in place of the cache"
mv "$R/.kcve" "$T/state-dir"; ln -s "$T/state-dir" "$R/.kcve"
rm -f "$T/state-dir/check-cache"
run; expect skipped ".kcve is a symlink"
[ -e "$T/state-dir/check-cache" ] && fail "cache written through a symlinked .kcve"
rm "$R/.kcve"; mv "$T/state-dir" "$R/.kcve"
mv "$DYAD2" "$T/dyad2"; ln -s "$T/dyad2" "$DYAD2"
run; expect skipped "record file is a symlink"
grep -q "not a regular file" "$T/err" || fail "skip reason: $(cat "$T/err")"
rm "$DYAD2"; mv "$T/dyad2" "$DYAD2"

# ---- a writer holding the tree lock: the check runs from the records, the cache is left alone
run; expect built "before the lock"
cp "$CACHE" "$T/before"
printf '# dyad version: test\n0:0:6.1.26:%s\n' "$B" >"$DYAD2"
flock "$R/.kcve/lock" sleep 5 &
sleep 1
run; expect skipped "tree locked"
cmp -s "$CACHE" "$T/before" || fail "cache written while the tree was locked"
wait
run; expect rebuilt "after the lock"
ls "$R/.kcve" | grep -q tmp && fail "temporary file left in .kcve: $(ls "$R/.kcve")"

# ---- the cache keeps the listing of the record directories, so a later run reads no directory:
# trusted only while each directory's metadata is what it was and had settled (changed more
# than 2 s before the listing was taken); every change of the directories is still seen
listed() { grep -q "record directories were read" "$T/err"; }
sleep 3
run; expect hit "settled tree, first run"
sleep 3
run; expect hit "settled tree"
listed && fail "a settled tree's directories were read: $(cat "$T/err")"
cat > "$T/spec3.json" <<EOF
[{"id": "CVE-2099-0004", "title": "baz: new", "files": ["drivers/baz.c"], "pairs": ["0:0:6.1.41:$B"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$R" "$T/spec3.json" || fail mktree3
run; expect rebuilt "record added to a listed directory"
# the cache's mtime is the time its listing was taken: as if taken in the tick of the change
touch -r "$R/cve/published/2099" "$CACHE"
run; expect hit "listing taken right after the change"
listed || fail "a directory changed within 2 s of the listing was trusted: $(cat "$T/err")"
ids | grep -qw CVE-2099-0004 || fail "added record not in the answer: $(ids)"
sleep 3
run; expect hit "settled again (the cache is stamped with this listing's time)"
run; expect hit "after the stamp"
listed && fail "the listing was not trusted again after the directories settled: $(cat "$T/err")"
rm "$R"/cve/published/2099/CVE-2099-0004.*
run; expect rebuilt "record removed"
ids | grep -qw CVE-2099-0004 && fail "removed record still in the answer: $(ids)"
sleep 3
cat > "$T/spec5.json" <<EOF
[{"id": "CVE-2098-0001", "title": "qux: new year", "files": ["drivers/qux.c"], "pairs": ["0:0:6.1.42:$B"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$R" "$T/spec5.json" || fail mktree5
run; expect rebuilt "new year directory"
sleep 3
run; expect hit "before an edit that keeps size and mtime"
J=$R/cve/published/2099/CVE-2099-0001.json
cp -p "$J" "$T/j"
sed -i 's/ext4: fix inode bug/ext4: fix inode BUG/' "$J"
touch -r "$T/j" "$J"
[ "$(stat -c %s "$J")" = "$(stat -c %s "$T/j")" ] || fail "the edit changed the size"
run; expect rebuilt "edit in place with the same size and mtime (its ctime changes)"
echo "check-treecache: ok"
