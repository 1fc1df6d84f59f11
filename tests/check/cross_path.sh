#!/usr/bin/env bash
# One answer whatever the path (issue 33): writes the three fixtures of cross_path.py (records
# on a tiny kernel source with two configurations and a db built with --source; a db of fix
# fingerprints with its source tree and an image's System.map; a system image for --running
# --root) and runs it with the public interface's tool.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
API="$KCVE_BUILD/tests/check/api_tool"
[ -x "$API" ] || fail "no $API (built with the tests)"
TOP=$T

# s1: fs/ext4/inode.c compiled (ksrc.config), drivers/x.c compiled only in foo.config
mkdir -p "$TOP/s1"
$PY - "$TOP/s1" "$KCVE_SRC/tests/check" <<'PYEOF' || fail "s1 fixture"
import json, os, sys
d, here = sys.argv[1:3]
sys.path.insert(0, here)
import mktree
mktree.kernel_source(os.path.join(d, "ksrc"))
with open(os.path.join(d, "foo.config"), "w") as f:
    f.write("CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_MODULES=y\nCONFIG_FOO=m\n# CONFIG_EXT4_FS is not set\n")
a, b, c = "a" * 40, "b" * 40, "c" * 40
spec = [{"id": "CVE-2099-0001", "title": "ext4: fix", "files": ["fs/ext4/inode.c"],
         "severity": "HIGH", "score": 7.8, "pairs": ["5.10:%s:6.1.20:%s" % (a, b), "5.10:%s:6.2:%s" % (a, c)]},
        {"id": "CVE-2099-0002", "title": "x: fix", "files": ["drivers/x.c"],
         "pairs": ["0:0:6.1.30:%s" % b, "0:0:6.3:%s" % c]},
        {"id": "CVE-2099-0003", "title": "misc: no files", "files": [],
         "pairs": ["6.1.3:%s:6.1.8:%s" % (a, b)]},
        {"id": "CVE-2099-0004", "title": "ext4: by the JSON", "files": ["fs/ext4/inode.c"],
         "default": "affected", "versions": [
             {"version": "6.1.10", "lessThanOrEqual": "6.1.*", "status": "unaffected",
              "versionType": "semver"}]}]
json.dump(spec, open(os.path.join(d, "spec.json"), "w"))
PYEOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$TOP/s1/tree" "$TOP/s1/spec.json" || fail mktree
"$KCVE" db build --tree "$TOP/s1/tree" --source "$TOP/s1/ksrc" -o "$TOP/s1/k.kdb" >/dev/null 2>&1 ||
	fail "s1 db build"

# s2: the fingerprint fixture of funclevel_patches.sh and batch_code.sh
mkdir -p "$TOP/s2"
(T=$TOP/s2; . "$(dirname "${BASH_SOURCE[0]}")/patches_fixture.sh") || fail "s2 fixture"

# s3: the --running --root fixture of modprobe.sh, and a db built with its source
mkdir -p "$TOP/s3"
(T=$TOP/s3; . "$(dirname "${BASH_SOURCE[0]}")/running_fixture.sh") || fail "s3 fixture"
"$KCVE" db build --tree "$TOP/s3/tree" --source "$TOP/s3/ksrc" -o "$TOP/s3/k.kdb" >/dev/null 2>&1 ||
	fail "s3 db build"

# s3 again with every stage at once: a fingerprint of one fix (read in ksrc), a build
# directory compiling three of the files, a System.map (a full stage array once dropped the
# seventh count, modprobe's)
mkdir -p "$TOP/s3/patches" "$TOP/s3/bld/net/netfilter"
printf -- '--- a/net/netfilter/nft_ct.c\n+++ b/net/netfilter/nft_ct.c\n@@ -0,0 +1,3 @@\n+int nft_ct_fix(void)\n+{\n+\treturn 1;\n' \
	>"$TOP/s3/patches/CVE-2099-0003.patch"
for f in nft_ct nf_tables_api nfnetlink; do
	printf 'source_net/netfilter/%s.o := net/netfilter/%s.c\ndeps_net/netfilter/%s.o := \\\n  include/linux/kconfig.h \\\n\n' \
		$f $f $f >"$TOP/s3/bld/net/netfilter/.$f.o.cmd"
done
printf 'ffffffff81000000 T _text\nffffffff81000100 T foo_probe\n' >"$TOP/s3/System.map"
"$KCVE" db build --tree "$TOP/s3/tree" --patches "$TOP/s3/patches" -o "$TOP/s3/f.db" >/dev/null 2>&1 ||
	fail "s3 db build --patches"

$PY "$KCVE_SRC/tests/check/cross_path.py" "$KCVE" "$API" "$TOP"
