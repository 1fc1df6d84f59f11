#!/usr/bin/env bash
# Function level with a `db build --patches` database (its fingerprints carry no function
# lists): `check --source TREE --system-map MAP` reads each fix's functions in TREE, where the
# code stage found each hunk, or by the function a hunk header names when the tree defines it.
# - a fix of a header's real function, found vulnerable, the function missing from the map:
#   not compiled, stage "functions", the evidence says the functions were read in the tree;
# - a static inline function: kept; a function the map has: kept;
# - a hunk the code stage cannot find (its function rewritten in the tree): the header's
#   function, defined in the tree and missing from the map: not compiled, "by the function its
#   header names"; the same with data after that function in the tree: kept (the hunk may
#   change the data);
# - a fix that only adds a function between two others: kept (the place is between two
#   functions);
# - a file moved since the fix: its functions read where the code stage found it;
# - without --source: nothing to read the functions in, every CVE kept.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"

. "$(dirname "${BASH_SOURCE[0]}")/patches_fixture.sh"

outcome() { # check options... -> "CVE outcome stage reason" lines
	"$KCVE" check --db "$T/kcve.db" --system-map "$T/img/boot/System.map-6.0.2" --json --all \
		"$@" >"$T/out.json" 2>"$T/err" || true
	$PY -c '
import json, sys
for c in json.load(open(sys.argv[1]))["results"][0]["cves"]:
    print(c["id"], c["outcome"], c["stage"], (c.get("code") or {}).get("verdict"), c.get("reason", ""))' "$T/out.json" ||
		fail "check $*: $(cat "$T/err")"
}
got=$(outcome --source "$T/tree")
expect() { grep -q "^$1" <<<"$got" || fail "expected '$1' in: $got"; }
expect "CVE-2099-0001 not_compiled functions vulnerable .*widget_frob (include/linux/widget_impl.h) not in System.map .*(functions read in the source tree: 1 hunk at the place the code stage found, 0 by the function its header names)"
expect "CVE-2099-0002 affected code vulnerable"
expect "CVE-2099-0003 affected code vulnerable"
expect "CVE-2099-0004 not_compiled functions undecided .*baz_reset (drivers/baz/baz.c) not in .*0 hunks at the place the code stage found, 1 by the function its header names"
expect "CVE-2099-0005 affected version undecided"
expect "CVE-2099-0006 affected code vulnerable"
# a file moved since the fix: read where the code stage found it
cp -r "$T/tree" "$T/moved"
mkdir -p "$T/moved/include/linux/impl"
mv "$T/moved/include/linux/widget_impl.h" "$T/moved/include/linux/impl/"
got=$(outcome --source "$T/moved")
expect "CVE-2099-0001 not_compiled functions vulnerable .*widget_frob (include/linux/impl/widget_impl.h) not in System.map .*1 hunk at the place the code stage found"
# the fixed tree: the code decides, the function level has nothing left to decide
got=$(outcome --source "$T/new")
expect "CVE-2099-0001 fixed code fixed"
# no tree to read the functions in
got=$(outcome --version 6.0.2)
for i in 1 2 3 4 5 6; do expect "CVE-2099-000$i affected version"; done
echo "ok: function level with --patches fingerprints reads the functions in the --source tree"
