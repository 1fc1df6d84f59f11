#!/usr/bin/python3
"""The synthetic history generator's ground truth agrees with git (no kcve involved).

Generates a small repository twice with the same seed (ids must be identical: determinism), then
re-derives every truth field with the git CLI instead of trusting the generator:
  - release: the verhaal range rule (docs/spec/versions.md) re-implemented over `git rev-list A..B`;
  - upstream / reverts / fixes: the message rules applied to `git log` output, short Fixes ids
    resolved with `git cat-file --batch-check` (ambiguous or missing ids stay raw);
  - scenario commits exist and the shapes the scenarios promise are there (backports, reverts).
Also checks that every kind of commit the issue asks for is present, and that --extend adds one
stable release whose commits the truth file then lists.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SRC = os.environ.get('KCVE_SRC', os.path.join(os.path.dirname(__file__), '..', '..'))
GEN = os.path.join(SRC, 'tools', 'gen-history')
HEX7 = re.compile(r'[0-9a-fA-F]{7,}')
HEX40 = re.compile(r'[0-9a-fA-F]{40,}')
failures = []


def fail(msg):
    failures.append(msg)


def git(repo, *args, inp=None):
    r = subprocess.run(['git', '--git-dir', repo] + list(args), input=inp, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit('git %s failed: %s' % (' '.join(args), r.stderr))
    return r.stdout


def vkey(v):
    base, _, rc = v.partition('-rc')
    return [int(x) for x in base.split('.')], (int(rc) if rc else 10 ** 6)


def is_mainline(v):
    base = v.partition('-rc')[0].split('.')
    return len(base) == (3 if base[:2] == ['2', '6'] else 2)


def branch_of(v):
    parts = v.split('.')
    return '.'.join(parts[:3] if parts[:2] == ['2', '6'] else parts[:2])


def expected_releases(repo):
    """commit -> release, by walking the tag ranges the way verhaal does."""
    tags = []
    for line in git(repo, 'for-each-ref', '--format=%(refname:short) %(objecttype) %(*objecttype)',
                    'refs/tags/v*').split('\n'):
        f = line.split()
        if len(f) >= 2 and re.fullmatch(r'v\d+(\.\d+){1,3}(-rc\d+)?', f[0]) and 'commit' in f[1:]:
            tags.append(f[0][1:])
    finals = sorted([t for t in tags if is_mainline(t) and '-rc' not in t], key=vkey)
    ranges = []
    prev = None
    for t in finals:
        ranges.append((prev, t))
        prev = t
    newest = vkey(finals[-1])
    for t in sorted([t for t in tags if '-rc' in t and vkey(t) > newest], key=vkey):
        ranges.append((prev, t))
        prev = t
    stable = {}
    for t in tags:
        if not is_mainline(t):
            stable.setdefault(branch_of(t), []).append(t)
    for b, lst in stable.items():
        prev = b
        for t in sorted(lst, key=vkey):
            if t != '3.16.35':           # the anchor skips this range
                ranges.append((prev, t))
            prev = t
    rel = {}
    for a, b in ranges:
        spec = ['v%s' % b] + (['^v%s' % a] if a else [])
        for sha in git(repo, 'rev-list', *spec).split():
            if sha in rel:
                fail('commit %s in two ranges (%s and ..%s)' % (sha, rel[sha], b))
            rel[sha] = b
    return rel


def resolve_tokens(repo, toks):
    toks = sorted(set(t for t in toks if len(t) < 40))
    if not toks:
        return {}
    out = git(repo, 'cat-file', '--batch-check=%(objectname)', inp='\n'.join(toks) + '\n').split('\n')
    res = {}
    for t, line in zip(toks, out):
        res[t] = line.strip() if re.fullmatch(r'[0-9a-f]{40}', line.strip()) else t
    return res


def check_repo(repo, truth):
    commits = truth['commits']
    allc = set(git(repo, 'rev-list', '--all').split())
    if allc != set(commits):
        fail('truth lists %d commits, git has %d (%d missing from truth, %d unknown to git)' % (
            len(commits), len(allc), len(allc - set(commits)), len(set(commits) - allc)))
    rel = expected_releases(repo)
    # messages
    log = git(repo, 'log', '--all', '--format=%x01%H%x00%B')
    msgs = {}
    for rec in log.split('\x01')[1:]:
        sha, body = rec.split('\x00', 1)
        msgs[sha] = body
    parsed = {}
    all_tokens = []
    for sha, body in msgs.items():
        lines = body.split('\n')
        up = rev = None
        mainline = commits.get(sha, {}).get('mainline', True)
        if not mainline:
            for ln in lines:   # the first line mentioning upstream that carries a 40-hex id
                if 'upstream' in ln.lower():
                    m = HEX40.search(ln)
                    if m:
                        up = m.group(0).lower()
                        break
        for ln in lines:
            if 'reverts' in ln.lower():
                m = HEX40.search(ln)
                rev = m.group(0).lower() if m else None
                break
        fx = []
        for ln in lines:
            i = ln.lower().find('fixes:')
            if i >= 0:
                m = HEX7.search(ln, i + 6)
                if m:
                    fx.append(m.group(0))
        parsed[sha] = (up, rev, fx)
        all_tokens += fx
    res = resolve_tokens(repo, all_tokens)
    bad = 0
    for sha, e in commits.items():
        want_rel = rel.get(sha)
        if e['release'] != want_rel:
            bad += 1
            if bad < 10:
                fail('%s: truth release %s, git ranges say %s' % (sha, e['release'], want_rel))
        up, rev, fx = parsed.get(sha, (None, None, []))
        fx = [res.get(t, t) for t in fx]
        if (e.get('upstream'), e.get('reverts'), e.get('fixes', [])) != (up, rev, fx):
            bad += 1
            if bad < 10:
                fail('%s: truth %r, message says %r' % (sha, (e.get('upstream'), e.get('reverts'),
                                                             e.get('fixes', [])), (up, rev, fx)))
        want_ml = want_rel is None or is_mainline(want_rel)
        if want_rel is not None and e['mainline'] != want_ml:
            fail('%s: mainline flag %s for release %s' % (sha, e['mainline'], want_rel))
    return bad


def coverage(truth, repo):
    c = truth['commits']
    vals = list(c.values())
    need = {
        'mainline release': any(e['release'] and is_mainline(e['release']) and '-rc' not in e['release'] for e in vals),
        '-rc release (cycle in progress)': any(e['release'] and '-rc' in e['release'] for e in vals),
        'untagged (no release)': any(e['release'] is None for e in vals),
        '2.6.N.M stable release': any(e['release'] and e['release'].startswith('2.6.') and
                                      e['release'].count('.') == 3 for e in vals),
        'X.Y.Z stable release': any(e['release'] and not e['release'].startswith('2.6.') and
                                    e['release'].count('.') == 2 for e in vals),
        'commit <sha> upstream.': False, '[ Upstream commit <sha> ]': False,
        'merge': any(e.get('merge') for e in vals),
        'mainline revert': any(e['mainline'] and e.get('reverts') for e in vals),
        'stable revert': any(not e['mainline'] and e.get('reverts') and not e.get('upstream') for e in vals),
        'stable revert naming upstream': any(not e['mainline'] and e.get('reverts') and
                                             e.get('upstream') == e.get('reverts') for e in vals),
        'stable-only commit': any(not e['mainline'] and not e.get('upstream') and not e.get('reverts')
                                  and not e['subject'].startswith('Linux ') for e in vals),
        'Fixes: resolving': any(len(x) == 40 and x in c for e in vals for x in e.get('fixes', [])),
        'Fixes: not resolving': any(len(x) < 40 for e in vals for x in e.get('fixes', [])),
        'two Fixes: lines': any(len(e.get('fixes', [])) > 1 for e in vals),
        'backport whose subject mentions upstream': any(
            not e['mainline'] and e.get('upstream') and not e.get('reverts') and
            'upstream' in e['subject'].lower() for e in vals),
    }
    log = git(repo, 'log', '--all', '--format=%B')
    need['commit <sha> upstream.'] = re.search(r'^commit [0-9a-f]{40} upstream\.$', log, re.M) is not None
    need['[ Upstream commit <sha> ]'] = re.search(r'^\[ Upstream commit [0-9a-f]{40} \]$', log, re.M) is not None
    # a subject or backport note mentioning upstream (no id) right before the id line
    need['a line mentioning upstream without an id before the id line'] = re.search(
        r'upstream[^\n]*\n\n(commit [0-9a-f]{40} upstream\.|\[ Upstream commit [0-9a-f]{40} \])$', log,
        re.M | re.I) is not None
    for form, rx in [('indented Fixes:', r'^\s+Fixes: '), ('lower-case fixes:', r'^fixes: '),
                     ('upper-case FIXES:', r'^FIXES: '), ('short Fixes: id', r'^Fixes: [0-9a-f]{7,8} '),
                     ('full-length Fixes: id', r'^Fixes: [0-9a-f]{40} ')]:
        need[form] = re.search(rx, log, re.M) is not None
    refs = git(repo, 'for-each-ref', '--format=%(refname)').split()
    need['cross-major jump tags'] = all('refs/tags/v%s' % t in refs for t in ['2.6.39', '3.0', '3.19', '4.0'])
    need['tag of a tree (v2.6.11)'] = 'refs/tags/v2.6.11' in refs
    for k, ok in need.items():
        if not ok:
            fail('generated history lacks: %s' % k)
    kinds = {s['kind'] for s in truth['scenarios']}
    for k in ['mainline-only', 'backported-nofixes', 'fixes-backported', 'unfixed-branches', 'revert-fix',
              'reverted-introducer-backport', 'reverted-fix-backport', 'fixes-missing-sha', 'same-release',
              'era-2.6', 'multiple-fixes-tags', 'explicit-vulnerable', 'rc-cycle']:
        if k not in kinds:
            fail('no planted scenario of kind %s' % k)
    code_scenarios(truth, repo, refs)
    for s in truth['scenarios']:
        for sha in s['fixes'] + s['vulnerable']:
            if sha not in c or not c[sha]['mainline']:
                fail('%s: fix/vulnerable %s is not a mainline commit' % (s['id'], sha))
        if not s['expected']:
            fail('%s: no expected lines' % s['id'])
        for ln in s['expected']:
            if len(ln.split(':')) != 4:
                fail('%s: malformed expected line %s' % (s['id'], ln))


def code_scenarios(truth, repo, refs):
    """The planted code scenarios: every kind, the fix a mainline commit, each backport naming
    it upstream, each tag of the expected verdicts a tag whose tree holds a file of the fix's
    basename unless the truth says undecided (a renamed basename)."""
    c = truth['commits']
    code = truth.get('code_scenarios', [])
    for k in ['code-clean-backport', 'code-drifted-cherry-pick', 'code-partial-backport',
              'code-reverted-backport', 'code-renamed-file', 'code-add-only']:
        if k not in {s['kind'] for s in code}:
            fail('no planted code scenario of kind %s' % k)
    for s in code:
        if not c.get(s['fix'], {}).get('mainline'):
            fail('%s: fix %s is not a mainline commit' % (s['id'], s['fix']))
        for b in s['backports']:
            if c.get(b['commit'], {}).get('upstream') != s['fix']:
                fail('%s: backport %s does not name the fix upstream' % (s['id'], b['commit']))
        base = s['file'].rsplit('/', 1)[-1]
        for tag, verdict in s['expected'].items():
            if 'refs/tags/' + tag not in refs:
                fail('%s: no tag %s' % (s['id'], tag))
                continue
            names = {p.rsplit('/', 1)[-1] for p in git(repo, 'ls-tree', '-r', '--name-only', tag).split()}
            if (base in names) != (verdict != 'undecided'):
                fail('%s: %s at %s, but the file %s there: %s' % (s['id'], verdict, tag, base,
                                                                  base in names))


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    with tempfile.TemporaryDirectory(prefix='kcve-gen-') as td:
        a, b = os.path.join(td, 'a.git'), os.path.join(td, 'b.git')
        for d in (a, b):
            subprocess.run([sys.executable, GEN, '--size', 'small', '--seed', '5', '--out', d], check=True)
        ha = git(a, 'for-each-ref', '--format=%(objectname) %(refname)')
        hb = git(b, 'for-each-ref', '--format=%(objectname) %(refname)')
        if ha != hb:
            fail('same seed, different repositories')
        ta = open(os.path.join(a, 'gen-truth.json')).read()
        if ta != open(os.path.join(b, 'gen-truth.json')).read():
            fail('same seed, different truth files')
        truth = load(os.path.join(a, 'gen-truth.json'))
        check_repo(a, truth)
        coverage(truth, a)
        # one more stable release
        before = set(truth['commits'])
        r = subprocess.run([sys.executable, GEN, '--extend', '--out', a], capture_output=True, text=True)
        if r.returncode:
            fail('--extend failed: %s' % r.stderr)
        else:
            tag = r.stdout.strip()
            truth2 = load(os.path.join(a, 'gen-truth.json'))
            new = set(truth2['commits']) - before
            base = truth['meta']['extend_base']
            if not new or any(truth2['commits'][s]['release'] != tag[1:] for s in new):
                fail('--extend: new commits %d, releases %s' % (
                    len(new), {truth2['commits'][s]['release'] for s in new}))
            if git(a, 'rev-parse', base['branch']).strip() != git(a, 'rev-parse', tag + '^{}').strip():
                fail('--extend: %s is not the head of %s' % (tag, base['branch']))
            if not any(truth2['commits'][s].get('upstream') for s in new):
                fail('--extend: no backport in the new release')
            check_repo(a, truth2)
    if failures:
        for f in failures[:40]:
            print('FAIL:', f)
        print('%d failures' % len(failures))
        return 1
    print('ground truth agrees with git')
    return 0


if __name__ == '__main__':
    sys.exit(main())
