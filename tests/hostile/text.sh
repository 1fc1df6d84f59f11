#!/usr/bin/env bash
# Issue 35, the text that reaches every output:
#  - item 1: --since OLD whose path is long (~270 bytes) and not ASCII, with --csaf and
#    --openvex: the withdrawn CVE's note was cut at 320 bytes inside a character, json_pack
#    returned NULL and the CSAF lost it (a use-after-free under ASan), OpenVEX dropped the
#    statement; both lengths' parities;
#  - item 9: --since OLD --json where a delta reason holds "é" past 200 bytes: the table said
#    "1 removed" and JSON's delta.removed was [];
#  - item 4: a --source tree directory that is not UTF-8 (include/linux\xe9/): --json keeps the
#    CVE's reason and code evidence (escaped), --openvex a not_affected statement keeps its
#    impact statement, --csaf its notes; a patch whose path is not UTF-8 is left out by db build
#    --patches with one warning naming it (the others read, the count said);
#  - item 10: an image's etc/modprobe.d/ file named with U+202E and U+009B: neutralised in the
#    table's "mitigated:" line like every other table text.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
. "$KCVE_SRC/tests/hostile/lib35.sh"
. "$KCVE_SRC/tests/check/patches_fixture.sh"
AUTHOR="T <t@example.org>"

# ---- item 1: the withdrawn CVE of a revision, OLD at a long non-ASCII path
cp -r "$T/vulns" "$T/now"
mkdir -p "$T/now/cve/rejected/2099"
for f in "$T/now/cve/published/2099/CVE-2099-0003"*; do mv "$f" "$T/now/cve/rejected/2099/"; done
for n in 125 126; do # the 320-byte note is cut inside the é run, at either parity
	L="$T/$($PY -c "print('\u00e9' * $n)")"
	mkdir -p "$L"
	"$KCVE" db build --tree "$T/vulns" -o "$L/old.db" 2>/dev/null || fail "db build at a long path"
	run35 "--since long path ($n) --csaf" "$KCVE" check --tree "$T/now" --version 6.0.2 --since "$L/old.db" --csaf --author "$AUTHOR"
	[ "$RC" = 0 ] || fail "--csaf exit $RC: $(cat "$T/err")"
	$PY - "$T/out" <<'PY' || fail "--since long path ($n) --csaf: $(head -c 400 "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
v = [x for x in d["vulnerabilities"] if x.get("cve") == "CVE-2099-0003"]
assert v, "the withdrawn CVE is missing from the CSAF"
assert any("Withdrawn" in n.get("text", "") for n in v[0].get("notes", [])), v[0]
assert v[0]["product_status"]["known_not_affected"], v[0]
PY
	run35 "--since long path ($n) --openvex" "$KCVE" check --tree "$T/now" --version 6.0.2 --since "$L/old.db" --openvex --author "$AUTHOR"
	[ "$RC" = 0 ] || fail "--openvex exit $RC: $(cat "$T/err")"
	$PY - "$T/out" <<'PY' || fail "--since long path ($n) --openvex: $(head -c 400 "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["statements"] if x["vulnerability"]["name"] == "CVE-2099-0003"]
assert s, "the withdrawn statement is missing"
assert s[0]["status"] == "not_affected" and "withdrawn" in s[0].get("impact_statement", ""), s[0]
PY
	rm -rf "$L"
done

# ---- item 9: a delta reason with "é" past the 200th byte, both parities
mkdir -p "$T/b/drivers/foo" "$T/b/include/config"
printf 'source_drivers/foo/foo.o := drivers/foo/foo.c\n' > "$T/b/drivers/foo/.foo.o.cmd"
echo 6.0.2 > "$T/b/include/config/kernel.release"
"$KCVE" db build --tree "$T/vulns" -o "$T/old.db" 2>/dev/null || fail "db build"
for p in "" a; do
	E=$($PY -c "print('$p' + '\u00e9' * 80)")
	rm -rf "$T/new9"
	sed "s|drivers/foo/foo.c|drivers/$E/foo.c|" "$T/spec.json" > "$T/spec9.json"
	$PY "$KCVE_SRC/tests/check/mktree.py" "$T/new9" "$T/spec9.json" || fail mktree
	run35 "delta reason with é ($p)" "$KCVE" check --tree "$T/new9" --build "$T/b" --since "$T/old.db" --json
	$PY - "$T/out" <<'PY' || fail "delta reason with é ($p): $(head -c 600 "$T/out")"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
rem = r["delta"]["removed"]
assert [x["id"] for x in rem] == ["CVE-2099-0003"], rem
why = rem[0]["why"]
assert why.startswith("no longer compiled") and "\\x" not in why, why
why.encode("utf-8")
PY
done

# ---- item 4: a tree directory that is not UTF-8; a patch path that is not UTF-8
cp -r "$T/new" "$T/bad"
BADDIR=$(printf 'include/linux\xe9')
mkdir -p "$T/bad/$BADDIR"
mv "$T/bad/include/linux/widget_impl.h" "$T/bad/$BADDIR/"
chk=("$KCVE" check --db "$T/kcve.db" --source "$T/bad" --version 6.0.2)
run35 "tree dir not UTF-8 --json" "${chk[@]}" --json --all
$PY - "$T/out" <<'PY' || fail "tree dir not UTF-8 --json: $(head -c 800 "$T/out")"
import json, sys
cves = {c["id"]: c for c in json.load(open(sys.argv[1]))["results"][0]["cves"]}
c = cves["CVE-2099-0001"]
assert c.get("reason"), c
code = c.get("code") or {}
assert code.get("evidence"), c
assert any("\\xE9" in json.dumps(e) or "xE9" in json.dumps(e) for e in code["evidence"]), code
PY
run35 "tree dir not UTF-8 --openvex" "${chk[@]}" --openvex --author "$AUTHOR" --all
$PY - "$T/out" <<'PY' || fail "tree dir not UTF-8 --openvex: $(head -c 800 "$T/out")"
import json, sys
for s in json.load(open(sys.argv[1]))["statements"]:
    if s["status"] == "not_affected":
        assert s.get("impact_statement") or s.get("justification"), s
PY
run35 "tree dir not UTF-8 --csaf" "${chk[@]}" --csaf --author "$AUTHOR" --all
$PY - "$T/out" <<'PY' || fail "tree dir not UTF-8 --csaf: $(head -c 800 "$T/out")"
import json, sys
for v in json.load(open(sys.argv[1]))["vulnerabilities"]:
    assert v.get("notes"), v
PY
cp -r "$T/patches" "$T/patches4"
sed -i "1,2s|include/linux/|$BADDIR/|" "$T/patches4/CVE-2099-0001.patch"
run35 "patch path not UTF-8" "$KCVE" db build --tree "$T/vulns" --patches "$T/patches4" -o "$T/p4.db" --json
[ "$RC" = 0 ] || fail "patch path not UTF-8: exit $RC: $(cat "$T/err")"
grep -q "warning: CVE-2099-0001.patch left out: .*not UTF-8" "$T/err" || fail "patch path not UTF-8: no warning naming it: $(cat "$T/err")"
grep -q '"patches_left_out": 1' "$T/out" || fail "patch path not UTF-8: not counted: $(cat "$T/out")"
grep -q '"fingerprints": 5' "$T/out" || fail "patch path not UTF-8: the others not read: $(cat "$T/out")"

# ---- item 10: modprobe.d names with U+202E and U+009B in the table's mitigated: line
R=$T/root
mkdir -p "$R/proc/sys/kernel" "$R/etc/modprobe.d" "$R/lib/modules/6.0.2"
printf "kernel/drivers/foo/foo.ko\n" > "$R/lib/modules/6.0.2/modules.order"
: > "$R/lib/modules/6.0.2/modules.builtin"
echo 6.0.2 > "$R/proc/sys/kernel/osrelease"
echo "Linux version 6.0.2 (gcc) #1 SMP" > "$R/proc/version"
: > "$R/proc/modules"
printf 'CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_MODULES=y\nCONFIG_FOO=m\n' | gzip -c > "$R/proc/config.gz"
printf 'obj-$(CONFIG_FOO) += foo.o\n' > "$T/tree/drivers/foo/Makefile"
printf 'obj-y += foo/\n' > "$T/tree/drivers/Makefile"
printf 'obj-y += drivers/\nobj-y += arch/$(SRCARCH)/\n' > "$T/tree/Kbuild"
mkdir -p "$T/tree/arch/x86"
: > "$T/tree/arch/x86/Makefile"
: > "$T/tree/arch/x86/Kbuild"
for cp in 202e 009b; do
	name=$($PY -c "print('evil\\u$cp' + 'LOL')")
	rm -f "$R"/etc/modprobe.d/*
	printf 'install foo /bin/false\n' > "$R/etc/modprobe.d/$name.conf"
	run35 "modprobe.d name with U+$cp" "$KCVE" check --tree "$T/vulns" --running --root "$R" --source "$T/tree"
	grep -q "^mitigated: CVE-2099-0003" "$T/out" || fail "modprobe.d U+$cp: no mitigated line: $(cat "$T/out" "$T/err")"
	! grep -q "$name" "$T/out" || fail "modprobe.d U+$cp: printed raw: $(grep mitigated "$T/out" | od -c | head)"
	grep "^mitigated:" "$T/out" | grep -q "evil?LOL" || fail "modprobe.d U+$cp not shown neutralised: $(grep mitigated "$T/out" | od -c | head)"
done
# ---- an SPDX 3 SBOM's text on the terminal: the one-line summary names the kernel version the
# SBOM gives, which is the SBOM's own text (ESC ]0; sets a window title, ESC [2J clears)
$PY - "$T/evil.spdx.json" <<'PY'
import json, sys
ci = {"type": "CreationInfo", "@id": "_:ci", "specVersion": "3.0.1",
      "created": "2026-01-01T00:00:00Z", "createdBy": ["urn:x:agent"]}
graph = [ci,
         {"type": "software_Package", "spdxId": "urn:x:k", "creationInfo": "_:ci",
          "name": "linux", "software_packageVersion": "6.0.2\u001b]0;owned\u0007\u001b[2J"},
         {"type": "software_File", "spdxId": "urn:x:f", "creationInfo": "_:ci",
          "name": "drivers/foo/foo.c", "software_primaryPurpose": "source"}]
json.dump({"@context": "https://spdx.org/rdf/3.0.1/spdx-context.jsonld", "@graph": graph},
          open(sys.argv[1], "w"))
PY
run35 "SPDX 3 version with ESC" "$KCVE" check --tree "$T/vulns" --sbom "$T/evil.spdx.json"
grep -q "SBOM: 1 compiled file" "$T/err" || fail "SPDX 3 version with ESC: no summary line: $(cat "$T/err")"
no_control "$T/err" "$T/out"
echo "text: ok"
