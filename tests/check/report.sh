#!/bin/bash
# kcve report --html: a self-contained page (no scripts, no external assets, inline SVG), then
# rendered by headless Chromium; the screenshot must exist and not be blank.
# Exits 77 (skipped) only for the rendering part when Chromium is missing or cannot start.
set -u
: "${KCVE:?}" "${KCVE_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
A=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
B=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
/usr/bin/python3 - "$T/spec.json" <<EOF
import json, sys
spec = []
for i in range(60):
    day = 1 + (i * 3) % 28
    month = 1 + i // 10
    spec.append({"id": f"CVE-2024-{1000 + i}", "title": f"sub{i % 7}: fix <bug> & {i}",
                 "files": [f"fs/sub{i % 7}/file{i}.c"],
                 "pairs": [f"5.{4 + i % 10}:$A:6.1.{10 + i}:$B", f"5.{4 + i % 10}:$A:6.{2 + i % 9}:$B"],
                 "severity": ["HIGH", "MEDIUM", "LOW"][i % 3], "score": 5.5,
                 "date": f"2024-{month:02d}-{day:02d}T10:00:00.000Z"})
json.dump(spec, open(sys.argv[1], "w"))
EOF
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
"$KCVE" check --tree "$T/tree" --version 6.1.20 --json > "$T/check.json" || fail "check --json"
"$KCVE" report --tree "$T/tree" --check-json "$T/check.json" --html "$T/report.html" || fail "report"

/usr/bin/python3 - "$T/report.html" <<'EOF' || fail "report content"
import re, sys
h = open(sys.argv[1]).read()
assert h.startswith("<!DOCTYPE html>")
assert h.count("<svg") == 5, h.count("<svg")           # week, subsystem, branch, ttf, check
assert "<script" not in h and "<link" not in h and "<img" not in h
assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', h), "external asset"
assert "&lt;bug&gt; &amp;" in h                          # titles are escaped
assert "60 published records" in h
assert "60 records &#8594;" in h                         # stage counts from the check JSON
weeks = re.findall(r"<title>(\d{4}-\d\d-\d\d): (\d+)</title>", h)
assert len(weeks) > 20 and sum(int(n) for _, n in weeks) == 60, weeks[:3]
EOF
echo '{"not": "a check"}' > "$T/bad.json"
"$KCVE" report --tree "$T/tree" --check-json "$T/bad.json" --html "$T/bad.html" 2>"$T/err"; rc=$?
[ $rc -eq 13 ] && [ ! -e "$T/bad.html" ] || fail "bad check json: rc=$rc $(cat "$T/err")"

# ---- rendering
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || { echo "skip: chromium not installed"; exit 77; }
timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--no-first-run --disable-dev-shm-usage --user-data-dir="$T/profile" --window-size=1000,1600 \
	--screenshot="$T/shot.png" "file://$T/report.html" >"$T/chrome.log" 2>&1
if [ ! -s "$T/shot.png" ]; then
	echo "skip: chromium could not start or render: $(tail -2 "$T/chrome.log")"
	exit 77
fi
/usr/bin/python3 - "$T/shot.png" <<'EOF' || fail "screenshot"
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", d[16:24])
assert w >= 800 and h >= 600, (w, h)
idat, p = b"", 8
while p < len(d):
    n, = struct.unpack(">I", d[p:p + 4]); t = d[p + 4:p + 8]
    if t == b"IDAT":
        idat += d[p + 8:p + 8 + n]
    p += 12 + n
raw = zlib.decompress(idat)
# a blank page holds two or three byte values (filter bytes, white); text and colour bars many
values = len(set(raw))
assert values > 32, f"blank-looking screenshot ({values} distinct byte values)"
print(f"screenshot {w}x{h}, {len(d)} bytes")
EOF
echo "report: ok"
