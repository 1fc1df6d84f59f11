#!/bin/bash
# kcve check --batch: one JSON line per kernel, in input order, each equal to what a single
# `kcve check` of that kernel answers (version only, a .config through a db built with
# --source, a `kcve db files` verdict list); FILES deduplicated by content; bad lines reported
# in place while the others are still checked; stdin; option conflicts.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"

# ---- a tiny kernel source and records naming its files
K=$T/ksrc
mk() { mkdir -p "$(dirname "$K/$1")"; printf '%b' "$2" > "$K/$1"; }
mk Makefile '# top\n'
mk Kbuild 'obj-y += fs/\nobj-y += drivers/\n'
mk fs/Makefile 'obj-$(CONFIG_EXT4_FS) += ext4/\n'
mk fs/ext4/Makefile 'obj-$(CONFIG_EXT4_FS) += ext4.o\next4-y := inode.o\n'
mk fs/ext4/inode.c ''
mk drivers/Makefile 'obj-$(CONFIG_FOO) += foo.o\n'
mk drivers/foo.c ''
mk arch/x86/Makefile ''
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
C=cccccccccccccccccccccccccccccccccccccccc
cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-0001", "title": "ext4: fix", "files": ["fs/ext4/inode.c"],
  "pairs": ["5.10:$A:6.1.20:$B", "5.10:$A:6.2:$C"]},
 {"id": "CVE-2099-0002", "title": "foo: fix", "files": ["drivers/foo.c"],
  "pairs": ["0:0:6.1.30:$B", "0:0:6.3:$C"]},
 {"id": "CVE-2099-0003", "title": "misc: no files", "files": [], "pairs": ["6.1.3:$A:6.1.8:$B"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
DB=$T/k.kdb
"$KCVE" db build --tree "$T/tree" --source "$K" -o "$DB" >/dev/null 2>&1 || fail "db build"
printf 'CONFIG_EXT4_FS=y\n# CONFIG_FOO is not set\n' >"$T/ext4.config"
printf 'CONFIG_FOO=m\n' >"$T/foo.config"
cp "$T/ext4.config" "$T/ext4-copy.config"
printf 'drivers/foo.c\tcompiled\t\nfs/ext4/inode.c\tnot-compiled\t\n' >"$T/foo.files"

cat >"$T/fleet" <<EOF
# version  files  id
6.1.5
6.1.5 $T/ext4.config web-1
6.1.5 $T/ext4-copy.config web-2

6.1.25 $T/foo.config db-1   # trailing comment
v6.1.5 $T/foo.files list-1
6.1.5-3 - plain-deb
banana - broken
6.1.5 $T/missing.config gone
EOF
"$KCVE" -v check --db "$DB" --batch "$T/fleet" >"$T/out" 2>"$T/err"; rc=$?
[ $rc -eq 13 ] || fail "bad lines must give exit 13, got $rc: $(cat "$T/err")"
grep -q "2 of the 8 kernels" "$T/err" || fail "error summary: $(cat "$T/err")"
grep -q "8 kernels (2 releases, 3 distinct file inputs, 4 evaluations)" "$T/err" ||
	fail "sharing stats: $(cat "$T/err")"

# every line against the single-kernel answer
$PY - "$T/out" "$KCVE" "$DB" <<'EOF' || fail "batch results differ from single checks"
import json, subprocess, sys
out, kcve, db = sys.argv[1:4]
rows = [json.loads(l) for l in open(out)]
assert [r["line"] for r in rows] == [2, 3, 4, 6, 7, 8, 9, 10], [r["line"] for r in rows]
assert [r["id"] for r in rows] == [None, "web-1", "web-2", "db-1", "list-1", "plain-deb", "broken", "gone"]
for r in rows:
    if r["id"] in ("broken", "gone"):
        assert "error" in r and "affected" not in r, r
        continue
    args = [kcve, "check", "--db", db, "--version", r["version"], "--json"]
    if r["files"] and r["files"].endswith(".config"):
        args += ["--config", r["files"]]
    single = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    res = single["results"][0]
    want_aff = sorted(e["id"] for e in res["cves"] if e["outcome"] == "affected")
    want_unk = sorted(e["id"] for e in res["cves"] if e["outcome"] in ("unknown", "no_data"))
    if r["files"] and r["files"].endswith(".files"):
        # the verdict list compiles drivers/foo.c only; a record without files is undecided
        want_aff = [i for i in want_aff if i == "CVE-2099-0002"]
    assert sorted(r["affected"]) == want_aff, (r["id"], r["affected"], want_aff)
    if not (r["files"] and r["files"].endswith(".files")):
        assert sorted(r["unknown"]) == want_unk, (r["id"], r["unknown"], want_unk)
    assert r["records"] == 3, r
by_id = {r["id"]: r for r in rows}
assert by_id["web-1"]["affected"] == ["CVE-2099-0001"], by_id["web-1"]
assert by_id["web-2"]["affected"] == by_id["web-1"]["affected"]
assert by_id["db-1"]["affected"] == ["CVE-2099-0002"], by_id["db-1"]
assert by_id["list-1"]["affected"] == ["CVE-2099-0002"], by_id["list-1"]
assert by_id["list-1"]["unknown"] == ["CVE-2099-0003"], by_id["list-1"]
assert by_id["plain-deb"]["release"] == "6.1.5"
assert [s["name"] for s in by_id["web-1"]["stages"]] == ["records", "version", "config"]
EOF

# a record tree works as well as a db (verdict lists need no conditions); stdin; exit codes
printf '6.1.25 %s\n6.4\n' "$T/foo.files" | "$KCVE" check --tree "$T/tree" --batch - >"$T/out2" ||
	fail "stdin batch"
[ "$(wc -l <"$T/out2")" = 2 ] || fail "stdin: $(cat "$T/out2")"
grep -q '"affected":\["CVE-2099-0002"\]' "$T/out2" || fail "stdin result: $(cat "$T/out2")"
printf '6.1.25 %s\n' "$T/foo.files" >"$T/one"
"$KCVE" check --tree "$T/tree" --batch "$T/one" --fail-if-affected >/dev/null; rc=$?
[ $rc -eq 18 ] || fail "--fail-if-affected: $rc"
printf '6.4\n' >"$T/clean"
"$KCVE" check --tree "$T/tree" --batch "$T/clean" --fail-if-affected >/dev/null || fail "clean fleet"
"$KCVE" check --tree "$T/tree" --batch "$T/one" --version 6.1.5 2>/dev/null; rc=$?
[ $rc -eq 2 ] || fail "--batch with --version: $rc"
"$KCVE" check --tree "$T/tree" --batch "$T/nonexistent" 2>"$T/err"; rc=$?
[ $rc -eq 9 ] && [ "$(wc -l <"$T/err")" = 1 ] || fail "missing list: rc=$rc $(cat "$T/err")"
# standard input has the named list's cap (64 MiB): more is one error line, nothing checked
head -c $((64 * 1024 * 1024 + 1)) /dev/zero | "$KCVE" check --tree "$T/tree" --batch - \
	>"$T/out4" 2>"$T/err"; rc=$?
[ $rc -eq 9 ] && [ "$(wc -l <"$T/err")" = 1 ] && [ ! -s "$T/out4" ] &&
	grep -q 'standard input.*at most 64 MiB' "$T/err" || fail "stdin over the cap: rc=$rc $(cat "$T/err")"
printf '6.1.5 a b c\n' >"$T/extra"
"$KCVE" check --tree "$T/tree" --batch "$T/extra" >"$T/out3" 2>/dev/null
grep -q '"error":"too many fields' "$T/out3" || fail "extra field: $(cat "$T/out3")"
echo "check-batch: ok"
