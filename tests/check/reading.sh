#!/bin/bash
# kcve check --version follows the published CVE JSON record read per branch, names the
# records whose .dyad pairs read differently, offers --reading dyad|either, and answers
# "unknown (needs --git)" at -rc releases the records cannot place.  Synthetic records shaped
# like the kernel CNA's (bippy) output; the real 2024 cases are in reading_2024.sh.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
S=1111111111111111111111111111111111111111
cat > "$T/spec.json" <<SPEC
[{"id": "CVE-2099-0101", "title": "reintroduced: fixed in 6.9, back in 7.1, fixed in 7.1.5",
  "pairs": ["6.5:$S:6.9:$S", "7.1:$S:7.1.5:$S"], "default": "affected",
  "versions": [{"version": "6.5", "status": "affected"}, {"version": "7.1", "status": "affected"},
    {"version": "0", "lessThan": "6.5", "status": "unaffected", "versionType": "semver"},
    {"version": "6.9", "lessThan": "7.1", "status": "unaffected", "versionType": "semver"},
    {"version": "7.1.5", "lessThanOrEqual": "7.1.*", "status": "unaffected", "versionType": "semver"}]},
 {"id": "CVE-2099-0102", "title": "unknown introduction: 0 < 5.10.219 bounds 5.10 only",
  "pairs": ["0:0:5.4.278:$S", "0:0:5.10.219:$S", "0:0:6.10:$S"], "default": "affected",
  "products": [{"default": "unaffected", "versions": [
    {"version": "0", "lessThan": "5.10.219", "status": "affected", "versionType": "semver"}]}],
  "versions": [
    {"version": "5.4.278", "lessThanOrEqual": "5.4.*", "status": "unaffected", "versionType": "semver"},
    {"version": "5.10.219", "lessThanOrEqual": "5.10.*", "status": "unaffected", "versionType": "semver"},
    {"version": "6.10", "lessThanOrEqual": "*", "status": "unaffected", "versionType": "original_commit_for_fix"}]},
 {"id": "CVE-2099-0103", "title": "same-release pair settles 5.15, an unfixed backport line",
  "pairs": ["5.15.91:$S:5.15.91:$S", "5.15.86:$S:0:0", "6.2:$S:6.2:$S"], "default": "unaffected",
  "versions": []},
 {"id": "CVE-2099-0104", "title": "2.6 era: 2.6.32.5 <= 2.6.* bounds 2.6.32 only",
  "pairs": ["2.6.30:$S:2.6.32.5:$S", "2.6.30:$S:2.6.34:$S"], "default": "affected",
  "versions": [{"version": "2.6.30", "status": "affected"},
    {"version": "0", "lessThan": "2.6.30", "status": "unaffected", "versionType": "semver"},
    {"version": "2.6.32.5", "lessThanOrEqual": "2.6.*", "status": "unaffected", "versionType": "semver"},
    {"version": "2.6.34", "lessThanOrEqual": "*", "status": "unaffected", "versionType": "original_commit_for_fix"}]},
 {"id": "CVE-2099-0105", "title": "no JSON versions at all: the pairs decide",
  "pairs": ["6.1:$S:6.1.50:$S"], "products": [], "versions": null}]
SPEC
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
"$KCVE" db build --tree "$T/tree" -o "$T/db" 2>/dev/null || fail "db build"

ids() { # source options...: kept ids, space-separated
	"$KCVE" check "$@" --ids | cut -d: -f2- | xargs
}
expect() { # CVE version yes|no [extra options]: is CVE kept?  Same from --tree and --db.
	local id=$1 v=$2 want=$3; shift 3
	local a b got=no
	a=$(ids --tree "$T/tree" --version "$v" "$@") || fail "check --tree $v $*"
	b=$(ids --db "$T/db" --version "$v" "$@") || fail "check --db $v $*"
	[ "$b" = "$a" ] || fail "$v $*: --db gives '$b', --tree '$a'"
	case " $a " in *" $id "*) got=yes ;; esac
	[ "$got" = "$want" ] || fail "$id at $v $*: expected kept=$want, got '$a'"
}
# CVE-2099-0101: re-introduced at a mainline release; the pair 6.5->6.9 must not close 7.1
expect CVE-2099-0101 6.8 yes
expect CVE-2099-0101 7.0 no
expect CVE-2099-0101 7.1 yes
expect CVE-2099-0101 7.1.4 yes
expect CVE-2099-0101 7.1.5 no
expect CVE-2099-0101 7.1 no --reading dyad
expect CVE-2099-0101 7.1 yes --reading either
# CVE-2099-0102: 0 < 5.10.219 affects 5.10 only, not 5.4.280 (fixed in 5.4.278)
expect CVE-2099-0102 5.4.280 no
expect CVE-2099-0102 5.4.270 yes
expect CVE-2099-0102 5.10.200 yes
expect CVE-2099-0102 5.10.219 no
expect CVE-2099-0102 6.9 yes
# CVE-2099-0103: JSON says unaffected; the pairs' unfixed 5.15.86 line says affected
expect CVE-2099-0103 5.15.160 no
expect CVE-2099-0103 5.15.160 yes --reading dyad
expect CVE-2099-0103 5.15.160 yes --reading either
# CVE-2099-0104: four-part 2.6 releases, the wildcard bounds the 2.6.32 branch
expect CVE-2099-0104 2.6.29 no
expect CVE-2099-0104 2.6.32 yes
expect CVE-2099-0104 2.6.32.4 yes
expect CVE-2099-0104 2.6.32.5 no
expect CVE-2099-0104 v2.6.32.71 no
expect CVE-2099-0104 2.6.33 yes
expect CVE-2099-0104 2.6.33.2 yes
expect CVE-2099-0104 2.6.34 no
# CVE-2099-0105: no JSON product -> the pairs decide
expect CVE-2099-0105 6.1.49 yes
expect CVE-2099-0105 6.1.50 no

# -rc: what the records cannot place is "unknown (needs --git)", never a silent "not affected"
expect CVE-2099-0101 7.1-rc3 yes  # introduced "in 7.1": may or may not be in rc3
expect CVE-2099-0101 6.9-rc2 yes  # fixed "in 6.9": may or may not be in rc2
expect CVE-2099-0101 6.8-rc1 yes  # 6.5 is in, the 6.9 fix cannot be: decided affected
expect CVE-2099-0101 7.0-rc5 no  # between the 6.9 fix and the 7.1 re-introduction
expect CVE-2099-0104 2.6.34-rc2 yes  # fixed in 2.6.34: undecided
expect CVE-2099-0102 6.2-rc3 yes  # decided affected (fix in 6.10)
"$KCVE" check --tree "$T/tree" --version 7.1-rc3 --json > "$T/rc.json" 2>/dev/null || fail "rc json"
"$KCVE" check --tree "$T/tree" --version 7.1-rc3 > "$T/rc.txt" 2>/dev/null || fail "rc table"
grep -q "CVE-2099-0101.*unknown *?" "$T/rc.txt" || fail "rc table: no '?' marker: $(cat "$T/rc.txt")"
grep -q "^unknown: 1 CVE(s) marked ? cannot be decided at 7.1-rc3 by version.*--git" "$T/rc.txt" ||
	fail "rc table: no summary line: $(cat "$T/rc.txt")"
/usr/bin/python3 - "$T/rc.json" <<'PY' || fail "rc json fields"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["needs_git"] == 1, r["needs_git"]
c = {x["id"]: x for x in r["cves"]}["CVE-2099-0101"]
assert c["outcome"] == "unknown" and c.get("needs_git") is True, c
assert "needs --git" in c["reason"], c["reason"]
PY

# disagreements are shown: table marker + list, --json both readings and why
"$KCVE" check --tree "$T/tree" --version 7.1 > "$T/t.txt" || fail table
grep -q "CVE-2099-0101 .*affected ≠" "$T/t.txt" || fail "table: no ≠ marker: $(cat "$T/t.txt")"
grep -q "≠ 1 record(s) whose JSON and .dyad readings differ for 7.1" "$T/t.txt" || fail "table: no list"
"$KCVE" check --tree "$T/tree" --version 5.15.160 > "$T/t2.txt" || fail table2
grep -q "CVE-2099-0103 .*JSON unaffected.*\.dyad affected" "$T/t2.txt" ||
	fail "table: a dropped record whose pairs say affected must be listed: $(cat "$T/t2.txt")"
"$KCVE" check --db "$T/db" --version 7.1,5.15.160 --json > "$T/d.json" || fail json
/usr/bin/python3 - "$T/d.json" <<'PY' || fail "json readings"
import json, sys
res = json.load(open(sys.argv[1]))["results"]
a = {x["id"]: x for x in res[0]["cves"]}["CVE-2099-0101"]
assert a["json"] == "affected" and a["dyad"] == "unaffected" and a["disagree"], a
assert "7.1 affected" in a["readings"]["json"], a["readings"]
assert "6.5->6.9" in a["readings"]["dyad"], a["readings"]
assert res[0]["disagreements"] == 1 and res[0]["reading"] == "json"
b = {x["id"]: x for x in res[1]["cves"]}["CVE-2099-0103"]   # listed although not affected
assert b["outcome"] in ("fixed", "not_introduced") and b["dyad"] == "affected", b
PY
# what an upgrade brings: --fixed-between / --fixed-by, with counts per severity
for src in "--tree $T/tree" "--db $T/db"; do
	got=$("$KCVE" check $src --fixed-between 7.1 7.1.5 --ids) || fail "--fixed-between ($src)"
	[ "$got" = "7.1..7.1.5: CVE-2099-0101" ] || fail "--fixed-between 7.1 7.1.5 ($src): $got"
	got=$("$KCVE" check $src --fixed-by 5.4.278 --ids) || fail "--fixed-by ($src)"
	[ "$got" = "5.4.277..5.4.278: CVE-2099-0102" ] || fail "--fixed-by 5.4.278 ($src): $got"
done
"$KCVE" check --tree "$T/tree" --fixed-between 6.8 7.1.5 > "$T/up.txt" || fail "--fixed-between table"
grep -q "^6.8 -> 7.1.5 fixes 2 CVE(s): 0 critical, 0 high, 0 medium, 0 low, 2 without severity" "$T/up.txt" ||
	fail "--fixed-between table: $(cat "$T/up.txt")"
"$KCVE" check --db "$T/db" --fixed-by 2.6.32.5 --json > "$T/up.json" || fail "--fixed-by json"
/usr/bin/python3 - "$T/up.json" <<'PY' || fail "--fixed-by json: $(cat "$T/up.json")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["from"] == "2.6.32.4" and d["to"] == "2.6.32.5" and d["fixed"] == 1, d
assert d["cves"][0]["id"] == "CVE-2099-0104" and d["severity"]["NONE"] == 1, d
PY
"$KCVE" check --tree "$T/tree" --fixed-between 7.1.5 7.1 --ids 2>/dev/null
[ $? -eq 2 ] || fail "--fixed-between newer older: exit 2"
"$KCVE" check --tree "$T/tree" --fixed-by 6.9-rc2 --ids 2>/dev/null
[ $? -eq 2 ] || fail "--fixed-by an -rc: exit 2"
"$KCVE" check --tree "$T/tree" --version 7.1 --reading nope 2>/dev/null
[ $? -eq 2 ] || fail "--reading nope: exit 2"
echo "reading: ok"

