#!/usr/bin/env bash
# kcve record end to end on a small kernel-shaped repository built here with plain git:
# the affected-file list equals `git show --pretty=format: --name-only` (renames, deletions,
# C-quoted non-ASCII and spaced names, a merge fix), the description drops trailers, the
# pairs come from the Fixes: tag, a stable backport adds its own range, vulns-tree inputs
# (scripts/tags, scripts/linux.uuid) are honoured, the identity comes from the environment /
# git config, and the issuance policy refuses a same-release fix.
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HOME=$T GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME="A U Thor" GIT_AUTHOR_EMAIL=a@example.org
export GIT_COMMITTER_NAME="C O Mitter" GIT_COMMITTER_EMAIL=c@example.org
unset KCVE_REPO KCVE_INDEX KCVE_TREE KCVE_FROM CVE_USER
fail() { echo "FAIL: $*" >&2; exit 1; }
R=$T/linux
git init -q -b master "$R"
cd "$R"
n=0
at() { n=$((n + 1)); export GIT_AUTHOR_DATE="@$((1700000000 + n)) +0000" GIT_COMMITTER_DATE="@$((1700000000 + n)) +0000"; }
mkdir -p drivers/foo net
for f in drivers/foo/a.c drivers/foo/b.c net/core.c "net/spaced name.c" "net/ünï.c" README; do
	seq 1 40 | sed "s|^|$f line |" > "$f"
done
git add -A && at && git commit -q -m init && git tag v6.0
echo "bug" >> drivers/foo/a.c
git add -A && at && git commit -q -m "foo: add the buggy thing" && intro=$(git rev-parse HEAD)
git tag -a v6.1 -m "Linux 6.1"
# the fix: modify, rename with a small change, delete, add, touch a non-ASCII name
sed -i 's/^bug$/fixed/' drivers/foo/a.c
git mv drivers/foo/b.c drivers/bar.c && echo "one more" >> drivers/bar.c
git rm -q "net/spaced name.c"
echo new > "net/new file.c"
echo change >> "net/ünï.c"
git add -A && at && git commit -q -F - <<MSG
foo: fix the buggy thing

The buggy thing broke things.
  Reported-by: Someone <s@example.org>
Fixes: ${intro:0:12} ("foo: add the buggy thing")
Custom-tag: dropped only with the tree's tags file
Signed-off-by: A U Thor <a@example.org>
MSG
fix=$(git rev-parse HEAD)
git tag v6.2
git checkout -q -b linux-6.1.y v6.1
echo "backport" >> drivers/foo/a.c
git add -A && at && git commit -q -m "foo: fix the buggy thing

[ Upstream commit $fix ]" && bp=$(git rev-parse HEAD)
git tag v6.1.1
git checkout -q master
# a topic-branch merge whose merge commit resolves a conflict (a merge "fix")
git checkout -q -b topic v6.2
echo topic >> net/core.c && git add -A && at && git commit -q -m "net: topic change"
git checkout -q master
echo master >> net/core.c && echo side >> README && git add -A && at && git commit -q -m "net: master change"
at; git merge -q topic -m "Merge branch topic" > /dev/null 2>&1 || true
printf 'resolved\n' > net/core.c && git add -A && at && git commit -q -m "Merge branch topic

Fixes: ${intro:0:12} (\"foo: add the buggy thing\")" && merge=$(git rev-parse HEAD)
git tag v6.3
# introduced and fixed in the same release
echo x >> README && git add -A && at && git commit -q -m "mm: add thing" && same_intro=$(git rev-parse HEAD)
echo y >> README && git add -A && at && git commit -q -m "mm: fix thing

Fixes: ${same_intro:0:12} (\"mm: add thing\")" && same_fix=$(git rev-parse HEAD)
git tag v6.4

K() { "$KCVE" --repo "$R" --index "$T/idx.sqlite" "$@"; }
K index > /dev/null 2>&1
files_of() { git show --pretty=format: --name-only "$1" | grep -v '^$' || true; }
mbox_files() { awk '/^The file\(s\) affected by this issue are:$/ {on=1; next} on && /^$/ {exit} on {sub(/^\t/, ""); print}' "$1"; }

export KCVE_FROM="Test Sender <sender@example.org>"
K record --cve CVE-2023-00001 --json "$T/1.json" --mbox "$T/1.mbox" --dyad "$T/1.dyad" "$fix"
diff <(files_of "$fix") <(mbox_files "$T/1.mbox") || fail "affected files differ from git show"
files_of "$fix" > "$T/fix.files"
grep -q '^"net/\\303\\274n\\303\\257.c"$' "$T/fix.files" || fail "git did not quote the non-ASCII name"
grep -q '^From: Test Sender <sender@example.org>$' "$T/1.mbox" || fail "sender"
grep -qx "6.1:$intro:6.1.1:$bp" "$T/1.dyad" || fail "backport pair: $(cat "$T/1.dyad")"
grep -qx "6.1:$intro:6.2:$fix" "$T/1.dyad" || fail "mainline pair"
grep -q "Issue introduced in 6.1 with commit $intro and fixed in 6.1.1 with commit $bp" "$T/1.mbox" || fail "mbox line"
grep -q 'Reported-by\|Fixes:\|Signed-off-by' "$T/1.json" && fail "trailers left in the description"
grep -q 'Custom-tag: dropped' "$T/1.json" || fail "built-in tag list dropped an unknown tag"
/usr/bin/python3 - "$T/1.json" "$fix" <<'PY' || fail "json content"
import json, subprocess, sys
rec = json.load(open(sys.argv[1]))
cna = rec["containers"]["cna"]
files = subprocess.run(["git", "show", "--pretty=format:", "--name-only", sys.argv[2]],
                       capture_output=True, text=True, check=True).stdout.split("\n")
assert cna["affected"][0]["programFiles"] == [f for f in files if f], cna["affected"][0]["programFiles"]
assert cna["title"] == "foo: fix the buggy thing"
assert cna["descriptions"][0]["value"].endswith("The buggy thing broke things.\nCustom-tag: dropped only with the tree's tags file"), cna["descriptions"]
assert [p["defaultStatus"] for p in cna["affected"]] == ["unaffected", "affected"]
assert "metrics" not in cna
assert rec["cveMetadata"]["assignerOrgId"] == "f4215fc3-5b6b-47ff-a258-f7189bd81038"
PY

# --reference (trimmed, blank lines and duplicates dropped), --message, --cvss
printf '\n  https://example.org/a  \n\nhttps://example.org/b\nhttps://example.org/a\n' > "$T/refs"
printf '\n  A replacement description.\n\n' > "$T/msg"
printf 'f4215fc3-5b6b-47ff-a258-f7189bd81038 CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H\n' > "$T/cvss"
K record --cve CVE-2023-00001 --reference "$T/refs" --message "$T/msg" --cvss "$T/cvss" \
	--json "$T/r.json" --mbox "$T/r.mbox" "$fix"
/usr/bin/python3 - "$T/r.json" "$fix" "$bp" <<'PY' || fail "reference/message/cvss json"
import json, sys
cna = json.load(open(sys.argv[1]))["containers"]["cna"]
urls = [r["url"] for r in cna["references"]]
assert urls == ["https://git.kernel.org/stable/c/" + sys.argv[3], "https://git.kernel.org/stable/c/" + sys.argv[2],
                "https://example.org/a", "https://example.org/b"], urls
assert cna["descriptions"][0]["value"] == ("In the Linux kernel, the following vulnerability has been "
                                           "resolved:\n\nA replacement description."), cna["descriptions"]
m = cna["metrics"][0]["cvssV3_1"]
assert (m["baseScore"], m["baseSeverity"]) == (7.8, "HIGH") and "scenarios" not in cna["metrics"][0]
PY
tail -3 "$T/r.mbox" | sed 's/^\t//' > "$T/links"
printf 'https://git.kernel.org/stable/c/%s\nhttps://example.org/a\nhttps://example.org/b\n' "$fix" | diff - "$T/links" || fail "mbox links"
grep -q '^  CVSS v3.1: 7.8 HIGH$' "$T/r.mbox" || fail "mbox severity"
printf ' \n' > "$T/blank"
K record --cve CVE-2023-00001 --message "$T/blank" "$fix" > "$T/b.json"
grep -q "The buggy thing broke things" "$T/b.json" || fail "blank .message must fall back to the commit"

# a vulns tree: its tags list and org uuid are used
mkdir -p "$T/vulns/scripts"
printf 'custom-tag\n' > "$T/vulns/scripts/tags"
echo 00000000-1111-2222-3333-444444444444 > "$T/vulns/scripts/linux.uuid"
"$KCVE" --repo "$R" --index "$T/idx.sqlite" --tree "$T/vulns" record --cve CVE-2023-00001 "$fix" > "$T/2.json"
grep -q 'Custom-tag' "$T/2.json" && fail "tree tags list not used"
grep -q 'Signed-off-by' "$T/2.json" || fail "tree tags list should replace the built-in one"
grep -q '"orgId": "00000000-1111-2222-3333-444444444444"' "$T/2.json" || fail "tree uuid not used"
: > "$T/vulns/scripts/linux.uuid"
rc=0; "$KCVE" --repo "$R" --index "$T/idx.sqlite" --tree "$T/vulns" record --cve CVE-2023-00001 "$fix" > /dev/null 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "empty uuid file accepted"

# the merge fix lists the paths that differ from every parent, as git's combined diff does
K record --cve CVE-2023-00002 --mbox "$T/m.mbox" "$merge"
diff <(files_of "$merge") <(mbox_files "$T/m.mbox") || fail "merge files differ from git show"

# identity: $CVE_USER + git config user.name; nothing configured is an error only with --mbox
unset KCVE_FROM
git config --global user.name "Config Name"
CVE_USER=cve@example.org K record --cve CVE-2023-00001 --mbox "$T/3.mbox" "$fix"
grep -q '^From: Config Name <cve@example.org>$' "$T/3.mbox" || fail "CVE_USER identity"
git config --global user.email "config@example.org"
K record --cve CVE-2023-00001 --mbox "$T/4.mbox" "$fix"
grep -q '^From: Config Name <config@example.org>$' "$T/4.mbox" || fail "git config identity"
rm -f "$T/.gitconfig"
rc=0; K record --cve CVE-2023-00001 --mbox "$T/5.mbox" "$fix" 2> "$T/err" || rc=$?
[ "$rc" -ne 0 ] && [ ! -e "$T/5.mbox" ] || fail "no identity accepted"
K record --cve CVE-2023-00001 "$fix" > /dev/null || fail "JSON-only record needs no identity"
rc=0; K record --cve CVE-2023-00001 --from "no address" "$fix" > /dev/null 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "malformed --from accepted"

# policy: introduced and fixed in the same release
rc=0; K record --cve CVE-2023-00003 --json "$T/p.json" "$same_fix" 2> "$T/err" || rc=$?
[ "$rc" -eq 8 ] || fail "policy refusal exit status $rc: $(cat "$T/err")"
grep -q 'none were in an actual release' "$T/err" || fail "policy message: $(cat "$T/err")"
[ ! -e "$T/p.json" ] || fail "policy refusal left a file"

# --not-affected BRANCH: the maintainers' decision drops that branch's pairs from every output
K record --cve CVE-2023-00001 --from "Test Sender <sender@example.org>" --not-affected 6.1 \
	--json "$T/na.json" --mbox "$T/na.mbox" --dyad "$T/na.dyad" "$fix"
grep -qx "6.1:$intro:6.2:$fix" "$T/na.dyad" || fail "not-affected: mainline pair kept: $(cat "$T/na.dyad")"
grep -q ":6.1.1:" "$T/na.dyad" && fail "not-affected: 6.1 pair still in .dyad"
grep -q "6\.1\.1\|$bp" "$T/na.json" && fail "not-affected: 6.1 still in .json"
grep -q "6\.1\.1\|$bp" "$T/na.mbox" && fail "not-affected: 6.1 still in .mbox"
grep -q "fixed in 6.2 with commit $fix" "$T/na.mbox" || fail "not-affected: mainline line lost"
K record --cve CVE-2023-00001 --not-affected 5.15 --dyad "$T/na2.dyad" "$fix"
diff "$T/1.dyad" "$T/na2.dyad" > /dev/null || fail "not-affected: an unrelated branch changed the pairs"
rc=0; K record --cve CVE-2023-00001 --not-affected 6.1 --not-affected 6.2 --json "$T/na3.json" "$fix" 2> "$T/err" || rc=$?
[ "$rc" -eq 8 ] && [ ! -e "$T/na3.json" ] || fail "not-affected everywhere: exit $rc: $(cat "$T/err")"
rc=0; K record --cve CVE-2023-00001 --not-affected 6.1.1 "$fix" > /dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "not-affected: a release instead of a branch accepted ($rc)"
echo "record small repo: ok"
