#!/usr/bin/env bash
# The history index and dyad on a small kernel-shaped repository built here with plain git:
# release/mainline/upstream/reverts/fixes columns (short ids expanded, unresolvable ids kept
# raw), incremental updates (a new stable tag walks only its range; nothing new = no work;
# -rc ranges replaced once the final release is tagged), dyad pairs, and the error paths
# (not a repository, no tags, corrupt index, older schema, unknown sha, over the commit limit,
# a merge of over 65,535 parents).
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
PY=/usr/bin/python3
. "$(dirname "${BASH_SOURCE[0]}")/../lib/scratch-git-repo.sh"
. "$(dirname "${BASH_SOURCE[0]}")/../lib/index-query.sh"

base=$(commit "init")
git tag v6.0
intro=$(commit "net: add the buggy thing")
other=$(commit "mm: unrelated")
git tag -a v6.1 -m "Linux 6.1"
fix=$(commit "net: fix the buggy thing

Fixes: ${intro:0:12} (\"net: add the buggy thing\")
Fixes: deadbeefdead (\"not in this tree\")")
git tag v6.2
# stable branch for 6.1 with a backport of the fix
git checkout -q -b linux-6.1.y v6.1
bp=$(commit "net: fix the buggy thing

[ Upstream commit $fix ]")
git tag v6.1.1
git checkout -q master

IDX=$T/idx.sqlite
out=$("$KCVE" --repo "$R" --index "$IDX" index)
echo "$out"
case "$out" in *"4 ranges (4 new), 5 commits added"*) ;; *) fail "first index: $out" ;; esac
expect "$(sql "select release, mainline from commits where id='$intro'")" "6.1|1" "intro release"
expect "$(sql "select release from commits where id='$base'")" "6.0" "oldest release takes its whole history"
expect "$(sql "select release, mainline, mainline_id from commits where id='$bp'")" "6.1.1|0|$fix" "backport"
expect "$(sql "select fixes from commits where id='$fix'")" "$intro deadbeefdead" "fixes expansion"
expect "$(sql "select subject, author from commits where id='$fix'")" "net: fix the buggy thing|A U Thor <a@example.org>" "metadata"

# nothing new: returns at once, walks nothing
out=$("$KCVE" --repo "$R" --index "$IDX" index)
case "$out" in *"(0 new), 0 commits added"*) ;; *) fail "rerun: $out" ;; esac

# dyad: introduced in 6.1, fixed in 6.2 and 6.1.1
got=$("$KCVE" --repo "$R" --index "$IDX" dyad "${fix:0:12}")
expect "$(echo "$got" | grep -v '^#')" "6.1:$intro:6.1.1:$bp
6.1:$intro:6.2:$fix" "dyad pairs"
expect "$(echo "$got" | sed -n 2p)" "# 	getting vulnerable:fixed pairs for git id $fix" "dyad header"
got=$("$KCVE" --repo "$R" --index "$IDX" dyad --vulnerable "$other" "$fix" | grep -v '^#')
expect "$got" "6.1:$other:6.1.1:$bp
6.1:$other:6.2:$fix" "dyad --vulnerable"

# batch mode: one CVE per line, output separated per CVE, failures reported and skipped
printf '# comment\nCVE-2099-0001 %s\n\n%s -v %s\nCVE-2099-0003 0123456789abcdef\n' "$fix" "${fix:0:12}" "$other" > "$T/batch"
set +e
"$KCVE" --repo "$R" --index "$IDX" dyad --batch "$T/batch" > "$T/batch.out" 2> "$T/batch.err"
c=$?
set -e
expect "$c" 7 "batch exit status (first failure)"
expect "$(grep -c . "$T/batch.err")" 1 "batch: one error line"
grep -q "CVE-2099-0003" "$T/batch.err" || fail "batch error names the CVE"
expect "$(grep '^##' "$T/batch.out")" "## CVE-2099-0001
## line 4
## CVE-2099-0003" "batch separators"
expect "$(sed -n '/^## line 4/,/^## CVE-2099-0003/p' "$T/batch.out" | grep -v '^#')" "6.1:$other:6.1.1:$bp
6.1:$other:6.2:$fix" "batch pairs"

# a new stable release: only its range is walked
git checkout -q linux-6.1.y
st=$(commit "mm: stable-only fix")
git tag v6.1.2
git checkout -q master
out=$("$KCVE" --repo "$R" --index "$IDX" index)
case "$out" in *"(1 new), 1 commits added"*) ;; *) fail "incremental: $out" ;; esac
expect "$(sql "select release, mainline from commits where id='$st'")" "6.1.2|0" "incremental release"

# the cycle in progress gets -rc releases, replaced by the final release once tagged
rc1=$(commit "x: merge window work")
git tag v6.3-rc1
"$KCVE" --repo "$R" --index "$IDX" index >/dev/null
expect "$(sql "select release from commits where id='$rc1'")" "6.3-rc1" "rc release"
fin=$(commit "x: late fix")
git tag v6.3
"$KCVE" --repo "$R" --index "$IDX" index >/dev/null
expect "$(sql "select release from commits where id='$rc1'")" "6.3" "rc replaced by final"
expect "$(sql "select count(*) from ranges where version_to like '%-rc%'")" "0" "rc ranges dropped"
expect "$(sql "select count(*) from commits")" "$(git rev-list --all | wc -l)" "every commit once"

# --rebuild gives the same index content
"$KCVE" --repo "$R" --index "$T/re.sqlite" index --rebuild >/dev/null
expect "$(IDX=$T/re.sqlite sql "select id, release, mainline, mainline_id, reverts, fixes from commits order by id")" \
	"$(sql "select id, release, mainline, mainline_id, reverts, fixes from commits order by id")" "rebuild = incremental"

# default index location: inside the git dir
"$KCVE" --repo "$R" index >/dev/null
[ -f "$R/.git/kcve-index.sqlite" ] || fail "default index path"

# error paths, each with its own exit code and one line on stderr
code() { set +e; "$@" >/dev/null 2>"$T/err"; local c=$?; set -e; echo $c; }
mkdir "$T/plain"
expect "$(code "$KCVE" --repo "$T/plain" --index "$T/x.sqlite" index)" 3 "not a repo"
grep -q "not a git repository" "$T/err" || fail "not-a-repo message: $(cat "$T/err")"
git init -q -b master "$T/notags"
(cd "$T/notags" && commit "x" >/dev/null && git tag foo)
expect "$(code "$KCVE" --repo "$T/notags" --index "$T/x.sqlite" index)" 4 "no tags"
[ ! -e "$T/x.sqlite" ] || fail "no index may be left behind"
expect "$(code "$KCVE" --repo "$R" --index "$IDX" dyad 0123456789abcdef)" 7 "unknown sha"
expect "$(wc -l < "$T/err")" 1 "one error line"
cp "$IDX" "$T/old.sqlite"
$PY -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update schema_version set version=0"); c.commit()' "$T/old.sqlite"
expect "$(code "$KCVE" --repo "$R" --index "$T/old.sqlite" dyad "$fix")" 6 "old schema"
grep -q "kcve index --rebuild" "$T/err" || fail "old-schema message: $(cat "$T/err")"
head -c 4096 /dev/urandom > "$T/bad.sqlite"
expect "$(code "$KCVE" --repo "$R" --index "$T/bad.sqlite" index)" 5 "corrupt index"
grep -q "rebuild" "$T/err" || fail "corrupt message: $(cat "$T/err")"
# and --rebuild repairs it
"$KCVE" --repo "$R" --index "$T/bad.sqlite" index --rebuild >/dev/null
"$KCVE" --repo "$R" --index "$T/bad.sqlite" dyad "$fix" >/dev/null
# a history beyond what the full build holds (2^31 commits; the test hook lowers the limit):
# refused with its own exit code and one line, no index left behind; exactly at the limit is fine
n=$(git rev-list --all | wc -l)
expect "$(KCVE_TEST_MAX_COMMITS=$((n - 1)) code "$KCVE" --repo "$R" --index "$T/lim.sqlite" index)" 23 "history over the commit limit"
expect "$(wc -l < "$T/err")" 1 "limit: one error line"
grep -q "more than $((n - 1)) commits" "$T/err" || fail "limit message: $(cat "$T/err")"
[ ! -e "$T/lim.sqlite" ] || fail "no index may be left behind over the limit"
expect "$(KCVE_TEST_MAX_COMMITS=$n code "$KCVE" --repo "$R" --index "$T/lim.sqlite" index)" 0 "history at the commit limit"
expect "$(IDX=$T/lim.sqlite sql "select count(*) from commits")" "$n" "limit: every commit"
# a merge of more than 65,535 parents (a node's parent count is 16-bit): refused the same way,
# never indexed with parents dropped (git accepts the commit: here one parent 65,536 times)
git init -q -b master "$T/octopus"
(cd "$T/octopus" && commit "init" > /dev/null && git tag v6.0 &&
	$PY -c 'import sys; p = sys.argv[1]; sys.stdout.write("tree %s\n" % sys.argv[2] + "parent %s\n" % p * 65536 + "author A <a@b> 1700000000 +0000\ncommitter A <a@b> 1700000000 +0000\n\nhuge merge\n")' \
		"$(git rev-parse HEAD)" "$(git rev-parse HEAD^{tree})" | git hash-object -t commit -w --stdin > "$T/octopus.sha" &&
	git tag v6.1 "$(cat "$T/octopus.sha")")
expect "$(code "$KCVE" --repo "$T/octopus" --index "$T/octopus.sqlite" index)" 23 "merge of 65,536 parents"
expect "$(wc -l < "$T/err")" 1 "octopus: one error line"
grep -q "merge $(cat "$T/octopus.sha") has more than 65,535 parents" "$T/err" || fail "octopus message: $(cat "$T/err")"
[ ! -e "$T/octopus.sqlite" ] || fail "no index may be left behind for the octopus"
echo "small-repo history tests passed"
