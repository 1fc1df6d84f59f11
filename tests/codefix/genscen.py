#!/usr/bin/python3
"""The code stage against the planted code scenarios of tools/gen-history (known truth).

1. Generate a small history (fixed seed); its truth file lists, per code scenario (clean
   backport, cherry-pick with drifted context, partial backport, reverted backport, renamed
   file, add-only fix after a block repeated in another function), the mainline fix, the file
   and the code verdict expected at each relevant release tag, derived by construction.
2. One record per scenario (.sha1 = the mainline fix), then
   `kcve db build --tree VULNS --repo LINUX.git` (mainline fix + every stable backport) and,
   separately, `kcve db build --tree VULNS --patches DIR` (the mainline fix as
   `git format-patch` wrote it).
3. Each tag's tree (git archive) is checked with `kcve check --db DB --source TREE --json --all`
   against both databases; every scenario's code verdict must equal the truth at that tag.
   Any mismatch fails; a wrong `fixed` is reported as such.  The truth must hold every verdict
   (fixed, vulnerable, partial, undecided), and a renamed file's evidence must name the file
   read ("file") and the one the fix named ("fingerprint_file").

`genscen.py REPO` checks an existing generated repository instead (--size medium or huge; the
history index is written into REPO as `db build --repo` does).
"""
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import io

KCVE = os.environ.get('KCVE')
SRC = os.environ.get('KCVE_SRC', os.path.join(os.path.dirname(__file__), '..', '..'))
GEN = os.path.join(SRC, 'tools', 'gen-history')
MKTREE = os.path.join(SRC, 'tests', 'check', 'mktree.py')
KINDS = ['code-clean-backport', 'code-drifted-cherry-pick', 'code-partial-backport',
         'code-reverted-backport', 'code-renamed-file', 'code-add-only']
failures = []
MOVED = set()   # (fingerprint_file, file read, state) of the evidence of renamed files


def run(*args, **kw):
    r = subprocess.run(list(args), capture_output=True, **kw)
    if r.returncode:
        raise SystemExit('%s exited %d: %s' % (' '.join(args)[:200], r.returncode,
                                              r.stderr.decode(errors='replace')[:500]))
    return r.stdout


def truth_head(repo):
    with open(os.path.join(repo, 'gen-truth.json')) as f:
        return json.loads(f.readline().rstrip().rstrip(',') + '}')


def records(td, repo, scen):
    """The record tree (one CVE per scenario) and the patch directory; {cve: scenario}."""
    spec, ids = [], {}
    pdir = os.path.join(td, 'patches')
    os.makedirs(pdir)
    for i, sc in enumerate(scen):
        cve = 'CVE-2099-%04d' % (1000 + i)
        ids[cve] = sc
        spec.append(dict(id=cve, files=[sc['file']], fixes=[sc['fix']], pairs=[]))
        with open(os.path.join(pdir, cve + '.patch'), 'wb') as f:
            f.write(run('git', '--git-dir', repo, 'format-patch', '-1', '--stdout', sc['fix']))
    with open(os.path.join(td, 'spec.json'), 'w') as f:
        json.dump(spec, f)
    run(sys.executable, MKTREE, os.path.join(td, 'vulns'), os.path.join(td, 'spec.json'))
    return ids, pdir


def build(td, name, *src):
    db = os.path.join(td, name)
    out = json.loads(run(KCVE, 'db', 'build', '--tree', os.path.join(td, 'vulns'), *src, '-o', db, '--json'))
    return db, out['fingerprints']


def export(repo, tag, dest):
    data = run('git', '--git-dir', repo, 'archive', '--format=tar', tag)
    with tarfile.open(fileobj=io.BytesIO(data)) as t:
        t.extractall(dest, filter='data') if sys.version_info >= (3, 12) else t.extractall(dest)


def verdicts(db, tree):
    r = subprocess.run([KCVE, 'check', '--db', db, '--source', tree, '--json', '--all'],
                       capture_output=True, text=True)
    if r.returncode:
        fail('check --source %s exited %d: %s' % (tree, r.returncode, r.stderr.strip()[:300]))
        return {}
    out = {}
    for c in json.loads(r.stdout)['results'][0]['cves']:
        out[c['id']] = c.get('code', {}).get('verdict', 'none')
        for ev in c.get('code', {}).get('evidence', []):
            if 'fingerprint_file' in ev:
                MOVED.add((ev['fingerprint_file'], ev['file'], ev['state']))
    return out


def fail(msg):
    failures.append(msg)


def compare(label, tag, got, ids, score):
    for cve, sc in ids.items():
        want = sc['expected'].get(tag)
        if want is None:
            continue
        have = got.get(cve, 'none')
        score.append((sc['kind'], want == have))
        if have != want:
            what = 'WRONG FIXED' if have == 'fixed' else 'mismatch'
            fail('%s: %s %s (%s, %s) at %s: got %s, truth %s' % (label, what, sc['id'], sc['kind'],
                                                               cve, tag, have, want))


def main():
    if not KCVE:
        print('KCVE not set')
        return 77
    with tempfile.TemporaryDirectory(prefix='kcve-genscen-') as td:
        repo = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(td, 'linux.git')
        if len(sys.argv) < 2:
            run(sys.executable, GEN, '--size', 'small', '--seed', '7', '--out', repo)
        scen = truth_head(repo)['code_scenarios']
        missing = set(KINDS) - {s['kind'] for s in scen}
        if missing:
            fail('gen-history planted no code scenario of kind %s' % ', '.join(sorted(missing)))
        ids, pdir = records(td, repo, scen)
        dbs = [build(td, 'repo.db', '--repo', repo), build(td, 'patches.db', '--patches', pdir)]
        for (db, n), want in zip(dbs, [len(scen), len(scen)]):
            if n != want:
                fail('%s: %d fingerprints for %d scenarios' % (os.path.basename(db), n, want))
        tags = sorted({t for s in scen for t in s['expected']})
        kinds = {v for s in scen for v in s['expected'].values()}
        if kinds != {'fixed', 'vulnerable', 'partial', 'undecided'}:
            fail('the truth holds the verdicts %s, not all four' % sorted(kinds))
        score = {'repo.db': [], 'patches.db': []}
        for tag in tags:
            tree = os.path.join(td, 'src', tag)
            export(repo, tag, tree)
            for db, _ in dbs:
                compare(os.path.basename(db), tag, verdicts(db, tree), ids, score[os.path.basename(db)])
        base = lambda p: p.rsplit('/', 1)[-1]
        if not any(a != b and base(a) == base(b) and st in ('fixed', 'vulnerable') for a, b, st in MOVED):
            fail('no evidence of a renamed file read under its new path: %s' % sorted(MOVED))
        for name, sc in score.items():
            print('%s: %d of %d verdicts right over %d tags' % (name, sum(ok for _, ok in sc), len(sc), len(tags)))
    if failures:
        for f in failures[:60]:
            print('FAIL:', f)
        print('%d failures' % len(failures))
        return 1
    print('code scenarios: every verdict agrees with the truth')
    return 0


if __name__ == '__main__':
    sys.exit(main())
