#!/usr/bin/env bash
# Issue 35, the catalogues and other whole-file inputs of kcve check:
#  - item 11: --epss gzip of two members (`cat a.gz b.gz`): the second member's rows read, as
#    gzip reads them; bytes after the last member: refused with one line (exit 13);
#  - items 7, 8: --sbom as a FIFO, a link to /dev/zero, a 5 GB sparse file, a 120 MB file of
#    "[],[],...", 3,000,000 values in 9 MB: refused with one line (the bounded reader's caps);
#  - item 5: check --db and --since as a FIFO (hung), /dev/zero, a 5 GB file: one line, exit 9;
#  - item 6: db build --patches DIR with a FIFO, a link to /dev/zero and a 5 GB file as patches
#    (a FIFO hung; one unusable patch aborted the run): each left out with one warning naming
#    it, counted ("patches_left_out"), the other patches read;
#  - a --source file of a fix that is a FIFO or a link: read as missing, said in one warning;
# Each case within 30 s and 2 GiB, one line, a sane exit.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
. "$KCVE_SRC/tests/hostile/lib35.sh"
. "$KCVE_SRC/tests/check/patches_fixture.sh"
chk=("$KCVE" check --db "$T/kcve.db" --version 6.0.2)
epss_of() { # JSON CVE -> its epss score or "none"
	$PY -c '
import json, sys
for c in json.load(open(sys.argv[1]))["results"][0]["cves"]:
    if c["id"] == sys.argv[2]:
        print((c.get("epss") or {}).get("probability", "none"))' "$1" "$2"
}

# ---- item 11: EPSS gzip members
printf '#model_version:t\ncve,epss,percentile\nCVE-2099-0001,0.5,0.9\n' | gzip > "$T/a.gz"
printf 'CVE-2099-0003,0.25,0.8\n' | gzip > "$T/b.gz"
cat "$T/a.gz" "$T/b.gz" > "$T/epss.csv.gz"
[ "$(gzip -dc "$T/epss.csv.gz" | grep -c CVE-2099)" = 2 ] || fail "gzip itself reads both members"
run35 "--epss two members" "${chk[@]}" --epss "$T/epss.csv.gz" --json --all
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "--epss two members: exit $RC: $(cat "$T/err")"
cp "$T/out" "$T/two.json"
[ "$(epss_of "$T/two.json" CVE-2099-0001)" != none ] || fail "--epss two members: first member's row missing"
[ "$(epss_of "$T/two.json" CVE-2099-0003)" != none ] || fail "--epss two members: the second member's row was ignored: $(grep -o '"epss[^}]*' "$T/two.json" | head)"
{ cat "$T/a.gz"; printf 'garbage after the member'; } > "$T/trail.csv.gz"
run35 "--epss trailing garbage" "${chk[@]}" --epss "$T/trail.csv.gz" --json --all
want "--epss trailing garbage" "13" "trailing garbage"
{ cat "$T/a.gz"; head -c 10 "$T/b.gz"; } > "$T/cut.csv.gz"
run35 "--epss second member cut" "${chk[@]}" --epss "$T/cut.csv.gz" --json --all
want "--epss second member cut" "13" "truncated gzip"
# ---- items 7, 8: --sbom through the bounded reader (a FIFO hung in json_load_file; a 120 MB
# SBOM of "[],[],..." grew past 2 GiB)
vex=("${chk[@]}" --openvex --author "t <t@example.org>")
for kind in fifo zero sparse; do
	hostile_file $kind "$T/sbom.json"
	run35 "--sbom $kind" "${vex[@]}" --sbom "$T/sbom.json"
	want "--sbom $kind" "9" "SBOM $T/sbom.json"
done
$PY -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("[" + "[]," * 40000000 + "[]]")' "$T/sbom.json"
run35 "--sbom 120 MB" "${vex[@]}" --sbom "$T/sbom.json"
want "--sbom 120 MB" "9 13" "SBOM"
$PY -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("[" + "[]," * 3000000 + "[]]")' "$T/sbom.json"
run35 "--sbom 3,000,000 values" "${vex[@]}" --sbom "$T/sbom.json"
want "--sbom 3,000,000 values" "13" "more than .* JSON values"
# the same class for every JSON text (kj_loadb): the previous OpenVEX document, a check
# --json for report, the KEV catalogue, each 60 MB (KEV: 8 MB) of "[],[],..."
$PY -c '
import sys
with open(sys.argv[1], "w") as f:
    f.write("[" + "[]," * 20000000 + "[]]")
with open(sys.argv[2], "w") as f:
    f.write("[" + "[]," * 2700000 + "[]]")' "$T/big.json" "$T/kev.json"
run35 "--since-vex 60 MB of values" "${vex[@]}" --since "$T/kcve.db" --since-vex "$T/big.json"
want "--since-vex 60 MB of values" "13" "big.json"
run35 "report --check-json 60 MB of values" "$KCVE" report --html "$T/r.html" --db "$T/kcve.db" --check-json "$T/big.json"
[ "$RC" -gt 0 ] && [ "$RC" -lt 128 ] || fail "report --check-json: exit $RC"
[ "$(wc -l < "$T/err")" = 1 ] || fail "report --check-json: $(cat "$T/err")"
run35 "--kev 8 MB of values" "${chk[@]}" --kev "$T/kev.json"
want "--kev 8 MB of values" "13" "more than 2097152 JSON values"
rm -f "$T/sbom.json" "$T/big.json" "$T/kev.json"

# ---- item 5: check --db FIFO, --since FIFO (read_big opened without O_NONBLOCK: hung)
for kind in fifo zero sparse; do
	hostile_file $kind "$T/h.db"
	run35 "--db $kind" "$KCVE" check --db "$T/h.db" --version 6.0.2
	want "--db $kind" "9" "cannot read database $T/h.db"
	! grep -q "No such device\|File too large" "$T/err" || fail "--db $kind: errno words: $(cat "$T/err")"
	run35 "--since $kind" "${chk[@]}" --since "$T/h.db"
	want "--since $kind" "9" "cannot read database $T/h.db"
done
rm -f "$T/h.db"

# ---- item 6 and the smaller one: db build --patches with a FIFO, a link and a huge file
# among the patches: each left out with one warning naming it, counted, the others read
cp -r "$T/patches" "$T/p6"
rm "$T/p6/CVE-2099-0002.patch" "$T/p6/CVE-2099-0003.patch" "$T/p6/CVE-2099-0004.patch"
mkfifo "$T/p6/CVE-2099-0002.patch"
ln -s /dev/zero "$T/p6/CVE-2099-0003.patch"
truncate -s 5G "$T/p6/CVE-2099-0004.patch"
run35 "db build --patches FIFO" "$KCVE" db build --tree "$T/vulns" --patches "$T/p6" -o "$T/p6.db" --json
[ "$RC" = 0 ] || fail "db build --patches FIFO: exit $RC: $(cat "$T/err")"
for n in 2 3 4; do
	grep -q "warning: CVE-2099-000$n.patch left out: cannot read patch" "$T/err" ||
		fail "db build --patches: CVE-2099-000$n.patch not named: $(cat "$T/err")"
done
grep -q "CVE-2099-0002.patch left out: .*not a regular file" "$T/err" || fail "the FIFO: $(cat "$T/err")"
[ "$(grep -c "kcve: warning:" "$T/err")" = 3 ] || fail "db build --patches: want 3 warnings: $(cat "$T/err")"
grep -q '"patches_left_out": 3' "$T/out" || fail "db build --patches: not counted: $(cat "$T/out")"
grep -q '"fingerprints": 3' "$T/out" || fail "db build --patches: the others not read: $(cat "$T/out")"
# ---- the smaller one: a fix's source file that is a FIFO or a link in --source is read as
# missing, and said so (one warning naming it and the count), never waited on
cp -r "$T/tree" "$T/src7"
rm "$T/src7/drivers/foo/foo.c" "$T/src7/include/linux/gadget.h"
mkfifo "$T/src7/drivers/foo/foo.c"
ln -s /etc/passwd "$T/src7/include/linux/gadget.h"
run35 "--source FIFO and link" "${chk[@]}" --source "$T/src7" --json
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "--source FIFO: exit $RC: $(cat "$T/err")"
want "--source FIFO and link" "0 1" "drivers/foo/foo.c is not a regular file.*read as missing; and 1 more"
echo "catalogues: ok"
