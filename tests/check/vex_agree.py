#!/usr/bin/python3
"""The VEX writers agree (docs/vex.md): one check, every format (--openvex, --cyclonedx, --csaf,
--spdx3), the same CVEs stated for the same kernels with the same status and justification,
and those are the ones docs/vex.md's table gives for each kcve outcome.

Cases, on a small synthetic record tree and a tiny kernel source with a .config: affected,
unknown (a header the makefiles never name), no data, not compiled (a file the configuration
leaves out, a directory Kbuild does not list), fixed and never introduced (listed with --all),
two kernels in one document, the code stage finding the fix in a tree (or not), and a revision: --since OLD where OLD had a CVE affected that is
fixed now (renewed as fixed by every format), a CVE rejected since (withdrawn in every format),
a new CVE, and a CVE already fixed with OLD (stated by none without --all). Nothing applies
(docs/vex.md "When nothing applies"): a fully patched kernel is stated in every format exactly as
with --all, with one warning (no other case warns), --json and --ids unchanged; a document where
one of two kernels has something keeps the rule; a revision with only a withdrawn CVE states just
that; no record at all (an empty database) is exit 24 and no document. The OpenVEX (always, also
of a fully patched kernel) and CycloneDX documents are checked against their schemas too (the CSAF and SPDX 3 validators run in
check-csaf-validator and check-spdx3).

Each document is read back into {(release, CVE): (status, justification)} in OpenVEX's words:
status affected / under_investigation / not_affected / fixed, justification
vulnerable_code_not_present / inline_mitigations_already_exist / withdrawn / "-"."""
import difflib
import json
import os
import shutil
import struct
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402  (check, run)
import mktree  # noqa: E402
import vex  # noqa: E402  (the OpenVEX and CycloneDX schema validators)

AUTHOR = ["--author", "Example Org <security@example.org>", "--role", "vendor"]
FORMATS = ("--openvex", "--cyclonedx", "--csaf", "--spdx3")
check, failures = fixtures.check, fixtures.failures
VALIDATORS = []

# docs/vex.md: kcve outcome (and the stage that decided, where it matters) -> the statement
TABLE = {
    "affected": ("affected", "-"),
    "unknown": ("under_investigation", "-"),
    "no_data": ("under_investigation", "-"),
    "not_compiled": ("not_affected", "vulnerable_code_not_present"),
    "mitigated": ("not_affected", "inline_mitigations_already_exist"),
    "not_introduced": ("not_affected", "vulnerable_code_not_present"),
    "fixed/code": ("not_affected", "vulnerable_code_not_present"),
    "fixed": ("fixed", "-"),
}
LISTED_WITHOUT_ALL = {"affected", "unknown", "no_data", "not_compiled", "mitigated"}

A, B = "a" * 40, "b" * 40


def run(*args):
    return fixtures.run(*args, timeout=120)[0]


def rec(cve, files, pairs=None, **kw):
    r = {"id": cve, "title": cve, "files": files, "pairs": pairs or [], "fixes": [B]}
    r.update(kw)
    return r


def write_tree(root, records, rejected=()):
    mktree.write_tree(root, records)
    for cve in rejected:  # the CNA rejected it: cve/rejected/YEAR/CVE.json
        d = os.path.join(root, "cve", "rejected", cve.split("-")[1])
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, cve + ".json"), "w") as f:
            json.dump({"dataType": "CVE_RECORD", "cveMetadata": {"cveId": cve,
                                                                 "state": "REJECTED"}}, f)


# --- each format read back ---------------------------------------------------------------------

def from_openvex(doc):
    out = {}
    for st in doc.get("statements", []):
        rel = st["products"][0]["@id"].rpartition("@")[2]
        just = st.get("justification", "-")
        if st.get("impact_statement", "").startswith("withdrawn:"):
            just = "withdrawn"
        out[(rel, st["vulnerability"]["name"])] = (st["status"], just)
    return out


CSAF_STATUS = {"known_affected": "affected", "under_investigation": "under_investigation",
               "known_not_affected": "not_affected", "fixed": "fixed"}


def from_csaf(doc):
    out = {}
    for v in doc.get("vulnerabilities", []):
        flags = {}
        for f in v.get("flags", []):
            for pid in f["product_ids"]:
                flags[pid] = f["label"]
        withdrawn = any(n.get("title") == "Withdrawn" for n in v.get("notes", []))
        for st, pids in v.get("product_status", {}).items():
            for pid in pids:
                key = (pid.removeprefix("linux-kernel-"), v["cve"])
                check(key not in out, f"CSAF: two statuses for {key}")
                just = "withdrawn" if withdrawn else flags.get(pid, "-")
                out[key] = (CSAF_STATUS.get(st, st), just)
    return out


CDX_STATE = {"exploitable": "affected", "in_triage": "under_investigation",
             "not_affected": "not_affected", "resolved": "fixed"}
CDX_JUST = {"code_not_present": "vulnerable_code_not_present",
            "protected_by_mitigating_control": "inline_mitigations_already_exist"}
CDX_VERSION = {"affected": {"affected"}, "unknown": {"under_investigation"},
               "unaffected": {"not_affected", "fixed"}}


def from_cyclonedx(doc):
    """One analysis per CVE for every kernel: exact per (kernel, CVE) for one kernel; with
    several, the per-kernel version status must fit the other formats' status (checked by
    the caller through `coarse`)."""
    out, coarse = {}, {}
    for v in doc.get("vulnerabilities", []):
        an = v.get("analysis", {})
        st = CDX_STATE.get(an.get("state"), an.get("state"))
        just = CDX_JUST.get(an.get("justification"), "-")
        if an.get("detail", "").startswith("withdrawn:"):
            just = "withdrawn"
        for a in v.get("affects", []):
            for ver in a.get("versions", []):
                key = (ver["version"], v["id"])
                out[key] = (st, just)
                coarse[key] = CDX_VERSION.get(ver["status"], {ver["status"]})
    return out, coarse


SPDX_TYPE = {"security_VexAffectedVulnAssessmentRelationship": "affected",
             "security_VexNotAffectedVulnAssessmentRelationship": "not_affected",
             "security_VexFixedVulnAssessmentRelationship": "fixed",
             "security_VexUnderInvestigationVulnAssessmentRelationship": "under_investigation"}
SPDX_JUST = {"vulnerableCodeNotPresent": "vulnerable_code_not_present",
             "inlineMitigationsAlreadyExist": "inline_mitigations_already_exist",
             "componentNotPresent": "component_not_present"}


def from_spdx3(doc):
    g = doc.get("@graph", [])
    by = {e["spdxId"]: e for e in g if "spdxId" in e}
    out = {}
    for e in g:
        st = SPDX_TYPE.get(e.get("type"))
        if not st:
            continue
        cve = by[e["from"]]["name"]
        just = SPDX_JUST.get(e.get("security_justificationType"), "-")
        if "security_withdrawnTime" in e:
            just = "withdrawn"
        for to in e.get("to", []):
            out[(by[to].get("software_packageVersion"), cve)] = (st, just)
    return out


WIDENED = "the VEX document states every record checked (as with --all)"


def statements(label, args, multi=False, widened=False):
    """Every format of one check; returns OpenVEX's statements after comparing the others.
    widened: nothing applies, so each format warns once that it states every record checked
    (else none warns)."""
    docs = {}
    for fmt in FORMATS:
        out, err = fixtures.run("check", *args, fmt, *AUTHOR, timeout=120)
        docs[fmt] = json.loads(out or "{}")
        n = err.count(WIDENED)
        check(n == (1 if widened else 0),
              f"{label} {fmt}: {n} warnings that every record is stated, want {int(widened)}")
    if not VALIDATORS:
        VALIDATORS.extend(vex.validators())
    ovx, cdx = VALIDATORS
    # every document, also of a kernel nothing applies to (the OpenVEX schema wants at least
    # one statement)
    errs = vex.errors(ovx, docs["--openvex"]) + vex.errors(cdx["1.5"], docs["--cyclonedx"]) + \
        vex.errors(cdx["1.6"], docs["--cyclonedx"])
    check(not errs, f"{label}: schema errors: {errs[:3]}")
    want = from_openvex(docs["--openvex"])
    check(want, f"{label}: OpenVEX states nothing")
    check(all(docs[f].get(k) for f, k in (("--csaf", "vulnerabilities"),
                                          ("--cyclonedx", "vulnerabilities"))),
          f"{label}: CSAF or CycloneDX states nothing")
    got = {"--csaf": from_csaf(docs["--csaf"]), "--spdx3": from_spdx3(docs["--spdx3"])}
    if "--cyclonedx" in docs:
        cdx, coarse = from_cyclonedx(docs["--cyclonedx"])
        bad = sorted((k, sorted(coarse.get(k, ())), want.get(k))
                     for k in set(coarse) | set(want) if want.get(k, ("",))[0] not in coarse.get(k, ()))
        check(not bad, f"{label}: CycloneDX version statuses differ from OpenVEX's: {bad[:4]}")
        if not multi:
            got["--cyclonedx"] = cdx
    for fmt, g in got.items():
        diff = sorted(set(g.items()) ^ set(want.items()))
        check(g == want, f"{label}: {fmt} states {len(g)}, --openvex {len(want)}; differ: {diff[:6]}")
    return want


def outcomes(args):
    """(release, CVE) -> kcve's outcome (with /code when the code stage found the fix)."""
    out = run("check", *args, "--json") or "{}"
    res = {}
    for r in json.loads(out).get("results", []):
        for c in r.get("cves", []):
            o = c["outcome"] + ("/code" if c["outcome"] == "fixed" and c.get("stage") == "code" else "")
            res[(r["release"], c["id"])] = o
    return res


def follows_table(label, args, st, all_=False):
    """The statements are docs/vex.md's table applied to kcve's outcomes."""
    want = {}
    for key, o in outcomes(args + (["--all"] if all_ else [])).items():
        if all_ or o in LISTED_WITHOUT_ALL:
            want[key] = TABLE[o]
    diff = sorted(set(st.items()) ^ set(want.items()))
    check(st == want, f"{label}: statements differ from docs/vex.md's table: {diff[:6]}")


def code_case(tmp):
    """The code stage (--source with a fix fingerprint from a patch): a tree with the fix (fixed
    by its code: not affected, vulnerable code not present, stated with --all) and one without
    (affected by its code)."""
    old = "int foo_probe(void)\n{\n\treturn 1;\n}\n"
    new = "int foo_probe(void)\n{\n\treturn 2;\n}\n"
    for side, text in (("fixed", new), ("open", old)):
        for name, t in (("Makefile", "VERSION = 6\nPATCHLEVEL = 0\nSUBLEVEL = 2\n"),
                        ("drivers/foo/foo.c", text)):
            path = os.path.join(tmp, side, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(t)
    patches = os.path.join(tmp, "patches")
    os.makedirs(patches)
    with open(os.path.join(patches, "CVE-2099-0201.patch"), "w") as f:
        f.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                          "a/drivers/foo/foo.c", "b/drivers/foo/foo.c"))
    tree = os.path.join(tmp, "code-tree")
    mktree.write_tree(tree, [rec("CVE-2099-0201", ["drivers/foo/foo.c"], [f"6.0:{A}:6.0.5:{B}"])])
    db = os.path.join(tmp, "code.db")
    run("db", "build", "--tree", tree, "--patches", patches, "-o", db)
    key = ("6.0.2", "CVE-2099-0201")
    for side, want in (("fixed", ("not_affected", "vulnerable_code_not_present")),
                       ("open", ("affected", "-"))):
        args = ["--db", db, "--source", os.path.join(tmp, side), "--version", "6.0.2"]
        st = statements(f"code stage, {side}", args + ["--all"])
        follows_table(f"code stage, {side}", args, st, all_=True)
        check(st.get(key) == want, f"code stage, {side}: {st.get(key)}, want {want}")
        # the tree with the fix: nothing applies, so the one record is stated as with --all
        st = statements(f"code stage, {side}, without --all", args, widened=side == "fixed")
        check(st.get(key) == want, f"code stage, {side}, without --all: {st.get(key)}")


def empty_db(path):
    """A well-formed database (format 2) without a record: an empty payload with the tree section
    (newest record 0, HEAD 0, no branch data), built 2023-11-14."""
    payload = bytes(4)  # uleb newest, uleb head, u8 has-branches, uleb count
    comp = zlib.compress(payload)
    built = struct.pack("<II", 1700000000, 0)
    crc = zlib.crc32(built, zlib.crc32(payload))
    with open(path, "wb") as f:
        f.write(b"KCVEDB\0\x02" + struct.pack("<IIIII", 0, len(payload), len(comp), crc, 4) +
                built + comp)


def nothing_applies_case(tmp):
    """docs/vex.md "When nothing applies": a fully patched kernel (every record fixed or never
    introduced) is stated in every format exactly as with --all, with one warning; --json and
    --ids are not VEX and stay as they were; a kernel set where one kernel has something keeps
    the usual rule; a revision with only a withdrawn CVE states that; no record at all is one
    error line, exit 24, and no document."""
    patched = os.path.join(tmp, "patched")
    records = [
        rec("CVE-2099-0001", ["fs/ext4/inode.c"],                              # 6.1.5: affected,
            [f"5.10:{A}:6.1.20:{B}", f"5.10:{A}:6.6:{B}"]),                   # 6.6.1: fixed
        rec("CVE-2099-0003", ["fs/ext4/inode.c"], [f"4.4:{A}:5.0:{B}"]),      # fixed
        rec("CVE-2099-0004", ["fs/ext4/inode.c"], [f"6.7:{A}:6.8:{B}"]),      # not introduced
    ]
    write_tree(patched, records, rejected=["CVE-2099-0009"])
    args = ["--tree", patched, "--version", "6.6.1"]
    st = statements("nothing applies", args, widened=True)
    every = statements("nothing applies --all", args + ["--all"])
    check(st == every, f"nothing applies: not what --all states: {sorted(set(st.items()) ^ set(every.items()))}")
    follows_table("nothing applies", args, st, all_=True)
    check(len(st) == len(records) and st.get(("6.6.1", "CVE-2099-0003")) == ("fixed", "-")
          and st.get(("6.6.1", "CVE-2099-0004")) == ("not_affected", "vulnerable_code_not_present"),
          f"nothing applies: every record, fixed / not affected: {st}")
    # not VEX: --json lists nothing without --all, --ids an empty line, neither warns
    out, err = fixtures.run("check", *args, "--json", timeout=120)
    cves = [c["id"] for r in json.loads(out or "{}").get("results", []) for c in r.get("cves", [])]
    check(cves == [] and WIDENED not in err, f"nothing applies --json: {cves}, {err[-300:]!r}")
    out, err = fixtures.run("check", *args, "--ids", timeout=120)
    check(out == "6.6.1:\n" and WIDENED not in err, f"nothing applies --ids: {out!r}")
    # one kernel of the document has something: the others are not widened
    st = statements("one of two applies", ["--tree", patched, "--version", "6.1.5,6.6.1"],
                    multi=True)
    check(st == {("6.1.5", "CVE-2099-0001"): ("affected", "-")},
          f"one of two applies: only the affected one: {st}")
    # a revision whose only news is a withdrawn CVE states that, nothing more, without warning
    old = os.path.join(tmp, "patched-old")
    write_tree(old, records + [rec("CVE-2099-0009", ["fs/ext4/inode.c"], [f"5.10:{A}:6.6.40:{B}"])])
    st = statements("only withdrawn", args + ["--since", old])
    check(st == {("6.6.1", "CVE-2099-0009"): ("not_affected", "withdrawn")},
          f"only withdrawn: {st}")
    # a revision of a document that stated every record renews them (no new widening, no warning)
    st = statements("nothing applies, revised", args + ["--since", patched])
    check(st == every, f"nothing applies, revised: {st}")
    # no record at all: no document in any format
    db = os.path.join(tmp, "empty.db")
    empty_db(db)
    for fmt in FORMATS:
        out, err = fixtures.run("check", "--db", db, "--version", "6.6.1", fmt, *AUTHOR,
                                ok=(24,), timeout=120)
        errs = [ln for ln in err.splitlines() if ln.startswith("kcve: error:")]
        check(out == "" and len(errs) == 1 and "would state nothing" in errs[0],
              f"no records {fmt}: stdout {out!r}, errors {errs}")
    for fmt in ("--json", "--ids"):
        out, _ = fixtures.run("check", "--db", db, "--version", "6.6.1", fmt, timeout=120)
        check(out, f"no records {fmt}: exit 0 with output")
    # ... but a revision that withdraws a CVE of OLD still has that to state
    st = statements("no records, one withdrawn", ["--db", db, "--version", "6.6.1", "--since", old])
    check(st == {("6.6.1", "CVE-2099-0009"): ("not_affected", "withdrawn")},
          f"no records, one withdrawn: {st}")


def main():
    tmp = tempfile.mkdtemp(prefix="kcve-vex-agree-")
    try:
        common = [
            rec("CVE-2099-0001", ["fs/ext4/inode.c"], [f"5.10:{A}:6.1.20:{B}"],
                severity="HIGH", score=7.8),                                      # affected
            rec("CVE-2099-0002", ["drivers/x.c"], [f"5.10:{A}:6.1.40:{B}"]),     # not compiled
            rec("CVE-2099-0003", ["fs/ext4/inode.c"], [f"4.4:{A}:5.0:{B}"]),     # fixed
            rec("CVE-2099-0004", ["fs/ext4/inode.c"], [f"6.5:{A}:6.6:{B}"]),     # not introduced
            rec("CVE-2099-0005", ["fs/ext4/inode.c"], versions=None),           # no data
            rec("CVE-2099-0006", ["lib/zzz/q.c"], [f"5.10:{A}:6.1.40:{B}"]),    # not compiled
            rec("CVE-2099-0007", ["include/linux/foo.h"], [f"5.10:{A}:6.1.40:{B}"]),  # unknown
        ]
        new = os.path.join(tmp, "new")
        write_tree(new, common + [
            rec("CVE-2099-0008", ["fs/ext4/inode.c"], [f"5.10:{A}:6.1.3:{B}"]),  # fixed now
            rec("CVE-2099-0010", ["fs/ext4/inode.c"], [f"5.10:{A}:6.1.40:{B}"]),  # new
        ], rejected=["CVE-2099-0009"])
        old = os.path.join(tmp, "old")
        write_tree(old, common + [
            rec("CVE-2099-0008", ["fs/ext4/inode.c"], [f"5.10:{A}:6.2:{B}"]),    # affected then
            rec("CVE-2099-0009", ["fs/ext4/inode.c"], [f"5.10:{A}:6.1.40:{B}"]),  # rejected since
        ])
        ksrc = os.path.join(tmp, "ksrc")
        config = mktree.kernel_source(ksrc)
        one = ["--tree", new, "--version", "6.1.5", "--config", config, "--source", ksrc]

        st = statements("one kernel", one)
        follows_table("one kernel", one, st)
        check(st.get(("6.1.5", "CVE-2099-0007")) == ("under_investigation", "-")
              and st.get(("6.1.5", "CVE-2099-0005")) == ("under_investigation", "-"),
              f"unknown and no data: {st.get(('6.1.5', 'CVE-2099-0007'))}, "
              f"{st.get(('6.1.5', 'CVE-2099-0005'))}")
        st = statements("--all", one + ["--all"])
        follows_table("--all", one, st, all_=True)
        check(st.get(("6.1.5", "CVE-2099-0003")) == ("fixed", "-"), "fixed with --all")

        two = ["--tree", new, "--version", "6.1.5,6.6.1"]
        st = statements("two kernels", two, multi=True)
        follows_table("two kernels", two, st)
        st = statements("two kernels --all", two + ["--all"], multi=True)
        follows_table("two kernels --all", two, st, all_=True)

        # a revision: what OLD stated is renewed, the rejected CVE withdrawn, in every format
        since = one + ["--since", old]
        st = statements("--since OLD", since)
        check(st.get(("6.1.5", "CVE-2099-0008")) == ("fixed", "-"),
              f"--since: affected with OLD, fixed now: renewed as fixed: "
              f"{st.get(('6.1.5', 'CVE-2099-0008'))}")
        check(st.get(("6.1.5", "CVE-2099-0009")) == ("not_affected", "withdrawn"),
              f"--since: rejected since OLD: {st.get(('6.1.5', 'CVE-2099-0009'))}")
        check(st.get(("6.1.5", "CVE-2099-0010")) == ("affected", "-"), "--since: a new CVE")
        check(("6.1.5", "CVE-2099-0003") not in st and ("6.1.5", "CVE-2099-0004") not in st,
              "--since: CVEs fixed or not introduced with OLD already are not stated")
        rest = {k: v for k, v in st.items() if k[1] not in ("CVE-2099-0008", "CVE-2099-0009")}
        follows_table("--since OLD", one, rest)
        st = statements("--since OLD --all", since + ["--all"])
        check(st.get(("6.1.5", "CVE-2099-0003")) == ("fixed", "-")
              and st.get(("6.1.5", "CVE-2099-0009")) == ("not_affected", "withdrawn"),
              "--since --all")
        st = statements("two kernels --since OLD", two + ["--since", old], multi=True)
        check(all(st.get((k, "CVE-2099-0009")) == ("not_affected", "withdrawn")
                  for k in ("6.1.5", "6.6.1")),
              f"two kernels --since: withdrawn for both (OLD kept it for both): "
              f"{[st.get((k, 'CVE-2099-0009')) for k in ('6.1.5', '6.6.1')]}")
        code_case(tmp)
        nothing_applies_case(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    print("every VEX format states the same CVEs with the same status (docs/vex.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
