#!/usr/bin/env python3
"""A fix of N hunks on one file, and the trees to find it in (issue 35 item 3).

codefix-hunks.py OUT N writes
  OUT/patches/CVE-2099-0001.patch  one patch of N hunks on drivers/many.c (`diff -u -p` form:
                                   each hunk replaces one line of its own function);
  OUT/fixed/, OUT/vulnerable/      trees without history: a top Makefile and drivers/many.c with
                                   the N functions after and before the fix;
  OUT/spec.json                    the record of CVE-2099-0001 for tests/check/mktree.py.
codefix-hunks.py --wide OUT N writes the worst case for the matcher instead: N hunks of 600
lines (the most a hunk keeps) that all stand 16 times in drivers/many.c (the most a line may
stand and still propose a place), so each hunk has 16 places to align, none telling; the
vulnerable and fixed trees are the same.
codefix-hunks.py --lookalike OUT N writes the narrow case with every hunk header naming big(), a
function of drivers/many.c with a body of about 90 KiB that calls none of the others: each hunk reads
fixed in its own function, a look-alike of big() (codefix/match.c), and the matcher reads big()
for a call to it (at most 64 KiB) before leaving the hunk undecided.
Used by bench/codefix-hunks.sh (time against N) and tests/hostile/hunks.sh (bounded time)."""
import json
import os
import sys

wide = sys.argv[1] == '--wide'
lookalike = sys.argv[1] == '--lookalike'
out, n = sys.argv[1 + (wide or lookalike)], int(sys.argv[2 + (wide or lookalike)])
FN = 11  # lines per function, the blank line after it included


def function(i, fixed):
    # short names: 100,000 functions stay below the 16 MiB a source file may have
    change = (['\tr = cpc(d, r);', '\ts = mxc(d, s);'] if fixed
              else ['\tr = cp(d, r);', '\ts = mx(d, s);'])
    return (['int m%d(M *d)' % i, '{', '\tint r = d->v%d;' % i,
             '\tint s = d->a%d;' % i, '\tr += p%d(d);' % i] + change +
            ['\td->l%d = r;' % i, '\td->b%d = s;' % i, '\treturn r+s;', '}'])


def tree(fixed):
    lines = []
    if lookalike:  # big(): 8,000 lines of 12 bytes, calls that start like the m functions
        lines += ['int big(M *d)', '{'] + ['\tmz%d(d);' % i for i in range(8000)] + ['}', '']
    for i in range(n):
        lines += function(i, fixed) + ['']
    return '\n'.join(lines) + '\n'


def write_wide():
    m = 600
    block = ['\tx_%d = y_%d(z);' % (i, i) for i in range(m)]
    for kind in ('fixed', 'vulnerable'):
        os.makedirs(os.path.join(out, kind, 'drivers'), exist_ok=True)
        with open(os.path.join(out, kind, 'Makefile'), 'w') as f:
            f.write('VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n')
        with open(os.path.join(out, kind, 'drivers', 'many.c'), 'w') as f:
            f.write('\n'.join(block * 16) + '\n')
    os.makedirs(os.path.join(out, 'patches'), exist_ok=True)
    with open(os.path.join(out, 'patches', 'CVE-2099-0001.patch'), 'w') as f:
        f.write('--- a/drivers/many.c\n+++ b/drivers/many.c\n')
        for i in range(n):
            f.write('@@ -1,%d +1,%d @@\n' % (m, m))
            f.write(''.join(' %s\n' % l for l in block[:m // 2 - 1]))
            f.write('-%s\n+\tq = r(%d);\n' % (block[m // 2 - 1], i))
            f.write(''.join(' %s\n' % l for l in block[m // 2:]))


def write_narrow():
    for kind, fixed in (('fixed', True), ('vulnerable', False)):
        os.makedirs(os.path.join(out, kind, 'drivers'), exist_ok=True)
        with open(os.path.join(out, kind, 'Makefile'), 'w') as f:
            f.write('VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n')
        with open(os.path.join(out, kind, 'drivers', 'many.c'), 'w') as f:
            f.write(tree(fixed))
    os.makedirs(os.path.join(out, 'patches'), exist_ok=True)
    with open(os.path.join(out, 'patches', 'CVE-2099-0001.patch'), 'w') as f:
        f.write('--- a/drivers/many.c\n+++ b/drivers/many.c\n')
        for i in range(n):
            old, new = function(i, False), function(i, True)
            start = i * FN + 3  # the function's third line, 1-based
            f.write('@@ -%d,8 +%d,8 @@ %s\n' % (start, start,
                                                 'int big(M *d)' if lookalike else old[0][:40]))
            f.write(''.join(' %s\n' % l for l in old[2:5]))
            f.write(''.join('-%s\n' % l for l in old[5:7]))
            f.write(''.join('+%s\n' % l for l in new[5:7]))
            f.write(''.join(' %s\n' % l for l in old[7:10]))


write_wide() if wide else write_narrow()
with open(os.path.join(out, 'spec.json'), 'w') as f:
    json.dump([{'id': 'CVE-2099-0001', 'files': ['drivers/many.c'],
                'fixes': ['0123456789abcdef0123456789abcdef01234567'], 'pairs': []}], f)
