#!/usr/bin/env bash
# The real record tree ../shared/data/vulns-upto-2024.tar.xz:
#  - every .cvss parses, validates and re-renders byte-identically (kcve cvss --check --canonical);
#  - every .json (published and rejected) is read back by kcve's record reader;
#  - every published record's .json and .mbox are re-rendered byte-identically from its .dyad
#    (plus .reference/.cvss, and the text the commits would give) - see corpus.c.
# Expected counts are computed here with find, never hard-coded.
set -euo pipefail
: "${KCVE:?KCVE must point at the kcve binary}"
: "${KCVE_BUILD:?KCVE_BUILD must point at the build directory}"
TARBALL=${KCVE_SHARED:-/nonexistent}/data/vulns-upto-2024.tar.xz
[ -f "$TARBALL" ] || { echo "no $TARBALL: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
CACHE=$KCVE_BUILD/record-test-cache
if [ ! -f "$CACHE/done" ]; then
	rm -rf "$CACHE" && mkdir -p "$CACHE"
	tar -xJf "$TARBALL" -C "$CACHE"
	touch "$CACHE/done"
fi
V=$CACHE/vulns
unset KCVE_TREE KCVE_REPO

ncvss=$(find "$V/cve" -name '*.cvss' | wc -l)
[ "$ncvss" -gt 0 ] || fail "no .cvss files in the tree"
"$KCVE" -v cvss --check --canonical "$V/cve" > "$V.check.out" 2> "$V.check.err" || {
	cat "$V.check.out" "$V.check.err"; fail "kcve cvss --check --canonical"; }
grep -q "^checked $ncvss files, .* 0 bad$" "$V.check.err" || fail "check summary: $(cat "$V.check.err")"
echo ".cvss files parsed, validated and re-rendered byte-identically: $ncvss"

# published CVEs with everything the re-render needs
ncomplete=0
for sha in "$V"/cve/published/*/*.sha1; do
	b=${sha%.sha1}
	[ -f "$b.dyad" ] && [ -f "$b.json" ] && [ -f "$b.mbox" ] && ncomplete=$((ncomplete + 1))
done
"$KCVE_BUILD/tests/record/record_corpus" "$V" "$ncomplete"
