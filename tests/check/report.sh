#!/bin/bash
# kcve report --html: a self-contained page (inline SVG, one inline script for the table, no
# external assets, light and dark themes); publication dates from the tree's git history when
# it is a checkout, else datePublished, never a file time; then rendered by headless Chromium
# at 1400 and 800 px (and 800 px in the dark theme): the screenshots must not be blank and are kept as test artifacts in
# $KCVE_BUILD/test-artifacts/. Exits 77 (skipped) only for the rendering part when Chromium is
# missing or cannot start.
. "$(dirname "${BASH_SOURCE[0]}")/../lib/check-env.sh"
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
                 "severity": ["HIGH", "MEDIUM", "LOW"][i % 3], "score": 5.5, "fixes": ["$B"],
                 "date": f"2024-{month:02d}-{day:02d}T10:00:00.000Z"})
json.dump(spec, open(sys.argv[1], "w"))
EOF
/usr/bin/python3 "$KCVE_SRC/tests/check/mktree.py" "$T/tree" "$T/spec.json" || fail mktree
# exploitation evidence (docs/check.md, ranking): two KEV entries the records carry, one they
# do not (untracked), EPSS scores for three CVEs
/usr/bin/python3 - "$T/kev.json" "$T/epss.csv" <<'EOF'
import json, sys
e = lambda i, r: {"cveID": i, "vendorProject": "Linux", "product": "Kernel", "vulnerabilityName": "v",
                  "dateAdded": "2025-01-01", "shortDescription": "d", "requiredAction": "a",
                  "dueDate": "2025-02-01", "knownRansomwareCampaignUse": r}
json.dump({"catalogVersion": "t", "dateReleased": "2025-01-01T00:00:00Z", "count": 3,
           "vulnerabilities": [e("CVE-2024-1055", "Known"), e("CVE-2024-1050", "Unknown"),
                               e("CVE-2024-1086", "Unknown")]}, open(sys.argv[1], "w"))
open(sys.argv[2], "w").write("#model_version:t\ncve,epss,percentile\nCVE-2024-1050,0.9,0.99\n"
                             "CVE-2024-1040,0.5,0.9\nCVE-2024-1041,0.6,0.95\n")
EOF
# an older snapshot for `check --since`: without CVE-2024-1050 (added since), with another score
# for CVE-2024-1055 (changed), and with CVE-2024-0999, which the tree has since rejected
cp -r "$T/tree" "$T/old"
rm "$T/old/cve/published/2024/CVE-2024-1050".*
sed -i 's/"baseScore": 5.5/"baseScore": 9.1/' "$T/old/cve/published/2024/CVE-2024-1055.json"
for x in json dyad sha1; do
	[ -f "$T/tree/cve/published/2024/CVE-2024-1049.$x" ] || continue
	sed 's/CVE-2024-1049/CVE-2024-0999/g' "$T/tree/cve/published/2024/CVE-2024-1049.$x" \
		> "$T/old/cve/published/2024/CVE-2024-0999.$x"
done
mkdir -p "$T/tree/cve/rejected/2024"
sed 's/CVE-2024-1049/CVE-2024-0999/g' "$T/tree/cve/published/2024/CVE-2024-1049.json" \
	> "$T/tree/cve/rejected/2024/CVE-2024-0999.json"
"$KCVE" check --tree "$T/tree" --version 6.1.20 --kev "$T/kev.json" --epss "$T/epss.csv" \
	--since "$T/old" --json > "$T/check.json" || fail "check --json"
"$KCVE" report --tree "$T/tree" --check-json "$T/check.json" --html "$T/report.html" || fail "report"

/usr/bin/python3 - "$T/report.html" <<'EOF' || fail "report content"
import re, sys
h = open(sys.argv[1]).read()
assert h.startswith("<!DOCTYPE html>")
assert h.count("<svg") == 5, h.count("<svg")           # week, subsystem, branch, ttf, check
assert h.count("<script>") == 1 and "<link" not in h and "<img" not in h
assert not re.search(r'src\s*=\s*"', h), "external asset"
assert "prefers-color-scheme:dark" in h                  # a dark theme
assert 'href="https://www.cve.org/CVERecord?id=CVE-2024-1030"' in h
assert f'href="https://git.kernel.org/linus/{"b" * 40}"' in h   # the mainline fix
assert 'class="cves"' in h and 'type="search"' in h       # sortable, filterable table
assert "&lt;bug&gt; &amp;" in h                          # titles are escaped
assert "60 published records" in h
assert "60 records &#8594;" in h                         # stage counts from the check JSON
# the table in the check's ranking: KEV first (1050 has the higher EPSS), then EPSS, then CVSS
ids = re.findall(r'<tr><td data-k="(\d+)">\d+</td><td><a href="https://www.cve.org/CVERecord\?id=(CVE-[\d-]+)', h)
assert [i for _, i in ids[:4]] == ["CVE-2024-1050", "CVE-2024-1055", "CVE-2024-1041", "CVE-2024-1040"], ids[:5]
assert [int(r) for r, _ in ids] == list(range(1, len(ids) + 1))
assert h.count('<span class="kev">KEV</span>') == 3 and "KEV</span> ransomware" in h
assert h.index('class="delta"') < h.index('class="cves"')     # the delta first
assert re.search(r"What changed since [^<]*/old: 3 CVE\(s\)", h)
assert '<tr class="added"><td>added</td><td>CVE-2024-1050</td><td>new record' in h
assert '<tr class="removed"><td>removed (withdrawn)</td><td>CVE-2024-0999</td><td>rejected' in h
assert '<tr class="changed"><td>changed</td><td>CVE-2024-1055</td><td>score 9.1 -&gt; 5.5' in h
assert "EPSS 0.900 (p99)" in h and "CVE-2024-1086" in h.split('class="untracked"')[1]
assert "datePublished" in h and "without a date" not in h
weeks = re.findall(r"<title>(\d{4}-\d\d-\d\d): (\d+)</title>", h)
assert len(weeks) > 20 and sum(int(n) for _, n in weeks) == 60, weeks[:3]
EOF

# publication dates from the tree's git history (the commit that added each record) when the
# tree is a git checkout, not the JSON dates
cp -r "$T/tree" "$T/gtree"
/usr/bin/python3 - "$T/gtree" <<'EOF' || fail "git tree"
import glob, os, subprocess, sys
root = sys.argv[1]
def git(*a, date=None):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@e", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@e")
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    subprocess.run(["git", "-C", root] + list(a), check=True, env=env, capture_output=True)
git("init", "-q")
files = sorted(glob.glob(os.path.join(root, "cve/published/2024/*")))
half = files.index(os.path.join(root, "cve/published/2024/CVE-2024-1030"))
for k, part in enumerate((files[:half], files[half:])):
    git("add", *part)
    git("commit", "-q", "-m", f"part {k}", date=f"2025-0{3 + 2 * k}-05T12:00:00Z")
EOF
"$KCVE" report --tree "$T/gtree" --html "$T/g.html" || fail "report on a git tree"
/usr/bin/python3 - "$T/g.html" <<'EOF' || fail "dates from git history"
import re, sys
h = open(sys.argv[1]).read()
weeks = {d: int(n) for d, n in re.findall(r"<title>(\d{4}-\d\d-\d\d): (\d+)</title>", h)}
assert weeks.get("2025-03-03") == 30 and weeks.get("2025-05-05") == 30, weeks
assert sum(weeks.values()) == 60 and "git history" in h
EOF
# a record without any date is counted in a note, never dated by its file time
/usr/bin/python3 - "$T/tree/cve/published/2024/CVE-2024-1001.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
del d["cveMetadata"]["datePublished"]
json.dump(d, open(sys.argv[1], "w"))
EOF
"$KCVE" report --tree "$T/tree" --html "$T/u.html" || fail "report without a date"
grep -q "1 record without a date is left out" "$T/u.html" || fail "undated record not counted"

echo '{"not": "a check"}' > "$T/bad.json"
"$KCVE" report --tree "$T/tree" --check-json "$T/bad.json" --html "$T/bad.html" 2>"$T/err"; rc=$?
[ $rc -eq 13 ] && [ ! -e "$T/bad.html" ] || fail "bad check json: rc=$rc $(cat "$T/err")"

# ---- rendering at two widths, screenshots kept
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || { echo "skip: chromium not installed"; exit 77; }
ART="${KCVE_BUILD:-$T}/test-artifacts"
mkdir -p "$ART"
for shot in 1400 800 800-dark; do
	width=${shot%-dark}
	theme=
	[ "$shot" = "$width" ] || theme=--force-dark-mode   # prefers-color-scheme: dark
	rm -f "$ART/report-$shot.png"
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--no-first-run --disable-dev-shm-usage --user-data-dir="$T/profile" --hide-scrollbars \
		$theme --window-size=$width,2600 --screenshot="$ART/report-$shot.png" \
		"file://$T/report.html" >"$T/chrome.log" 2>&1
	if [ ! -s "$ART/report-$shot.png" ]; then
		echo "skip: chromium could not start or render: $(tail -2 "$T/chrome.log")"
		exit 77
	fi
	/usr/bin/python3 - "$ART/report-$shot.png" "$width" "$shot" <<'EOF' || fail "screenshot $shot"
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", d[16:24])
assert w == int(sys.argv[2]) and h >= 1200, (w, h)
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
# the page background: white in the light theme, dark in the dark one (first pixel row, RGB(A))
bg = raw[1:4]
assert (min(bg) < 64) == sys.argv[3].endswith("dark"), f"background {tuple(bg)} for {sys.argv[3]}"
print(f"screenshot {w}x{h}, {len(d)} bytes")
EOF
done
echo "report: ok (screenshots in $ART)"
