#!/usr/bin/env python3
"""Train, score and evaluate kcve review's learned classifier (docs/review-model.md).

The model is a logistic regression over binary features of a commit: words, word pairs and the
subsystem prefix of the subject, the words of the body (trailers and upstream-commit lines
dropped), and the touched paths. Its weights are a text file read by src/lib/review/model.c;
the feature extraction below and the C one must stay identical (tests/review/test_review_model.py
checks that both give the same features and scores).

Pure Python (standard library only): full-batch L-BFGS on an L2-regularised log-loss, examples
and features in sorted order, so the same data always gives the same file, byte for byte.

  review-model.py train --stable TSV.xz [--records TAR.xz] [--releases A-B]
                        [--exclude-subjects-of A-B] [--threshold-from A-B:B-C ...] --out MODEL
  review-model.py score --model MODEL FILE...        (same columns as kcve review --classify)
  review-model.py features FILE...                   (the features of each message, one a line)
  review-model.py eval --model MODEL --stable TSV.xz --releases A-B [--threshold T]
  review-model.py cv --stable TSV.xz --releases A-B [--folds K] [--recall R]
                        (K-fold cross-validation inside one span of releases: how far the
                         labels themselves let a subject model go, with no drift over time)
"""
import argparse
import hashlib
import io
import json
import lzma
import math
import os
import sys
import tarfile

MODEL_VERSION = 1
FEATURES_VERSION = 1

# ---------------------------------------------------------------------------------------------
# Feature extraction.  Everything works on bytes; only ASCII letters are lowercased; bytes
# >= 0x80 separate words.  Mirror of src/lib/review/model.c: change both or neither.

WORD = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_")
PREFIX = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789_./+-")
HEX = frozenset(b"0123456789abcdef")
MAX_TOKEN = 40
MAX_SEG = 40
MAX_SEGS = 3
TRAILER_TAGS = (b"fixes:", b"cc:", b"link:", b"closes:", b"message-id:", b"stable-dep-of:",
                b"change-id:", b"patchwork-id:")


def lower(b):
    return bytes(c + 32 if 65 <= c <= 90 else c for c in b)


def tokens(text):
    """Maximal runs of [a-z0-9_] of lowercased text, minus noise (hex ids, 0x..., too long)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text[i] not in WORD:
            i += 1
            continue
        j = i
        while j < n and text[j] in WORD:
            j += 1
        t = text[i:j]
        i = j
        if len(t) > MAX_TOKEN or t.startswith(b"0x"):
            continue
        if len(t) >= 8 and all(c in HEX for c in t):
            continue
        out.append(t)
    return out


def is_dropped_line(line):
    """Trailer and upstream-commit lines: every stable commit has them; they weigh nothing."""
    s = lower(line.lstrip(b" \t"))
    for tag in TRAILER_TAGS:
        if s.startswith(tag):
            return True
    colon = s.find(b": ")
    if colon > 3 and s[:colon].endswith(b"-by") and b" " not in s[:colon]:
        return True
    if s.startswith(b"commit ") and b" upstream" in s:
        return True
    return s.startswith(b"[ upstream commit") or s.startswith(b"(cherry picked from commit")


def split_message(msg):
    i = 0
    while i < len(msg) and msg[i] in b" \t\r\n":
        i += 1
    nl = msg.find(b"\n", i)
    if nl < 0:
        subj, body = msg[i:], b""
    else:
        subj, body = msg[i:nl], msg[nl + 1:]
    return subj.rstrip(b" \t\r"), body


def features(msg, paths=None):
    """Sorted list of the distinct feature names (bytes) of one commit."""
    subj, body = split_message(msg)
    low = lower(subj)
    f = set()
    pos, segs = 0, []
    while len(segs) < MAX_SEGS:
        j = low.find(b": ", pos)
        if j < 0:
            break
        seg = low[pos:j]
        if not seg or len(seg) > MAX_SEG or any(c not in PREFIX for c in seg):
            break
        segs.append(seg)
        pos = j + 2
    if segs:
        top = segs[0].split(b"/")[0]
        f.add(b"p:" + top)
        full = b"/".join(segs)
        if full != top:
            f.add(b"pp:" + full)
    toks = tokens(low[pos:])
    if toks:
        f.add(b"f:" + toks[0])
    for k, t in enumerate(toks):
        f.add(b"w:" + t)
        if k + 1 < len(toks):
            f.add(b"ww:" + t + b"+" + toks[k + 1])
    for line in body.split(b"\n"):
        if is_dropped_line(line):
            continue
        for t in tokens(lower(line)):
            f.add(b"b:" + t)
    if paths:
        alldoc = True
        for p in paths:
            lp = lower(p)
            comps = lp.split(b"/")
            f.add(b"d:" + (comps[0] if len(comps) > 1 else b"/"))
            if len(comps) > 2:
                f.add(b"dd:" + comps[0] + b"/" + comps[1])
            if lp.startswith(b"documentation/devicetree/bindings/"):
                f.add(b"k:dt-bindings")
            elif lp.startswith(b"documentation/"):
                f.add(b"k:doc")
            if lp.startswith(b"tools/testing/"):
                f.add(b"k:selftests")
            if lp.endswith(b".h"):
                f.add(b"k:header")
            if not (lp.startswith(b"documentation/") or lp.startswith(b"tools/")
                    or lp.startswith(b"samples/")):
                alldoc = False
        if alldoc:
            f.add(b"k:only-doc-tools")
    return sorted(f)


# ---------------------------------------------------------------------------------------------
# Data.

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def parse_range(s):
    a, b = s.split("-")
    return int(a), int(b)


def load_stable(path):
    """[(release number, label 0/1, subject bytes)] in file order."""
    rows = []
    with lzma.open(path, "rb") as fh:
        header = fh.readline().rstrip(b"\n").split(b"\t")
        if header[:4] != [b"stable", b"label", b"cves", b"subject"]:
            sys.exit("review-model: %s: unexpected header" % path)
        for line in fh:
            cols = line.rstrip(b"\n").split(b"\t")
            if len(cols) < 4:
                continue
            rel = int(cols[0].split(b".")[2])
            rows.append((rel, 1 if cols[1] == b"pos" else 0, cols[3]))
    return rows


PREAMBLE = b"In the Linux kernel, the following vulnerability has been resolved:"


def load_records(path):
    """[(label, message bytes, [paths])] of every published (1) and rejected (0) record, sorted
    by id. The description of a record is its fix commit's message behind a fixed preamble."""
    out = []
    with tarfile.open(path, "r:xz") as tar:
        for m in tar:
            name = m.name
            if not m.isfile() or not name.endswith(".json") or "/cve/" not in name:
                continue
            label = 1 if "/published/" in name else 0 if "/rejected/" in name else None
            if label is None:
                continue
            d = json.load(tar.extractfile(m))
            cna = d.get("containers", {}).get("cna", {})
            descs = cna.get("descriptions") or []
            if not descs:
                continue
            text = descs[0].get("value", "").encode("utf-8", "surrogateescape")
            if text.startswith(PREAMBLE):
                text = text[len(PREAMBLE):].lstrip(b"\n")
            else:
                title = cna.get("title", "").encode("utf-8", "surrogateescape")
                text = title + b"\n\n" + text
            paths = set()
            for a in cna.get("affected") or []:
                for p in a.get("programFiles") or []:
                    paths.add(p.encode("utf-8", "surrogateescape"))
            out.append((os.path.basename(name), label, text, sorted(paths)))
    out.sort()
    return [(lab, text, paths) for _, lab, text, paths in out]


def norm_subject(s):
    return b" ".join(lower(s).split())


# ---------------------------------------------------------------------------------------------
# Logistic regression, full-batch L-BFGS (deterministic: no sampling).

def sigmoid(z):
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def train_lr(examples, nfeat, l2, iters, log=None, sw=None):
    """l2: one number, or one per parameter (index 0, the bias, is never regularised)."""
    """examples: [(y, [feature indices])], sw: optional example weights. Parameter 0 is the
    bias (not regularised)."""
    if sw is None:
        sw = [1.0] * len(examples)
    l2v = l2 if isinstance(l2, list) else [l2] * (nfeat + 1)
    dim = nfeat + 1

    def loss_grad(w):
        g = [0.0] * dim
        loss = 0.0
        for (y, idx), c in zip(examples, sw):
            z = w[0]
            for i in idx:
                z += w[i]
            p = sigmoid(z)
            loss += c * ((math.log1p(math.exp(-abs(z))) + max(z, 0.0)) - y * z)
            d = c * (p - y)
            g[0] += d
            for i in idx:
                g[i] += d
        for i in range(1, dim):
            loss += 0.5 * l2v[i] * w[i] * w[i]
            g[i] += l2v[i] * w[i]
        return loss, g

    w = [0.0] * dim
    f, g = loss_grad(w)
    S, Y, RHO = [], [], []
    m = 10
    for it in range(iters):
        q = g[:]
        alphas = []
        for s, y, rho in reversed(list(zip(S, Y, RHO))):
            a = rho * sum(si * qi for si, qi in zip(s, q))
            alphas.append(a)
            q = [qi - a * yi for qi, yi in zip(q, y)]
        if Y:
            gamma = sum(a * b for a, b in zip(S[-1], Y[-1])) / sum(b * b for b in Y[-1])
        else:
            gamma = 1.0 / max(1.0, math.sqrt(sum(x * x for x in g)))
        r = [gamma * qi for qi in q]
        for (s, y, rho), a in zip(zip(S, Y, RHO), reversed(alphas)):
            b = rho * sum(yi * ri for yi, ri in zip(y, r))
            r = [ri + si * (a - b) for ri, si in zip(r, s)]
        d = [-ri for ri in r]
        gd = sum(gi * di for gi, di in zip(g, d))
        if gd >= 0:
            d = [-gi for gi in g]
            gd = sum(gi * di for gi, di in zip(g, d))
            S, Y, RHO = [], [], []
        step = 1.0
        while True:
            wn = [wi + step * di for wi, di in zip(w, d)]
            fn, gn = loss_grad(wn)
            if fn <= f + 1e-4 * step * gd or step < 1e-10:
                break
            step *= 0.5
        s = [a - b for a, b in zip(wn, w)]
        y = [a - b for a, b in zip(gn, g)]
        sy = sum(a * b for a, b in zip(s, y))
        if sy > 1e-12:
            S.append(s)
            Y.append(y)
            RHO.append(1.0 / sy)
            if len(S) > m:
                S.pop(0)
                Y.pop(0)
                RHO.pop(0)
        rel = (f - fn) / max(abs(f), 1.0)
        w, f, g = wn, fn, gn
        if log:
            log("iter %d loss %.6f" % (it + 1, f))
        if rel < 1e-9:
            break
    return w


# ---------------------------------------------------------------------------------------------
# Model file.

def fmt(x):
    s = "%.6f" % x
    return "0.000000" if s == "-0.000000" else s


def write_model(path, bias, threshold, weights, meta):
    lines = ["# kcve review model: logistic regression over commit features (docs/review-model.md)",
             "# produced by tools/review-model.py; edit by retraining, not by hand",
             "version\t%d" % MODEL_VERSION,
             "features-version\t%d" % FEATURES_VERSION]
    for k, v in meta:
        lines.append("meta\t%s\t%s" % (k, v))
    lines.append("bias\t%s" % fmt(bias))
    lines.append("threshold\t%s" % ("%.4f" % threshold))
    # the C reader takes printable ASCII names of at most 200 bytes (odd paths never match)
    kept = sorted((name, w) for name, w in weights.items() if fmt(w) != "0.000000"
                  and len(name) <= 200 and all(0x21 <= c <= 0x7e for c in name))
    lines.append("weights\t%d" % len(kept))
    for name, w in kept:
        lines.append("%s\t%s" % (name.decode("ascii"), fmt(w)))
    lines.append("end")
    data = ("\n".join(lines) + "\n").encode("ascii")
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def read_model(path):
    bias = threshold = None
    w = {}
    with open(path, "rb") as fh:
        for line in fh:
            cols = line.rstrip(b"\n").split(b"\t")
            if cols[0].startswith(b"#") or cols[0] in (b"version", b"features-version", b"meta",
                                                       b"weights", b"end"):
                continue
            if cols[0] == b"bias":
                bias = float(cols[1])
            elif cols[0] == b"threshold":
                threshold = float(cols[1])
            else:
                w[cols[0]] = float(cols[1])
    return bias, threshold, w


def score(model, msg, paths=None):
    """(probability, [(feature, weight)] of the matched features, in feature order)."""
    bias, _, w = model
    z = bias
    hit = []
    for name in features(msg, paths):
        if name in w:
            z += w[name]
            hit.append((name, w[name]))
    return sigmoid(z), hit


# ---------------------------------------------------------------------------------------------
# Evaluation.

def prf(scores_labels, thr):
    tp = sum(1 for s, y in scores_labels if s >= thr and y)
    fp = sum(1 for s, y in scores_labels if s >= thr and not y)
    pos = sum(1 for _, y in scores_labels if y)
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / pos if pos else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f1, tp + fp


def threshold_for_recall(scores_labels, recall):
    """Highest threshold whose recall is >= recall."""
    pos = sorted((s for s, y in scores_labels if y), reverse=True)
    if not pos:
        return 0.5
    k = max(1, math.ceil(recall * len(pos)))
    return pos[k - 1]


def build_examples(stable_rows, records, vocab=None):
    """-> (examples [(y, [idx])], names). Stable rows are subject-only; records carry body and
    paths and a source feature 'src:record' that absorbs their different base rate (it is not
    written to the model, so it never moves a score)."""
    feats = []
    for _, y, subj in stable_rows:
        feats.append((y, features(subj)))
    for y, text, paths in records:
        feats.append((y, features(text, paths) + [b"src:record"]))
    if vocab is None:
        vocab = sorted({n for _, fs in feats for n in fs})
    index = {n: i + 1 for i, n in enumerate(vocab)}
    ex = [(y, sorted(index[n] for n in fs if n in index)) for y, fs in feats]
    return ex, vocab


def fit(stable_rows, records, l2, iters, min_count, log=None, body_l2=5.0):
    """Bias and weights. Only the records have bodies and paths, and nearly all of them are
    positives: their own intercept (src:record, not regularised, not written to the model)
    takes their base rate, body and path features learn only the published/rejected contrast,
    and they are regularised body_l2 times harder than the subject features."""
    counts, body = {}, set()
    for _, _, subj in stable_rows:
        for n in features(subj):
            counts[n] = counts.get(n, 0) + 1
    for _, text, paths in records:
        for n in features(text, paths):
            counts[n] = counts.get(n, 0) + 1
            if n[:2] in (b"b:", b"d:", b"dd", b"k:"):
                body.add(n)
    vocab = sorted(set(n for n, c in counts.items() if c >= min_count) | {b"src:record"})
    ex, vocab = build_examples(stable_rows, records, vocab)
    l2v = [0.0] + [0.0 if n == b"src:record" else l2 * (body_l2 if n in body else 1.0)
                   for n in vocab]
    w = train_lr(ex, len(vocab), l2v, iters, log)
    weights = {n: w[i + 1] for i, n in enumerate(vocab) if n != b"src:record"}
    return w[0], weights


def select(rows, rng):
    a, b = rng
    return [r for r in rows if a <= r[0] <= b]


def cross_validate(a):
    """Train on K-1 folds of one span of releases and score the K-th, for every fold, and
    measure the pooled scores. Rows go to folds by their position in the file (every K-th row),
    so folds mix all releases of the span and the result is the same on every run. This is not
    how the model is judged (that is by time, older releases -> newer ones): it is the ceiling
    a subject model reaches when the releases it is measured on are like those it learned from."""
    if a.folds < 2:
        sys.exit("review-model: --folds must be at least 2")
    if not 0.0 < a.recall <= 1.0:
        sys.exit("review-model: --recall must be above 0 and at most 1")
    rows = select(load_stable(a.stable), parse_range(a.releases))
    if len(rows) < a.folds or not any(y for _, y, _ in rows):
        sys.exit("review-model: --releases %s holds %d commits, %d with a CVE: too few for %d "
                 "folds" % (a.releases, len(rows), sum(y for _, y, _ in rows), a.folds))
    pooled = []
    for k in range(a.folds):
        train = [r for i, r in enumerate(rows) if i % a.folds != k]
        held = [r for i, r in enumerate(rows) if i % a.folds == k]
        b, w = fit(train, [], a.l2, a.iters, a.min_count)
        pooled += [(score((b, None, w), subj)[0], y) for _, y, subj in held]
    thr = threshold_for_recall(pooled, a.recall)
    p, r, f1, n = prf(pooled, thr)
    pos = sum(y for _, y in pooled)
    print("%d-fold cross-validation inside 6.1.%s: %d commits, %d with a CVE (%.1f %%)"
          % (a.folds, a.releases.replace("-", "-6.1."), len(pooled), pos, 100.0 * pos / len(pooled)))
    print("at recall %.2f (threshold %.4f): flagged %d, precision %.3f recall %.3f F1 %.3f"
          % (a.recall, thr, n, p, r, f1))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("train")
    t.add_argument("--stable", required=True)
    t.add_argument("--records")
    t.add_argument("--releases", default="1-119")
    t.add_argument("--exclude-subjects-of", help="drop records whose subject is one of these releases'")
    t.add_argument("--limit", type=int, default=0, help="use only the first N stable rows (tests)")
    t.add_argument("--threshold", type=float, help="fixed threshold instead of a validated one")
    t.add_argument("--validate", action="append", default=[],
                   help="TRAIN:HELD (e.g. 1-60:61-80): train on TRAIN, take the threshold for "
                        "--recall on HELD; several are pooled")
    t.add_argument("--recall", type=float, default=0.87)
    t.add_argument("--l2", type=float, default=10.0)
    t.add_argument("--body-l2", type=float, default=5.0,
                   help="body and path features are regularised this many times harder")
    t.add_argument("--iters", type=int, default=200)
    t.add_argument("--min-count", type=int, default=2)
    t.add_argument("--out", required=True)
    t.add_argument("-v", action="store_true")
    s = sub.add_parser("score")
    s.add_argument("--model", required=True)
    s.add_argument("files", nargs="+")
    fe = sub.add_parser("features")
    fe.add_argument("files", nargs="+")
    e = sub.add_parser("eval")
    e.add_argument("--model", required=True)
    e.add_argument("--stable", required=True)
    e.add_argument("--releases", required=True)
    e.add_argument("--threshold", type=float)
    c = sub.add_parser("cv")
    c.add_argument("--stable", required=True)
    c.add_argument("--releases", required=True)
    c.add_argument("--folds", type=int, default=5)
    c.add_argument("--recall", type=float, default=0.85)
    c.add_argument("--l2", type=float, default=10.0)
    c.add_argument("--iters", type=int, default=200)
    c.add_argument("--min-count", type=int, default=2)
    a = ap.parse_args()
    log = (lambda m: print(m, file=sys.stderr)) if getattr(a, "v", False) else None

    if a.cmd == "features":
        for p in a.files:
            with open(p, "rb") as fh:
                for n in features(fh.read()):
                    print(n.decode("ascii"))
        return 0
    if a.cmd == "score":
        model = read_model(a.model)
        for p in a.files:
            with open(p, "rb") as fh:
                prob, hit = score(model, fh.read())
            print("%s\t%.4f\t%s\t%s" % (p, prob, "candidate" if prob >= model[1] else "no",
                                        " ".join("%s=%s" % (n.decode(), fmt(w)) for n, w in hit)))
        return 0
    if a.cmd == "eval":
        model = read_model(a.model)
        rows = select(load_stable(a.stable), parse_range(a.releases))
        sl = [(score(model, subj)[0], y) for _, y, subj in rows]
        thr = model[1] if a.threshold is None else a.threshold
        p, r, f1, n = prf(sl, thr)
        print("threshold %.4f: flagged %d of %d, precision %.3f recall %.3f F1 %.3f"
              % (thr, n, len(sl), p, r, f1))
        t85 = threshold_for_recall(sl, 0.85)
        p, r, f1, n = prf(sl, t85)
        print("at recall 0.85 (threshold %.4f): precision %.3f recall %.3f F1 %.3f"
              % (t85, p, r, f1))
        return 0

    if a.cmd == "cv":
        return cross_validate(a)

    allrows = load_stable(a.stable)
    if a.limit:
        allrows = allrows[:a.limit]
    rows = select(allrows, parse_range(a.releases))
    records = load_records(a.records) if a.records else []
    if a.exclude_subjects_of:
        held = {norm_subject(s) for _, _, s in select(allrows, parse_range(a.exclude_subjects_of))}
        records = [r for r in records if norm_subject(split_message(r[1])[0]) not in held]
    meta = [("stable-data", "%s sha256:%s" % (os.path.basename(a.stable), sha256(a.stable))),
            ("stable-releases", "6.1.%s (%d commits)" % (a.releases.replace("-", "-6.1."), len(rows)))]
    if a.records:
        meta.append(("records-data", "%s sha256:%s" % (os.path.basename(a.records), sha256(a.records))))
        meta.append(("records", "%d (published and rejected)%s" % (
            len(records), ", minus subjects of 6.1.%s" % a.exclude_subjects_of.replace("-", "-6.1.")
            if a.exclude_subjects_of else "")))
    meta.append(("training", "l2 %g (body and paths x%g), min-count %d, L-BFGS up to %d iterations"
                 % (a.l2, a.body_l2, a.min_count, a.iters)))
    if a.threshold is not None:
        thr = a.threshold
        meta.append(("threshold", "fixed %.4f" % thr))
    elif a.validate:
        pooled = []
        for v in a.validate:
            tr, he = v.split(":")
            held = select(allrows, parse_range(he))
            hs = {norm_subject(s) for _, _, s in held}
            recs = [r for r in records if norm_subject(split_message(r[1])[0]) not in hs]
            b, w = fit(select(allrows, parse_range(tr)), recs, a.l2, a.iters, a.min_count, log,
                       a.body_l2)
            m = (b, None, w)
            pooled += [(score(m, subj)[0], y) for _, y, subj in held]
        thr = threshold_for_recall(pooled, a.recall)
        meta.append(("threshold", "recall %.2f on held-out releases %s" % (a.recall, " ".join(a.validate))))
    else:
        thr = 0.5
        meta.append(("threshold", "default 0.5"))
    bias, weights = fit(rows, records, a.l2, a.iters, a.min_count, log, a.body_l2)
    write_model(a.out, bias, thr, weights, meta)
    return 0


if __name__ == "__main__":
    sys.exit(main())
