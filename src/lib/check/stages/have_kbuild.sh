#!/bin/sh
# Configure-time probe (called from meson.build): prints "yes" when src/lib/kbuild implements,
# in files listed in its meson.build, every kbuild function the check module calls; else "no".
# This keeps the tree linking while the kbuild module is still being written.
dir="$1"
for fn in kb_config_load kb_config_load_gz kb_config_parse kb_config_get kb_config_free \
          kb_tree_open kb_file_verdict kb_tree_close kb_tree_export_conditions kb_export_db_conditions \
          kb_build_open kb_build_verdict kb_build_close; do
	found=no
	for f in $(grep -l "^[a-z][a-z_ ]*[ *]$fn(" "$dir"/*.c 2>/dev/null); do
		if grep -q "'$(basename "$f")'" "$dir/meson.build"; then found=yes; break; fi
	done
	[ "$found" = yes ] || { echo no; exit 0; }
done
echo yes
