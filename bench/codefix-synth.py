#!/usr/bin/env python3
"""Synthetic fix patches for benchmarking `kcve check --source` and the fingerprint size: one
per record of a vulns tree, each a real place of a file of a kernel source tree (the record's
first programFile that exists there, else a .c file chosen by the record id) made into a fix:
two of three replace one line, one of three only adds one (the shapes of real fixes; real ones
are bigger: see BENCHMARKS.md for the size measured on real patches).  Deterministic.

usage: codefix-synth.py KSRC VULNS_ROOT OUT_DIR"""
import glob, hashlib, json, os, sys

ksrc, vulns, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
cfiles = sorted(os.path.relpath(p, ksrc) for p in glob.glob(os.path.join(ksrc, '**', '*.c'),
                                                             recursive=True))


def h(s):
    return int(hashlib.sha256(s.encode()).hexdigest()[:12], 16)


made = 0
for path in sorted(glob.glob(os.path.join(vulns, 'cve', 'published', '*', 'CVE-*.json'))):
    cve = os.path.basename(path)[:-5]
    try:
        doc = json.load(open(path))
        files = [f for a in doc['containers']['cna'].get('affected', [])
                 for f in a.get('programFiles', [])]
    except (ValueError, KeyError):
        files = []
    files = [f for f in files if f.endswith(('.c', '.h')) and os.path.isfile(os.path.join(ksrc, f))]
    f = files[0] if files else cfiles[h(cve) % len(cfiles)]
    lines = open(os.path.join(ksrc, f), errors='replace').read().split('\n')
    if len(lines) < 12:
        continue
    start = 4 + h(cve + f) % (len(lines) - 10)
    i = next((k for k in range(start, len(lines) - 5) if len(lines[k].strip()) > 12
              and lines[k].strip().endswith(';')), None)
    if i is None:
        continue
    ctxb, ctxa = lines[i - 3:i], lines[i + 1:i + 4]
    if h(cve) % 3 == 2:  # add-only
        body = [' ' + l for l in ctxb + [lines[i]]] + ['+\tif (WARN_ON_ONCE(!%s_ok))' % cve[4:].replace('-', '_'),
                                                       '+\t\treturn -EINVAL;'] + [' ' + l for l in ctxa]
        head = '@@ -%d,7 +%d,9 @@\n' % (i - 2, i - 2)
    else:
        body = [' ' + l for l in ctxb] + ['-' + lines[i], '+' + lines[i][:-1] + ' /* %s */;' % cve] + \
               [' ' + l for l in ctxa]
        head = '@@ -%d,7 +%d,7 @@\n' % (i - 2, i - 2)
    with open(os.path.join(out, cve + '.patch'), 'w') as o:
        o.write('--- a/%s\n+++ b/%s\n' % (f, f) + head + '\n'.join(body) + '\n')
    made += 1
print('codefix-synth: %d patches in %s' % (made, out))
