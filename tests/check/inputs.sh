#!/bin/bash
# kcve check on a synthetic record tree: version normalisation, stages (version -> config ->
# build), unknown verdicts kept, --running with a fake root, outputs (JSON, OpenVEX,
# CycloneDX, --fixed-in), the compact db, and clear errors for bad inputs.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"

A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
C=cccccccccccccccccccccccccccccccccccccccc
D=dddddddddddddddddddddddddddddddddddddddd
cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-0001", "title": "ext4: fix inode bug", "files": ["fs/ext4/inode.c"],
  "pairs": ["5.10:$A:6.1.20:$B", "5.10:$A:6.2:$C"], "severity": "HIGH", "score": 7.8,
  "versions": [{"version": "5.10", "status": "affected"},
               {"version": "0", "lessThan": "5.10", "status": "unaffected", "versionType": "semver"},
               {"version": "6.1.20", "lessThanOrEqual": "6.1.*", "status": "unaffected", "versionType": "semver"},
               {"version": "6.2", "lessThanOrEqual": "*", "status": "unaffected", "versionType": "original_commit_for_fix"}]},
 {"id": "CVE-2099-0002", "title": "foo: fix driver", "files": ["drivers/foo.c"],
  "pairs": ["0:0:6.1.30:$B", "0:0:6.3:$C"]},
 {"id": "CVE-2099-0003", "title": "x: header bug", "files": ["include/linux/x.h"],
  "pairs": ["6.0:$A:6.1.10:$B", "6.0:$A:6.2:$C"], "severity": "CRITICAL", "score": 9.8},
 {"id": "CVE-2099-0004", "title": "misc: no files", "files": [],
  "pairs": ["6.1.3:$D:6.1.8:$B", "6.1.3:$D:6.1.3:$C"]},
 {"id": "CVE-2099-0005", "title": "old: fixed long ago", "files": ["fs/ext4/inode.c"],
  "pairs": ["4.4:$A:5.0:$C"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree

ids() { "$KCVE" check --tree "$T/tree" "$@" --ids | sed 's/^[^:]*: *//'; }
eq() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }

# ---- version stage and normalisation
eq "$(ids --version 6.1.5)" "CVE-2099-0001 CVE-2099-0002 CVE-2099-0003 CVE-2099-0004" "6.1.5"
eq "$(ids --version 6.1.25)" "CVE-2099-0002" "6.1.25"
eq "$(ids --version v6.1.5)" "$(ids --version 6.1.5)" "v-prefix"
eq "$(ids --version 6.1.5-3)" "$(ids --version 6.1.5)" "debian package revision"
eq "$(ids --version 6.1.0)" "$(ids --version 6.1)" "X.Y.0 = X.Y"
eq "$(ids --version 6.4)" "" "6.4"
out=$("$KCVE" check --tree "$T/tree" --version 6.1.5,6.1.25 --ids | wc -l)
eq "$out" "2" "batch form"
"$KCVE" check --tree "$T/tree" --version 6.1.0-27-amd64 --ids 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "distribution ABI version" "$T/err" || fail "debian ABI version: rc=$rc $(cat "$T/err")"
[ "$(wc -l < "$T/err")" = 1 ] || fail "error must be one line"
"$KCVE" check --tree "$T/tree" --version banana --ids 2>"$T/err"; rc=$?
[ $rc -eq 2 ] || fail "bad version: rc=$rc"
"$KCVE" check --tree "$T/tree" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "nothing to check" "$T/err" || fail "no input: rc=$rc"

# ---- table, fixed-in
"$KCVE" check --tree "$T/tree" --version 6.1.5 --fixed-in > "$T/table" || fail table
grep -q "5 records → 4 by version" "$T/table" || fail "stage line: $(head -1 "$T/table")"
grep -q "fixed-in: 6.1.30 fixes every CVE found in 6.1.5" "$T/table" || fail "fixed-in: $(grep fixed-in "$T/table")"
grep -q "^fs/ext4 " "$T/table" || fail "subsystem grouping"

# ---- compact db gives the same answers; corrupt db is a clean error
"$KCVE" db build --tree "$T/tree" -o "$T/db" 2>/dev/null || fail "db build"
eq "$("$KCVE" check --db "$T/db" --version 6.1.5 --ids)" "$("$KCVE" check --tree "$T/tree" --version 6.1.5 --ids | sed "s|^.*:|6.1.5:|")" "db vs tree"
head -c 40 "$T/db" > "$T/trunc.db"
cp "$T/db" "$T/flip.db"; printf '\x55' | dd of="$T/flip.db" bs=1 seek=60 conv=notrunc 2>/dev/null
echo "hello" > "$T/text.db"
for bad in trunc flip text; do
	"$KCVE" check --db "$T/$bad.db" --version 6.1.5 2>"$T/err"; rc=$?
	[ $rc -eq 13 ] && grep -q "not a valid kcve database" "$T/err" || fail "corrupt db $bad: rc=$rc $(cat "$T/err")"
done
"$KCVE" check --db "$T/missing.db" --version 6.1.5 2>"$T/err"; rc=$?
[ $rc -eq 7 ] || fail "missing db: rc=$rc"
"$KCVE" check --tree "$T" --version 6.1.5 2>"$T/err"; rc=$?
[ $rc -eq 10 ] && grep -q "not a CVE record tree" "$T/err" || fail "non-tree dir: rc=$rc $(cat "$T/err")"

# ---- config stage on a tiny kernel source
K="$T/ksrc"
mkdir -p "$K/arch/x86" "$K/fs/ext4" "$K/drivers" "$K/include/linux" "$K/scripts"
echo "# top" > "$K/Makefile"
printf 'obj-y += fs/\nobj-y += drivers/\nobj-y += arch/$(SRCARCH)/\n' > "$K/Kbuild"
: > "$K/arch/x86/Makefile"; : > "$K/arch/x86/Kbuild"
printf 'obj-$(CONFIG_EXT4_FS) += ext4/\n' > "$K/fs/Makefile"
printf 'obj-$(CONFIG_EXT4_FS) += ext4.o\next4-y := inode.o\n' > "$K/fs/ext4/Makefile"
printf 'obj-$(CONFIG_FOO) += foo.o\n' > "$K/drivers/Makefile"
: > "$K/fs/ext4/inode.c"; : > "$K/drivers/foo.c"; : > "$K/include/linux/x.h"
printf 'CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_EXT4_FS=y\n# CONFIG_FOO is not set\n' > "$T/config"
"$KCVE" check --tree "$T/tree" --version 6.1.5 --config "$T/config" --source "$K" --json > "$T/c.json" 2>"$T/err" \
	|| fail "config stage: $(cat "$T/err")"
$PY - "$T/c.json" <<'EOF' || fail "config stage verdicts"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
c = {x["id"]: x for x in r["cves"]}
assert [s["count"] for s in r["stages"]] == [5, 4, 3], r["stages"]
assert c["CVE-2099-0001"]["outcome"] == "affected" and c["CVE-2099-0001"]["stage"] == "config"
assert c["CVE-2099-0002"]["outcome"] == "not_compiled", c["CVE-2099-0002"]
assert c["CVE-2099-0003"]["outcome"] == "unknown", c["CVE-2099-0003"]        # header: kept
assert c["CVE-2099-0004"]["outcome"] == "unknown", c["CVE-2099-0004"]        # no files: kept
assert "CVE-2099-0005" not in c                                             # fixed: not listed
EOF
# the same verdicts from a database carrying kbuild's file conditions, without the source tree
"$KCVE" db build --tree "$T/tree" --source "$K" -o "$T/cond.db" 2>"$T/err" || fail "db build --source: $(cat "$T/err")"
"$KCVE" db info "$T/cond.db" | grep -q "file conditions" || fail "db info"
"$KCVE" check --db "$T/cond.db" --version 6.1.5 --config "$T/config" --json > "$T/cd.json" 2>"$T/err" || fail "config from db: $(cat "$T/err")"
$PY - "$T/cd.json" <<'EOF' || fail "config stage from db conditions"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c = {x["id"]: x for x in r["cves"]}
assert c["CVE-2099-0001"]["outcome"] == "affected", c["CVE-2099-0001"]
assert c["CVE-2099-0002"]["outcome"] == "not_compiled", c["CVE-2099-0002"]
assert c["CVE-2099-0003"]["outcome"] == "unknown", c["CVE-2099-0003"]
EOF
printf 'CONFIG_EXT4_FS=y\nthis is not a config line\n' > "$T/bad.config"
"$KCVE" check --tree "$T/tree" --version 6.1.5 --config "$T/bad.config" --source "$K" 2>"$T/err"; rc=$?
[ $rc -eq 13 ] && grep -q "line 2" "$T/err" || fail "malformed .config: rc=$rc $(cat "$T/err")"
"$KCVE" check --tree "$T/tree" --version 6.1.5 --config "$T/config" --source "$T/tree" 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && [ "$(wc -l < "$T/err")" = 1 ] || fail "non-kernel source: rc=$rc $(cat "$T/err")"
"$KCVE" check --tree "$T/tree" --version 6.1.5 --config "$T/config" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "needs\|cannot tell" "$T/err" || fail "config without source: rc=$rc $(cat "$T/err")"

# ---- build stage (a .cmd file naming the ext4 source and the header)
mkdir -p "$T/build/fs/ext4" "$T/build/include/config"
cat > "$T/build/fs/ext4/.inode.o.cmd" <<'EOF'
savedcmd_fs/ext4/inode.o := gcc -c -o fs/ext4/inode.o fs/ext4/inode.c

source_fs/ext4/inode.o := fs/ext4/inode.c

deps_fs/ext4/inode.o := \
  include/linux/x.h \
  $(wildcard include/config/FOO) \

fs/ext4/inode.o: $(deps_fs/ext4/inode.o)

$(deps_fs/ext4/inode.o):
EOF
echo "6.1.5-custom" > "$T/build/include/config/kernel.release"
"$KCVE" check --tree "$T/tree" --build "$T/build" --json > "$T/b.json" 2>"$T/err" || fail "build stage: $(cat "$T/err")"
$PY - "$T/b.json" <<'EOF' || fail "build stage verdicts"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c = {x["id"]: x for x in r["cves"]}
assert r["release"] == "6.1.5", r["release"]          # from include/config/kernel.release
assert c["CVE-2099-0001"]["outcome"] == "affected"
assert c["CVE-2099-0003"]["outcome"] == "affected"    # header compiled in, from deps_
assert c["CVE-2099-0002"]["outcome"] == "not_compiled"
EOF
"$KCVE" check --tree "$T/tree" --version 6.1.5 --build "$T/ksrc/fs" 2>"$T/err"; rc=$?
[ $rc -ne 0 ] && [ "$(wc -l < "$T/err")" = 1 ] || fail "non-build dir: rc=$rc"

# ---- VEX documents
export SOURCE_DATE_EPOCH=1700000000
"$KCVE" check --tree "$T/tree" --version 6.1.5 --config "$T/config" --source "$K" --openvex --all > "$T/vex.json" || fail openvex
"$KCVE" check --tree "$T/tree" --version 6.1.5 --config "$T/config" --source "$K" --cyclonedx --all > "$T/cdx.json" || fail cyclonedx
$PY - "$T/vex.json" "$T/cdx.json" <<'EOF' || fail "VEX content"
import json, sys
v = json.load(open(sys.argv[1]))
assert v["@context"].startswith("https://openvex.dev/ns/") and v["timestamp"] == "2023-11-14T22:13:20Z"
s = {x["vulnerability"]["name"]: x for x in v["statements"]}
assert s["CVE-2099-0002"]["status"] == "not_affected"
# the justification of docs/vex.md's table; the reason in status_notes (the OpenVEX schema
# takes a justification or an impact statement, not both)
assert s["CVE-2099-0002"]["justification"] == "vulnerable_code_not_present"
assert "impact_statement" not in s["CVE-2099-0002"]
assert "compiled" in s["CVE-2099-0002"]["status_notes"]
assert s["CVE-2099-0001"]["status"] == "affected" and "action_statement" in s["CVE-2099-0001"]
assert s["CVE-2099-0003"]["status"] == "under_investigation"
assert s["CVE-2099-0005"]["status"] == "fixed"
assert s["CVE-2099-0001"]["products"][0]["@id"] == "pkg:generic/linux-kernel@6.1.5"
c = json.load(open(sys.argv[2]))
assert c["bomFormat"] == "CycloneDX" and c["specVersion"] == "1.5"
a = {x["id"]: x["analysis"] for x in c["vulnerabilities"]}
assert a["CVE-2099-0002"] == {"state": "not_affected", "justification": "code_not_present",
                             "detail": a["CVE-2099-0002"]["detail"]}
assert a["CVE-2099-0001"]["state"] == "exploitable" and a["CVE-2099-0005"]["state"] == "resolved"
EOF

# ---- running system from a fake root
R="$T/root"
mkdir -p "$R/proc/sys/kernel" "$R/boot"
echo "6.1.0-27-amd64" > "$R/proc/sys/kernel/osrelease"
echo "Linux version 6.1.0-27-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC Debian 6.1.5-1 (2024-11-01)" > "$R/proc/version"
printf 'ext4 1024000 2 - Live 0x0000000000000000\nfoo 16384 0 - Live 0x0\n' > "$R/proc/modules"
"$KCVE" check --tree "$T/tree" --running --root "$R" --json > "$T/r.json" 2>"$T/err" || fail "running: $(cat "$T/err")"
grep -q "neither .*config.gz" "$T/err" || fail "running without config must say so: $(cat "$T/err")"
cp "$T/config" "$R/boot/config-6.1.0-27-amd64"
"$KCVE" check --tree "$T/tree" --running --root "$R" --source "$K" --json > "$T/r.json" 2>"$T/err" || fail "running+source: $(cat "$T/err")"
$PY - "$T/r.json" <<'EOF' || fail "running verdicts"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
c = {x["id"]: x for x in r["cves"]}
assert r["release"] == "6.1.5", r["release"]         # from "Debian 6.1.5-1" in /proc/version
assert c["CVE-2099-0001"]["outcome"] == "affected" and c["CVE-2099-0001"].get("module_loaded")
assert c["CVE-2099-0002"]["outcome"] == "not_compiled"
EOF
gzip -c "$T/config" > "$R/proc/config.gz"
KCVE_ROOT="$R" "$KCVE" check --tree "$T/tree" --running --source "$K" --ids > "$T/r.ids" 2>"$T/err" || fail "running gz: $(cat "$T/err")"
eq "$(sed 's/^[^:]*: *//' "$T/r.ids")" "CVE-2099-0001 CVE-2099-0003 CVE-2099-0004" "running with config.gz"
echo "6.1.0-27-amd64" > "$R/proc/sys/kernel/osrelease"; echo "Linux version 6.1.0-27-amd64 #1 SMP" > "$R/proc/version"
"$KCVE" check --tree "$T/tree" --running --root "$R" 2>"$T/err"; rc=$?
[ $rc -eq 2 ] && grep -q "pass --version" "$T/err" || fail "running ABI kernel without distro text: rc=$rc $(cat "$T/err")"

# ---- --fail-if-affected exit status
"$KCVE" check --tree "$T/tree" --version 6.1.5 --ids --fail-if-affected >/dev/null; rc=$?
[ $rc -eq 18 ] || fail "--fail-if-affected: rc=$rc"
"$KCVE" check --tree "$T/tree" --version 6.4 --ids --fail-if-affected >/dev/null; rc=$?
[ $rc -eq 0 ] || fail "--fail-if-affected clean: rc=$rc"
echo "inputs: ok"
