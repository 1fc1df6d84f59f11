#!/usr/bin/env bash
# Copy a kcve source tree as a fresh clone would have it: tracked and new (not ignored) files,
# none of the build directories.  Without git metadata, everything but build*/.
#   tests/lib/copy-source.sh SRC DEST
set -euo pipefail
src=$1 dest=$2
mkdir -p "$dest"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	# files deleted in the work tree but still in the index are skipped (cp fails on them)
	git -C "$src" ls-files -z --cached --others --exclude-standard |
		(cd "$src" && xargs -0 cp --parents -t "$dest" 2>/dev/null) || true
else
	tar -C "$src" --exclude='./build*' -cf - . | tar -C "$dest" -xf -
fi
[ -f "$dest/meson.build" ] || { echo "copy-source: $dest has no meson.build after copying $src" >&2; exit 1; }
