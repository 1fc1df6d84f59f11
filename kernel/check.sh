#!/usr/bin/env bash
# Checks of the documentation patch series in kernel/patches/ against Debian's pristine
# linux-source-6.1:
#   1. the series applies cleanly (patch -p1 --dry-run, then for real, in order);
#   2. scripts/checkpatch.pl --strict reports 0 errors, 0 warnings, 0 checks for each patch;
#   3. `make SPHINXDIRS=process htmldocs` of the patched tree adds no Sphinx warning compared
#      with the same build of the pristine tree, and renders process/cve.html;
#   4. with Chromium available, a PNG screenshot of the rendered page (path printed).
# Usage: kernel/check.sh [--src TARBALL|DIR] [--work DIR] [--keep]
# Exit 0 when every check passes; 77 when the kernel source is not installed.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=/usr/src/linux-source-6.1.tar.xz
work=""
keep=0
while [ $# -gt 0 ]; do
	case $1 in
	--src) src=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	*) echo "kernel/check.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
if [ ! -e "$src" ]; then
	echo "kernel/check.sh: $src not found; install Debian's linux-source-6.1 (skipping)" >&2
	exit 77
fi
if [ -z "$work" ]; then work=$(mktemp -d); [ $keep -eq 1 ] || trap 'rm -rf "$work"' EXIT; fi
mkdir -p "$work"
fail=0
step() { printf 'check: %s\n' "$*"; }
bad() { printf 'check: FAIL: %s\n' "$*"; fail=1; }

step "pristine tree from $src"
rm -rf "$work/pristine" "$work/patched"
if [ -d "$src" ]; then cp -al "$src" "$work/pristine" 2>/dev/null || cp -a "$src" "$work/pristine"
else mkdir -p "$work/x" && tar -xJf "$src" -C "$work/x" && mv "$work/x"/linux-source-6.1 "$work/pristine" && rmdir "$work/x"; fi
cp -al "$work/pristine" "$work/patched"

step "applying $(ls "$here"/patches/*.patch | wc -l) patches"
for p in "$here"/patches/*.patch; do
	if ! (cd "$work/patched" && patch -p1 --dry-run -s -f < "$p" >/dev/null && patch -p1 -s -f < "$p"); then
		bad "$(basename "$p") does not apply cleanly"
	fi
done

step "checkpatch --strict"
for p in "$here"/patches/*.patch; do
	out=$(cd "$work/patched" && perl scripts/checkpatch.pl --strict --no-color "$p" 2>&1)
	total=$(printf '%s\n' "$out" | grep -E '^total:')
	printf '  %s: %s\n' "$(basename "$p")" "$total"
	case $total in
	"total: 0 errors, 0 warnings, 0 checks,"*) ;;
	*) printf '%s\n' "$out"; bad "checkpatch reports problems in $(basename "$p")" ;;
	esac
done

# Sphinx warnings, normalised (tree path and line numbers removed) so both builds compare.
warnings() { # tree out log
	(cd "$1" && nice make SPHINXDIRS=process htmldocs O="$2") > "$3" 2>&1 || return 1
	grep -E 'WARNING|ERROR' "$3" | sed -e "s|$1/||g" -e 's/:[0-9]*: /: /' | sort -u
}
step "sphinx: pristine build"
warnings "$work/pristine" "$work/out-pristine" "$work/pristine.log" > "$work/pristine.warn" || bad "pristine docs build failed ($work/pristine.log)"
step "sphinx: patched build"
warnings "$work/patched" "$work/out-patched" "$work/patched.log" > "$work/patched.warn" || bad "patched docs build failed ($work/patched.log)"
# In a SPHINXDIRS=process build every MAINTAINERS "F: Documentation/process/X.rst" line yields
# "unknown document: '../process/X'" (the pristine build shows it for each such entry), because
# the MAINTAINERS page cannot link outside the subdirectory. The one the series' own
# MAINTAINERS entry adds is therefore expected, for documents the series creates only.
allow() {
	while IFS= read -r w; do
		d=$(printf '%s' "$w" | sed -n "s|^MAINTAINERS: WARNING: unknown document: '../process/\\([a-z0-9_-]*\\)'$|\\1|p")
		if [ -n "$d" ] && [ -f "$work/patched/Documentation/process/$d.rst" ] &&
			[ ! -f "$work/pristine/Documentation/process/$d.rst" ]; then continue; fi
		printf '%s\n' "$w"
	done
}
new=$(comm -13 "$work/pristine.warn" "$work/patched.warn" | allow)
printf '  warnings: pristine %s, patched %s, new %s\n' "$(wc -l < "$work/pristine.warn")" \
	"$(wc -l < "$work/patched.warn")" "$(printf '%s' "$new" | grep -c . || true)"
[ -z "$new" ] || { printf '%s\n' "$new"; bad "the series adds Sphinx warnings"; }
html=$(find "$work/out-patched" -path '*process/cve.html' | head -1)
if [ -z "$html" ]; then bad "process/cve.html was not rendered"
elif ! grep -q 'CVE identifiers for the Linux kernel' "$html"; then bad "cve.html lacks its title"
else step "rendered $html"; fi

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$html" ] && [ -n "$chromium" ]; then
	shot=${KCVE_ARTIFACTS:-$work}/cve-page.png
	mkdir -p "$(dirname "$shot")"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/chromium-profile" --window-size=1200,1600 \
		--screenshot="$shot" "file://$html" >/dev/null 2>&1
	if [ -s "$shot" ] && [ "$(stat -c %s "$shot")" -gt 10000 ]; then step "screenshot artefact: $shot"
	else bad "chromium produced no screenshot"; fi
else
	step "chromium not installed: no screenshot"
fi
[ $fail -eq 0 ] && step "all checks passed" || step "some checks FAILED"
exit $fail
