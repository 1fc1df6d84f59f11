#!/usr/bin/python3
"""kcve check with SPDX 3 SBOMs (--sbom) and SPDX 3 VEX (--spdx3), issue 37.

- The shared SPDX 3 documents (../shared/schema/spdx3): the kernel generator's three give the
  compiled files of its used-files list, the Yocto-shaped pair its sources, configuration and
  version; the one-line summary; --version against the SBOM's.
- A real build's compiled files (../shared/fixtures/kbuild-debian-6.1/amd64) written as SPDX 3
  SBOMs of both shapes (the kernel generator's three documents; Yocto's build and static
  documents with the ${BP}/ prefix, other recipes' sources and non-code files): on the 2024
  record tree `check --sbom` gives, CVE by CVE, the outcomes of the same list as a build
  directory (--build) for --json, --ids and the table, and a --batch line naming the SBOM the
  same as one naming the list as per-file verdicts.
- The configuration of an SBOM (Yocto's kernel-configuration build) feeds the Kbuild stage like
  --config when the SBOM lists no files.
- --spdx3: every document (one kernel, several, --all, bound to each SBOM shape, the small
  tree's every outcome, a --since revision) validates against the SPDX 3.0.1 schema with ajv 8
  (JSON Schema 2020-12; skipped with a message without node, npm or the npm registry), follows
  the model's rules the schema does not check (each VEX class's relationshipType, a
  not-affected assessment's justification or impact statement, references that resolve), and
  states exactly the statements of --openvex for the same inputs; it is byte-identical under
  the same SOURCE_DATE_EPOCH.
Skips (77) without ../shared."""
import json
import lzma
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csaf  # noqa: E402  (ids, make_old)
import fixtures  # noqa: E402  (real_tree, config_tree)
import vex  # noqa: E402  (npm_modules, skip)

KCVE = os.environ["KCVE"]
SRC = os.environ["KCVE_SRC"]
BUILD = os.environ.get("KCVE_BUILD") or tempfile.gettempdir()
SHARED = os.environ.get("KCVE_SHARED", "")
SPDX3 = os.path.join(SHARED, "schema", "spdx3")
FIXTURE = os.path.join(SHARED, "fixtures", "kbuild-debian-6.1", "amd64", "compiled.txt.xz")
SCHEMA = os.path.join(SRC, "tests", "check", "schema", "spdx3", "spdx-json-schema.json")
CONTEXT = "https://spdx.org/rdf/3.0.1/spdx-context.jsonld"
AUTHOR = ["--author", "Example Org <security@example.org>"]
check, failures = fixtures.check, fixtures.failures  # one list with csaf.py's helpers
produced = []  # (label, SPDX 3 document, OpenVEX document of the same arguments or None)


def run(*args, env=None, ok=(0,)):
    """(stdout, stderr) of kcve (fixtures.run); None for stdout when the exit status is not in ok."""
    return fixtures.run(*args, env=env, ok=ok, timeout=900)


def fails(code, *args):
    """kcve must exit with code, one error line on stderr (after the SBOM's summary), nothing on
    stdout; returns the line."""
    p = subprocess.run([KCVE] + list(args), capture_output=True, text=True, timeout=300)
    lines = [x for x in p.stderr.splitlines() if not x.startswith("kcve: SBOM: ")]
    check(p.returncode == code and not p.stdout and len(lines) == 1,
          f"kcve {' '.join(args)[-200:]}: exit {p.returncode} (want {code}), {p.stderr!r}")
    return p.stderr


def sbom_line(stderr):
    lines = [x for x in stderr.splitlines() if x.startswith("kcve: SBOM: ")]
    return lines[0][len("kcve: "):] if len(lines) == 1 else f"<{len(lines)} SBOM lines>"


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    return path


# --- SBOMs of the two shapes ------------------------------------------------------------------

def kernel_shape(files, d, version=None):
    """The kernel generator's three documents (array @context with short prefixes)."""
    ns = "urn:spdx.dev:00000000-0000-5000-8000-000000000001/"
    ctx = [CONTEXT, {"s": ns + "source/", "b": ns + "build/", "o": ns + "output/", "p": ns}]
    ci = {"type": "CreationInfo", "@id": "_:creationinfo", "specVersion": "3.0.1",
          "createdBy": ["p:0"], "created": "2026-05-03T18:50:54Z"}
    agent = {"type": "SoftwareAgent", "spdxId": "p:0", "creationInfo": "_:creationinfo",
             "name": "KernelSbom"}
    src = [{"type": "SpdxDocument", "spdxId": "s:0", "creationInfo": "_:creationinfo",
            "rootElement": ["s:1"]}, agent, ci,
           {"type": "software_File", "spdxId": "s:2", "creationInfo": "_:creationinfo",
            "name": "$(src_tree)", "software_fileKind": "directory"}]
    ids = []
    for i, f in enumerate(files):
        ids.append(f"s:{i + 10}")
        src.append({"type": "software_File", "spdxId": ids[-1], "creationInfo": "_:creationinfo",
                    "name": f, "software_primaryPurpose": "source"})
    src.append({"type": "Relationship", "spdxId": "s:3", "creationInfo": "_:creationinfo",
                "relationshipType": "contains", "from": "s:2", "to": ids})
    build = [{"type": "SpdxDocument", "spdxId": "b:0", "creationInfo": "_:creationinfo"},
             agent, ci,
             {"type": "build_Build", "spdxId": "b:10", "creationInfo": "_:creationinfo",
              "build_buildType": "urn:spdx.dev:Kbuild", "comment": "gcc -c -o init/main.o",
              "build_buildId": "o:3"},
             {"type": "Relationship", "spdxId": "b:11", "creationInfo": "_:creationinfo",
              "relationshipType": "hasInput", "from": "b:10", "to": ids[:3]}]
    pkg = {"type": "software_Package", "spdxId": "o:6", "creationInfo": "_:creationinfo",
           "name": "Linux Kernel (bzImage)", "software_primaryPurpose": "application"}
    if version:
        pkg["software_packageVersion"] = version
    out = [{"type": "SpdxDocument", "spdxId": "o:0", "creationInfo": "_:creationinfo",
            "rootElement": ["o:6"]}, agent, ci, pkg]
    return [write(os.path.join(d, f"sbom-{n}.spdx.json"), {"@context": ctx, "@graph": g})
            for n, g in (("source", src), ("build", build), ("output", out))]


def yocto_shape(files, d, version, config=None, name="linux-yocto"):
    """Yocto's build and static documents: ${BP}/ names, a dependency's source and a download
    in the hasInput list, a non-code file, the kernel configuration when given."""
    base = f"http://spdx.org/spdxdocs/{name}-1/0123/"
    bp = f"{name}-{version}+git"
    ci = {"type": "CreationInfo", "@id": "_:CreationInfo1", "created": "2026-01-01T00:00:00Z",
          "createdBy": ["http://spdx.org/spdxdocs/bitbake/agent/OpenEmbedded"], "specVersion": "3.0.1"}

    def el(t, i, **kw):
        return dict({"type": t, "spdxId": base + i, "creationInfo": "_:CreationInfo1"}, **kw)
    g = [ci, el("SpdxDocument", "document", rootElement=[base + "build/recipe"]),
         el("build_Build", "build/recipe", name=f"{name}:do_create_spdx:recipe",
            build_buildType="http://openembedded.org/bitbake/do_create_spdx/recipe"),
         el("software_Package", "download/1", name=f"{name}.git")]
    to = [base + "download/1"]
    names = [f"{bp}/{f}" for f in files] + [f"{bp}/Makefile", "glibc-2.39/string/strlen.c"]
    for i, n in enumerate(names):
        g.append(el("software_File", f"sourcefile/{i + 1}", name=n,
                    software_primaryPurpose="source"))
        to.append(base + f"sourcefile/{i + 1}")
    if files:
        g.append(el("LifecycleScopedRelationship", "relationship/hasinput-1",
                    **{"from": base + "build/recipe", "relationshipType": "hasInput",
                       "scope": "build", "to": sorted(to)}))
    if config:
        g.append(el("build_Build", "kernel-config",
                    build_buildType="https://openembedded.org/kernel-configuration",
                    build_parameter=[{"type": "DictionaryEntry", "key": k, "value": v}
                                     for k, v in config]))
        g.append(el("Relationship", "relationship/ancestor-1",
                    **{"from": base + "build/recipe", "relationshipType": "ancestorOf",
                       "to": [base + "kernel-config"]}))
    static = [ci, el("SpdxDocument", "static-document", rootElement=[base + "recipe/" + name]),
              el("software_Package", "recipe/" + name, name=name,
                 software_packageVersion=version + "+git", software_primaryPurpose="specification",
                 externalIdentifier=[{"type": "ExternalIdentifier", "externalIdentifierType": "cpe23",
                                      "identifier": f"cpe:2.3:*:*:linux_kernel:{version}:*:*:*:*:*:*:*"}])]
    return [write(os.path.join(d, "build-linux-yocto.spdx.json"), {"@context": CONTEXT, "@graph": g}),
            write(os.path.join(d, "static-linux-yocto.spdx.json"), {"@context": CONTEXT, "@graph": static})]


def sbom_args(paths):
    return [a for p in paths for a in ("--sbom", p)]


# --- the shared documents ---------------------------------------------------------------------

def shared_documents(db):
    kdir = os.path.join(SPDX3, "kernelsbom-tng")
    kdocs = [os.path.join(kdir, f"target-sbom-{n}.spdx.json") for n in ("source", "build", "output")]
    with open(os.path.join(kdir, "target-sbom.used-files.txt")) as f:
        used = sorted(x for x in f.read().split() if x)
    out, err = run("check", "--db", db, *sbom_args(kdocs), "--version", "6.1.90", "--json", "--all")
    check(sbom_line(err) == f"SBOM: {len(used)} compiled files, no config, kernel unknown",
          f"kernel generator summary: {sbom_line(err)!r}")
    # every record whose files are all outside the list is not compiled; one with a listed file is not
    res = json.loads(out or '{"results":[{"cves":[]}]}')["results"][0]["cves"]
    stages = {c["stage"] for c in res if c["outcome"] == "not_compiled"}
    check(stages == {"sbom"}, f"not_compiled by stage {stages}")
    fails(13, "check", "--db", db, *sbom_args(kdocs), "--ids")  # no version in these documents
    ydir = os.path.join(SPDX3, "synthetic-yocto")
    ydocs = [os.path.join(ydir, n) for n in ("build-linux-yocto.spdx.json", "static-linux-yocto.spdx.json")]
    out, err = run("check", "--db", db, *sbom_args(ydocs), "--ids")
    check(sbom_line(err) == "SBOM: 6 compiled files, config 3 symbols, kernel 6.12.27+git",
          f"Yocto summary: {sbom_line(err)!r}")
    check((out or "").startswith("6.12.27:"), f"Yocto SBOM's release: {(out or '')[:40]!r}")
    run("check", "--db", db, *sbom_args(ydocs), "--version", "v6.12.27", "--ids")
    msg = fails(2, "check", "--db", db, *sbom_args(ydocs), "--version", "6.12.28", "--ids")
    check("6.12.27" in msg, f"--version against the SBOM's: {msg!r}")
    print(f"shared documents: kernel generator {len(used)} files, Yocto 6 files and 3 symbols")


# --- the same compiled files as SBOM and as build directory -----------------------------------

def record_files(root):
    paths = set()
    for dirpath, _, names in os.walk(os.path.join(root, "cve", "published")):
        for n in names:
            if n.endswith(".json"):
                with open(os.path.join(dirpath, n)) as f:
                    doc = json.load(f)
                for a in doc["containers"]["cna"].get("affected", []):
                    paths.update(a.get("programFiles", []))
    return paths


def outcomes(out):
    doc = json.loads(out or '{"results":[{"cves":[]}]}')
    return {c["id"]: c["outcome"] for c in doc["results"][0]["cves"]}


def from_debug_info(out):
    """--build's outcomes as a file list made from debug information (Yocto's) gives them: a
    record not compiled there with a header among its files is unknown (the header, absent
    from the list, cannot be ruled out); everything else the same."""
    doc = json.loads(out or '{"results":[{"cves":[]}]}')
    return {c["id"]: "unknown" if c["outcome"] == "not_compiled"
            and any(f.endswith(".h") for f in c.get("files", [])) else c["outcome"]
            for c in doc["results"][0]["cves"]}


def equivalence(root, db, tmp):
    if not os.path.isfile(FIXTURE):
        print(f"equivalence skipped: {FIXTURE} absent")
        return
    with lzma.open(FIXTURE, "rt") as f:
        files = sorted({x for x in f.read().split() if x})
    bdir = os.path.join(tmp, "build")
    os.makedirs(bdir)
    with open(os.path.join(bdir, ".all.o.cmd"), "w") as f:
        f.write("deps_all.o := \\\n" + "".join(f"  {p} \\\n" for p in files) + "\n")
    kd, yd = os.path.join(tmp, "kshape"), os.path.join(tmp, "yshape")
    os.makedirs(kd)
    os.makedirs(yd)
    kernel = kernel_shape(files, kd)
    yocto = yocto_shape(files, yd, "6.1.90")
    v = ["--version", "6.1.90"]
    ref_out = run("check", "--db", db, *v, "--build", bdir, "--json", "--all")[0]
    ref = outcomes(ref_out)
    notc = sum(1 for o in ref.values() if o == "not_compiled")
    check(notc > 100, f"the build directory leaves only {notc} CVEs not compiled")
    # the kernel generator's list is the build's (headers included); Yocto's comes from debug
    # information, where an absent header is unknown
    ref_y = from_debug_info(ref_out)
    nhdr = sum(1 for c in ref if ref[c] != ref_y[c])
    check(nhdr > 10, f"only {nhdr} CVEs not compiled with a header among their files")
    for label, args, want in (("kernel", sbom_args(kernel) + v, ref),
                              ("yocto", sbom_args(yocto), ref_y)):
        got, err = run("check", "--db", db, *args, "--json", "--all")
        got = outcomes(got)
        diff = [(c, want.get(c), got.get(c)) for c in sorted(set(want) | set(got)) if want.get(c) != got.get(c)]
        check(not diff, f"{label} SBOM vs --build: {len(diff)} CVEs differ: {diff[:5]}")
        n = len(files) + (label == "yocto")  # the Makefile, a non-code file OE keeps
        check(sbom_line(err).startswith(f"SBOM: {n:,} compiled files, no config, kernel "),
              f"{label} summary {sbom_line(err)!r}")
        if label == "yocto":  # --ids and the table: the generator's list against --build's
            continue
        ids_b = run("check", "--db", db, *v, "--build", bdir, "--ids")[0]
        ids_s = run("check", "--db", db, *args, "--ids")[0]
        check(ids_b == ids_s and ids_b, f"{label} --ids differ")
        tab_b = run("check", "--db", db, *v, "--build", bdir)[0] or ""
        tab_s = run("check", "--db", db, *args)[0] or ""
        check(tab_b.count("CVE-") == tab_s.count("CVE-") > 0,
              f"{label} table: {tab_b.count('CVE-')} vs {tab_s.count('CVE-')} CVEs")
    # --batch: an SBOM as a line's FILES is the list as per-file verdicts
    rec = record_files(root)
    comp = set(files)
    verdicts = os.path.join(tmp, "verdicts.tsv")
    with open(verdicts, "w") as f:
        for p in sorted(rec):
            f.write(f"{p}\t{'compiled' if p in comp else 'not-compiled'}\n")
    batch = os.path.join(tmp, "fleet.txt")
    with open(batch, "w") as f:
        f.write(f"6.1.90 {verdicts} list\n6.1.90 {kernel[0]} kernel\n6.1.90 {yocto[0]} yocto\n")
    out, _ = run("check", "--db", db, "--batch", batch)
    lines = [json.loads(x) for x in (out or "").splitlines()]
    check(len(lines) == 3 and all("error" not in x for x in lines), f"batch lines: {lines[:3]}")
    if len(lines) == 3 and all("error" not in x for x in lines):
        check(lines[0]["affected"] == lines[1]["affected"] == lines[2]["affected"],
              "batch: affected differ between the verdict list and the SBOMs")
        check(sorted(lines[0]["affected"]) == sorted(c for c, o in ref.items() if o == "affected"),
              "batch: the verdict list's affected differ from --build's")
    with open(batch, "w") as f:
        f.write(f"6.1.91 {yocto[0]} yocto\n")
    out, _ = run("check", "--db", db, "--batch", batch, ok=(13,))
    check("6.1.90" in (out or ""), f"batch: a line's version against its SBOM's: {out!r}")
    print(f"equivalence: {len(files)} compiled files, {len(ref)} CVEs, {notc} not compiled; "
          f"kernel SBOM = --build, Yocto SBOM = --build but {nhdr} with a header unknown; "
          "--batch = per-file verdicts")


# --- headers absent from a list made from debug information ----------------------------------

def dwarf_headers(tmp):
    """Yocto lists the sources the debug information (DWARF) of the built objects names, which
    leaves out a header that was compiled in but contributed no code or type used: an absent
    header is unknown with a Yocto-shaped SBOM, not compiled with the kernel generator's (whose
    list is the build's own, headers included); .c files are not compiled with both. The same
    with the documents of ../shared (the real kernel-generator output, the synthetic Yocto)."""
    a, b = "a" * 40, "b" * 40
    pair = [f"5.10:{a}:6.1.40:{b}"]  # applies to 6.1.5 and 6.12.27 by version
    recs = {"CVE-2099-0101": ["include/linux/foo.h"],
            "CVE-2099-0102": ["include/linux/foo.h", "drivers/x.c"],
            "CVE-2099-0103": ["include/linux/listed.h"],
            "CVE-2099-0104": ["drivers/x.c"],
            "CVE-2099-0105": ["include/linux/foo.hh"],
            "CVE-2099-0111": ["init/main.c"],             # listed by the shared documents
            "CVE-2099-0112": ["include/linux/kernel.h"],  # listed by the shared Yocto one
            "CVE-2099-0113": ["include/linux/skbuff.h"],  # by none
            "CVE-2099-0114": ["net/core/skbuff.c"]}       # by none
    tree = os.path.join(tmp, "hdr-tree")
    fixtures.mktree.write_tree(tree, [{"id": c, "files": fl, "pairs": pair}
                                      for c, fl in recs.items()])
    listed = ["fs/ext4/inode.c", "include/linux/listed.h"]
    kd, yd = os.path.join(tmp, "hdr-k"), os.path.join(tmp, "hdr-y")
    os.makedirs(kd)
    os.makedirs(yd)

    def outcome_of(*args):
        out, _ = run("check", "--tree", tree, *args, "--json")
        doc = json.loads(out or '{"results":[{"cves":[]}]}')
        return {c["id"]: (c["outcome"], c.get("reason", "")) for c in doc["results"][0]["cves"]}
    y = outcome_of(*sbom_args(yocto_shape(listed, yd, "6.1.5")))
    k = outcome_of(*sbom_args(kernel_shape(listed, kd, "6.1.5")))
    want_y = {"CVE-2099-0101": "unknown", "CVE-2099-0102": "unknown", "CVE-2099-0103": "affected",
              "CVE-2099-0104": "not_compiled", "CVE-2099-0105": "not_compiled"}
    for c, o in want_y.items():
        check(y.get(c, ("",))[0] == o, f"Yocto SBOM {c} {recs[c]}: {y.get(c)}, want {o}")
        ko = "affected" if o == "affected" else "not_compiled"
        check(k.get(c, ("",))[0] == ko, f"kernel generator SBOM {c} {recs[c]}: {k.get(c)}, want {ko}")
    check("debug information" in y.get("CVE-2099-0101", ("", ""))[1],
          f"the unknown header's reason: {y.get('CVE-2099-0101')}")
    # the documents of ../shared
    kdir = os.path.join(SPDX3, "kernelsbom-tng")
    kdocs = [os.path.join(kdir, f"target-sbom-{n}.spdx.json") for n in ("source", "build", "output")]
    ydir = os.path.join(SPDX3, "synthetic-yocto")
    ydocs = [os.path.join(ydir, n) for n in ("build-linux-yocto.spdx.json", "static-linux-yocto.spdx.json")]
    k = outcome_of(*sbom_args(kdocs), "--version", "6.1.5")
    y = outcome_of(*sbom_args(ydocs))
    for c, wk, wy in (("CVE-2099-0111", "affected", "not_compiled"),
                      ("CVE-2099-0112", "not_compiled", "affected"),
                      ("CVE-2099-0113", "not_compiled", "unknown"),
                      ("CVE-2099-0114", "not_compiled", "not_compiled")):
        check(k.get(c, ("",))[0] == wk, f"shared kernel-generator SBOM {c}: {k.get(c)}, want {wk}")
        check(y.get(c, ("",))[0] == wy, f"shared Yocto SBOM {c}: {y.get(c)}, want {wy}")
    print("headers: absent from a Yocto (debug information) list = unknown, from the kernel "
          "generator's = not compiled; .c files not compiled with both")


# --- the configuration of an SBOM -------------------------------------------------------------

def config_stage(tmp):
    small, ksrc, config = fixtures.config_tree(tmp, no_data=True)
    d = os.path.join(tmp, "cfgsbom")
    os.makedirs(d)
    sb = yocto_shape([], d, "6.1.5", config=[("CONFIG_X86", "y"), ("CONFIG_64BIT", "y"),
                                              ("CONFIG_EXT4_FS", "y")])
    want = outcomes(run("check", "--tree", small, "--version", "6.1.5", "--config", config,
                        "--source", ksrc, "--json", "--all")[0])
    out, err = run("check", "--tree", small, *sbom_args(sb), "--source", ksrc, "--json", "--all")
    got = outcomes(out)
    check(got == want and want.get("CVE-2099-0002") == "not_compiled",
          f"SBOM configuration vs --config: {got} vs {want}")
    check(sbom_line(err) == "SBOM: no compiled-file list, config 3 symbols, kernel 6.1.5+git",
          f"configuration summary {sbom_line(err)!r}")
    # a file list and a configuration: the list decides (exact), the configuration is not needed
    sb2 = yocto_shape(["fs/ext4/inode.c"], d, "6.1.5", config=[("CONFIG_EXT4_FS", "y")])
    got = outcomes(run("check", "--tree", small, *sbom_args(sb2), "--json", "--all")[0])
    check(got.get("CVE-2099-0002") == "not_compiled" and got.get("CVE-2099-0001") == "affected",
          f"file list with configuration: {got}")
    print("configuration: an SBOM's kernel configuration = --config")
    return small, ksrc, config


# --- --spdx3 ----------------------------------------------------------------------------------

VEX_TYPES = {
    "security_VexAffectedVulnAssessmentRelationship": ("affects", "affected"),
    "security_VexNotAffectedVulnAssessmentRelationship": ("doesNotAffect", "not_affected"),
    "security_VexFixedVulnAssessmentRelationship": ("fixedIn", "fixed"),
    "security_VexUnderInvestigationVulnAssessmentRelationship": ("underInvestigationFor",
                                                                  "under_investigation"),
}


def model_rules(label, doc):
    """The model's rules the schema does not check; returns {(cve, product): status}."""
    g = doc.get("@graph", [])
    ids = [e.get("spdxId") for e in g if "spdxId" in e]
    check(len(ids) == len(set(ids)), f"{label}: duplicate spdxIds")
    by = {e["spdxId"]: e for e in g if "spdxId" in e}
    sdoc = [e for e in g if e.get("type") == "SpdxDocument"]
    check(len(sdoc) == 1, f"{label}: {len(sdoc)} SpdxDocuments")
    imports = {m["externalSpdxId"] for m in (sdoc[0].get("import", []) if sdoc else [])}
    blank = {e.get("@id") for e in g if "@id" in e}
    stated = {}
    for e in g:
        for ref in ([e.get("from")] if "from" in e else []) + e.get("to", []) + \
                e.get("rootElement", []) + e.get("element", []):
            check(ref in by or ref in imports, f"{label}: {e.get('spdxId')} refers to unknown {ref}")
        if e.get("creationInfo") is not None:
            check(e["creationInfo"] in blank, f"{label}: creationInfo {e['creationInfo']}")
        t = e.get("type", "")
        if t == "security_Vulnerability":
            ext = [x for x in e.get("externalIdentifier", []) if x.get("externalIdentifierType") == "cve"]
            check(len(ext) == 1 and ext[0]["identifier"] == e.get("name"), f"{label}: vuln ids {e}")
        if not t.startswith("security_Vex"):
            continue
        rel, status = VEX_TYPES.get(t, (None, None))
        check(rel is not None and e.get("relationshipType") == rel,
              f"{label}: {t} with relationshipType {e.get('relationshipType')}")
        frm = by.get(e.get("from"), {})
        check(frm.get("type") == "security_Vulnerability", f"{label}: VEX from {e.get('from')}")
        check(bool(e.get("security_vexVersion")) and bool(e.get("security_publishedTime")),
              f"{label}: VEX without version or time: {e}")
        if status == "not_affected":
            check(bool(e.get("security_justificationType") or e.get("security_impactStatement")),
                  f"{label}: not-affected without justification or impact statement: {e}")
        if status == "affected":
            check(bool(e.get("security_actionStatement")), f"{label}: affects without action")
        for to in e.get("to", []):
            key = (frm.get("name"), to)
            check(key not in stated, f"{label}: two statements for {key}")
            stated[key] = status
    return stated, by, imports


def same_statements(label, doc, ovx):
    stated, by, imports = model_rules(label, doc)
    if ovx is None:
        return stated
    want = {}
    for st in ovx.get("statements", []):
        want[(st["vulnerability"]["name"], st["products"][0]["@id"])] = st["status"]

    def product(to):  # the purl of our package, or the bound element as such
        return by[to].get("software_packageUrl") if to in by else to
    got = {(c, product(to)): s for (c, to), s in stated.items()}
    if imports:  # bound to an SPDX 3 element: compare by CVE only (one kernel)
        got = {c: s for (c, _), s in got.items()}
        want = {c: s for (c, _), s in want.items()}
    check(got == want and want, f"{label}: SPDX 3 statements differ from OpenVEX's: "
          f"{len(got)} vs {len(want)}, e.g. {sorted(set(got.items()) ^ set(want.items()))[:4]}")
    return stated


CSAF_STATUS = {"known_affected": "affected", "known_not_affected": "not_affected",
               "fixed": "fixed", "under_investigation": "under_investigation"}


def both(label, *args, env=None, csaf_too=True):
    """--spdx3 and --openvex (and, for one kernel, --csaf) of the same arguments."""
    s, _ = run(*args, "--spdx3", env=env)
    o, _ = run(*args, "--openvex", env=env)
    doc = json.loads(s or "{}")
    produced.append((label, doc, json.loads(o or "{}")))
    if csaf_too:
        c = json.loads(run(*args, "--csaf", env=env)[0] or "{}")
        want = {v["cve"]: CSAF_STATUS[k] for v in c.get("vulnerabilities", [])
                for k, ps in v.get("product_status", {}).items() if ps and k in CSAF_STATUS}
        # one statement per entry for every format (docs/vex.md)
        got = {e["from"].rsplit("/", 1)[1]: VEX_TYPES[e["type"]][1] for e in doc.get("@graph", [])
               if e.get("type") in VEX_TYPES}
        check(got == want and want, f"{label}: SPDX 3 statements differ from CSAF's: {len(got)} vs "
              f"{len(want)}, e.g. {sorted(set(got.items()) ^ set(want.items()))[:4]}")
    return doc, s


def spdx3_docs(root, db, tmp, small, ksrc, config):
    v = ["check", "--db", db, *AUTHOR]
    plain, text = both("6.1.90", *v, "--version", "6.1.90")
    again, _ = run(*v, "--version", "6.1.90", "--spdx3")
    check(text == again, "--spdx3 is not reproducible under SOURCE_DATE_EPOCH")
    later, _ = run(*v, "--version", "6.1.90", "--spdx3", env={"SOURCE_DATE_EPOCH": "1800000000"})
    check("2027-01-15T08:00:00Z" in (later or ""), "SOURCE_DATE_EPOCH does not date the document")
    both("6.1.90 --all", *v, "--version", "6.1.90", "--all")
    both("two kernels", *v, "--version", "6.1.90,6.6.30", csaf_too=False)
    ydir = os.path.join(SPDX3, "synthetic-yocto")
    ydocs = [os.path.join(ydir, n) for n in ("build-linux-yocto.spdx.json", "static-linux-yocto.spdx.json")]
    doc, _ = both("bound to Yocto", *v, *sbom_args(ydocs))
    imp = [e.get("import") for e in doc.get("@graph", []) if e.get("type") == "SpdxDocument"]
    check(imp and imp[0] and imp[0][0]["externalSpdxId"].endswith("/recipe/linux-yocto"),
          f"bound to the Yocto recipe package: {imp}")
    kdir = os.path.join(SPDX3, "kernelsbom-tng")
    kdocs = [os.path.join(kdir, f"target-sbom-{n}.spdx.json") for n in ("source", "build", "output")]
    doc, _ = both("bound to the kernel's SBOM", *v, *sbom_args(kdocs), "--version", "6.1.90")
    vexes = [e for e in doc.get("@graph", []) if e.get("type", "").startswith("security_Vex")]
    check(vexes and all(e["to"] == ["urn:spdx.dev:78b8dda0-35a0-5150-aa95-a3f3ef95de52/output/6"]
                        for e in vexes), "statements not bound to the kernel generator's package")
    doc, _ = both("small tree", "check", "--tree", small, "--version", "6.1.5", "--config", config,
                  "--source", ksrc, "--all", *AUTHOR)
    st = {e["from"].rsplit("/", 1)[1]: e for e in doc.get("@graph", [])
          if e.get("type", "").startswith("security_Vex")}
    want = {"CVE-2099-0001": "security_VexAffectedVulnAssessmentRelationship",
            "CVE-2099-0002": "security_VexNotAffectedVulnAssessmentRelationship",
            "CVE-2099-0003": "security_VexFixedVulnAssessmentRelationship",
            "CVE-2099-0004": "security_VexNotAffectedVulnAssessmentRelationship",
            "CVE-2099-0005": "security_VexUnderInvestigationVulnAssessmentRelationship"}
    check({c: e["type"] for c, e in st.items()} == want, f"small tree types: { {c: e['type'] for c, e in st.items()} }")
    for c in ("CVE-2099-0002", "CVE-2099-0004"):
        check(st.get(c, {}).get("security_justificationType") == "vulnerableCodeNotPresent"
              and st.get(c, {}).get("security_impactStatement"), f"{c}: {st.get(c)}")
    check("6.1.20" in st.get("CVE-2099-0001", {}).get("security_actionStatement", ""),
          f"action statement names the fixing release: {st.get('CVE-2099-0001')}")
    # --since: the revision states what the OpenVEX revision states
    new_ids = csaf.ids(["--tree", root], ["6.1.90"])
    old = os.path.join(BUILD, "spdx3-since-old")
    shutil.rmtree(old, ignore_errors=True)
    try:
        planted = csaf.make_old(root, old, new_ids)
        # (CSAF's revision does not renew a statement as fixed: compared with OpenVEX's only)
        doc, _ = both("--since", "check", "--tree", root, "--version", "6.1.90", "--since", old,
                      *AUTHOR, env={"SOURCE_DATE_EPOCH": "1800000000"}, csaf_too=False)
        g = doc.get("@graph", [])
        sd = [e for e in g if e.get("type") == "SpdxDocument"]
        check(sd and "revision 2" in sd[0].get("comment", ""), f"revision comment: {sd[:1]}")
        wd = {e["from"].rsplit("/", 1)[1]: e for e in g if e.get("security_withdrawnTime")}
        check(set(planted["rejected"]) <= set(wd) and
              all(wd[c]["security_withdrawnTime"] == "2027-01-15T08:00:00Z" for c in planted["rejected"]),
              f"withdrawn statements {sorted(wd)} for {planted['rejected']}")
    finally:
        shutil.rmtree(old, ignore_errors=True)
    for label, doc, ovx in produced:
        same_statements(label, doc, ovx)


def validate(tmp):
    try:  # ajv 8 (pinned by tests/check/cyclonedx-library/package-lock.json)
        modules, node = vex.npm_modules()
    except SystemExit:  # vex.skip: no node, npm or registry (the message is printed)
        print("SKIP (ajv part only): the schema validation needs node, npm and the npm registry")
        return
    if not modules:
        return
    docs = list(produced)
    # a broken document of each rule the schema does check must be refused
    if docs:
        bad = json.loads(json.dumps(docs[0][1]))
        for e in bad["@graph"]:
            if e.get("type") == "security_VexAffectedVulnAssessmentRelationship":
                del e["security_actionStatement"]
                break
        bad["@graph"].append({"type": "security_VulnAssessmentRelationship"})
        docs.append(("broken", bad, None))
        docs.append(("array context", dict(docs[0][1], **{"@context": [CONTEXT, {"x": "urn:x/"}]}), None))
    paths = []
    for i, (label, doc, _) in enumerate(docs):
        paths.append(write(os.path.join(tmp, f"spdx3-{i}.json"), doc))
    p = subprocess.run([node, os.path.join(SRC, "tests/check/spdx3-validate.js"), SCHEMA] + paths,
                       capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, NODE_PATH=modules))
    if p.returncode:
        check(False, f"spdx3-validate.js: exit {p.returncode}: {p.stderr[-1500:]}")
        return
    res = json.loads(p.stdout)
    for (label, _, _), path in zip(docs, paths):
        errs = res[path]
        if label in ("broken", "array context"):
            check(errs, f"ajv accepted the {label} document")
        else:
            check(errs is None, f"{label}: not valid SPDX 3.0.1: {json.dumps(errs)[:600]}")
    print(f"ajv: {len(docs) - 2} --spdx3 documents valid against the SPDX 3.0.1 schema, "
          "2 broken ones refused")


# --- hostile SBOMs through the CLI ------------------------------------------------------------

def hostile(db, tmp):
    """One line and a distinct exit status for each bad --sbom; no output."""
    ydir = os.path.join(SPDX3, "synthetic-yocto")
    y = os.path.join(ydir, "build-linux-yocto.spdx.json")
    cdx = write(os.path.join(tmp, "h.cdx.json"), {"bomFormat": "CycloneDX", "specVersion": "1.5",
                                                   "components": []})
    ctx = write(os.path.join(tmp, "h-ctx.json"), {"@context": "https://example.org/x", "@graph": []})
    deep = os.path.join(tmp, "h-deep.json")
    with open(deep, "w") as f:
        f.write('{"@context": "%s", "@graph": [%s%s]}' % (CONTEXT, "[" * 100, "]" * 100))
    fifo = os.path.join(tmp, "h-fifo")
    os.mkfifo(fifo)
    two = []
    for name in ("linux-yocto", "linux-imx"):
        d = os.path.join(tmp, "h-" + name)
        os.makedirs(d)
        two.append(yocto_shape(["init/main.c"], d, "6.1.90", name=name)[0])
    merged = write(os.path.join(tmp, "h-two.json"), {"@context": CONTEXT, "@graph": sum(
        (json.load(open(p))["@graph"] for p in two), [])})
    v = ["check", "--db", db, "--version", "6.1.90", "--ids"]
    for args, code, want in ((["--sbom", y, "--sbom", cdx], 2, "only SPDX 3 documents go together"),
                             (["--sbom", ctx], 13, "not SPDX 3.0's"),
                             (["--sbom", deep], 13, "deeper than 64"),
                             (["--sbom", fifo], 9, "not a regular file"),
                             (["--sbom", tmp], 9, "cannot read the SBOM"),
                             (["--sbom", os.path.join(tmp, "nope.json")], 7, "cannot read the SBOM"),
                             (["--sbom", merged], 13, "several kernel recipes"),
                             (["--sbom", y, "--batch", "-"], 2, "--batch")):
        msg = fails(code, *v, *args)
        check(want in msg, f"--sbom {args[1][-30:]}: {msg!r} lacks {want!r}")
    # every source file of the tree listed (two architectures): a warning, no file stage
    d = os.path.join(tmp, "h-all")
    os.makedirs(d)
    allsrc = kernel_shape(["arch/x86/kernel/setup.c", "arch/arm64/kernel/setup.c", "init/main.c"], d)
    out, err = run(*v[:-1], "--sbom", allsrc[0], "--json")
    check("several architectures" in err and '"name": "sbom"' not in (out or ""),
          f"all sources listed: {err!r}")
    print("hostile SBOMs: one line each, exit 2/7/9/13")


def main():
    if not os.path.isdir(SPDX3):
        vex.skip(f"{SPDX3} absent")
    root = fixtures.real_tree()
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "db")
        run("db", "build", "--tree", root, "-o", db)
        shared_documents(db)
        hostile(db, tmp)
        dwarf_headers(tmp)
        equivalence(root, db, tmp)
        small, ksrc, config = config_stage(tmp)
        spdx3_docs(root, db, tmp, small, ksrc, config)
        validate(tmp)
    print(f"spdx3: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
