#!/usr/bin/python3
"""Module states of the QEMU boot test, one kernel variant at a time.

    module-states.py select TREE MODULES_LIST OUTTREE
        copy into OUTTREE the published records whose programFiles, leaving out tools/ and
        Documentation/ (never compiled into the kernel), are exactly one module file of
        MODULES_LIST: their verdict depends on that module alone.
    module-states.py compare MODULES_LIST VARIANT GUEST_SECTION HOST_JSON
        GUEST_SECTION is the guest's console output of `kcve check --running --json` over
        those records, HOST_JSON the host's `kcve check --version --config --json` for the
        same .config.  Asserts that both give every record the same outcome, and that each
        module's records show the state MODULES_LIST gives it in VARIANT: loaded -> affected
        and "module_loaded": true; not-loaded -> affected and "module_loaded": false;
        not-built -> not_compiled.  Prints one line per record; exit 1 on any mismatch.
"""
import json
import os
import shutil
import sys

COLUMNS = {'a': 2, 'b': 3}


def modules(path, variant=None):
    rows = []
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith('#'):
            continue
        rows.append((f[0], f[1], f[COLUMNS[variant]] if variant else None))
    return rows


def program_files(rec):
    files = set()
    for a in rec.get('containers', {}).get('cna', {}).get('affected', []):
        files.update(a.get('programFiles', []))
    return {f for f in files if not f.startswith(('tools/', 'Documentation/'))}


def select(tree, mlist, out):
    wanted = {f for _, f, _ in modules(mlist)}
    n = 0
    pub = os.path.join(tree, 'cve', 'published')
    for year in sorted(os.listdir(pub)):
        ydir = os.path.join(pub, year)
        for name in sorted(os.listdir(ydir)):
            if not name.endswith('.json'):
                continue
            with open(os.path.join(ydir, name)) as fh:
                files = program_files(json.load(fh))
            if len(files) != 1 or not files <= wanted:
                continue
            dest = os.path.join(out, 'cve', 'published', year)
            os.makedirs(dest, exist_ok=True)
            stem = name[:-len('.json')]
            for other in os.listdir(ydir):
                if other == stem or other.startswith(stem + '.'):
                    shutil.copy2(os.path.join(ydir, other), dest)
            n += 1
    print('module-states: %d records whose only kernel file is a module file of %s' % (n, mlist))
    return 0 if n else 1


def guest_json(path):
    text = open(path, errors='replace').read()
    start = text.find('\n{')
    start = 0 if text.startswith('{') else start + 1
    return json.JSONDecoder().raw_decode(text[start:])[0]


def cves(doc):
    return {c['id']: c for r in doc['results'] for c in r['cves']}


def compare(mlist, variant, guest_path, host_path):
    guest, host = cves(guest_json(guest_path)), cves(json.load(open(host_path)))
    bad = 0
    g_out = {i: c['outcome'] for i, c in guest.items()}
    h_out = {i: c['outcome'] for i, c in host.items()}
    if g_out != h_out:
        print('module-states: FAIL: guest and host outcomes differ: guest %s host %s' % (g_out, h_out))
        bad = 1
    want = {'loaded': ('affected', True), 'not-loaded': ('affected', False),
            'not-built': ('not_compiled', None)}
    for mod, path, state in modules(mlist, variant):
        recs = [c for c in guest.values() if path in c['files']]
        if not recs:
            print('module-states: FAIL: %s (%s): no record applies by version' % (mod, path))
            bad = 1
        for c in recs:
            outcome, loaded = want[state]
            got = (c['outcome'], c.get('module_loaded'))
            mark = {True: ' [module loaded]', False: ' [module not loaded]', None: ''}[got[1]]
            ok = got == (outcome, loaded)
            print('module-states: variant %s: %-12s %-10s %s %s%s%s' % (
                variant, mod, state, c['id'], c['outcome'], mark, '' if ok else '  <- FAIL'))
            bad |= not ok
    return bad


def main(argv):
    if len(argv) == 5 and argv[1] == 'select':
        return select(*argv[2:])
    if len(argv) == 6 and argv[1] == 'compare':
        return compare(*argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
