#!/usr/bin/python3
"""kcve index and kcve dyad against the synthetic history's ground truth.

1. Generate a small linux-stable-shaped repository (tools/gen-history, fixed seed).
2. `kcve index`: every commit of the truth with a release must be in the index with exactly the
   truth's release, mainline flag, upstream id, reverted id and Fixes ids; commits in no release
   range must be absent; nothing else may be there. (The index is read with sqlite3, table
   `commits` as written by src/lib/history/index_db.c.)
3. `kcve dyad` for every planted scenario (with --vulnerable where it has one): the non-comment
   lines must equal the expected lines, in order; then the same through `kcve dyad --batch`.
4. `gen-history --extend` adds one stable release; a second `kcve index` must add exactly its
   commits, and a third run must add nothing.
"""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

KCVE = os.environ.get('KCVE')
SRC = os.environ.get('KCVE_SRC', os.path.join(os.path.dirname(__file__), '..', '..'))
GEN = os.path.join(SRC, 'tools', 'gen-history')
failures = []


def fail(msg):
    failures.append(msg)


def kcve(repo, index, *args, check=True):
    r = subprocess.run([KCVE, '--repo', repo, '--index', index] + list(args), capture_output=True,
                       text=True)
    if check and r.returncode:
        fail('kcve %s exited %d: %s' % (' '.join(args)[:200], r.returncode, r.stderr.strip()[:500]))
    return r


def read_index(path):
    db = sqlite3.connect(path)
    rows = {}
    for sha, rel, ml, up, rev, fx in db.execute(
            'SELECT id, release, mainline, mainline_id, reverts, fixes FROM commits'):
        if sha in rows:
            fail('index: commit %s stored twice' % sha)
        rows[sha] = (rel, bool(ml), up or None, rev or None, (fx or '').split())
    db.close()
    return rows


def compare_index(rows, truth, only=None):
    bad = 0
    for sha, e in truth['commits'].items():
        if only is not None and sha not in only:
            continue
        want = (e['release'], e['mainline'], e.get('upstream'), e.get('reverts'), e.get('fixes', []))
        got = rows.get(sha)
        if e['release'] is None:
            if got is not None:
                bad += 1
                if bad <= 15:
                    fail('index: %s (%s) should be in no release, index says %s' % (sha, e['subject'], got[0]))
            continue
        if got != want:
            bad += 1
            if bad <= 15:
                fail('index: %s (%s, %s)\n   want %r\n   got  %r' % (sha, e['subject'][:50], e['branch'],
                                                                   want, got))
    extra = set(rows) - set(truth['commits'])
    if extra:
        fail('index: %d commits that are not in the history, e.g. %s' % (len(extra), sorted(extra)[0]))
    if bad > 15:
        fail('index: %d wrong commits in all' % bad)
    return bad


def dyad_lines(out):
    return [ln for ln in out.split('\n') if ln and not ln.startswith('#')]


def check_dyads(repo, index, truth):
    batch = []
    for s in truth['scenarios']:
        args = ['dyad']
        for v in s['vulnerable']:
            args += ['--vulnerable', v]
        args += s['fixes']
        r = kcve(repo, index, *args, check=False)
        if r.returncode:
            fail('%s (%s): kcve dyad exited %d: %s' % (s['id'], s['kind'], r.returncode, r.stderr.strip()))
            continue
        got = dyad_lines(r.stdout)
        if got != s['expected']:
            fail('%s (%s: %s)\n   want %s\n   got  %s' % (s['id'], s['kind'], s['description'],
                                                     '\n        '.join(s['expected']),
                                                     '\n        '.join(got)))
        if ('for git id %s' % s['fixes'][0]) not in r.stdout:
            fail('%s: header does not name the fix %s' % (s['id'], s['fixes'][0]))
        batch.append(' '.join(s['fixes'] + ['-v %s' % v for v in s['vulnerable']]))
    with tempfile.NamedTemporaryFile('w', suffix='.batch', delete=False) as f:
        f.write('# scenarios of the synthetic history\n' + '\n'.join(batch) + '\n')
        bpath = f.name
    try:
        r = kcve(repo, index, 'dyad', '--batch', bpath)
        sections = {}
        cur = None
        for ln in r.stdout.split('\n'):
            if ln.startswith('## '):
                cur = ln[3:]
                sections[cur] = []
            elif ln and not ln.startswith('#') and cur is not None:
                sections[cur].append(ln)
        labels = list(sections)
        if len(labels) != len(truth['scenarios']):
            fail('dyad --batch: %d sections for %d lines' % (len(labels), len(truth['scenarios'])))
        for lab, s in zip(labels, truth['scenarios']):
            if sections[lab] != s['expected']:
                fail('dyad --batch %s: %s differs from the expected lines' % (lab, s['id']))
    finally:
        os.unlink(bpath)


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    if not KCVE:
        print('KCVE not set')
        return 77
    with tempfile.TemporaryDirectory(prefix='kcve-genidx-') as td:
        repo = os.path.join(td, 'linux.git')
        index = os.path.join(td, 'index.sqlite')
        subprocess.run([sys.executable, GEN, '--size', 'small', '--seed', '3', '--out', repo], check=True)
        truth_path = os.path.join(repo, 'gen-truth.json')
        truth = load(truth_path)
        kcve(repo, index, 'index')
        if not os.path.exists(index):
            fail('kcve index wrote no %s' % index)
            return report()
        rows = read_index(index)
        compare_index(rows, truth)
        check_dyads(repo, index, truth)
        # incremental: one new stable release
        r = subprocess.run([sys.executable, GEN, '--extend', '--out', repo], capture_output=True, text=True)
        if r.returncode:
            fail('gen-history --extend: %s' % r.stderr)
            return report()
        truth2 = load(truth_path)
        new = set(truth2['commits']) - set(truth['commits'])
        kcve(repo, index, 'index')
        rows2 = read_index(index)
        if set(rows2) - set(rows) != new:
            fail('incremental index added %d commits, the new release has %d' % (
                len(set(rows2) - set(rows)), len(new)))
        compare_index(rows2, truth2)
        kcve(repo, index, 'index')
        if len(read_index(index)) != len(rows2):
            fail('an index run with nothing new changed the index')
        check_dyads(repo, index, truth2)
    return report()


def report():
    if failures:
        for f in failures[:60]:
            print('FAIL:', f)
        print('%d failures' % len(failures))
        return 1
    print('index and dyads agree with the ground truth')
    return 0


if __name__ == '__main__':
    sys.exit(main())
