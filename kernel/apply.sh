#!/usr/bin/env bash
# Apply the documentation series in kernel/patches/ to a fresh copy of Debian's linux-source-6.1.
# Usage: kernel/apply.sh DEST [TARBALL|DIR]   (default source: /usr/src/linux-source-6.1.tar.xz)
# DEST must not exist; it receives the patched tree. Uses `git am` when DEST can be made a git
# repository (keeps authorship and messages), else `patch -p1`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dest=${1:?usage: kernel/apply.sh DEST [TARBALL|DIR]}
src=${2:-/usr/src/linux-source-6.1.tar.xz}
[ -e "$src" ] || { echo "kernel/apply.sh: error: $src not found; apt-get install linux-source-6.1" >&2; exit 3; }
[ ! -e "$dest" ] || { echo "kernel/apply.sh: error: $dest exists; give a new directory" >&2; exit 2; }
if [ -d "$src" ]; then
	cp -a "$src" "$dest"
else
	tmp=$(mktemp -d "$(dirname "$dest")/.apply.XXXXXX")
	tar -xJf "$src" -C "$tmp"
	mv "$tmp"/linux-source-6.1 "$dest"
	rmdir "$tmp"
fi
cd "$dest"
if command -v git >/dev/null; then
	git init -q && git add -A -f && git -c user.name=kcve -c user.email=kcve@example.org \
		commit -qm "linux-source-6.1 (Debian, pristine)"
	git -c user.name=kcve -c user.email=kcve@example.org am -q "$here"/patches/*.patch
else
	for p in "$here"/patches/*.patch; do patch -p1 -s -f < "$p"; done
fi
echo "patched tree: $dest"
