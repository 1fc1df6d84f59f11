#!/usr/bin/env bash
# Heavy, not in the meson suite: the README's first command as a new user runs it.  Makes a
# fresh Debian 12 root with `debootstrap --variant=minbase bookworm` plus only git and
# ca-certificates, copies this source tree into it (no ../shared beside it), runs scripts/run
# there and reports the wall time (record it in BENCHMARKS.md).
#
#   sudo tests/heavy/fresh-debian-run.sh [--mirror URL] [--keep]
#
# Needs root, network access to a Debian mirror (default http://deb.debian.org/debian) and about
# 1 GB in $TMPDIR; installs debootstrap on the host when it is missing.  Takes several minutes,
# most of it apt downloading and unpacking.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
mirror=http://deb.debian.org/debian
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	--mirror) mirror=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	-h|--help) sed -n '2,12p' "$0"; exit 0 ;;
	*) echo "fresh-debian-run: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "fresh-debian-run: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
root=$(mktemp -d "${TMPDIR:-/tmp}/kcve-bookworm.XXXXXX")
cleanup() {
	for m in dev/pts dev proc sys; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
	if [ "$keep" = 1 ]; then echo "chroot kept in $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

t0=$SECONDS
debootstrap --variant=minbase --include=git,ca-certificates bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
	{ tail -n 20 "$root.debootstrap.log" >&2; exit 1; }
t_boot=$((SECONDS - t0))
rm -f "$root.debootstrap.log"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"; mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"; mount --bind /dev/pts "$root/dev/pts"

# the source as a clone would have it: tracked and new files, no build directories
"$src/tests/lib/copy-source.sh" "$src" "$root/home/user/kcve"

t1=$SECONDS
set +e
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
	bash -c 'cd /home/user/kcve && scripts/run' 2>&1 | tee "${TMPDIR:-/tmp}/kcve-fresh-run.log"
rc=${PIPESTATUS[0]}
set -e
t_run=$((SECONDS - t1))
echo "fresh-debian-run: debootstrap minbase bookworm (+git, ca-certificates) $t_boot s;" \
	"scripts/run in it $t_run s (exit $rc); load average $(cut -d' ' -f1-3 /proc/loadavg);" \
	"commit $(git -C "$src" rev-parse --short HEAD)"
exit "$rc"
