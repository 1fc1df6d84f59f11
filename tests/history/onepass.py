#!/usr/bin/python3
"""The one-pass full index build against the per-range build, row for row.

A fresh `kcve index` reads every commit once and replays each release range's revwalk in memory
(src/lib/history/index_walk.c); KCVE_INDEX_PER_RANGE=1 makes it run one libgit2 revwalk per
range instead (the code incremental updates use). Both must write the same index: every table,
rows in the same order (rowid), since dyad lists backports and reverts in index order.

Histories:
 - the small synthetic linux-stable history (tools/gen-history, fixed seed);
 - random DAGs built with git fast-import whose committer dates go backwards, repeat and jump,
   so that libgit2's date-ordered walk, its uninteresting marking and its "slop" cut-off take
   every path: merges of old topic branches, -rc tags after the last release, a stable branch
   without its base release, two tags on one commit, a second root.
Some of them are repacked so that commits are stored as deltas (offset and by-id bases) or
loose, since the one-pass build reads packs itself (src/lib/history/packread.c) and leaves
the rest to libgit2.
"""
import os
import random
import re
import sqlite3
import subprocess
import sys
import tempfile

KCVE = os.environ.get('KCVE')
SRC = os.environ.get('KCVE_SRC', os.path.join(os.path.dirname(__file__), '..', '..'))
GEN = os.path.join(SRC, 'tools', 'gen-history')
failures = []
TABLES = {
    'commits': 'SELECT rowid, * FROM commits ORDER BY rowid',
    'ranges': 'SELECT rowid, * FROM ranges ORDER BY rowid',
    'generations': 'SELECT hex(id), gen FROM generations ORDER BY id',
    'meta': 'SELECT * FROM meta ORDER BY key',
}


def fail(msg):
    failures.append(msg)


def build(repo, index, per_range):
    env = dict(os.environ)
    env.pop('KCVE_INDEX_PER_RANGE', None)
    if per_range:
        env['KCVE_INDEX_PER_RANGE'] = '1'
    r = subprocess.run([KCVE, '--repo', repo, '--index', index, 'index'], capture_output=True,
                       text=True, env=env)
    if r.returncode:
        fail('%s: kcve index%s exited %d: %s' % (repo, ' (per range)' if per_range else '',
                                                 r.returncode, r.stderr.strip()[:300]))
    return r.stdout


def compare(repo, name):
    a = os.path.join(os.path.dirname(repo), name + '-onepass.sqlite')
    b = os.path.join(os.path.dirname(repo), name + '-ranges.sqlite')
    out_a = build(repo, a, False)
    out_b = build(repo, b, True)
    if failures:
        return
    out_a = re.sub(r'[0-9.]+ s\b', 'N s', out_a.replace(a, 'INDEX'))
    out_b = re.sub(r'[0-9.]+ s\b', 'N s', out_b.replace(b, 'INDEX'))
    if out_a != out_b:
        fail('%s: the summaries differ:\n  %s\n  %s' % (name, out_a.strip(), out_b.strip()))
    da, db = sqlite3.connect(a), sqlite3.connect(b)
    for table, q in TABLES.items():
        ra, rb = da.execute(q).fetchall(), db.execute(q).fetchall()
        if ra != rb:
            first = next((i for i, (x, y) in enumerate(zip(ra, rb)) if x != y), min(len(ra), len(rb)))
            fail('%s: table %s differs (%d rows one-pass, %d per range), first at row %d:\n  %r\n  %r'
                 % (name, table, len(ra), len(rb), first, ra[first] if first < len(ra) else None,
                    rb[first] if first < len(rb) else None))
    n = da.execute('SELECT count(*) FROM commits').fetchone()[0]
    da.close()
    db.close()
    print('%s: %d commits, same index both ways' % (name, n))
    return n


def random_history(path, seed):
    """A kernel-shaped history with hostile dates, written with git fast-import."""
    rnd = random.Random(seed)
    subprocess.run(['git', 'init', '-q', '--bare', path], check=True)
    out = []
    marks = 0
    t = [1500000000]

    def date():
        r = rnd.random()
        if r < 0.15:
            pass  # same second as the previous commit
        elif r < 0.25:
            t[0] -= rnd.randint(1, 200000)  # clock skew: older than its parent
        else:
            t[0] += rnd.randint(1, 5000)
        return t[0]

    def commit(ref, parents, msg):
        nonlocal marks
        marks += 1
        data = msg.encode()
        out.append('commit %s\nmark :%d\nauthor A U Thor <a@example.org> %d +0000\n'
                   'committer C O Mitter <c@example.org> %d +0000\ndata %d\n'
                   % (ref, marks, t[0], date(), len(data)))
        out.append(msg + '\n')
        if parents:
            out.append('from :%d\n' % parents[0])
            for p in parents[1:]:
                out.append('merge :%d\n' % p)
        else:
            out.append('deleteall\n')
        return marks

    tags = []
    main = [commit('refs/heads/master', [], 'initial')]
    topics = []
    releases = []
    for rel in range(1, 9):
        for _ in range(rnd.randint(20, 60)):
            r = rnd.random()
            if r < 0.2:  # a topic branch from some older mainline commit
                base = rnd.choice(main[-80:])
                tip = base
                for _ in range(rnd.randint(1, 8)):
                    tip = commit('refs/heads/topic', [tip], 'topic work %d' % marks)
                topics.append(tip)
            elif r < 0.35 and topics:  # merge one or two of them
                m = [main[-1]] + [topics.pop(rnd.randrange(len(topics)))
                                  for _ in range(min(len(topics), rnd.randint(1, 2)))]
                main.append(commit('refs/heads/master', m, 'Merge topics'))
            else:
                fixes = ''
                if rnd.random() < 0.2:
                    fixes = '\n\nFixes: %012x ("something")' % rnd.getrandbits(48)
                main.append(commit('refs/heads/master', [main[-1]], 'mm: change %d%s' % (marks, fixes)))
        tags.append(('v1.%d' % rel, main[-1]))
        releases.append(main[-1])
    # -rc tags of the cycle in progress, one of them on the same commit as the next
    for rc in range(1, 4):
        main.append(commit('refs/heads/master', [main[-1]], 'rc work %d' % marks))
        tags.append(('v1.9-rc%d' % rc, main[-1]))
    tags.append(('v1.9-rc4', main[-1]))
    # stable branches: backports with dates older and newer than the release
    for rel in range(1, 8):
        tip = releases[rel - 1]
        for s in range(1, rnd.randint(2, 5)):
            for _ in range(rnd.randint(1, 6)):
                tip = commit('refs/heads/linux-1.%d.y' % rel, [tip],
                             'backport %d\n\n[ Upstream commit %040x ]' % (marks, rnd.getrandbits(160)))
            tags.append(('v1.%d.%d' % (rel, s), tip))
    # a stable branch whose base release is not tagged, starting from a second root
    tip = commit('refs/heads/other', [], 'second root')
    for s in range(1, 4):
        tip = commit('refs/heads/other', [tip], 'other %d' % marks)
        tags.append(('v7.7.%d' % s, tip))
    for name, mark in tags:
        out.append('reset refs/tags/%s\nfrom :%d\n\n' % (name, mark))
    subprocess.run(['git', '--git-dir', path, 'fast-import', '--quiet'],
                   input=''.join(out).encode(), check=True)


def storage(repo, seed):
    """How the objects are stored: as fast-import wrote them (whole commits in one pack),
    repacked with deltas (seed 1: offset bases, seed 2: by-id bases), a few loose commits on top
    (seed 3)."""
    git = ['git', '--git-dir', repo]
    if seed in (1, 2):
        cfg = ['-c', 'repack.useDeltaBaseOffset=%s' % ('true' if seed == 1 else 'false')]
        subprocess.run(git[:1] + cfg + git[1:] + ['repack', '-adfq', '--window=250', '--depth=50'],
                       check=True)
        v = subprocess.run(git + ['verify-pack', '-v'] + [os.path.join(repo, 'objects', 'pack', f)
                           for f in os.listdir(os.path.join(repo, 'objects', 'pack'))
                           if f.endswith('.idx')], capture_output=True, text=True, check=True)
        deltas = sum(1 for line in v.stdout.splitlines()
                     if line.split()[1:2] == ['commit'] and len(line.split()) >= 7)
        if not deltas:
            fail('random%d: repacking stored no commit as a delta' % seed)
    elif seed == 3:
        tip = subprocess.run(git + ['rev-parse', 'v1.9-rc4'], capture_output=True, text=True,
                             check=True).stdout.strip()
        tree = subprocess.run(git + ['rev-parse', tip + '^{tree}'], capture_output=True,
                              text=True, check=True).stdout.strip()
        for i in range(5):
            tip = subprocess.run(git + ['commit-tree', tree, '-p', tip, '-m', 'loose %d' % i],
                                 capture_output=True, text=True, check=True).stdout.strip()
        subprocess.run(git + ['tag', 'v1.9-rc5', tip], check=True)


def main():
    if not KCVE:
        print('KCVE not set')
        return 77
    with tempfile.TemporaryDirectory(prefix='kcve-onepass-') as td:
        os.environ.update(HOME=td, GIT_CONFIG_NOSYSTEM='1', GIT_AUTHOR_NAME='A U Thor',
                          GIT_AUTHOR_EMAIL='a@example.org', GIT_COMMITTER_NAME='C O Mitter',
                          GIT_COMMITTER_EMAIL='c@example.org')
        for seed in range(1, 9):
            repo = os.path.join(td, 'random%d.git' % seed)
            random_history(repo, seed)
            storage(repo, seed)
            compare(repo, 'random%d' % seed)
        repo = os.path.join(td, 'small.git')
        subprocess.run([sys.executable, GEN, '--size', 'small', '--seed', '5', '--out', repo],
                       check=True, stdout=subprocess.DEVNULL)
        compare(repo, 'small')
    if failures:
        for f in failures[:40]:
            print('FAIL:', f)
        print('%d failures' % len(failures))
        return 1
    print('one-pass and per-range builds agree')
    return 0


if __name__ == '__main__':
    sys.exit(main())
