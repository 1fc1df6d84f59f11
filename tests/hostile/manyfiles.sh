#!/bin/bash
# Issue 29 item 7: a record naming very many programFiles loads in linear time.
# Each file name is read once and de-duplicated through a hash set (core/strmap.h); the old
# loader scanned the list on every insert (120,000 files: 47 s in a release build, far more
# under ASan). The record below names N distinct files twice each (2N entries): the count the
# check reports must be N (duplicates dropped, none lost), and the whole run must finish well
# inside the timeout even under ASan; the quadratic loader needs N*N/2 = 7.2e9 string
# comparisons for it, minutes in any build.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
N=120000
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
$PY - "$T/spec.json" "$N" "$A" "$B" <<'PYEOF' || fail "writing the spec"
import json, sys
out, n, a, b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
files = ["drivers/many/f%06d.c" % i for i in range(n)]
spec = [{"id": "CVE-2099-0701", "title": "many: fix", "files": files + files[::-1],
         "pairs": ["5.10:%s:6.1.20:%s" % (a, b)]}]
json.dump(spec, open(out, "w"))
PYEOF
$PY "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
CONFIG=$($PY -c 'import sys; sys.path.insert(0, sys.argv[1]); import mktree; print(mktree.kernel_source(sys.argv[2]))' \
	"$KCVE_SRC/tests/check" "$T/ksrc") || fail "kernel source"
rc=0
timeout 120 "$KCVE" check --tree "$T/tree" --version 6.1.5 --source "$T/ksrc" --config "$CONFIG" \
	--json > "$T/out" 2> "$T/err" || rc=$?
[ "$rc" = 124 ] && fail "check did not finish within 120 s: quadratic loading again?"
grep -q "none of the $N program file(s) is compiled" "$T/out" ||
	fail "expected the $N distinct files counted once each (rc $rc): $(head -c 400 "$T/out") $(head -c 400 "$T/err")"
echo "ok: $N programFiles (each listed twice) loaded once each"
# db build reads the same records (and writes every file once): also linear
rc=0
timeout 120 "$KCVE" db build --tree "$T/tree" -o "$T/many.db" > /dev/null 2> "$T/err" || rc=$?
[ "$rc" = 124 ] && fail "db build did not finish within 120 s: quadratic loading again?"
[ "$rc" = 0 ] || fail "db build failed (rc $rc): $(head -c 400 "$T/err")"
timeout 120 "$KCVE" check --db "$T/many.db" --version 6.1.5 --ids > /dev/null 2> "$T/err" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 18 ] || fail "check --db on the db failed (rc $rc): $(head -c 400 "$T/err")"
echo "ok: db build and check --db of the same record"
