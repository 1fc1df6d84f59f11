#!/usr/bin/env bash
# `kcve check --system-map` / `--build` end to end: fingerprints from a generated history
# (`db build --repo`: each hunk's functions from the files before and after the fix), then the
# function-level stage against an image whose symbols are chosen here:
# - a fix of a header's real (non-static) function, that function missing from the image:
#   not compiled, stage "functions", the evidence in the reason;
# - the same function present in the map: kept (affected);
# - a fix of a static inline function: kept, whatever the map says;
# - a System.map without its modules directory (modules not covered): kept.
set -euo pipefail
source "$KCVE_SRC/tests/lib/scratch-git-repo.sh"
K=$KCVE
at() { GIT_AUTHOR_DATE="@$1 +0000" GIT_COMMITTER_DATE="@$1 +0000" git commit -q -am "$2"; git rev-parse HEAD; }
widget() { # include/linux/widget_impl.h: $1 = the value added
	printf '/* included by one driver only */\nint widget_frob(int x)\n{\n\treturn x + %s;\n}\n' "$1"
}
gadget() {
	printf 'static inline int gadget_check(int x)\n{\n\treturn x > %s;\n}\n' "$1"
}
mkdir -p include/linux
widget 1 > include/linux/widget_impl.h
gadget 1 > include/linux/gadget.h
git add -A
at 1700000001 "base" >/dev/null
git tag v6.0
BASE=$(git rev-parse HEAD)
widget 2 > include/linux/widget_impl.h
FIX1=$(at 1700000002 "widget: fix the offset")
gadget 2 > include/linux/gadget.h
FIX2=$(at 1700000003 "gadget: fix the bound")
git tag v6.1
# the stable backports (a stable kernel is read with its own branch's version of the fix)
git checkout -q -b linux-6.0.y v6.0
widget 2 > include/linux/widget_impl.h
BP1=$(at 1700000004 "widget: fix the offset

commit $FIX1 upstream.")
gadget 2 > include/linux/gadget.h
BP2=$(at 1700000005 "gadget: fix the bound

commit $FIX2 upstream.")
git tag v6.0.5
git checkout -q master

python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" /dev/stdin <<EOJ || fail mktree
[{"id": "CVE-2099-0001", "files": ["include/linux/widget_impl.h"], "fixes": ["$FIX1"],
  "pairs": ["6.0:$BASE:6.0.5:$BP1", "6.0:$BASE:6.1:$FIX1"]},
 {"id": "CVE-2099-0002", "files": ["include/linux/gadget.h"], "fixes": ["$FIX2"],
  "pairs": ["6.0:$BASE:6.0.5:$BP2", "6.0:$BASE:6.1:$FIX2"]}]
EOJ
"$K" db build --tree "$T/tree" --repo "$R" -o "$T/kcve.db" >/dev/null 2>"$T/build.err" ||
	{ cat "$T/build.err"; fail "db build --repo"; }

image() { # dir symbols...: DIR/boot/System.map-6.0.2 and an empty DIR/lib/modules/6.0.2
	mkdir -p "$1/boot" "$1/lib/modules/6.0.2"
	: >"$1/lib/modules/6.0.2/modules.order"
	{ echo "ffffffff81000000 T _text"; for s in "${@:2}"; do echo "ffffffff81000100 T $s"; done; } \
		>"$1/boot/System.map-6.0.2"
}
outcome() { # map -> "outcome stage" of each CVE
	"$K" check --db "$T/kcve.db" --version 6.0.2 --system-map "$1" --json --all >"$T/out.json" \
		2>"$T/err" || true
	python3 -c '
import json, sys
for c in json.load(open(sys.argv[1]))["results"][0]["cves"]:
    print(c["id"], c["outcome"], c["stage"], c.get("reason", ""))' "$T/out.json"
}
image "$T/img1"
got=$(outcome "$T/img1/boot/System.map-6.0.2")
grep -q "^CVE-2099-0001 not_compiled functions .*widget_frob (include/linux/widget_impl.h) not in System.map" <<<"$got" ||
	fail "absent widget_frob: $got $(cat "$T/err")"
grep -q "^CVE-2099-0002 affected version" <<<"$got" || fail "static inline gadget_check: $got"
image "$T/img2" widget_frob
got=$(outcome "$T/img2/boot/System.map-6.0.2")
grep -q "^CVE-2099-0001 affected version" <<<"$got" || fail "present widget_frob: $got"
rm -r "$T/img1/lib"
got=$(outcome "$T/img1/boot/System.map-6.0.2")
grep -q "^CVE-2099-0001 affected version" <<<"$got" || fail "modules not covered: $got"
printf 'ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n' >"$T/placeholder"
"$K" check --db "$T/kcve.db" --version 6.0.2 --system-map "$T/placeholder" >/dev/null 2>"$T/err" &&
	fail "a placeholder System.map was accepted"
grep -q -- "-dbg" "$T/err" || fail "placeholder message: $(cat "$T/err")"
echo "ok: check --system-map decides a header-only fix whose function is not in the image"
