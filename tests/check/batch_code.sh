#!/usr/bin/env bash
# kcve check --batch with the code stage and the function level: --source KSRC with a db of fix
# fingerprints reads KSRC once and applies that reading to every kernel line of its release (a line of
# another release is another tree: checked without that code, with a warning); a line's
# system-map=FILE (or build=DIR) gives its image's symbols, each read once.  Every line's
# affected/unknown lists equal a single `kcve check` of the same kernel, its "code" and
# "functions" members carry the same evidence; lines without these options keep the old
# output; a bad symbol source is that line's error; build=DIR is --build: its .cmd files and vmlinux.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
. "$(dirname "${BASH_SOURCE[0]}")/patches_fixture.sh"
MAP=$T/img/boot/System.map-6.0.2
cat >"$T/fleet" <<EOF
6.0.2 - with-map system-map=$MAP
6.0.2 - plain
6.0.5 system-map=$MAP - later
6.0.2 - gone system-map=$T/nothing/System.map
6.0.2 - two system-map=$MAP build=$T/img
EOF
"$KCVE" -v check --db "$T/kcve.db" --source "$T/tree" --batch "$T/fleet" >"$T/out" 2>"$T/err" &&
	fail "a bad symbol source must give exit 13"
grep -q "5 kernels (2 releases, 0 distinct file inputs, 3 evaluations)" "$T/err" ||
	fail "sharing stats: $(cat "$T/err")"
$PY - "$T/out" "$KCVE" "$T/kcve.db" "$T/tree" "$MAP" <<'EOF' || fail "batch lines differ from single checks"
import json, subprocess, sys
out, kcve, db, tree, smap = sys.argv[1:6]
rows = {r["id"]: r for r in map(json.loads, open(out))}
assert "error" in rows["gone"] and "System.map" in rows["gone"]["error"], rows["gone"]
assert "error" in rows["two"], rows["two"]
# "later" (6.0.5) is not the tree's release (6.0.2): no code stage, as without --source
assert "code" not in rows["later"] and rows["later"]["functions"]["decided"] == 0, rows["later"]
for rid, version, use_map in (("with-map", "6.0.2", True), ("plain", "6.0.2", False)):
    r = rows[rid]
    args = [kcve, "check", "--db", db, "--source", tree, "--version", version, "--json", "--all"]
    if use_map:
        args += ["--system-map", smap]
    single = json.loads(subprocess.run(args, capture_output=True, text=True).stdout)["results"][0]
    cves = single["cves"]
    aff = sorted(c["id"] for c in cves if c["outcome"] == "affected")
    assert sorted(r["affected"]) == aff, (rid, r["affected"], aff)
    unk = sorted(c["id"] for c in cves if c["outcome"] in ("unknown", "no_data"))
    assert sorted(r["unknown"]) == unk, (rid, r["unknown"], unk)
    code = {c["id"]: c["code"] for c in cves if c["stage"] == "code" or
            (c["stage"] == "functions" and c["code"]["verdict"] != "undecided")}
    got = {c.pop("id"): c for c in r["code"]["cves"]}
    assert got == code and r["code"]["decided"] == len(code), (rid, got, code)
    names = [s["name"] for s in r["stages"]]
    assert "code" in names, names
    funcs = {c["id"]: c["reason"] for c in cves if c["stage"] == "functions"}
    if use_map:
        assert "functions" in names, names
        got = {c["id"]: c["reason"] for c in r["functions"]["cves"]}
        assert got == funcs and r["functions"]["decided"] == len(funcs), (rid, got, funcs)
    else:
        assert "functions" not in r and not funcs, r
# the fixture's expectations: at 6.0.2 the code finds 0001-0003 and 0006 vulnerable; the map
# decides 0001 (found) and 0004 (by its header) not affected
w = rows["with-map"]
assert sorted(w["functions"]["cves"][i]["id"] for i in range(2)) == ["CVE-2099-0001", "CVE-2099-0004"], w
assert "CVE-2099-0001" not in w["affected"] and "CVE-2099-0001" in rows["plain"]["affected"], (w, rows["plain"])
EOF
# the code of KSRC is that of its Makefile's release: a line of another release is another
# tree, so KSRC's code must not decide it (a fixed KSRC would hide a vulnerable 6.0.3), nor may
# its functions be read there; such lines are checked without the code, with one warning
"$KCVE" check --db "$T/kcve.db" --source "$T/new" --batch - >"$T/out5" 2>"$T/err" <<EOF || fail "other releases: $(cat "$T/err")"
6.0.2 - same system-map=$MAP
6.0.3 - other system-map=$MAP
EOF
grep -q "warning: the code of --source $T/new (release 6.0.2) decides only the kernels of that release; 1 kernel of another release was checked without it" "$T/err" ||
	fail "no warning about the other release: $(cat "$T/err")"
$PY - "$T/out5" <<'EOF' || fail "another release read with KSRC's code: $(cat "$T/out5")"
import json, sys
same, other = map(json.loads, open(sys.argv[1]))
assert same["code"]["decided"] == 6 and same["affected"] == [], same
assert "code" not in other and "code" not in [s["name"] for s in other["stages"]], other
assert other["functions"] == {"decided": 0, "cves": []}, other
assert sorted(other["affected"] + other["unknown"]) == ["CVE-2099-000%d" % i for i in range(1, 7)], other
EOF
# the same for a single check of several kernels (--version A,B, --fixed-between): the one tree
# is at most one of them, so its code decides only that one, with the batch's warning; before,
# a fixed 6.0.2 tree made 6.0.3 not affected and --fixed-between 6.0.1 6.0.2 fix nothing
"$KCVE" check --db "$T/kcve.db" --source "$T/new" --version 6.0.2,6.0.3 --json --all >"$T/out7" 2>"$T/err" ||
	fail "--version 6.0.2,6.0.3: $(cat "$T/err")"
grep -q "warning: the code of --source $T/new (release 6.0.2) decides only the kernels of that release; 1 kernel of another release was checked without it" "$T/err" ||
	fail "--version 6.0.2,6.0.3: no warning about the other release: $(cat "$T/err")"
$PY - "$T/out7" <<'EOF' || fail "--version 6.0.2,6.0.3 read 6.0.3 with the 6.0.2 tree's code: $(cat "$T/out7")"
import json, sys
same, other = json.load(open(sys.argv[1]))["results"]
kept = lambda r: sorted(c["id"] for c in r["cves"] if c["outcome"] in ("affected", "unknown", "no_data"))
assert same["release"] == "6.0.2" and kept(same) == [], same
assert other["release"] == "6.0.3" and kept(other) == ["CVE-2099-000%d" % i for i in range(1, 7)], other
assert not any(c.get("stage") == "code" for c in other["cves"]), other
EOF
got=$("$KCVE" check --db "$T/kcve.db" --source "$T/new" --fixed-between 6.0.1 6.0.2 --ids 2>"$T/err") ||
	fail "--fixed-between 6.0.1 6.0.2: $(cat "$T/err")"
[ "$got" = "6.0.1..6.0.2: CVE-2099-0001 CVE-2099-0002 CVE-2099-0003 CVE-2099-0004 CVE-2099-0005 CVE-2099-0006" ] ||
	fail "--fixed-between 6.0.1 6.0.2 with the 6.0.2 tree: $got"
# one kernel: its --version goes with --source (no warning, the code decides it)
"$KCVE" check --db "$T/kcve.db" --source "$T/new" --version 6.0.3 --ids >"$T/out8" 2>"$T/err" ||
	fail "--version 6.0.3: $(cat "$T/err")"
[ "$(cat "$T/out8")" = "6.0.3:" ] || fail "one kernel with --source: $(cat "$T/out8")"
grep -q "decides only" "$T/err" && fail "one kernel with --source warned: $(cat "$T/err")"
# a tree whose Makefile names no release: its code decides no line, with a warning
cp -r "$T/new" "$T/nomk" && rm "$T/nomk/Makefile"
"$KCVE" check --db "$T/kcve.db" --source "$T/nomk" --batch - >"$T/out6" 2>"$T/err" <<EOF || fail "no Makefile: $(cat "$T/err")"
6.0.2 - same
EOF
grep -q "warning: the Makefile of --source $T/nomk names no release (VERSION/PATCHLEVEL): its code was applied to none of the 1 kernel (give" "$T/err" ||
	fail "no warning about the Makefile: $(cat "$T/err")"
grep -q '"code":' "$T/out6" && fail "a tree without a release decided a line: $(cat "$T/out6")"
# without --source: no code stage, no "code" member; the map alone cannot read --patches
# fingerprints' functions: the function level runs and decides nothing
"$KCVE" check --db "$T/kcve.db" --batch - >"$T/out2" 2>"$T/err" <<EOF || fail "batch without --source: $(cat "$T/err")"
6.0.2 - a system-map=$MAP
6.0.2 - b
EOF
$PY - "$T/out2" <<'EOF' || fail "batch without --source: $(cat "$T/out2")"
import json, sys
a, b = map(json.loads, open(sys.argv[1]))
assert "code" not in a and a["functions"] == {"decided": 0, "cves": []}, a
assert "code" not in b and "functions" not in b, b
assert [s["name"] for s in b["stages"]] == ["records", "version"], b
EOF
# build=DIR: what --build DIR gives: its compiled files (the build stage: here every record
# file) and its vmlinux (compiled here), which answers as the map does; a directory that is not
# a build directory (no .cmd files) is that line's error
if command -v gcc >/dev/null; then
	for d in foo baz qux ins; do
		mkdir -p "$T/build/drivers/$d"
		printf 'source_drivers/%s/%s.o := drivers/%s/%s.c\ndeps_drivers/%s/%s.o := \\\n  include/linux/widget_impl.h \\\n  include/linux/gadget.h \\\n\n' \
			$d $d $d $d $d $d >"$T/build/drivers/$d/.$d.o.cmd"
	done
	printf 'void _text(void) {}\nint foo_probe(void) { return 0; }\n' >"$T/vmlinux.c"
	gcc -c -o "$T/build/vmlinux" "$T/vmlinux.c"
	: >"$T/build/modules.order"
	mkdir -p "$T/nobuild"
	"$KCVE" check --db "$T/kcve.db" --source "$T/tree" --batch - >"$T/out4" 2>"$T/err" <<EOF && fail "exit 13 expected"
6.0.2 - elf build=$T/build
6.0.2 - map system-map=$MAP
6.0.2 - empty build=$T/nobuild
EOF
	$PY - "$T/out4" <<'EOF' || fail "build=: $(cat "$T/out4")"
import json, sys
elf, smap, empty = map(json.loads, open(sys.argv[1]))
ids = lambda r: sorted(c["id"] for c in r["functions"]["cves"])
assert ids(elf) == ids(smap) == ["CVE-2099-0001", "CVE-2099-0004"], (elf, smap)
assert elf["affected"] == smap["affected"], (elf, smap)
assert [x["name"] for x in elf["stages"]] == ["records", "version", "build", "code", "functions"], elf
assert "vmlinux" in elf["functions"]["cves"][0]["reason"], elf
assert "error" in empty, empty
EOF
fi
# a db without fingerprints: a line naming a map is an error, the others are checked
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/plainvulns" "$T/spec.json" || fail mktree
"$KCVE" check --tree "$T/plainvulns" --no-cache --batch - >"$T/out3" 2>"$T/err" <<EOF && fail "exit 13 expected"
6.0.2 - a system-map=$MAP
6.0.2 - b
EOF
grep -q '"id":"a","version":"6.0.2","error":"system-map= needs a --db holding fix fingerprints' "$T/out3" ||
	fail "no fingerprints: $(cat "$T/out3")"
grep -q '"id":"b","version":"6.0.2","release"' "$T/out3" || fail "line b: $(cat "$T/out3")"
echo "ok: --batch runs the code stage once and the function level per image"
