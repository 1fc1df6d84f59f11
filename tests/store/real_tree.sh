#!/usr/bin/env bash
# kcve verify / search / summary on (a hard-linked copy of) the real CNA record tree
# ../shared/data/vulns-upto-2024.tar.xz. Expected answers are computed here independently
# with find/grep/Python (incl. docs/spec/record.md "Consistency rules" rule 5 over every .json), never hard-coded.
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
TARBALL=${KCVE_SHARED:-/nonexistent}/data/vulns-upto-2024.tar.xz
[ -f "$TARBALL" ] || { echo "no $TARBALL: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
# unpack once per build directory (read-only afterwards), work on a hard-linked copy
CACHE=${KCVE_BUILD:-/tmp}/store-test-cache
if [ ! -f "$CACHE/done" ]; then
	rm -rf "$CACHE" && mkdir -p "$CACHE"
	tar -xJf "$TARBALL" -C "$CACHE"
	touch "$CACHE/done"
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp -al "$CACHE/vulns" "$T/vulns"
V=$T/vulns
unset KCVE_TREE KCVE_REPO
K() { "$KCVE" --tree "$V" "$@"; }

# ---- verify: the real data has a few inconsistencies; compute them independently here ----
set +e
K verify > "$T/verify.out" 2> "$T/verify.err"
rc=$?
set -e
tail -1 "$T/verify.out"
/usr/bin/python3 - "$V" > "$T/expect_problems" <<'PY'
import os, re, sys
root = sys.argv[1]
ids = {}      # (state, id) -> set of names
for state in ("reserved", "published", "rejected", "returned"):
    sd = os.path.join(root, "cve", state)
    if not os.path.isdir(sd):
        continue
    for year in os.listdir(sd):
        if not re.match(r"\d{4}$", year):
            continue
        for name in os.listdir(os.path.join(sd, year)):
            m = re.match(r"(CVE-\d{4}-\d+)(\..*)?$", name)
            if m:
                ids.setdefault((state, year, m.group(1)), set()).add(name)
states = {}
for (state, year, cid), names in ids.items():
    if cid in names or cid + ".sha1" in names:
        states.setdefault(cid, []).append(state)
out = []
checked = 0
for (state, year, cid), names in ids.items():
    if cid in names or cid + ".sha1" in names:
        checked += 1
        continue
    other = [s for s in states.get(cid, []) if s != state]
    out.append("%s: leftover-file: cve/%s/%s holds %s but the id is %s" % (
        cid, state, year, " ".join(sorted(names)), other[0] if other else "?"))
first = {}
for (state, year, cid), names in ids.items():
    if state in ("published", "rejected") and cid + ".sha1" in names:
        with open(os.path.join(root, "cve", state, year, cid + ".sha1")) as f:
            lines = [l.strip() for l in f if l.strip()]
        if lines:
            first.setdefault(lines[0].lower(), []).append((cid, state))
for sha, owners in first.items():
    owners.sort()
    for i in range(1, len(owners)):
        out.append("%s: duplicate-fix: commit %s is also the fix of %s (%s)" % (
            owners[i][0], sha, owners[i - 1][0], owners[i - 1][1]))
# docs/spec/record.md "Consistency rules" rule (5) inside each published .json: semver fix / intro versions must equal
# the CPE versionEndExcluding / versionStartIncluding values
def r5diff(cid, rule, wname, want, hname, have):
    if want != have:
        out.append("%s: %s: in %s but not %s: %s; in %s but not %s: %s" % (
            cid, rule, wname, hname, " ".join(sorted(want - have)) or "-",
            hname, wname, " ".join(sorted(have - want)) or "-"))
import json
for (state, year, cid), names in ids.items():
    if state != "published" or cid + ".json" not in names:
        continue
    try:
        cna = json.load(open(os.path.join(root, "cve", state, year, cid + ".json")))["containers"]["cna"]
    except (ValueError, KeyError):
        continue
    fixes, intros, ends, starts = set(), set(), set(), set()
    for a in cna.get("affected", []):
        for x in a.get("versions", []):
            vt, st, v, lt = x.get("versionType"), x.get("status"), x.get("version"), x.get("lessThan")
            if vt == "git" or v is None:
                continue
            if st == "unaffected" and v != "0":
                fixes.add(v)
            if st != "affected":
                continue
            if vt is None and "lessThan" not in x and "lessThanOrEqual" not in x:
                intros.add(v)
            if vt == "semver":
                if v != "0":
                    intros.add(v)
                if a.get("defaultStatus") == "unaffected" and lt and lt.count(".") >= v.count("."):
                    fixes.add(lt)
    for c in cna.get("cpeApplicability", []):
        for nd in c.get("nodes", []):
            for mt in nd.get("cpeMatch", []):
                if "versionEndExcluding" in mt:
                    ends.add(mt["versionEndExcluding"])
                if "versionStartIncluding" in mt:
                    starts.add(mt["versionStartIncluding"])
    r5diff(cid, "semver-cpe-fixes", "semver fix versions", fixes, "CPE versionEndExcluding", ends)
    r5diff(cid, "semver-cpe-intros", "semver intro versions", intros, "CPE versionStartIncluding", starts)
for l in sorted(out):
    print(l)
print("%d CVEs checked, %d problems" % (checked, len(out)))
PY
cat "$T/expect_problems"
sort "$T/verify.out" > "$T/verify.sorted"
sort "$T/expect_problems" > "$T/expect.sorted"
cmp -s "$T/verify.sorted" "$T/expect.sorted" || fail "verify: $(diff "$T/expect.sorted" "$T/verify.sorted")"
if [ "$(wc -l < "$T/expect_problems")" = 1 ]; then [ "$rc" = 0 ] || fail "verify exit $rc"
else [ "$rc" = 17 ] || fail "verify exit $rc with problems"; fi

# verify notices a broken tree: one problem line each, with evidence, non-zero exit
# (scoped to 2024 to keep the test short: first the baseline of that year)
set +e
K verify 2024 > "$T/v2024.out"
set -e
n2024=$(grep -c '^CVE-2024-' "$T/expect_problems" || true)
base=$(tail -1 "$T/v2024.out")
case "$base" in *" CVEs checked, $n2024 problems") ;; *) fail "verify 2024: $base, want $n2024 problems" ;; esac
# (the copy shares inodes with the cache: damage only by replacing files, never in place)
rm "$V/cve/published/2024/CVE-2024-26581.mbox"
sed -i 's/^6.5:f718863aca469a109895cb855e6b81fff4827d71:6.8:.*/6.5:f718863aca469a109895cb855e6b81fff4827d71:6.8:1111111111111111111111111111111111111111/' \
	"$V/cve/published/2024/CVE-2024-26581.dyad"
rm "$V/cve/published/2024/CVE-2024-26582.sha1"
printf 'xyz' > "$V/cve/published/2024/CVE-2024-26582.sha1"
touch "$V/cve/published/2024/CVE-2024-26581.json.tmp.123"
/usr/bin/python3 - "$V/cve/published/2024/CVE-2024-26581.json" <<'PY'
import json, os, sys
p = sys.argv[1]
d = json.load(open(p))
for a in d["containers"]["cna"]["affected"]:
    a["versions"] = [x for x in a["versions"] if x.get("version") != "5.4.262"]
open(p + ".new", "w").write(json.dumps(d, indent=3))
os.rename(p + ".new", p)  # a new inode: the cache keeps the original
PY
set +e
K verify 2024 > "$T/bad.out"
rc=$?
set -e
[ "$rc" = 17 ] || fail "verify on a damaged tree exited $rc"
grep -q '^CVE-2024-26581: missing-file: .*CVE-2024-26581.mbox is missing' "$T/bad.out" || fail "missing mbox not reported"
grep -q '^CVE-2024-26581: dyad-json-git-ranges: in .dyad but not .json: f718863aca469a109895cb855e6b81fff4827d71..1111111111111111111111111111111111111111; in .json but not .dyad: f718863aca469a109895cb855e6b81fff4827d71..60c0c230c6f046da536d3df8b39a20b9a9fd6af0$' "$T/bad.out" ||
	fail "dyad/json mismatch not reported: $(cat "$T/bad.out")"
grep -q '^CVE-2024-26582: sha1-syntax: .sha1 line "xyz"' "$T/bad.out" || fail "bad sha1 not reported"
grep -q 'stray-file: CVE-2024-26581.json.tmp.123 is not a CVE file' "$T/bad.out" || fail "stray file not reported"
grep -q '^CVE-2024-26581: dyad-json-semver-ranges: stable pairs without an affected semver range in .json: 5.4.262..5.4.269$' "$T/bad.out" || fail "missing semver range not reported"
# (dropping the 5.4.262 range also leaves the CPE start 5.4.262 without a semver intro: rule 5)
grep -q '^CVE-2024-26581: semver-cpe-intros: in semver intro versions but not CPE versionStartIncluding: -; in CPE versionStartIncluding but not semver intro versions: 5.4.262$' "$T/bad.out" || fail "rule 5 mismatch not reported"
[ "$(tail -1 "$T/bad.out")" = "${base%%,*}, $((n2024 + 6)) problems" ] || fail "problem count: $(cat "$T/bad.out")"
for f in CVE-2024-26581.mbox CVE-2024-26581.dyad CVE-2024-26581.json CVE-2024-26582.sha1; do
	ln -f "$CACHE/vulns/cve/published/2024/$f" "$V/cve/published/2024/$f"
done
rm "$V/cve/published/2024/CVE-2024-26581.json.tmp.123"

# ---- search: every published/rejected sha <-> id, both directions, in one process each ----
/usr/bin/python3 - "$V" > "$T/expect" <<'PY'
import glob, os, sys
for state in ("published", "rejected"):
    for f in glob.glob(os.path.join(sys.argv[1], "cve", state, "*", "*.sha1")):
        cid = os.path.basename(f)[:-5]
        note = " (rejected)" if state == "rejected" else ""
        for line in open(f):
            if line.strip():
                print("%s is assigned to git id %s%s" % (cid, line.strip(), note))
PY
sort -u "$T/expect" > "$T/expect.s"
n=$(wc -l < "$T/expect.s")
[ "$n" -gt 7000 ] || fail "too few shas found by find ($n)"
# sha -> id (full shas)
cut -d' ' -f7 "$T/expect.s" | sort -u | xargs "$KCVE" --tree "$V" search | sort -u > "$T/got_sha"
cmp -s "$T/expect.s" "$T/got_sha" || fail "search by sha differs: $(diff "$T/expect.s" "$T/got_sha" | head -5)"
# id -> sha
sed 's/ .*//' "$T/expect.s" | sort -u | xargs "$KCVE" --tree "$V" search | sort -u > "$T/got_id"
cmp -s "$T/expect.s" "$T/got_id" || fail "search by id differs: $(diff "$T/expect.s" "$T/got_id" | head -5)"
# short shas (8 and 12 chars) give the same CVE
got=$(K search 60c0c230 32b55c5f 2ee52ae94)
grep -q '^CVE-2024-26581 is assigned to git id 60c0c230c6f046da536d3df8b39a20b9a9fd6af0$' <<< "$got" || fail "short sha: $got"
grep -q '^CVE-2024-26582 is assigned to git id 32b55c5f' <<< "$got" || fail "short sha 2: $got"
grep -q '^CVE-2023-52433 is assigned to git id 2ee52ae9' <<< "$got" || fail "short sha 3: $got"
# a rejected one is found and marked
rej=$(find "$V/cve/rejected" -name '*.sha1' | sort | sed -n 1p)
rid=$(basename "$rej" .sha1)
rsha=$(head -1 "$rej" | tr -d ' \n')
[ "$(K search "${rsha:0:12}")" = "$rid is assigned to git id $rsha (rejected)" ] || fail "rejected search"
# not found: exit 7, one line on stderr, nothing on stdout
set +e
out=$(K search 0123456789abcdef 2>"$T/err"); rc=$?
set -e
[ "$rc" = 7 ] && [ -z "$out" ] && [ "$(wc -l < "$T/err")" = 1 ] || fail "not found: rc=$rc out=$out err=$(cat "$T/err")"
set +e; K search CVE-2024-99999999 >/dev/null 2>&1; rc=$?; set -e
[ "$rc" = 7 ] || fail "unknown CVE exit $rc"

# ---- summary: per-year counts equal to find's ----
K summary > "$T/summary"
cat "$T/summary"
years=$(ls "$V/cve/published" "$V/cve/rejected" "$V/cve/returned" "$V/cve/reserved" 2>/dev/null | grep -E "^[0-9]{4}$" | sort -u || true)
cnt() { { find "$@" 2>/dev/null || true; } | wc -l; }
tres=0; tass=0; trej=0; tret=0
for y in $years; do
	res=$(cnt "$V/cve/reserved/$y" -name 'CVE-*' ! -name '*.*')
	ass=$(cnt "$V/cve/published/$y" -name '*.sha1')
	rej=$(cnt "$V/cve/rejected/$y" -name '*.sha1')
	ret=$(cnt "$V/cve/returned/$y" -name 'CVE-*')
	[ $((res + ass + rej + ret)) -gt 0 ] || continue
	want=$(printf '%-6d %9d %9d %9d %9d %9d %9d' "$y" "$res" "$ass" "$rej" $((ass + rej)) "$ret" $((res + ass + rej + ret)))
	grep -qxF "$want" "$T/summary" || fail "summary row for $y: want '$want'"
	tres=$((tres + res)); tass=$((tass + ass)); trej=$((trej + rej)); tret=$((tret + ret))
done
want=$(printf '%-6s %9d %9d %9d %9d %9d %9d' Total "$tres" "$tass" "$trej" $((tass + trej)) "$tret" $((tres + tass + trej + tret)))
[ "$(tail -1 "$T/summary")" = "$want" ] || fail "summary total: want '$want'"
[ "$(wc -l < "$T/summary")" = $(( $(echo "$years" | wc -w) + 2 )) ] || fail "summary line count"

# ---- stats: runs on the real tree, branch counts match a grep of the .dyad files ----
K stats --no-ttf > "$T/stats"
want=$(cat "$V"/cve/published/*/*.dyad | grep -v '^#' | awk -F: '$4 != "0" && $1 != $3 {split($3, v, "."); print v[1] "." v[2]}' | grep -c '^6\.1$' || true)
got=$(awk '$1 == "6.1" && NF == 3 {print $3}' "$T/stats")
[ "$got" = "$want" ] || fail "stats: 6.1 pair lines $got, want $want"
grep -q "^$(find "$V/cve/published" -name '*.sha1' | wc -l) published CVEs" "$T/stats" || fail "stats total"
echo "real tree: OK"
