#!/usr/bin/env bash
# Issue 29 item 13: file modes. Under umask 077, new records take the mode the record tree
# asks for (its top directory's bits without execute: 0755 -> 0644, group-shared 2775 ->
# 0664) and new directories their parent's mode; caches (.kcve/check-cache) honour the
# umask; no empty .kcve/txn.N/ is left after a writer.
. "$(dirname "$0")/setup29.sh"
mode() { stat -c %a "$1"; }
for top in 755 2775; do
	fix=$([ "$top" = 755 ] && echo "$FIX_B" || echo "$FIX_C")
	chmod "$top" "$V" "$V/cve" "$V/cve/published"
	rm -rf "$V/cve/published/2024" "$V/.kcve/check-cache"
	K reserve add "CVE-2024-1$top" > /dev/null 2>&1 || true
	(umask 077 && K create "$fix" "CVE-2024-1$top" > /dev/null) || fail "create under umask 077"
	want_file=$([ "$top" = 755 ] && echo 644 || echo 664)
	for f in "$V/cve/published/2024/CVE-2024-1$top".*; do
		[ "$(mode "$f")" = "$want_file" ] || fail "tree $top: $f is $(mode "$f"), want $want_file"
	done
	[ "$(mode "$V/cve/published/2024")" = "$top" ] || fail "tree $top: new year directory is $(mode "$V/cve/published/2024")"
	! ls -d "$V"/.kcve/txn.* > /dev/null 2>&1 || fail "tree $top: staging directory left: $(ls -d "$V"/.kcve/txn.*)"
	(umask 077 && "$KCVE" check --tree "$V" --version 6.1 > /dev/null 2>&1) || true
	if [ -e "$V/.kcve/check-cache" ]; then
		[ "$(mode "$V/.kcve/check-cache")" = 600 ] || fail "check-cache is $(mode "$V/.kcve/check-cache") under umask 077"
	fi
	echo "ok tree $top"
done
echo "file modes as documented"
