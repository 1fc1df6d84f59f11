#!/usr/bin/env bash
# Issue 29 reproductions for files outside the guarded record tree and for record text: each
# must end within 30 s and 2 GiB of memory, without a sanitizer report, with a clear message.
#  - the bounded reader: a FIFO, a link to /dev/zero and a 5 GB sparse file as the scan cache
#    (--git-cache), as .cmd files and include/config/kernel.release of a --build directory,
#    under --root as proc/sys/kernel/osrelease, proc/version, proc/modules and the boot
#    configuration (absolute and ".." links resolve inside the image), and as a file named
#    on the command line;
#  - a malformed .dyad line of 10,000 fields: "malformed line", exit 13, no leak (ASan);
. "$(dirname "$0")/setup29.sh"
P=$V/cve/published/2024

# LABEL COMMAND...: within 30 s and 2 GiB (memory_bound), no signal or sanitizer report; rc
# in RC, stderr in $T/err
memory_bound
run() {
	local label=$1 t0=$SECONDS
	shift
	set +e
	(eval "$LIMIT"; exec timeout -s KILL 30 "$@") > "$T/out" 2> "$T/err"
	RC=$?
	set -e
	[ "$RC" != 137 ] || fail "$label: hung (over 30 s)"
	[ "$RC" -lt 128 ] || fail "$label: killed by a signal (exit $RC): $(tail -5 "$T/err")"
	! grep -q "Sanitizer\|runtime error:" "$T/err" || fail "$label: sanitizer report: $(grep -m3 "Sanitizer\|runtime error\|SUMMARY" "$T/err")"
	echo "ok $label (exit $RC, $((SECONDS - t0)) s): $(head -1 "$T/err")"
}

# ---- the scan cache of check --git
for kind in fifo zero sparse; do
	hostile_file $kind "$T/scan.cache"
	run "scan cache ($kind)" "$KCVE" check --tree "$V" --git "$R" --git-cache "$T/scan.cache" --ids
	[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "scan cache ($kind): exit $RC: $(cat "$T/err")"
	grep -q "ignoring the scan cache" "$T/err" || fail "scan cache ($kind): no warning: $(cat "$T/err")"
done

# ---- a --build directory
B=$T/build
mkdir -p "$B/fs/ext4" "$B/include/config"
printf 'source_fs/ext4/inode.o := fs/ext4/inode.c\n' > "$B/fs/ext4/.inode.o.cmd"
for kind in fifo zero sparse; do
	hostile_file $kind "$B/fs/ext4/.super.o.cmd"
	hostile_file $kind "$B/include/config/kernel.release"
	run "--build ($kind .cmd and kernel.release)" "$KCVE" check --tree "$V" --build "$B" --version 6.1.1 --ids
	grep -q '^kcve: ' "$T/err" || fail "--build ($kind): no message"
done
rm -f "$B/fs/ext4/.super.o.cmd" "$B/include/config/kernel.release"
truncate -s 5G "$B/fs/ext4/.super.o.cmd"
run "--build (5 GB .cmd)" "$KCVE" check --tree "$V" --build "$B" --version 6.1.1 --ids
grep -q "skipping .*super.o.cmd.*larger than" "$T/err" || fail "5 GB .cmd: no warning: $(cat "$T/err")"

# ---- a --root image: FIFOs, links to /dev/zero, 5 GB files, absolute links (which must
# resolve inside the image, never on this machine)
I=$T/image
mkdir -p "$I/proc/sys/kernel" "$I/boot" "$I/etc"
echo "6.1.1" > "$I/etc/release-in-image"
ln -s /etc/release-in-image "$I/proc/sys/kernel/osrelease" # absolute: inside the image
echo "CONFIG_EXT4_FS=y" > "$I/etc/config-in-image"
ln -s /etc/config-in-image "$I/boot/config-6.1.1"
run "--root with absolute links" "$KCVE" check --tree "$V" --running --root "$I" -v --ids
[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "--root with absolute links: exit $RC: $(cat "$T/err")"
grep -q "6.1.1" "$T/err" "$T/out" || fail "--root: the image's release not read: $(cat "$T/err")"
for kind in fifo zero sparse; do
	hostile_file $kind "$I/proc/modules"
	hostile_file $kind "$I/proc/version"
	run "--root ($kind /proc/modules, /proc/version)" "$KCVE" check --tree "$V" --running --root "$I" --ids
	[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "--root ($kind): exit $RC: $(cat "$T/err")"
	hostile_file $kind "$I/proc/sys/kernel/osrelease"
	run "--root ($kind osrelease)" "$KCVE" check --tree "$V" --running --root "$I" --ids
	[ "$RC" != 0 ] && grep -q "osrelease" "$T/err" || fail "--root ($kind osrelease): exit $RC: $(cat "$T/err")"
	ln -sf /etc/release-in-image "$I/proc/sys/kernel/osrelease"
	hostile_file $kind "$I/etc/config-in-image"
	run "--root ($kind config)" "$KCVE" check --tree "$V" --running --root "$I" --ids
	[ "$RC" = 0 ] || [ "$RC" = 1 ] || fail "--root ($kind config): exit $RC: $(cat "$T/err")"
	grep -q "configuration stage" "$T/err" || fail "--root ($kind config): no warning: $(cat "$T/err")"
	rm -f "$I/etc/config-in-image"
	echo "CONFIG_EXT4_FS=y" > "$I/etc/config-in-image"
done
rm -f "$I/proc/modules" "$I/proc/version"
# a link that climbs out with ..: still inside the image
ln -sf ../../../../../../etc/release-in-image "$I/proc/sys/kernel/osrelease"
run "--root with a .. link" "$KCVE" check --tree "$V" --running --root "$I" -v --ids
grep -q "6.1.1" "$T/err" "$T/out" || fail "--root .. link: $(cat "$T/err")"

# ---- a file named on the command line (review reads a list of ids)
for kind in fifo zero sparse; do
	hostile_file $kind "$T/input"
	run "command-line file ($kind)" "$KCVE" --repo "$R" --tree "$V" review --classify "$T/input"
	[ "$RC" != 0 ] && grep -q "regular file\|larger than" "$T/err" || fail "command-line file ($kind): exit $RC: $(cat "$T/err")"
done

# ---- a .dyad line of 10,000 fields: exit 13, and no leak (ASan's leak check would exit 1)
cp "$P/CVE-2024-10000.dyad" "$T/dyad.saved"
python3 -c 'print(":".join(["x"] * 10000))' >> "$P/CVE-2024-10000.dyad"
run "malformed .dyad" "$KCVE" check --tree "$V" --version 6.1.1 --ids
[ "$RC" = 13 ] && grep -q "malformed line" "$T/err" || fail "malformed .dyad: exit $RC: $(cat "$T/err")"
cp "$T/dyad.saved" "$P/CVE-2024-10000.dyad"
echo "all hostile inputs handled"
