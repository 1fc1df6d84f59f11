#!/bin/bash
# kcve check --git on a small synthetic repository: ancestry, cherry-picks that name the
# upstream fix ((cherry picked from commit X), "commit X upstream", Git-commit: X), branches
# from before the bug, and an unrelated tree.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
g() { git -C "$T/repo" "$@"; }

git init -q -b main "$T/repo" || fail "git init"
echo base > "$T/repo/a.c"; g add a.c; g commit -qm "base" || fail commit
BASE=$(g rev-parse HEAD)
echo bug >> "$T/repo/a.c"; g commit -qam "introduce the bug"
INTRO=$(g rev-parse HEAD)
g branch vendor; g branch vendor2; g branch vendor3; g branch nofix
g branch old "$BASE"
echo fix >> "$T/repo/a.c"; g commit -qam "fix the bug"
FIX=$(g rev-parse HEAD)
echo more > "$T/repo/b.c"; g add b.c; g commit -qm "unrelated"

# vendor: cherry-pick -x of the fix
g checkout -q vendor && g cherry-pick -x "$FIX" >/dev/null || fail "cherry-pick"
# vendor2: stable style "commit X upstream."
g checkout -q vendor2 && echo fix >> "$T/repo/a.c" && g commit -qam "fix the bug

commit $FIX upstream.

Signed-off-by: t"
# vendor3: SUSE patch header style
g checkout -q vendor3 && echo fix >> "$T/repo/a.c" && g commit -qam "fix the bug

Git-commit: $FIX
Patch-mainline: v6.2"
# nofix: a commit that only mentions the id in prose (no "commit" keyword before it)
g checkout -q nofix && echo x >> "$T/repo/a.c" && g commit -qam "see $FIX for details"
g checkout -q main

cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-0001", "title": "a: fix the bug", "files": ["a.c"],
  "pairs": ["6.1:$INTRO:6.2:$FIX"], "fixes": ["$FIX"]},
 {"id": "CVE-2099-0002", "title": "b: never fixed here", "files": ["b.c"],
  "pairs": ["0:0:6.3:1111111111111111111111111111111111111111"]},
 {"id": "CVE-2099-0003", "title": "c: introduced elsewhere", "files": ["c.c"],
  "pairs": ["6.1:2222222222222222222222222222222222222222:6.2:3333333333333333333333333333333333333333"]}]
EOF
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree

ids() { "$KCVE" check --tree "$T/tree" --git "$T/repo" --ref "$1" --ids | cut -d: -f3-; }
expect() { # ref, expected kept ids
	local got; got=$(ids "$1" | xargs)
	[ "$got" = "$2" ] || fail "ref $1: expected '$2', got '$got'"
}
expect main "CVE-2099-0002"
expect vendor "CVE-2099-0002"
expect vendor2 "CVE-2099-0002"
expect vendor3 "CVE-2099-0002"
expect nofix "CVE-2099-0001 CVE-2099-0002"
expect old "CVE-2099-0002"

# the reasons say why
"$KCVE" check --tree "$T/tree" --git "$T/repo" --ref vendor --json --all > "$T/v.json" || fail "json"
/usr/bin/python3 - "$T/v.json" <<'EOF' || fail "json reasons"
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["id"]: x for x in d["results"][0]["cves"]}
assert c["CVE-2099-0001"]["outcome"] == "fixed", c["CVE-2099-0001"]
assert "cherry-picked" in c["CVE-2099-0001"]["reason"], c["CVE-2099-0001"]["reason"]
assert c["CVE-2099-0003"]["outcome"] == "not_introduced"
assert c["CVE-2099-0002"]["outcome"] == "affected"
EOF

# the scan cache (kcve-scan.cache in the git dir): same verdicts with and without it, only new
# commits are read, a damaged cache is ignored and rewritten, an unwritable one only warns
C=$T/repo/.git/kcve-scan.cache
[ -s "$C" ] || fail "no scan cache written at $C"
for r in main vendor vendor2 vendor3 nofix old; do
	a=$("$KCVE" check --tree "$T/tree" --git "$T/repo" --ref $r --ids --no-git-cache) || fail "no cache $r"
	b=$("$KCVE" check --tree "$T/tree" --git "$T/repo" --ref $r --ids) || fail "cache $r"
	[ "$a" = "$b" ] || fail "ref $r: cached verdict '$b' differs from uncached '$a'"
done
readcount() { # ref [options]: commits read from objects (not from the cache) in a -v run
	local r=$1; shift
	"$KCVE" -v check --tree "$T/tree" --git "$T/repo" --ref "$r" --ids "$@" 2>&1 >/dev/null |
		sed -n 's/.*commits (\([0-9]*\) read, \([0-9]*\) from the scan cache).*/\1 \2/p'
}
[ "$(readcount main)" = "0 4" ] || fail "warm cache: main should read 0 commits: $(readcount main)"
g checkout -q -b vendor4 "$INTRO" && echo fix >> "$T/repo/a.c" && g commit -qam "a: fix the bug

(cherry picked from commit $FIX)" && g checkout -q main
[ "$(readcount vendor4)" = "1 2" ] || fail "new commit: expected 1 read, 2 cached: $(readcount vendor4)"
expect vendor4 "CVE-2099-0002"
printf 'garbage' | dd of="$C" bs=1 seek=40 conv=notrunc status=none
[ "$(readcount vendor4)" = "3 0" ] || fail "damaged cache should be ignored: $(readcount vendor4)"
[ "$(readcount vendor4)" = "0 3" ] || fail "damaged cache should have been rewritten: $(readcount vendor4)"
: > "$C"
expect vendor4 "CVE-2099-0002"
"$KCVE" check --tree "$T/tree" --git "$T/repo" --ref vendor4 --ids --git-cache "$T/no/such/dir/c" \
	> "$T/out" 2> "$T/err" || fail "unwritable cache must not fail the check: $(cat "$T/err")"
grep -q "cannot write the git scan cache" "$T/err" || fail "unwritable cache: no warning: $(cat "$T/err")"
[ "$(cut -d: -f3- "$T/out" | xargs)" = "CVE-2099-0002" ] || fail "unwritable cache: $(cat "$T/out")"
"$KCVE" check --tree "$T/tree" --git "$T/repo" --ref vendor4 --ids --git-cache "$T/own.cache" >/dev/null &&
	[ -s "$T/own.cache" ] || fail "--git-cache FILE not written"
"$KCVE" check --tree "$T/tree" --version 6.1.1 --no-git-cache --ids 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "needs --git" "$T/err" || fail "--no-git-cache without --git: rc=$rc"

# errors: not a repository, unknown ref
"$KCVE" check --tree "$T/tree" --git "$T/tree" --ids 2>"$T/err"; rc=$?
[ $rc -eq 3 ] && grep -q "not a git repository" "$T/err" || fail "non-repo: rc=$rc $(cat "$T/err")"
"$KCVE" check --tree "$T/tree" --git "$T/repo" --ref nosuchref --ids 2>"$T/err"; rc=$?
[ $rc -eq 7 ] || fail "unknown ref: rc=$rc $(cat "$T/err")"
echo "git: ok"
