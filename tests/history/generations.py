#!/usr/bin/python3
"""Generation numbers in the history index and the ancestry answers dyad's ordering uses.

Builds a small repository with plain git (topic-branch merges, an octopus merge, a merge of an
old fork point, a stable branch), then:
1. `kcve index`: the `generations` table must hold, for every indexed commit, 1 + the largest
   generation of its parents (1 for a root), computed here from `git rev-list --parents`;
2. test_ancestry (C, argv[1]): history_descendant_of must agree with libgit2's
   git_graph_descendant_of for every ordered pair of indexed commits;
3. new tags (a stable release, a mainline release with a merge): the incremental update must
   add the new commits' generations (their parents' come from the index), and 2. again;
4. an index without the table (as written before it existed) must still answer correctly
   (libgit2 fallback) and still update incrementally.
"""
import os
import sqlite3
import subprocess
import sys
import tempfile

KCVE = os.environ.get('KCVE')
ANCESTRY = sys.argv[1] if len(sys.argv) > 1 else None
failures = []


def git(repo, *args):
    return subprocess.run(['git', '-C', repo] + list(args), check=True, capture_output=True,
                          text=True).stdout.strip()


counter = [0]


def commit(repo, msg):
    counter[0] += 1
    n = counter[0]
    with open(os.path.join(repo, 'f%d' % n), 'w') as f:
        f.write('%d\n' % n)
    git(repo, 'add', 'f%d' % n)
    env = dict(os.environ, GIT_AUTHOR_DATE='@%d +0000' % (1700000000 + n),
               GIT_COMMITTER_DATE='@%d +0000' % (1700000000 + n))
    subprocess.run(['git', '-C', repo, 'commit', '-q', '-m', msg], check=True, env=env)
    return git(repo, 'rev-parse', 'HEAD')


def merge(repo, *branches):
    counter[0] += 1
    env = dict(os.environ, GIT_AUTHOR_DATE='@%d +0000' % (1700000000 + counter[0]),
               GIT_COMMITTER_DATE='@%d +0000' % (1700000000 + counter[0]))
    subprocess.run(['git', '-C', repo, 'merge', '-q', '--no-ff', '-m', 'Merge ' + ' '.join(branches)]
                   + list(branches), check=True, env=env, capture_output=True)


def expected_gens(repo):
    parents = {}
    for line in git(repo, 'rev-list', '--all', '--parents').splitlines():
        ids = line.split()
        parents[ids[0]] = ids[1:]
    gen = {}
    for c in parents:  # iterative DFS: parents before children
        stack = [c]
        while stack:
            t = stack[-1]
            if t in gen:
                stack.pop()
                continue
            todo = [p for p in parents[t] if p not in gen]
            if todo:
                stack.extend(todo)
                continue
            gen[t] = 1 + max([gen[p] for p in parents[t]] or [0])
            stack.pop()
    return gen


def check_gens(repo, index, what):
    db = sqlite3.connect(index)
    ids = [r[0] for r in db.execute('SELECT id FROM commits')]
    got = {bytes(k).hex(): v for k, v in db.execute('SELECT id, gen FROM generations')}
    db.close()
    want = expected_gens(repo)
    bad = [(i, got.get(i), want[i]) for i in ids if got.get(i) != want[i]]
    if bad or not ids:
        failures.append('%s: %d of %d generations wrong, e.g. %s' % (what, len(bad), len(ids), bad[:3]))
    return len(ids)


def check_ancestry(repo, index, what):
    r = subprocess.run([ANCESTRY, repo, index], capture_output=True, text=True)
    print(what + ': ' + r.stdout.strip())
    if r.returncode:
        failures.append('%s: ancestry answers differ from libgit2: %s %s' % (what, r.stdout, r.stderr))


def kcve_index(repo, index, what):
    r = subprocess.run([KCVE, '--repo', repo, '--index', index, 'index'], capture_output=True, text=True)
    if r.returncode:
        failures.append('%s: kcve index exited %d: %s' % (what, r.returncode, r.stderr))
    return r.stdout


def main():
    if not KCVE or not ANCESTRY:
        print('KCVE and the test_ancestry path are required', file=sys.stderr)
        return 1
    os.environ.update(GIT_CONFIG_NOSYSTEM='1', GIT_AUTHOR_NAME='A U Thor',
                      GIT_AUTHOR_EMAIL='a@example.org', GIT_COMMITTER_NAME='C O Mitter',
                      GIT_COMMITTER_EMAIL='c@example.org')
    for k in ('KCVE_REPO', 'KCVE_INDEX', 'KCVE_TREE'):
        os.environ.pop(k, None)
    with tempfile.TemporaryDirectory() as t:
        os.environ['HOME'] = t
        repo = os.path.join(t, 'linux')
        subprocess.run(['git', 'init', '-q', '-b', 'master', repo], check=True)
        commit(repo, 'init')
        git(repo, 'tag', 'v6.0')
        git(repo, 'checkout', '-q', '-b', 'topic')
        for i in range(3):
            commit(repo, 'topic %d' % i)
        git(repo, 'checkout', '-q', 'master')
        commit(repo, 'main 1')
        commit(repo, 'main 2')
        merge(repo, 'topic')
        git(repo, 'tag', 'v6.1')
        for b in ('o1', 'o2', 'o3'):
            git(repo, 'checkout', '-q', '-b', b, 'v6.1')
            commit(repo, 'octopus part ' + b)
            commit(repo, 'octopus part 2 ' + b)
        git(repo, 'checkout', '-q', 'master')
        commit(repo, 'main 3')
        merge(repo, 'o1', 'o2', 'o3')
        git(repo, 'tag', 'v6.2-rc1')
        # a long-lived branch forked from v6.0, merged two releases later
        git(repo, 'checkout', '-q', '-b', 'old', 'v6.0')
        commit(repo, 'old fork 1')
        git(repo, 'checkout', '-q', 'master')
        commit(repo, 'main 4')
        merge(repo, 'old')
        git(repo, 'tag', 'v6.2')
        git(repo, 'checkout', '-q', '-b', 'linux-6.1.y', 'v6.1')
        commit(repo, 'stable 1')
        commit(repo, 'stable 2')
        git(repo, 'tag', 'v6.1.1')
        commit(repo, 'stable 3')
        git(repo, 'tag', 'v6.1.2')
        git(repo, 'checkout', '-q', 'master')

        index = os.path.join(t, 'idx.sqlite')
        kcve_index(repo, index, 'full build')
        n = check_gens(repo, index, 'full build')
        print('full build: %d commits with generations' % n)
        check_ancestry(repo, index, 'full build')

        # incremental: a stable release and a mainline release with a merge
        git(repo, 'checkout', '-q', 'linux-6.1.y')
        commit(repo, 'stable 4')
        git(repo, 'tag', 'v6.1.3')
        git(repo, 'checkout', '-q', '-b', 'late', 'v6.2')
        commit(repo, 'late 1')
        git(repo, 'checkout', '-q', 'master')
        commit(repo, 'main 5')
        merge(repo, 'late')
        git(repo, 'tag', 'v6.3')
        out = kcve_index(repo, index, 'incremental')
        if '(2 new)' not in out:
            failures.append('incremental: expected 2 new ranges: ' + out)
        n2 = check_gens(repo, index, 'incremental')
        if n2 <= n:
            failures.append('incremental: no commits added (%d -> %d)' % (n, n2))
        check_ancestry(repo, index, 'incremental')

        # an index from before the generations table: answers via libgit2, updates still work
        db = sqlite3.connect(index)
        db.execute('DROP TABLE generations')
        db.commit()
        db.close()
        check_ancestry(repo, index, 'no generations table')
        commit(repo, 'main 6')
        git(repo, 'tag', 'v6.4')
        out = kcve_index(repo, index, 'incremental without generations')
        if '(1 new)' not in out:
            failures.append('incremental without generations: expected 1 new range: ' + out)
        check_ancestry(repo, index, 'incremental without generations')
    for f in failures:
        print('FAIL: ' + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
