#!/usr/bin/python3
"""kcve check --git against an independent checker on every tag of a generated history (issue 20).

tools/gen-history makes a small kernel-shaped repository (mainline with -rc tags, stable
branches with backports written as `commit <sha> upstream.` / `[ Upstream commit <sha> ]`,
stable reverts and re-applied backports, mainline reverts). Records: every planted scenario
(its expected dyad lines) and the mainline commits whose Fixes: tag names a full id (pair
"introducer -> fix"). For every tag, this script decides each record from `git log` data
alone -- its own message rules (regular expressions over whole lines) and its own reachability
walk -- and compares with kcve's --git outcome: 0 differences allowed.

With --version-26 it checks `kcve check --version` instead, on every 2.6-era tag (2.6.N, 2.6.N-rcM,
2.6.N.M), against the same checker. The records then carry real release numbers: the planted
scenarios' dyad lines, and the mainline Fixes: pairs whose fix no commit carries elsewhere (so one
pair is the whole record). A verdict must be equal, or "unknown (needs --git)" at an -rc tag.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile

SRC = os.environ.get('KCVE_SRC', os.path.join(os.path.dirname(__file__), '..', '..'))
KCVE = os.environ.get('KCVE', os.path.join(SRC, 'build', 'kcve'))

H40 = r'([0-9a-fA-F]{40})'
HID = r'([0-9a-fA-F]{12,40})'
CARRY = [re.compile(p, re.I) for p in (
    r'^commit ' + H40 + r'(?:[ \t]+upstream(?:[.,;) \t].*)?)?$',
    r'^\[[ \t]*upstream commit[ \t]+' + H40 + r'[ \t]*\].*$',
    r'^\((?:cherry picked|backported) from commit[ \t]+' + HID + r'(?:[ \t][^)]*)?\)$',
    r'^git-commit:[ \t]*' + H40 + r'$')]
REVERT = re.compile(r'^this reverts commit[ \t]+' + HID, re.I)


def git(repo, *args):
    return subprocess.run(['git', '--git-dir', repo] + list(args), check=True, capture_output=True,
                          text=True).stdout


def fail(msg):
    print('FAIL: ' + msg)
    sys.exit(1)


def main():
    by_version = '--version-26' in sys.argv[1:]
    tmp = tempfile.mkdtemp(prefix='kcve-git-ancestry-')
    repo = os.path.join(tmp, 'linux.git')
    subprocess.run([sys.executable, os.path.join(SRC, 'tools', 'gen-history'), '--size', 'small',
                    '--seed', '7', '--out', repo], check=True, capture_output=True)
    truth = json.load(open(os.path.join(repo, 'gen-truth.json')))
    # every commit: parents and message
    parents, msgs = {}, {}
    for rec in git(repo, 'log', '--all', '--format=%H%x00%P%x00%B%x01').split('\x01'):
        rec = rec.strip('\n')
        if not rec:
            continue
        h, p, b = rec.split('\x00', 2)
        parents[h] = p.split()
        msgs[h] = b
    full = sorted(parents)

    def resolve(tok):
        tok = tok.lower()
        if len(tok) == 40:
            return tok
        hits = [h for h in full if h.startswith(tok)]
        return hits[0] if len(hits) == 1 else None

    carries, reverts = {}, {}
    for h, b in msgs.items():
        for line in b.split('\n'):
            line = line.strip(' \t\r')
            m = REVERT.match(line)
            if m:
                r = resolve(m.group(1))
                if r:
                    reverts.setdefault(h, set()).add(r)
                continue
            for rx in CARRY:
                m = rx.match(line)
                if m:
                    r = resolve(m.group(1))
                    if r:
                        carries.setdefault(h, set()).add(r)
                    break

    # records
    spec, recs = [], []
    for s in truth['scenarios']:
        pairs = [l for l in s['expected'] if l.count(':') == 3]
        recs.append((s['id'], pairs, s['fixes']))
    n = 0
    carried = set().union(*carries.values())
    for h, e in truth['commits'].items():
        fx = [f for f in e.get('fixes', []) if len(f) == 40 and f in parents]
        if e['mainline'] and fx and n < 80:
            if not by_version:
                n += 1
                recs.append(('fix %s' % h[:12], ['1.0:%s:1.1:%s' % (fx[0], h)], [h]))
                continue
            intro = truth['commits'].get(fx[0], {})
            if h in carried or not intro.get('mainline') or not intro.get('release') or not e.get('release'):
                continue
            n += 1
            recs.append(('fix %s' % h[:12], ['%s:%s:%s:%s' % (intro['release'], fx[0], e['release'], h)], [h]))
    ids = {}
    for i, (name, pairs, fixes) in enumerate(recs):
        cve = 'CVE-2099-%04d' % (i + 1)
        ids[cve] = (name, pairs, fixes)
        spec.append({'id': cve, 'title': name, 'files': [], 'pairs': pairs, 'fixes': fixes})
    with open(os.path.join(tmp, 'spec.json'), 'w') as f:
        json.dump(spec, f)
    subprocess.run([sys.executable, os.path.join(SRC, 'tests', 'check', 'mktree.py'),
                    os.path.join(tmp, 'tree'), os.path.join(tmp, 'spec.json')], check=True)

    def expected(tag_sha):
        seen, stack = set(), [tag_sha]
        while stack:
            c = stack.pop()
            if c not in seen:
                seen.add(c)
                stack.extend(parents.get(c, []))
        carriers = {}
        for c in seen:
            for t in carries.get(c, ()):
                carriers.setdefault(t, []).append(c)
        reverters = {}
        for c in seen:
            for t in reverts.get(c, ()):
                reverters.setdefault(t, []).append(c)

        memo = {}

        def undone(x):   # some live revert in the tree reverts x or an id x carries
            for t in [x] + sorted(carries.get(x, ())):
                for r in reverters.get(t, ()):
                    if r not in memo:
                        memo[r] = undone(r)
                    if not memo[r]:
                        return True
            return False

        def present(x):
            copies = ([x] if x in seen else []) + carriers.get(x, [])
            return any(not undone(c) for c in copies)

        out = {}
        for cve, (name, pairs, fixes) in ids.items():
            ps = [p.split(':') for p in pairs]
            if not ps:
                out[cve] = 'no_data'
            elif not any(p[1] == '0' or present(p[1]) for p in ps):
                out[cve] = 'not_introduced'
            elif any(p[3] != '0' and present(p[3]) for p in ps) or any(present(f) for f in fixes):
                out[cve] = 'fixed'
            else:
                out[cve] = 'affected'
        return out

    tags = git(repo, 'for-each-ref', '--format=%(refname:short) %(objectname) %(*objectname)',
               'refs/tags').split('\n')
    checked = diffs = 0
    kinds = {}
    rc_tags = 0
    todo = []
    for line in tags:
        if not line.strip():
            continue
        parts = line.split()
        tag, sha = parts[0], parts[-1]
        if git(repo, 'cat-file', '-t', sha).strip() != 'commit':
            continue   # v2.6.11 names a tree
        if by_version and not tag.startswith('v2.6.'):
            continue
        rc_tags += '-rc' in tag
        todo.append((tag, sha))
    if by_version:
        return compare_versions(tmp, ids, todo, expected)

    def run(tag):
        return subprocess.run([KCVE, 'check', '--tree', os.path.join(tmp, 'tree'), '--git', repo, '--ref', tag,
                               '--json', '--all'], capture_output=True, text=True)
    # warm the scan cache once, then two checks at a time (the CI machine has 2 cores)
    run(todo[0][0])
    with concurrent.futures.ThreadPoolExecutor(2) as ex:
        results = list(ex.map(lambda t: run(t[0]), todo))
    for (tag, sha), r in zip(todo, results):
        if r.returncode not in (0, 18):
            fail('kcve check --git --ref %s: exit %d: %s' % (tag, r.returncode, r.stderr.strip()))
        want = expected(sha)
        got = {c['id']: c['outcome'] for c in json.loads(r.stdout)['results'][0]['cves']}
        for cve, w in want.items():
            checked += 1
            kinds[w] = kinds.get(w, 0) + 1
            if got.get(cve) != w:
                diffs += 1
                if diffs <= 20:
                    print('DIFF %s %s (%s): kcve %s, ancestry checker %s' % (tag, cve, ids[cve][0],
                                                                             got.get(cve), w))
    print('%d tags (%d -rc), %d records, %d verdicts compared (%s), %d differences' % (
        len([t for t in tags if t.strip()]), rc_tags, len(ids), checked,
        ', '.join('%s %d' % kv for kv in sorted(kinds.items())), diffs))
    if diffs:
        fail('%d differences' % diffs)
    for k in ('fixed', 'affected', 'not_introduced'):
        if not kinds.get(k):
            fail('no %s verdict at any tag: the comparison is too weak' % k)
    subprocess.run(['rm', '-rf', tmp])


def compare_versions(tmp, ids, todo, expected):
    """kcve check --version on each 2.6-era tag against the ancestry checker at that tag's commit."""
    checked = diffs = unknown = 0
    kinds, forms = {}, set()
    for tag, sha in todo:
        ver = tag[1:]
        forms.add('2.6.N-rcM' if '-rc' in ver else '2.6.N.M' if ver.count('.') == 3 else '2.6.N')
        r = subprocess.run([KCVE, 'check', '--tree', os.path.join(tmp, 'tree'), '--version', ver,
                            '--json', '--all'], capture_output=True, text=True)
        if r.returncode not in (0, 18):
            fail('kcve check --version %s: exit %d: %s' % (ver, r.returncode, r.stderr.strip()))
        res = json.loads(r.stdout)['results'][0]
        if res['release'] != ver:
            fail('--version %s read as %s' % (ver, res['release']))
        got = {c['id']: c for c in res['cves']}
        for cve, w in expected(sha).items():
            checked += 1
            kinds[w] = kinds.get(w, 0) + 1
            c = got.get(cve, {})
            if c.get('outcome') == w:
                continue
            if c.get('outcome') == 'unknown' and c.get('needs_git') and '-rc' in ver:
                unknown += 1
                continue
            diffs += 1
            if diffs <= 20:
                print('DIFF %s %s (%s %s): kcve %s (%s), ancestry checker %s' % (
                    tag, cve, ids[cve][0], ids[cve][1], c.get('outcome'), c.get('reason'), w))
    print('%d 2.6-era tags (%s), %d records, %d verdicts compared (%s), %d unknown (needs --git) '
          'at -rc tags, %d differences' % (len(todo), ', '.join(sorted(forms)), len(ids), checked,
                                           ', '.join('%s %d' % kv for kv in sorted(kinds.items())),
                                           unknown, diffs))
    if diffs:
        fail('%d differences' % diffs)
    if len(forms) != 3:
        fail('the history lacks a 2.6 version form: %s' % sorted(forms))
    for k in ('fixed', 'affected', 'not_introduced'):
        if not kinds.get(k):
            fail('no %s verdict at any 2.6-era tag: the comparison is too weak' % k)
    subprocess.run(['rm', '-rf', tmp])


if __name__ == '__main__':
    main()
