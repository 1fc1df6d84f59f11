#!/usr/bin/python3
"""kcve check --csaf and --since on the real 2024 record tree (../shared; skips without it).

--validator (meson test check-csaf-validator): CSAF 2.0 VEX documents of several kernels (one
document per kernel, one with several kernels, one bound to a CycloneDX SBOM and one to an SPDX
SBOM, one with --all, one revision written with --since) go through the BSI validator, npm
@secvisogram/csaf-validator-lib (tests/check/csaf-validator/, installed into the build
directory): its strict schema and every mandatory test (basic.js) with no error and no warning,
and the optional tests, of which every one but 6.2.3 (a score for every affected product: most
kernel CNA records carry none) and 6.2.11 (a canonical URL: kcve does not know where the
document will be published) must pass. known_affected and under_investigation together equal `check --ids` for every
kernel.
Skips (77) when node, npm or the npm registry is missing.

--delta (meson test check-delta): an older snapshot of the tree (records removed, records the
current tree rejects still published, ranges and scores changed) under the build directory;
for several kernels `check --since OLD --json` must give added/removed equal to the set
differences of two full checks (--ids with OLD and with the current tree), with the planted
reasons; the same with OLD as a database; OpenVEX revisions (version, last_updated, timestamps
kept for unchanged statements, withdrawn statements) and the CSAF revision history."""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402  (real_tree, config_tree)
import vex  # noqa: E402  (npm_modules, skip)

KCVE = os.environ["KCVE"]
SRC = os.environ["KCVE_SRC"]
BUILD = os.environ.get("KCVE_BUILD") or tempfile.gettempdir()
KERNELS = ["5.10.220", "6.1.90", "6.6.30", "6.9"]
AUTHOR = ["--author", "Example Org <security@example.org>", "--role", "vendor"]
check, failures = fixtures.check, fixtures.failures


def run(*args, env=None, ok=(0,)):
    """kcve's stdout (fixtures.run), None when it failed."""
    return fixtures.run(*args, env=env, ok=ok)[0]


def ids(src, kernels, *extra):
    """kernel -> set of kept CVEs (check --ids)."""
    out = run("check", *src, "--version", ",".join(kernels), "--ids", *extra) or ""
    res = {}
    for line in out.splitlines():
        k, _, rest = line.partition(":")
        res[k] = set(rest.split())
    return res


def known_affected(doc):
    """product id -> set of CVEs kept: known_affected or under_investigation (docs/vex.md)."""
    res = {}
    for v in doc.get("vulnerabilities", []):
        ps = v.get("product_status", {})
        for pid in ps.get("known_affected", []) + ps.get("under_investigation", []):
            res.setdefault(pid, set()).add(v["cve"])
    return res


# --- CSAF and the BSI validator ---------------------------------------------------------------

ALLOWED_OPTIONAL = {"optionalTest_6_2_3", "optionalTest_6_2_11"}


def sboms(tmp):
    serial = "3e671687-395b-41f5-a30f-a58921a69b79"
    cdx = os.path.join(tmp, "sbom.cdx.json")
    with open(cdx, "w") as f:
        json.dump({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 2,
                   "serialNumber": "urn:uuid:" + serial,
                   "components": [{"type": "operating-system", "name": "linux-kernel",
                                   "version": "6.1.90", "bom-ref": "kernel",
                                   "purl": "pkg:deb/debian/linux-image-amd64@6.1.90",
                                   "cpe": "cpe:2.3:o:linux:linux_kernel:6.1.90:*:*:*:*:*:*:*"}]},
                  f)
    spdx = os.path.join(tmp, "sbom.spdx.json")
    with open(spdx, "w") as f:
        json.dump({"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT", "packages": [
            {"name": "linux-kernel", "SPDXID": "SPDXRef-Package-kernel", "versionInfo": "6.6.30",
             "externalRefs": [{"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                               "referenceLocator": "pkg:generic/linux-kernel@6.6.30"}]}]}, f)
    return cdx, f"urn:cdx:{serial}/2#kernel", spdx


def config_doc(tmp):
    """A small tree checked with a .config: a record whose file is not compiled and one never
    introduced (both vulnerable_code_not_present: docs/vex.md), one fixed, one affected and
    scored."""
    small, ksrc, config = fixtures.config_tree(tmp)
    out = run("check", "--tree", small, "--version", "6.1.5", "--config", config, "--source", ksrc,
              "--all", "--csaf", *AUTHOR)
    doc = json.loads(out or "{}")
    st = {v["cve"]: v for v in doc.get("vulnerabilities", [])}
    flags = {v["cve"]: {f["label"] for f in v.get("flags", [])} for v in st.values()}
    check(flags.get("CVE-2099-0002") == {"vulnerable_code_not_present"}
          and flags.get("CVE-2099-0004") == {"vulnerable_code_not_present"}
          and st.get("CVE-2099-0003", {}).get("product_status", {}).get("fixed")
          == ["linux-kernel-6.1.5"], f"CSAF flags and fixed: {flags}")
    rem = st.get("CVE-2099-0001", {}).get("remediations", [{}])[0]
    check(rem.get("category") == "vendor_fix" and "6.1.20" in rem.get("details", ""),
          f"vendor_fix naming the branch's first fixed release: {rem}")
    return out, {"linux-kernel-6.1.5": None}


def csaf_docs(root, tmp):
    """(label, document, {product id: kernel}) of every CSAF document this test validates."""
    t = ["--tree", root]
    docs = []
    for k in KERNELS:
        docs.append((f"--version {k}", run("check", *t, "--version", k, "--csaf", *AUTHOR),
                     {f"linux-kernel-{k}": k}))
    docs.append(("several kernels", run("check", *t, "--version", ",".join(KERNELS), "--csaf",
                                        *AUTHOR), {f"linux-kernel-{k}": k for k in KERNELS}))
    docs.append(("--all", run("check", *t, "--version", "6.1.90", "--csaf", "--all", *AUTHOR),
                 {"linux-kernel-6.1.90": "6.1.90"}))
    cdx, link, spdx = sboms(tmp)
    docs.append(("CycloneDX SBOM", run("check", *t, "--sbom", cdx, "--csaf", *AUTHOR),
                 {"linux-kernel-6.1.90": "6.1.90"}))
    docs.append(("SPDX SBOM", run("check", *t, "--sbom", spdx, "--csaf", *AUTHOR),
                 {"linux-kernel-6.6.30": "6.6.30"}))
    docs.append(("placeholder author", run("check", *t, "--version", "6.6.30", "--csaf"),
                 {"linux-kernel-6.6.30": "6.6.30"}))
    docs.append(("--config (small tree)", *config_doc(tmp)))
    out = [(label, json.loads(d), kernels) for label, d, kernels in docs if d]
    check(len(out) == len(docs), "a CSAF run failed")
    bound = next((d for label, d, _ in out if label == "CycloneDX SBOM"), {})
    helper = bound.get("product_tree", {}).get("branches", [{}])[0]["branches"][0]["branches"][0][
        "product"]["product_identification_helper"] if bound else {}
    check(helper.get("purl") == "pkg:deb/debian/linux-image-amd64@6.1.90"
          and helper.get("sbom_urls") == [link], f"SBOM binding: {helper}")
    return out


def validate(docs, tmp, modules, node):
    paths = []
    for i, (label, doc, _) in enumerate(docs):
        p = os.path.join(tmp, f"csaf-{i}.json")
        with open(p, "w") as f:
            json.dump(doc, f)
        paths.append(p)
    runner = os.path.join(SRC, "tests/check/csaf-validator/validate.mjs")
    lib = os.path.join(modules, "@secvisogram", "csaf-validator-lib")
    p = subprocess.run([node, runner, lib] + paths, capture_output=True, text=True, timeout=600)
    if p.returncode:
        check(False, f"validate.mjs: exit {p.returncode}: {p.stderr[-1500:]}")
        return None
    return [json.loads(p.stdout)[path] for path in paths]


def validator_test(root, tmp):
    modules, node = vex.npm_modules(
        os.path.join(SRC, "tests/check/csaf-validator"), "npm-csaf-validator",
        ("@secvisogram", "csaf-validator-lib"), "@secvisogram/csaf-validator-lib 2.0.10", 18)
    if not modules:
        return
    docs = csaf_docs(root, tmp)
    expect = ids(["--tree", root], KERNELS)
    old = os.path.join(BUILD, "csaf-validator-old")
    shutil.rmtree(old, ignore_errors=True)
    try:  # a revision (check --since) with withdrawn vulnerabilities
        planted = make_old(root, old, expect)
        docs.append(("--since OLD", csaf_revision(root, old, planted),
                     {"linux-kernel-6.1.90": "6.1.90"}))
    finally:
        shutil.rmtree(old, ignore_errors=True)
    for label, doc, kernels in docs:
        ka = known_affected(doc)
        for pid, k in kernels.items():
            if k is None:  # not a kernel of the 2024 tree
                continue
            check(ka.get(pid, set()) == expect[k],
                  f"{label}: known_affected + under_investigation of {k} differs from --ids: "
                  f"{sorted(ka.get(pid, set()) ^ expect[k])[:5]}")
    # the validator must refuse a broken document, or it proves nothing
    broken = copy.deepcopy(docs[0][1])
    broken["document"]["tracking"]["version"] = "2"
    ps0 = broken["vulnerabilities"][0]["product_status"]  # a contradicting status
    ps0["fixed"] = ps0.get("known_affected") or ps0["under_investigation"]
    results = validate(docs + [("broken", broken, {})], tmp, modules, node)
    if results is None:
        return
    passed_optional = None
    for (label, doc, _), res in zip(docs + [("broken", broken, {})], results):
        basic = {t: r for t, r in res["basic"].items() if r["errors"] or r["warnings"]}
        if label == "broken":
            check({"mandatoryTest_6_1_6", "mandatoryTest_6_1_16"} <= set(basic),
                  f"the validator accepts a broken document: {sorted(basic)}")
            continue
        nerr = sum(len(r["errors"]) for r in res["basic"].values())
        nwarn = sum(len(r["warnings"]) for r in res["basic"].values())
        check(not basic, f"{label}: schema/mandatory: {json.dumps(basic)[:1500]}")
        opt_fail = {t for t, r in res["optional"].items() if r["errors"] or r["warnings"]}
        check(opt_fail <= ALLOWED_OPTIONAL, f"{label}: optional tests fail: "
              f"{ {t: res['optional'][t] for t in opt_fail - ALLOWED_OPTIONAL} }"[:1500])
        ok = set(res["optional"]) - opt_fail
        passed_optional = ok if passed_optional is None else passed_optional & ok
        print(f"{label}: {len(doc['vulnerabilities'])} vulnerabilities; schema+mandatory "
              f"{len(res['basic'])} tests: {nerr} errors, {nwarn} warnings; optional "
              f"{len(res['optional']) - len(opt_fail)}/{len(res['optional'])} pass "
              f"(fail: {', '.join(sorted(opt_fail)) or 'none'})")
    print(f"optional tests passed by every document: {len(passed_optional or ())}: "
          f"{', '.join(sorted(passed_optional or ()))}")
    return docs


# --- the delta -------------------------------------------------------------------------------

def write_new(path, text):
    """Replace a (possibly hard-linked) file with new content."""
    if os.path.exists(path):
        os.unlink(path)
    with open(path, "w") as f:
        f.write(text)


def record_paths(root, cve, state="published"):
    d = os.path.join(root, "cve", state, cve.split("-")[1])
    return d, [os.path.join(d, n) for n in os.listdir(d) if n == cve or n.startswith(cve + ".")]


def load(root, cve):
    with open(os.path.join(root, "cve", "published", cve.split("-")[1], cve + ".json")) as f:
        return json.load(f)


def save(root, cve, doc):
    write_new(os.path.join(root, "cve", "published", cve.split("-")[1], cve + ".json"),
              json.dumps(doc, indent=2))


def linux_products(doc):
    return [a for a in doc["containers"]["cna"].get("affected", [])
            if a.get("product") == "Linux" and "versions" in a]


def make_old(root, old, new_ids):
    """OLD = the tree with planted differences at 6.1.90; returns what was planted."""
    subprocess.run(["cp", "-al", root, old], check=True)
    shutil.rmtree(os.path.join(old, ".git"), ignore_errors=True)
    k = sorted(new_ids["6.1.90"], key=lambda c: (len(c), c))
    planted = {"new": k[0:5], "range_added": [], "rejected": [], "range_removed": [],
               "score": []}
    for cve in planted["new"]:  # not published yet in OLD
        for p in record_paths(old, cve)[1]:
            os.unlink(p)
    for cve in k[5:60]:  # OLD had them fixed on 6.1 at 6.1.50
        doc = load(old, cve)
        prods = linux_products(doc)
        if not prods or len(planted["range_added"]) == 5:
            continue
        for a in prods:
            a["versions"].insert(0, {"version": "6.1.50", "lessThanOrEqual": "6.1.*",
                                     "status": "unaffected", "versionType": "semver"})
        save(old, cve, doc)
        planted["range_added"].append(cve)
    for cve in k[60:]:  # OLD had no score
        doc = load(old, cve)
        if len(planted["score"]) == 3 or "metrics" not in doc["containers"]["cna"]:
            continue
        del doc["containers"]["cna"]["metrics"]
        save(old, cve, doc)
        planted["score"].append(cve)
    # records the current tree rejects, still published (and applying) in OLD
    rej_dir = os.path.join(root, "cve", "rejected", "2024")
    template = load(root, k[70])
    for name in sorted(os.listdir(rej_dir)):
        if not name.endswith(".json") or len(planted["rejected"]) == 3:
            continue
        cve = name[:-5]
        doc = copy.deepcopy(template)
        doc["cveMetadata"]["cveId"] = cve
        save(old, cve, doc)
        planted["rejected"].append(cve)
    # records fixed at 6.1.90 now, whose OLD ranges had no 6.1 fix
    pub = os.path.join(root, "cve", "published", "2024")
    for name in sorted(os.listdir(pub)):
        if len(planted["range_removed"]) == 5:
            break
        cve = name[:-5]
        if not name.endswith(".json") or cve in new_ids["6.1.90"]:
            continue
        doc = load(root, cve)
        prods = linux_products(doc)
        with61 = [a for a in prods if any(v.get("lessThanOrEqual") == "6.1.*"
                                          and v["version"].startswith("6.1.")
                                          and v["version"][4:].isdigit()
                                          and int(v["version"][4:]) <= 90 for v in a["versions"])]
        if not with61 or any(a.get("defaultStatus") != "affected" for a in with61):
            continue
        for a in prods:
            a["versions"] = [v for v in a["versions"] if v.get("lessThanOrEqual") != "6.1.*"]
        save(old, cve, doc)
        planted["range_removed"].append(cve)
    return planted


def entries(delta, kind):
    return {e["id"]: e for e in delta.get(kind, [])}


def delta_checks(src_old, root, new_ids, planted, label):
    old_ids = ids(["--tree", src_old] if os.path.isdir(src_old) else ["--db", src_old], KERNELS)
    out = run("check", "--tree", root, "--version", ",".join(KERNELS), "--since", src_old,
              "--json")
    res = {r["release"]: r for r in json.loads(out or '{"results": []}')["results"]}
    for k in KERNELS:
        d = res.get(k, {}).get("delta", {})
        added, removed = entries(d, "added"), entries(d, "removed")
        check(set(added) == new_ids[k] - old_ids[k],
              f"{label} {k}: added {len(added)} != set difference {len(new_ids[k] - old_ids[k])}:"
              f" {sorted(set(added) ^ (new_ids[k] - old_ids[k]))[:5]}")
        check(set(removed) == old_ids[k] - new_ids[k],
              f"{label} {k}: removed {len(removed)} != set difference "
              f"{len(old_ids[k] - new_ids[k])}: {sorted(set(removed) ^ (old_ids[k] - new_ids[k]))[:5]}")
        check(not set(entries(d, "changed")) & (set(added) | set(removed)),
              f"{label} {k}: a CVE both changed and added/removed")
        print(f"{label} {k}: {len(added)} added, {len(removed)} removed, "
              f"{len(entries(d, 'changed'))} changed (full checks: {len(old_ids[k])} -> "
              f"{len(new_ids[k])})")
    d = res.get("6.1.90", {}).get("delta", {})
    added, removed, changed = entries(d, "added"), entries(d, "removed"), entries(d, "changed")
    for cve in planted["new"]:
        check("new record" in added.get(cve, {}).get("why", ""), f"{label}: {cve} not added as new")
    for cve in planted["range_added"]:
        check("range or fix changed" in added.get(cve, {}).get("why", ""),
              f"{label}: {cve} not added by a changed range: {added.get(cve)}")
    for cve in planted["rejected"]:
        e = removed.get(cve, {})
        check(e.get("withdrawn") and "rejected" in e.get("why", ""),
              f"{label}: {cve} not removed as rejected: {e}")
    # a record whose 6.1 entry went away may still not apply to 6.1.90 (introduced later)
    took = [c for c in planted["range_removed"] if c in old_ids["6.1.90"]]
    check(len(took) >= 3, f"{label}: only {took} of the changed ranges applied with OLD")
    for cve in took:
        check("fixed in this release" in removed.get(cve, {}).get("why", ""),
              f"{label}: {cve} not removed as fixed by a changed range: {removed.get(cve)}")
    for cve in planted["score"]:
        check("score" in changed.get(cve, {}).get("why", ""), f"{label}: {cve} score change")
    table = run("check", "--tree", root, "--version", "6.1.90", "--since", src_old) or ""
    check(table.startswith("6.1.90: since ") and " added, " in table.splitlines()[0],
          f"{label}: the table does not show the delta first: {table[:200]!r}")


def vex_revisions(root, old, planted):
    t = ["check", "--tree", root, "--version", "6.1.90"]
    old_doc = json.loads(run("check", "--tree", old, "--version", "6.1.90", "--openvex",
                             *AUTHOR) or "{}")
    prev = os.path.join(BUILD, "csaf-delta-prev.openvex.json")
    with open(prev, "w") as f:
        json.dump(old_doc, f)
    new = json.loads(run(*t, "--openvex", "--since", old, "--since-vex", prev, *AUTHOR,
                         env={"SOURCE_DATE_EPOCH": "1800000000"}) or "{}")
    check(new.get("version") == 2 and new.get("@id") == old_doc.get("@id")
          and new.get("timestamp") == old_doc.get("timestamp")
          and new.get("last_updated") == "2027-01-15T08:00:00Z",
          f"OpenVEX revision header: {[new.get(k) for k in ('version', '@id', 'timestamp', 'last_updated')]}")
    st = {s["vulnerability"]["name"]: s for s in new.get("statements", [])}
    olds = {s["vulnerability"]["name"]: s for s in old_doc.get("statements", [])}
    kept_ts = [c for c in olds if c in st and st[c]["timestamp"] == old_doc["timestamp"]]
    for cve in planted["rejected"]:
        s = st.get(cve, {})
        check(s.get("status") == "not_affected" and "withdrawn" in s.get("impact_statement", "")
              and s.get("timestamp") == "2027-01-15T08:00:00Z", f"withdrawn statement {cve}: {s}")
    for cve in planted["range_removed"]:
        if cve in olds:
            check(st.get(cve, {}).get("status") == "fixed", f"{cve} must be renewed as fixed")
    for cve in planted["new"] + planted["range_added"]:
        check(st.get(cve, {}).get("timestamp") == "2027-01-15T08:00:00Z",
              f"changed statement {cve} keeps an old timestamp")
    for cve in planted["score"]:  # OpenVEX states no score: the statement did not change
        check(st.get(cve, {}).get("timestamp") == old_doc.get("timestamp"),
              f"unchanged statement {cve} got a new timestamp")
    check(len(kept_ts) >= len(olds) - 20, f"only {len(kept_ts)} unchanged statements keep their timestamp")
    # a third revision from the second: version 3, the same statements keep their times
    second = os.path.join(BUILD, "csaf-delta-second.openvex.json")
    with open(second, "w") as f:
        json.dump(new, f)
    third = json.loads(run(*t, "--openvex", "--since", root, "--since-vex", second, *AUTHOR,
                           env={"SOURCE_DATE_EPOCH": "1900000000"}) or "{}")
    check(third.get("version") == 3, f"third revision version {third.get('version')}")
    t3 = {s["vulnerability"]["name"]: s["timestamp"] for s in third.get("statements", [])}
    moved = [c for c, s in st.items() if c in t3 and t3[c] != s["timestamp"]
             and c not in planted["rejected"]]
    check(not moved, f"nothing changed, yet statements got new timestamps: {moved[:5]}")
    ovx, _ = vex.validators()
    for name, d in (("revision", new), ("third", third)):
        errs = vex.errors(ovx, d)
        check(not errs, f"OpenVEX {name} revision: {errs[:3]}")
    print(f"OpenVEX: version 1 -> 2 -> 3, {len(kept_ts)} of {len(olds)} statements keep their "
          "timestamp, withdrawn statements for the rejected CVEs")


def csaf_revision(root, old, planted):
    doc = json.loads(run("check", "--tree", root, "--version", "6.1.90", "--since", old, "--csaf",
                         *AUTHOR) or "{}")
    tr = doc.get("document", {}).get("tracking", {})
    check(tr.get("version") == "2" and [r["number"] for r in tr.get("revision_history", [])]
          == ["1", "2"], f"CSAF revision: {tr}")
    vulns = {v["cve"]: v for v in doc.get("vulnerabilities", [])}
    for cve in planted["rejected"]:
        v = vulns.get(cve, {})
        check(v.get("product_status", {}).get("known_not_affected") == ["linux-kernel-6.1.90"]
              and v.get("threats", [{}])[0].get("category") == "impact",
              f"CSAF withdrawn {cve}: {v}")
    return doc


def refusals(root, tmp):
    """Bad --since / --since-vex inputs: one line, a distinct exit status, no output."""
    junk = os.path.join(tmp, "junk.json")
    with open(junk, "w") as f:
        f.write('{"statements": "no", "version": -1}')
    cases = [(["--since", os.path.join(tmp, "nope")], 9),
             (["--since", root, "--openvex", "--since-vex", junk], 13),
             (["--since", root, "--openvex", "--since-vex", tmp], 9),
             (["--since", root, "--ids"], 2), (["--since-vex", junk, "--openvex"], 2)]
    for extra, code in cases:
        p = subprocess.run([KCVE, "check", "--tree", root, "--version", "6.1.90", "--max-age",
                            "off"] + extra,
                           capture_output=True, text=True, timeout=300)
        check(p.returncode == code and not p.stdout and len(p.stderr.splitlines()) == 1,
              f"{' '.join(extra[:3])}: exit {p.returncode} (want {code}), {p.stderr!r}")


def delta_test(root, tmp):
    refusals(root, tmp)
    new_ids = ids(["--tree", root], KERNELS)
    old = os.path.join(BUILD, "csaf-delta-old")
    shutil.rmtree(old, ignore_errors=True)
    try:
        planted = make_old(root, old, new_ids)
        print("planted at 6.1.90:", {k: len(v) for k, v in planted.items()})
        check(all(len(v) >= 3 for v in planted.values()), f"too little planted: {planted}")
        delta_checks(old, root, new_ids, planted, "tree")
        db = os.path.join(tmp, "old.db")
        run("db", "build", "--tree", old, "-o", db)
        delta_checks(db, root, new_ids, planted, "db")
        vex_revisions(root, old, planted)
        return csaf_revision(root, old, planted)
    finally:
        shutil.rmtree(old, ignore_errors=True)


def main():
    root = fixtures.real_tree()
    with tempfile.TemporaryDirectory() as tmp:
        if "--validator" in sys.argv[1:]:
            validator_test(root, tmp)
        if "--delta" in sys.argv[1:]:
            delta_test(root, tmp)
    print(f"csaf: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
