#!/bin/bash
# kcve check says what its records do not cover (docs/check.md "What the records do not
# cover"): a release newer than the newest of its branch the records name, one far beyond it
# (may not exist), a branch the kernel CNA does not support (from the supported-branch data
# `kcve branches` keeps, carried into the db; from the records alone when there is none), and
# records older than --max-age (tree: git HEAD commit, else newest record date; db: build time).
# Each is a stderr warning, a "coverage" entry in --json and in each --batch line, and exit
# status 21 under --strict; --tree and --db say the same.  A format-1 db still loads.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
epoch() { date -u -d "$1" +%s; }
# The clock of every check below: 2024-12-01 (records dated 2024-11-20 are 11 days old).
export KCVE_NOW=$(epoch 2024-12-01T00:00:00Z)
S=1111111111111111111111111111111111111111
D=2024-11-20T00:00:00.000Z
cat > "$T/spec.json" <<SPEC
[{"id": "CVE-2099-0201", "title": "fixed on 6.1 and 6.6", "date": "$D", "pairs": ["5.15:$S:6.1.119:$S", "5.15:$S:6.6.60:$S", "5.15:$S:6.7:$S"]},
 {"id": "CVE-2099-0202", "title": "fixed on 5.15", "date": "$D", "pairs": ["5.10:$S:5.15.170:$S", "5.10:$S:6.1.100:$S", "5.10:$S:6.2:$S"]},
 {"id": "CVE-2099-0203", "title": "fixed in 2021, on 4.14 too", "date": "$D", "pairs": ["4.9:$S:4.14.230:$S", "4.9:$S:5.10.30:$S", "4.9:$S:5.11.15:$S", "4.9:$S:5.12:$S"]}]
SPEC
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
export SOURCE_DATE_EPOCH=$(epoch 2024-11-25T00:00:00Z)
"$KCVE" db build --tree "$T/tree" -o "$T/k.db" >/dev/null 2>"$T/err" || fail "db build: $(cat "$T/err")"

# kinds SRC VERSION [OPTIONS]: the --json coverage kinds, comma-separated
kinds() {
	local src=$1 v=$2; shift 2
	"$KCVE" check $src --version "$v" --json "$@" >"$T/json" 2>/dev/null || fail "$src $v --json $*"
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(",".join(c["kind"] for c in d["results"][0]["coverage"]))' "$T/json"
}
# expect SRC VERSION KIND TEXT: warning with TEXT, --json coverage kind KIND, --strict 21
expect() {
	local src=$1 v=$2 kind=$3 text=$4
	"$KCVE" check $src --version "$v" >/dev/null 2>"$T/err"; rc=$?
	[ $rc -eq 0 ] || fail "$src $v: exit $rc without --strict"
	grep -qF "kcve: warning: $text" "$T/err" || fail "$src $v: no warning '$text': $(cat "$T/err")"
	"$KCVE" check $src --version "$v" --strict >/dev/null 2>&1; rc=$?
	[ $rc -eq 21 ] || fail "$src $v --strict: exit $rc, want 21"
	got=$(kinds "$src" "$v")
	[ "$got" = "$kind" ] || fail "$src $v --json coverage '$got', want '$kind'"
}
covered() {
	local src=$1 v=$2
	"$KCVE" check $src --version "$v" --strict --json >"$T/json" 2>"$T/err"; rc=$?
	[ $rc -eq 0 ] || fail "$src $v: covered release, --strict exit $rc: $(cat "$T/err")"
	grep -q "warning" "$T/err" && fail "$src $v: unexpected warning: $(cat "$T/err")"
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["results"][0]["coverage"] != [])' "$T/json" \
		|| fail "$src $v: --json coverage not empty"
}

# ---- 1. no supported-branch data: branches judged from the records (and the message says so)
for src in "--tree $T/tree" "--db $T/k.db"; do
	covered "$src" 6.1.119
	covered "$src" 6.1.50
	covered "$src" 5.15.3
	expect "$src" 6.1.130 newer "records know 6.1 up to 6.1.119; later fixes are not counted for 6.1.130"
	expect "$src" 6.1.999 nonexistent "6.1.999 is more than 50 releases beyond 6.1.119"
	expect "$src" 5.3.7 unsupported "no record names a 5.3 release: the kernel CNA does not track that branch, so no fixes are counted for 5.3.7 (judged from the records: they carry no supported-branch data"
	expect "$src" 6.8.1 newer "6.8.1 is on a branch newer than every branch the records know (up to 6.7)"
	# a branch the records name but which ended before the CNA began (built-in fact: < 4.19)
	expect "$src" 4.14.200 unsupported "4.14 had reached its end of life when the kernel CNA began (February 2024): no fixes are tracked for it, so later ones are not counted for 4.14.200"
	expect "$src" 4.14.240 newer,unsupported "4.14 had reached its end of life when the kernel CNA began"
	# the same rule for a stable (not longterm) branch newer than 4.19 that ended before the
	# CNA began (issue 27 item 4): 5.11 is named by a record, and still never tracked
	expect "$src" 5.11.10 unsupported "5.11 had reached its end of life when the kernel CNA began (February 2024): no fixes are tracked for it, so later ones are not counted for 5.11.10"
	covered "$src" 6.7
done
# --fail-if-affected's 18 takes precedence over --strict's 21 (6.1.130 is not affected here,
# 6.1.99 is)
"$KCVE" check --tree "$T/tree" --version 6.1.130,6.1.99 --strict --fail-if-affected >/dev/null 2>&1; rc=$?
[ $rc -eq 18 ] || fail "--strict --fail-if-affected with an affected release: exit $rc, want 18"

# ---- 2. the supported-branch data of `kcve branches` (kernel.org's releases.json of
# 2024-12-01, and an end-of-life table), in the tree and carried into the db
cp -r "$T/tree" "$T/btree"
cat > "$T/releases.json" <<'JSON'
{"latest_stable": {"version": "6.12.1"}, "releases": [
 {"moniker": "mainline", "version": "6.13-rc1", "iseol": false},
 {"moniker": "stable", "version": "6.12.1", "iseol": false},
 {"moniker": "longterm", "version": "6.6.63", "iseol": false},
 {"moniker": "longterm", "version": "6.1.119", "iseol": false},
 {"moniker": "longterm", "version": "5.15.173", "iseol": false},
 {"moniker": "longterm", "version": "5.10.230", "iseol": false},
 {"moniker": "longterm", "version": "5.4.286", "iseol": false},
 {"moniker": "longterm", "version": "4.19.324", "iseol": false},
 {"moniker": "linux-next", "version": "next-20241129", "iseol": false}]}
JSON
"$KCVE" --tree "$T/btree" branches import "$T/releases.json" >/dev/null 2>"$T/err" || fail "branches import: $(cat "$T/err")"
printf '4.19 2024-11-30\n6.1 2027-12-31\n' > "$T/btree/scripts/kcve-eol"
"$KCVE" --tree "$T/btree" branches list | grep -q "^4.19 .* unsupported$" || fail "kcve branches: 4.19 should be unsupported"
"$KCVE" db build --tree "$T/btree" -o "$T/b.db" >/dev/null 2>"$T/err" || fail "db build: $(cat "$T/err")"
for src in "--tree $T/btree" "--db $T/b.db"; do
	covered "$src" 6.1.119
	covered "$src" 5.15.3
	expect "$src" 6.1.130 newer "records know 6.1 up to 6.1.119; later fixes are not counted for 6.1.130"
	expect "$src" 6.1.999 nonexistent "6.1.999 is more than 50 releases beyond 6.1.119"
	expect "$src" 5.3.7 unsupported "5.3 is not a branch the kernel CNA supports (not among the branches of the supported-branch data"
	expect "$src" 4.4.302 unsupported "4.4 is not a branch the kernel CNA supports (not among the branches of the supported-branch data"
	expect "$src" 4.19.300 unsupported "4.19 is not a branch the kernel CNA supports (end of life since 2024-11-30 in scripts/kcve-eol"
	# 6.7 is no longer listed: newer than the records know and unsupported, both said
	expect "$src" 6.8.1 newer,unsupported "6.8 is not a branch the kernel CNA supports (not among"
done
# --tree and --db: the same warnings, word for word
for v in 5.3.7 4.4.302 6.1.999 6.1.130 6.1.50 4.19.300 6.8.1; do
	for src in tree db; do
		[ $src = tree ] && a="--tree $T/btree" || a="--db $T/b.db"
		"$KCVE" check $a --version "$v" --json 2>"$T/$src.err" | /usr/bin/python3 -c \
			'import json,sys; print(json.load(sys.stdin)["results"][0]["coverage"])' >"$T/$src.cov"
	done
	cmp -s "$T/tree.cov" "$T/db.cov" || fail "$v: --tree and --db coverage differ: $(cat "$T/tree.cov") / $(cat "$T/db.cov")"
	cmp -s "$T/tree.err" "$T/db.err" || fail "$v: --tree and --db warnings differ: $(cat "$T/tree.err") / $(cat "$T/db.err")"
done

# ---- 3. age: the records are 11 days old on 2024-12-01
"$KCVE" check --tree "$T/tree" --version 6.1.50 --max-age 5 2>"$T/err" >/dev/null || fail "--max-age 5"
grep -qF "kcve: warning: the record tree $T/tree is 11 days old (its newest record date, datePublished or dateUpdated, is 2024-11-20; no git HEAD commit dates it)" "$T/err" \
	|| fail "tree age from the newest record date: $(cat "$T/err")"
"$KCVE" check --tree "$T/tree" --version 6.1.50 --max-age 5 --strict >/dev/null 2>&1; rc=$?
[ $rc -eq 21 ] || fail "stale tree --strict: exit $rc, want 21"
[ "$(kinds "--tree $T/tree" 6.1.50 --max-age 5)" = stale ] || fail "stale tree: --json kind"
[ "$(kinds "--tree $T/tree" 6.1.130 --max-age 5)" = newer,stale ] || fail "newer + stale: --json kinds"
[ "$(kinds "--tree $T/tree" 6.1.50 --max-age 11)" = "" ] || fail "11 days old is not older than 11 days"
[ "$(KCVE_NOW=$(epoch 2025-06-01) kinds "--tree $T/tree" 6.1.50)" = stale ] || fail "default --max-age is 30 days"
[ "$(KCVE_NOW=$(epoch 2025-06-01) kinds "--tree $T/tree" 6.1.50 --max-age off)" = "" ] || fail "--max-age off"
"$KCVE" check --tree "$T/tree" --version 6.1.50 --max-age soon 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "--max-age soon: exit $rc, want 2"
# a dateUpdated counts as well as a datePublished
/usr/bin/python3 - "$T/tree/cve/published/2099/CVE-2099-0202.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["cveMetadata"]["dateUpdated"] = "2024-11-28T08:00:00.000Z"
json.dump(d, open(sys.argv[1], "w"), indent=3)
EOF
[ "$(kinds "--tree $T/tree" 6.1.50 --max-age 5)" = "" ] || fail "dateUpdated 2024-11-28 is 3 days old"

# the db: built 2024-11-25 (SOURCE_DATE_EPOCH) from records of 2024-11-20
"$KCVE" db info --json "$T/k.db" >"$T/info" || fail "db info"
/usr/bin/python3 - "$T/info" <<'EOF' || fail "db info: $(cat "$T/info")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == 2 and d["built"] == "2024-11-25T00:00:00Z", d
assert d["newest_record"] == "2024-11-20T00:00:00Z" and d["tree_head"] is None, d
EOF
"$KCVE" check --db "$T/k.db" --version 6.1.50 --max-age 7 2>"$T/err" >/dev/null
grep -qF "kcve: warning: database $T/k.db is 11 days old (built 2024-11-25 from a record tree whose newest record date, datePublished or dateUpdated, is 2024-11-20)" "$T/err" \
	|| fail "db age: $(cat "$T/err")"
[ "$(KCVE_NOW=$(epoch 2024-12-03) kinds "--db $T/k.db" 6.1.50 --max-age 13)" = "" ] || fail "db: 13 days old (from the records of 2024-11-20) is not stale at --max-age 13"
[ "$(KCVE_NOW=$(epoch 2024-12-03) kinds "--db $T/k.db" 6.1.50 --max-age 12)" = stale ] || fail "db: 13 days old is stale at --max-age 12"
# a fresh database of old records is as old as the records
SOURCE_DATE_EPOCH=$KCVE_NOW "$KCVE" db build --tree "$T/btree" -o "$T/fresh.db" >/dev/null 2>&1 || fail "db build fresh"
[ "$(kinds "--db $T/fresh.db" 6.1.50 --max-age 7)" = stale ] || fail "a fresh db of 11-day-old records is stale at --max-age 7"

# ---- 4. a git checkout: the HEAD commit's date, also when the records come from the cache
G=$T/gtree
cp -r "$T/btree" "$G" && rm -rf "$G/.kcve"
git -C "$G" init -q && git -C "$G" add -A &&
	GIT_COMMITTER_DATE="2024-06-01T12:00:00Z" GIT_AUTHOR_DATE="2024-06-01T12:00:00Z" \
	git -C "$G" -c user.name=t -c user.email=t@example.org commit -qm old || fail "git commit"
for run in build hit; do
	"$KCVE" -v check --tree "$G" --version 6.1.50 2>"$T/err" >/dev/null
	grep -q "record cache of .*: $( [ $run = build ] && echo built || echo hit)" "$T/err" || fail "cache $run: $(cat "$T/err")"
	grep -qF "kcve: warning: the record tree $G is 182 days old (its git HEAD commit is from 2024-06-01)" "$T/err" \
		|| fail "git tree age ($run): $(cat "$T/err")"
done
# a new commit that changes no record: the cache still hits, the age follows HEAD
echo "x" > "$G/NOTES" && git -C "$G" add NOTES &&
	GIT_COMMITTER_DATE="2024-11-29T12:00:00Z" git -C "$G" -c user.name=t -c user.email=t@example.org commit -qm new \
	|| fail "git commit 2"
"$KCVE" -v check --tree "$G" --version 6.1.50 --strict 2>"$T/err" >/dev/null || fail "fresh HEAD: --strict exit $?: $(cat "$T/err")"
grep -q "record cache of .*: hit" "$T/err" || fail "cache should hit: $(cat "$T/err")"
grep -q "warning" "$T/err" && fail "fresh HEAD, no warning expected: $(cat "$T/err")"
# and the db built from it carries the HEAD time
git -C "$G" reset -q --hard HEAD~1
"$KCVE" db build --tree "$G" -o "$T/g.db" >/dev/null 2>&1 || fail "db build from git"
"$KCVE" check --db "$T/g.db" --version 6.1.50 2>"$T/err" >/dev/null
grep -qF "kcve: warning: database $T/g.db is 182 days old (built 2024-11-25 from a record tree whose git HEAD commit is from 2024-06-01)" "$T/err" \
	|| fail "db from a git tree: $(cat "$T/err")"

# ---- 5. a database of format 1 (written by kcve before the format bump; see
# tests/check/data/README): loads, warns that its age is unknown, never fails
F1=$KCVE_SRC/tests/check/data/coverage-format1.kdb
"$KCVE" db info --json "$F1" >"$T/info" || fail "format-1 db info"
grep -q '"format": 1' "$T/info" && grep -q '"built": null' "$T/info" || fail "format-1 db info: $(cat "$T/info")"
"$KCVE" check --db "$F1" --version 6.1.50 --strict --ids >"$T/out" 2>"$T/err" || fail "format-1 db --strict: exit $?: $(cat "$T/err")"
grep -qF "kcve: warning: the age of database $F1 is unknown: it was written by an older kcve (database format 1)" "$T/err" \
	|| fail "format-1 db: $(cat "$T/err")"
[ "$(cat "$T/out")" = "$("$KCVE" check --tree "$T/btree" --version 6.1.50 --ids)" ] || fail "format-1 db verdicts: $(cat "$T/out")"
[ "$(kinds "--db $F1" 5.3.7)" = unsupported,age-unknown ] || fail "format-1 db: no branch data, records rule"

# ---- 6. --batch: the same coverage array per kernel, --strict over the fleet
printf '6.1.50 - a\n6.1.130 - b\n5.3.7 - c\n4.19.300 - d\n6.1.999 - e\n' > "$T/fleet"
"$KCVE" check --tree "$T/btree" --batch "$T/fleet" >"$T/lines" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] || fail "batch without --strict: exit $rc: $(cat "$T/err")"
grep -qF "kcve: warning: the records do not cover 4 of the 5 kernels" "$T/err" || fail "batch summary: $(cat "$T/err")"
while read -r v _ id; do
	"$KCVE" check --tree "$T/btree" --version "$v" --json 2>/dev/null >"$T/one.json"
	/usr/bin/python3 - "$T/lines" "$T/one.json" "$id" <<'EOF' || fail "batch $v: coverage differs from check --json"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
line = next(l for l in lines if l["id"] == sys.argv[3])
want = json.load(open(sys.argv[2]))["results"][0]["coverage"]
if line["coverage"] != want:
    print(line["coverage"], want)
    sys.exit(1)
EOF
done < "$T/fleet"
"$KCVE" check --tree "$T/btree" --batch "$T/fleet" --strict >/dev/null 2>&1; rc=$?
[ $rc -eq 21 ] || fail "batch --strict with uncovered kernels: exit $rc, want 21"
printf '6.1.50 - a\n5.15.3 - b\n' > "$T/ok-fleet"
"$KCVE" check --tree "$T/btree" --batch "$T/ok-fleet" --strict >"$T/lines" 2>"$T/err" || fail "covered fleet --strict: exit $?: $(cat "$T/err")"
grep -q warning "$T/err" && fail "covered fleet: unexpected warning: $(cat "$T/err")"
grep -c '"coverage":\[\]' "$T/lines" | grep -qx 2 || fail "covered fleet: coverage not empty: $(cat "$T/lines")"
# the age: once on stderr, in every line, and --strict fails on it
KCVE_NOW=$(epoch 2025-06-01) "$KCVE" check --tree "$T/btree" --batch "$T/ok-fleet" --strict >"$T/lines" 2>"$T/err"; rc=$?
[ $rc -eq 21 ] || fail "stale fleet --strict: exit $rc, want 21"
[ "$(grep -c "days old" "$T/err")" -eq 1 ] || fail "stale fleet: want one age warning: $(cat "$T/err")"
[ "$(grep -c '"kind":"stale"' "$T/lines")" -eq 2 ] || fail "stale fleet: every line has the age: $(cat "$T/lines")"
# 18 before 21; an unreadable line: 13 before both
printf '6.1.99 - x\n6.1.130 - y\n' > "$T/aff-fleet"
"$KCVE" check --tree "$T/btree" --batch "$T/aff-fleet" --strict --fail-if-affected >/dev/null 2>&1; rc=$?
[ $rc -eq 18 ] || fail "batch --strict --fail-if-affected: exit $rc, want 18"
printf '6.1.130 - y\nbanana - z\n' > "$T/bad-fleet"
"$KCVE" check --tree "$T/btree" --batch "$T/bad-fleet" --strict >/dev/null 2>&1; rc=$?
[ $rc -eq 13 ] || fail "batch --strict with a bad line: exit $rc, want 13"
echo "coverage: ok"
