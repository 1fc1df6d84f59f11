#!/usr/bin/env bash
# `kcve db build --repo`: fingerprints from the mainline fix and its stable backport (each
# branch's own version of the fix, found through the history index), then `check --source` on
# trees exported from the history without it: the release before the fix (vulnerable), the
# stable release with the backport whose context drifted (fixed), mainline after the fix with
# the code moved by 300 lines (fixed), the stable release with the backport reverted
# (vulnerable), a partial backport (partial), an add-only fix (fixed/vulnerable by placement),
# a renamed file (undecided, never fixed), a moved file (read under its new path, the evidence
# naming both) and two moved copies that disagree (undecided).
set -euo pipefail
source "$KCVE_SRC/tests/lib/scratch-git-repo.sh"
K=$KCVE
at() { GIT_AUTHOR_DATE="@$1 +0000" GIT_COMMITTER_DATE="@$1 +0000" git commit -q -am "$2"; git rev-parse HEAD; }
filler() { for i in $(seq 1 "$1"); do echo "static int $2_$i = $i;"; done; }
foo() { # foo.c: $1 = pre|post, $2 = local's name, $3 = filler lines above
	filler "${3:-0}" pad
	cat <<EOC
static int foo_read(struct foo *f, size_t len)
{
	struct foo_hdr *hdr = f->hdr;
	int $2;

	spin_lock(&f->lock);
EOC
	if [ "$1" = post ]; then echo "	$2 = foo_copy_checked(f->buf, hdr->data, len, f->size);"
	else echo "	$2 = foo_copy(f->buf, hdr->data, len);"; fi
	cat <<EOC
	spin_unlock(&f->lock);
	foo_account(f, $2);
	return $2;
}

static int bar_write(struct bar *b, size_t len)
{
	bar_prepare(b);
	bar_lock_all(b);
EOC
	if [ "$1" = post ]; then echo "	if (len > b->max)"; echo "		len = b->max;"; fi
	cat <<EOC
	bar_store(b->buf, len);
	bar_unlock_all(b);
	return 0;
}
EOC
}
mkdir -p drivers
foo pre ret > drivers/foo.c
echo "int unrelated;" > drivers/other.c
git add -A
at 1700000001 "base" >/dev/null
git tag v6.0
BASE=$(git rev-parse HEAD)
# mainline: 300 lines land above the function, then the fix
foo pre ret 300 > drivers/foo.c
at 1700000002 "foo: add tables" >/dev/null
foo post ret 300 > drivers/foo.c
FIX=$(at 1700000003 "foo: check the length")
git tag v6.1
# stable: the context drifted (the local is "err" there), the backport carries the fix
git checkout -q -b linux-6.0.y v6.0
foo pre err > drivers/foo.c
at 1700000004 "foo: rename the local" >/dev/null
foo post err > drivers/foo.c
BP=$(at 1700000005 "foo: check the length

commit $FIX upstream.")
git tag v6.0.1
git revert --no-edit HEAD >/dev/null
git tag v6.0.2
git checkout -q master

python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" /dev/stdin <<EOJ || fail mktree
[{"id": "CVE-2099-0001", "files": ["drivers/foo.c"], "fixes": ["$FIX"],
  "pairs": ["6.0:$BASE:6.0.1:$BP", "6.0:$BASE:6.1:$FIX"]},
 {"id": "CVE-2099-0002", "files": ["drivers/other.c"], "fixes": ["$BASE"], "pairs": []}]
EOJ
"$K" db build --tree "$T/tree" --repo "$R" -o "$T/kcve.db" --json > "$T/build.json" 2>"$T/build.err" \
	|| { cat "$T/build.err"; fail "db build --repo"; }
python3 - "$T/build.json" <<'EOP' || fail "db build --repo did not store one fingerprint"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["fingerprints"] == 1, d
EOP
verdict() { # tree-dir version -> code verdict of CVE-2099-0001
	"$K" check --db "$T/kcve.db" --source "$1" --version "$2" --json --all > "$T/out.json" 2>/dev/null || true
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["results"][0]["cves"] if c["id"] == "CVE-2099-0001"][0]
print(c.get("code", {}).get("verdict", "none"), c["outcome"], c["stage"])' "$T/out.json"
}
export_tree() { mkdir -p "$T/src/$1"; git archive "$1" | tar -x -C "$T/src/$1"; }
for t in v6.0 v6.0.1 v6.0.2 v6.1; do export_tree $t; done
check() { # tag version expected-verdict expected-outcome
	got=$(verdict "$T/src/$1" "$2")
	[ "$got" = "$3 $4 code" ] || fail "$1 (as $2): got '$got', expected '$3 $4 code'"
}
check v6.0 6.0 vulnerable affected
check v6.0.1 6.0.1 fixed fixed
check v6.0.2 6.0.2 vulnerable affected   # the revert brings the pre-fix code back
check v6.1 6.1 fixed fixed               # moved by 300 lines
# the version alone calls 6.0.1 fixed: a tree of that version without the fix is affected
check v6.0 6.0.1 vulnerable affected
# the version calls 6.0 affected: the same tree with the fix in its code is fixed
check v6.0.1 6.0 fixed fixed
# a partial backport: only the first hunk (foo_read) of the mainline fix
cp -r "$T/src/v6.0" "$T/src/partial"
sed -i 's/ret = foo_copy(f->buf, hdr->data, len);/ret = foo_copy_checked(f->buf, hdr->data, len, f->size);/' \
	"$T/src/partial/drivers/foo.c"
check partial 6.0 partial affected
# add-only placement: the added check elsewhere in the file, not in bar_write: vulnerable
cp -r "$T/src/v6.0" "$T/src/elsewhere"
printf 'static void other(struct bar *b, size_t len)\n{\n\tif (len > b->max)\n\t\tlen = b->max;\n}\n' \
	>> "$T/src/elsewhere/drivers/foo.c"
got=$(verdict "$T/src/elsewhere" 6.0)
case $got in fixed*|partial*) fail "add-only fix found elsewhere read as '$got'";; esac
# a renamed file: the fix cannot be found, never "fixed"
mkdir -p "$T/src/renamed/drivers"
cp "$T/src/v6.0.1/drivers/foo.c" "$T/src/renamed/drivers/foo_core.c"
got=$(verdict "$T/src/renamed" 6.0)
[ "$got" = "undecided affected version" ] || fail "renamed file: got '$got'"
# moved (same basename): read where it is now, the evidence names both paths
mkdir -p "$T/src/moved/drivers/foo"
cp "$T/src/v6.0.1/drivers/foo.c" "$T/src/moved/drivers/foo/foo.c"
got=$(verdict "$T/src/moved" 6.0)
[ "$got" = "fixed fixed code" ] || fail "moved file: got '$got'"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["results"][0]["cves"] if c["id"] == "CVE-2099-0001"][0]
ev = c["code"]["evidence"]
assert ev and all(e["file"] == "drivers/foo/foo.c" and e["fingerprint_file"] == "drivers/foo.c"
                  for e in ev), ev' "$T/out.json" || fail "moved file: evidence $(cat "$T/out.json")"
# two moved copies, one fixed and one not: which one is built is unknown, so undecided
mkdir -p "$T/src/moved/drivers/old"
cp "$T/src/v6.0/drivers/foo.c" "$T/src/moved/drivers/old/foo.c"
got=$(verdict "$T/src/moved" 6.0)
[ "$got" = "undecided affected version" ] || fail "two moved copies: got '$got'"
echo "codefix-repo: ok"
