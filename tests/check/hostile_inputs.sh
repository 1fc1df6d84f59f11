#!/bin/bash
# kcve check on hostile or broken system inputs (issue 14, items 11 and 12):
#  - a truncated .config.gz (cut at a line boundary, so every line it still holds is valid) or a
#    corrupt one is a clear failure (exit 13, one line), never verdicts from a partial config,
#    with --config, with --running's proc/config.gz and with a --db carrying kbuild conditions;
#  - `check --running --root IMG` reads nothing of this machine: a missing IMG or
#    IMG/proc/sys/kernel/osrelease is a clear error (exit 7, one line) instead of this machine's
#    `uname -r`; the answer comes from IMG only (checked with strace when it is installed).
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"

A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
cat > "$T/spec.json" <<EOF
[{"id": "CVE-2099-0101", "title": "ext4: fix inode bug", "files": ["fs/ext4/inode.c"],
  "pairs": ["5.10:$A:6.1.20:$B"]},
 {"id": "CVE-2099-0102", "title": "zzz: fix the last driver", "files": ["drivers/zzz.c"],
  "pairs": ["5.10:$A:6.1.20:$B"]}]
EOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree

# a tiny kernel source; CONFIG_ZZZ (the last line of the config) gates drivers/zzz.c
K="$T/ksrc"
mkdir -p "$K/arch/x86" "$K/fs/ext4" "$K/drivers"
echo "# top" > "$K/Makefile"
printf 'obj-y += fs/\nobj-y += drivers/\nobj-y += arch/$(SRCARCH)/\n' > "$K/Kbuild"
: > "$K/arch/x86/Makefile"; : > "$K/arch/x86/Kbuild"
printf 'obj-$(CONFIG_EXT4_FS) += ext4/\n' > "$K/fs/Makefile"
printf 'obj-$(CONFIG_EXT4_FS) += ext4.o\next4-y := inode.o\n' > "$K/fs/ext4/Makefile"
printf 'obj-$(CONFIG_ZZZ) += zzz.o\n' > "$K/drivers/Makefile"
: > "$K/fs/ext4/inode.c"; : > "$K/drivers/zzz.c"
{
	printf 'CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_EXT4_FS=y\n'
	for i in $(seq 1 400); do printf 'CONFIG_FILLER_%d=y\n' "$i"; done
	printf 'CONFIG_ZZZ=y\n'
} > "$T/config"
# the whole stream, one cut right after a line (a full flush there: the part before the cut
# decompresses to complete lines), and one with a flipped byte
$PY - "$T/config" "$T" <<'EOF' || fail "making gzip inputs"
import sys, zlib
text = open(sys.argv[1], 'rb').read()
cut = text.index(b'CONFIG_FILLER_200=y\n') + len(b'CONFIG_FILLER_200=y\n')
c = zlib.compressobj(9, zlib.DEFLATED, 31)
whole = c.compress(text[:cut]) + c.flush(zlib.Z_FULL_FLUSH)
part = len(whole)
whole += c.compress(text[cut:]) + c.flush()
open(sys.argv[2] + '/whole.gz', 'wb').write(whole)
open(sys.argv[2] + '/trunc.gz', 'wb').write(whole[:part])
assert zlib.decompressobj(31).decompress(whole[:part]) == text[:cut]   # complete lines only
flip = bytearray(whole)
flip[len(flip) // 2] ^= 0x55
open(sys.argv[2] + '/flip.gz', 'wb').write(bytes(flip))
EOF

ids() { "$KCVE" check --tree "$T/tree" --version 6.1.5 --source "$K" "$@" --ids | sed 's/^[^:]*: *//'; }
want="CVE-2099-0101 CVE-2099-0102"
[ "$(ids --config "$T/config")" = "$want" ] || fail "plain config: $(ids --config "$T/config")"
[ "$(ids --config "$T/whole.gz")" = "$want" ] || fail "gzip config: $(ids --config "$T/whole.gz")"

# error helper: exit code, one line on stderr naming the input, nothing on stdout
expect_error() { # expect_error CODE WORD LABEL -- kcve args...
	local code=$1 word=$2 label=$3 rc
	shift 4
	"$KCVE" "$@" > "$T/out" 2> "$T/err"; rc=$?
	[ $rc -eq "$code" ] || fail "$label: exit $rc (want $code): $(cat "$T/err")"
	# (--running first reports what it found on a line of its own)
	[ "$(grep -vc '^kcve: running kernel' "$T/err")" -eq 1 ] || fail "$label: want one error line, got: $(cat "$T/err")"
	grep -q -- "$word" "$T/err" || fail "$label: error does not name '$word': $(cat "$T/err")"
	[ ! -s "$T/out" ] || fail "$label: verdicts printed despite the error: $(head -3 "$T/out")"
}

# ---- item 11: truncated / corrupt config.gz
expect_error 13 truncated "truncated --config .gz" -- check --tree "$T/tree" --version 6.1.5 --source "$K" \
	--config "$T/trunc.gz" --ids
expect_error 13 "$T/flip.gz" "corrupt --config .gz" -- check --tree "$T/tree" --version 6.1.5 --source "$K" \
	--config "$T/flip.gz" --ids
"$KCVE" db build --tree "$T/tree" --source "$K" -o "$T/cond.db" 2>"$T/err" || fail "db build: $(cat "$T/err")"
expect_error 13 truncated "truncated .gz with --db" -- check --db "$T/cond.db" --version 6.1.5 \
	--config "$T/trunc.gz" --ids
R="$T/img"
mkdir -p "$R/proc/sys/kernel"
echo "6.1.5" > "$R/proc/sys/kernel/osrelease"
cp "$T/trunc.gz" "$R/proc/config.gz"
expect_error 13 truncated "truncated proc/config.gz" -- check --tree "$T/tree" --running --root "$R" \
	--source "$K" --ids
cp "$T/whole.gz" "$R/proc/config.gz"
got=$("$KCVE" check --tree "$T/tree" --running --root "$R" --source "$K" --ids 2>"$T/err") \
	|| fail "running with a whole config.gz: $(cat "$T/err")"
[ "$(echo "$got" | sed 's/^[^:]*: *//')" = "$want" ] || fail "running with a whole config.gz: $got"

# ---- item 12: --root never falls back to this machine
expect_error 7 "$T/none" "missing --root" -- check --tree "$T/tree" --running --root "$T/none" --ids
: > "$T/file"
expect_error 7 "not a directory" "--root is a file" -- check --tree "$T/tree" --running --root "$T/file" --ids
E="$T/empty"
mkdir -p "$E/proc"
expect_error 7 osrelease "--root without osrelease" -- check --tree "$T/tree" --running --root "$E" --ids
KCVE_ROOT="$E" "$KCVE" check --tree "$T/tree" --running --ids > "$T/out" 2> "$T/err"; rc=$?
[ $rc -eq 7 ] && grep -q osrelease "$T/err" || fail "KCVE_ROOT without osrelease: rc=$rc $(cat "$T/err")"
mkdir -p "$E/proc/sys/kernel"
: > "$E/proc/sys/kernel/osrelease"
expect_error 7 osrelease "--root with an empty osrelease" -- check --tree "$T/tree" --running --root "$E" --ids
# the image's release, never the host's: an image that claims 5.4.1 gets 5.4.1's answer
echo "5.4.1" > "$E/proc/sys/kernel/osrelease"
"$KCVE" check --tree "$T/tree" --running --root "$E" --json > "$T/r.json" 2> "$T/err" \
	|| fail "--root with osrelease only: $(cat "$T/err")"
$PY - "$T/r.json" <<'EOF' || fail "--root release"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["release"] == "5.4.1", r["release"]
EOF
# what the process opens under --root: only the image, the record tree and its own files
if command -v strace > /dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
	# (LeakSanitizer cannot run under ptrace: leak checking is off for this one run)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=open,openat,openat2,stat,newfstatat,statx,access,readlink,uname \
		-o "$T/trace" "$KCVE" check --tree "$T/tree" --running --root "$E" --ids > /dev/null 2>&1 \
		|| fail "--root under strace"
	! grep -E '"/(proc|sys|boot)/' "$T/trace" | grep -v '"/proc/self/' > "$T/host" \
		|| fail "--root read files of this machine: $(head -5 "$T/host")"
	! grep -q 'uname(' "$T/trace" || fail "--root called uname()"
else
	echo "note: strace unavailable, the file-access trace of --root is not checked"
fi
echo "ok: truncated/corrupt config.gz refused; --root reads only the image"
