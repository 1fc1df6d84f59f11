#!/usr/bin/python3
"""kcve check's VEX documents: valid against the official OpenVEX 0.2.0 and CycloneDX 1.5/1.6
JSON schemas (tests/check/schema/, with their licences), named the way SBOM generators name a
kernel, content-derived ids, one CycloneDX vulnerability with several affects, and statements
bound to the kernel component of a CycloneDX and of an SPDX 2.3 SBOM.

With --cyclonedx-library (meson test check-vex-cyclonedx-library), every CycloneDX document
is also validated with the validator of the npm package @cyclonedx/cyclonedx-library (1.5 and
1.6) and every OpenVEX one with ajv (tests/check/cyclonedx-library/). Skips (exit 77) naming
what is missing when node, npm or the npm registry is not there."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fixtures  # noqa: E402  (check, failures)
import mktree  # noqa: E402

KCVE = os.environ["KCVE"]
SRC = os.environ["KCVE_SRC"]
SCHEMA = os.path.join(SRC, "tests/check/schema")
NPM_DIR = os.path.join(SRC, "tests/check/cyclonedx-library")
# one failure list with csaf.py and spdx3.py, which call npm_modules()
check, failures = fixtures.check, fixtures.failures
produced = []  # every VEX document kcve wrote: (what, document)


def load(*p):
    with open(os.path.join(SCHEMA, *p)) as f:
        return json.load(f)


def validators():
    """The OpenVEX validator and the CycloneDX 1.5 and 1.6 ones (with the SPDX and JSF schemas
    they reference, registered under the names they use)."""
    base = "http://cyclonedx.org/schema/"
    refs = {base + n: load("cyclonedx", n)
            for n in ("spdx.SNAPSHOT.schema.json", "jsf-0.82.SNAPSHOT.schema.json")}
    fc = jsonschema.FormatChecker()
    cdx = {}
    for v in ("1.5", "1.6"):
        schema = load("cyclonedx", f"bom-{v}.SNAPSHOT.schema.json")
        try:  # jsonschema >= 4.18 (Debian 13): a referencing registry
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT7
            reg = Registry().with_resources(
                (uri, Resource.from_contents(doc, DRAFT7)) for uri, doc in refs.items())
            cdx[v] = jsonschema.Draft7Validator(schema, registry=reg, format_checker=fc)
        except ImportError:  # older jsonschema (Debian 12): a resolver with a local store
            res = jsonschema.RefResolver.from_schema(schema, store=refs)
            cdx[v] = jsonschema.Draft7Validator(schema, resolver=res, format_checker=fc)
    ovx = jsonschema.Draft202012Validator(load("openvex", "openvex_json_schema.json"),
                                          format_checker=fc)
    return ovx, cdx


def kcve(*args, env=None):
    e = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    e.pop("KCVE_VEX_AUTHOR", None)
    e.update(env or {})
    p = subprocess.run([KCVE] + list(args), capture_output=True, text=True, env=e, timeout=120)
    if p.returncode:
        check(False, f"kcve {' '.join(args)}: exit {p.returncode}: {p.stderr}")
        return {}
    doc = json.loads(p.stdout)
    produced.append((" ".join(a for a in args if not a.startswith("/")), doc))
    return doc


def errors(validator, doc):
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in validator.iter_errors(doc)]


def skip(msg):
    print(f"SKIP: {msg}")
    sys.exit(77)


NET_ERRORS = re.compile(r"ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|"
                        r"EHOSTUNREACH|ERR_SOCKET_TIMEOUT|network|proxy", re.I)


def npm_modules(npm_dir=NPM_DIR, dest_name="npm-cyclonedx-library",
                probe=("@cyclonedx", "cyclonedx-library"), what="@cyclonedx/cyclonedx-library 7.1.0",
                min_node=14):
    """The pinned packages of npm_dir's package-lock.json (by default @cyclonedx/cyclonedx-library
    and ajv), installed by 'npm ci' into the build directory (dest_name) once and reused while
    the lock file is unchanged; their node_modules directory and node's path. Skips naming what
    is missing."""
    node = shutil.which("node") or shutil.which("nodejs")
    npm = shutil.which("npm")
    if not node or not npm:
        skip("needs Node.js and npm (Debian packages nodejs and npm, scripts/debian-packages.txt)"
             f"; missing: {' '.join(n for n, p in (('node', node), ('npm', npm)) if not p)}")
    ver = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    m = re.match(r"v(\d+)\.", ver)
    if not m or int(m.group(1)) < min_node:
        skip(f"needs Node.js >= {min_node} for {what}, {node} is {ver!r}")
    dest = os.path.join(os.environ.get("KCVE_BUILD") or tempfile.gettempdir(), dest_name)
    with open(os.path.join(npm_dir, "package-lock.json")) as f:
        lock = f.read()
    stamp = os.path.join(dest, "installed-package-lock.json")
    lib = os.path.join(dest, "node_modules", *probe, "package.json")
    try:
        with open(stamp) as f:
            current = f.read() == lock and os.path.exists(lib)
    except OSError:
        current = False
    if not current:
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(os.path.join(npm_dir, name), dest)
        cmd = [npm, "ci", "--omit=optional", "--ignore-scripts", "--no-audit", "--no-fund",
               "--no-update-notifier", "--fetch-retries=2", "--fetch-timeout=60000",
               "--cache", os.path.join(dest, ".npm-cache")]
        try:
            p = subprocess.run(cmd, cwd=dest, capture_output=True, text=True, timeout=120)
            out = p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            skip("the npm registry did not answer within 120 s (npm ci); check the network")
        if p.returncode:
            tail = " | ".join(out.strip().splitlines()[-6:])
            if NET_ERRORS.search(out):
                code = re.search(r"npm (?:error|ERR!) code (\S+)", out)
                skip(f"the npm registry is unreachable (npm ci: "
                     f"{code.group(1) if code else NET_ERRORS.search(out).group(0)}); "
                     "check the network or npm's registry/proxy settings")
            check(False, f"npm ci in {dest} failed: exit {p.returncode}: {tail}")
            return None, None
        with open(stamp, "w") as f:
            f.write(lock)
    return os.path.join(dest, "node_modules"), node


def cyclonedx_library(tmp):
    """Every VEX document of this run, validated by the CycloneDX library (CycloneDX 1.5 and
    1.6) and ajv (OpenVEX 0.2.0); a broken document of each kind must be refused."""
    modules, node = npm_modules()
    if not modules:
        return
    junk_cdx = {"bomFormat": "CycloneDX", "specVersion": "1.5", "serialNumber": "nope",
                "vulnerabilities": [{"id": "CVE-1", "ratings": [{"score": "high"}]}]}
    junk_ovx = {"@context": "https://openvex.dev/ns/v0.2.0", "statements": [{}]}
    manifest = {"cyclonedx": [], "openvex": [],
                "openvex_schema": os.path.join(SCHEMA, "openvex", "openvex_json_schema.json")}
    what = {}
    docs = produced + [("junk CycloneDX", junk_cdx), ("junk OpenVEX", junk_ovx)]
    for i, (label, doc) in enumerate(docs):
        kind = "cyclonedx" if doc.get("bomFormat") == "CycloneDX" else "openvex"
        path = os.path.join(tmp, f"vex-{i}.json")
        with open(path, "w") as f:
            json.dump(doc, f, indent=2)
        manifest[kind].append(path)
        what[path] = label
    mpath = os.path.join(tmp, "manifest.json")
    with open(mpath, "w") as f:
        json.dump(manifest, f)
    p = subprocess.run([node, os.path.join(NPM_DIR, "validate.js"), mpath], capture_output=True,
                       text=True, env=dict(os.environ, NODE_PATH=modules), timeout=300)
    if p.returncode:
        check(False, f"validate.js: exit {p.returncode}: {p.stderr[-1500:]}")
        return
    res = json.loads(p.stdout)
    ncdx = sum(1 for _, d in produced if d.get("bomFormat") == "CycloneDX")
    check(ncdx >= 7 and len(produced) - ncdx >= 8,
          f"too few documents validated: {ncdx} CycloneDX, {len(produced) - ncdx} OpenVEX")
    for path, verdicts in res.items():
        for spec, errs in verdicts.items():
            if what[path].startswith("junk"):
                check(errs, f"the {spec} validator accepts a broken document ({what[path]})")
            else:
                check(errs is None, f"{spec}: kcve {what[path]}: {json.dumps(errs)[:1500]}")
    check(len(res) == len(docs), f"validate.js answered for {len(res)} of {len(docs)} files")
    print(f"cyclonedx-library: {ncdx} CycloneDX documents (1.5 and 1.6) and "
          f"{len(produced) - ncdx} OpenVEX documents validated")


def main():
    ovx, cdx = validators()
    # the validators must reject a broken document, or they prove nothing
    check(errors(ovx, {"@context": "x", "statements": []}), "OpenVEX schema accepts junk")
    check(errors(cdx["1.5"], {"bomFormat": "CycloneDX", "specVersion": "1.5",
                              "serialNumber": "nope"}), "CycloneDX schema accepts junk")
    with tempfile.TemporaryDirectory() as tmp:
        a, b = "a" * 40, "b" * 40
        spec = os.path.join(tmp, "spec.json")
        with open(spec, "w") as f:
            json.dump([
                {"id": "CVE-2099-0001", "title": "ext4: fix", "files": ["fs/ext4/inode.c"],
                 "pairs": [f"5.10:{a}:6.1.20:{b}"], "fixes": [b], "severity": "HIGH",
                 "score": 7.8},
                {"id": "CVE-2099-0002", "title": "x: unscored", "files": ["drivers/x.c"],
                 "pairs": [f"5.10:{a}:6.1.40:{b}"], "fixes": [b]},
                {"id": "CVE-2099-0003", "title": "y: old", "files": ["y.c"],
                 "pairs": [f"4.4:{a}:5.0:{b}"]},
            ], f)
        tree = os.path.join(tmp, "tree")
        subprocess.run([sys.executable, os.path.join(SRC, "tests/check/mktree.py"), tree, spec],
                       check=True)
        t = ["check", "--tree", tree]
        author = ["--author", "Example Org <security@example.org>", "--role", "vendor"]
        docs = {}
        for fmt in ("--openvex", "--cyclonedx"):
            for name, extra in (("one", ["--version", "6.1.5"]),
                                ("two", ["--version", "6.1.5,6.1.30", "--all"]),
                                ("placeholder", ["--version", "6.1.5"])):
                docs[fmt, name] = kcve(*t, fmt, *extra, *(author if name != "placeholder" else []))
        for name in ("one", "two", "placeholder"):
            check(not errors(ovx, docs["--openvex", name]),
                  f"OpenVEX {name}: {errors(ovx, docs['--openvex', name])[:3]}")
            for v in ("1.5", "1.6"):
                check(not errors(cdx[v], docs["--cyclonedx", name]),
                      f"CycloneDX {v} {name}: {errors(cdx[v], docs['--cyclonedx', name])[:3]}")

        # a .config that leaves drivers/x.c out (not_affected, code_not_present), with the
        # kernel named by --product and a CPE prefix
        ksrc = os.path.join(tmp, "ksrc")
        config = mktree.kernel_source(ksrc)
        named = ["--product", "pkg:deb/debian/linux-image-amd64", "--cpe",
                 "cpe:2.3:o:linux:linux_kernel"]
        for fmt in ("--openvex", "--cyclonedx"):
            docs[fmt, "config"] = kcve(*t, fmt, "--version", "6.1.5", "--config", config,
                                       "--source", ksrc, "--all", *named, *author)
        st = {x["vulnerability"]["name"]: x for x in docs["--openvex", "config"]["statements"]}
        check(st.get("CVE-2099-0002", {}).get("status") == "not_affected"
              and st["CVE-2099-0002"].get("justification") == "vulnerable_code_not_present"
              and "compiled" in st["CVE-2099-0002"].get("status_notes", "")
              and st["CVE-2099-0002"]["products"][0]["@id"]
              == "pkg:deb/debian/linux-image-amd64@6.1.5",
              f"not compiled: {st.get('CVE-2099-0002')}")
        cv = {x["id"]: x for x in docs["--cyclonedx", "config"]["vulnerabilities"]}
        check(cv.get("CVE-2099-0002", {}).get("analysis", {}).get("justification")
              == "code_not_present", f"CycloneDX not compiled: {cv.get('CVE-2099-0002')}")
        check(not errors(ovx, docs["--openvex", "config"]), "OpenVEX config: "
              f"{errors(ovx, docs['--openvex', 'config'])[:3]}")
        for v in ("1.5", "1.6"):
            check(not errors(cdx[v], docs["--cyclonedx", "config"]), f"CycloneDX {v} config: "
                  f"{errors(cdx[v], docs['--cyclonedx', 'config'])[:3]}")

        # identity: what syft writes for a kernel (purl and CPE)
        v = docs["--openvex", "one"]
        prod = v["statements"][0]["products"][0]
        check(prod["@id"] == "pkg:generic/linux-kernel@6.1.5", f"OpenVEX product {prod}")
        check(prod["identifiers"]["@cpe23"] == "cpe:2.3:o:linux:linux_kernel:6.1.5:*:*:*:*:*:*:*",
              f"OpenVEX cpe {prod}")
        check(v["author"] == "Example Org <security@example.org>" and v["role"] == "vendor"
              and v["tooling"].startswith("kcve "), "OpenVEX author/role/tooling")
        check("UNSET" in docs["--openvex", "placeholder"]["author"], "author placeholder")
        s = {x["vulnerability"]["name"]: x for x in v["statements"]}
        check(s["CVE-2099-0001"]["status"] == "affected" and s["CVE-2099-0001"]["status_notes"],
              "affected statement carries kcve's reason")
        # content-derived ids: same inputs same id (whatever the time), others another one
        again = kcve(*t, "--openvex", "--version", "6.1.5", *author,
                     env={"SOURCE_DATE_EPOCH": "1800000000"})
        check(again["@id"] == v["@id"] and again["timestamp"] != v["timestamp"],
              "same inputs, another time: the id must not change")
        other = kcve(*t, "--openvex", "--version", "6.1.6", *author)
        check(other["@id"] != v["@id"], "another kernel must give another id")
        c1 = docs["--cyclonedx", "one"]
        c1b = kcve(*t, "--cyclonedx", "--version", "6.1.5", *author,
                   env={"SOURCE_DATE_EPOCH": "1800000000"})
        check(c1["serialNumber"] == c1b["serialNumber"], "CycloneDX serialNumber not stable")
        check(c1["serialNumber"] != docs["--cyclonedx", "two"]["serialNumber"],
              "CycloneDX serialNumber must differ for other inputs")

        # CycloneDX: tools, ratings, references, one vulnerability with several affects
        c2 = docs["--cyclonedx", "two"]
        check(c2["metadata"]["tools"]["components"][0]["name"] == "kcve", "metadata.tools")
        vulns = {x["id"]: x for x in c2["vulnerabilities"]}
        check(len(vulns) == len(c2["vulnerabilities"]), "a CVE is repeated")
        v1 = vulns.get("CVE-2099-0001", {})
        check([x["ref"] for x in v1.get("affects", [])] ==
              ["pkg:generic/linux-kernel@6.1.5", "pkg:generic/linux-kernel@6.1.30"],
              f"several affects: {v1.get('affects')}")
        check([x["versions"][0]["status"] for x in v1.get("affects", [])] ==
              ["affected", "unaffected"], "per-kernel status in affects")
        check(v1.get("ratings", [{}])[0].get("score") == 7.8 and
              v1["ratings"][0]["severity"] == "high", f"ratings {v1.get('ratings')}")
        check("ratings" not in vulns.get("CVE-2099-0002", {}), "an unscored record has no rating")
        check(any(b in x["url"] for x in v1.get("advisories", [])), "fix commit link")
        check(v1.get("references") and "cve.org" in v1["source"]["url"], "references/source")

        # SBOM binding: CycloneDX (BOM-Link) and SPDX 2.3 (the package's purl)
        serial = "3e671687-395b-41f5-a30f-a58921a69b79"
        cdx_sbom = os.path.join(tmp, "sbom.cdx.json")
        with open(cdx_sbom, "w") as f:
            json.dump({"bomFormat": "CycloneDX", "specVersion": "1.5", "version": 3,
                       "serialNumber": "urn:uuid:" + serial,
                       "components": [
                           {"type": "library", "name": "zlib", "version": "1.3",
                            "bom-ref": "zlib", "purl": "pkg:generic/zlib@1.3"},
                           {"type": "operating-system", "name": "linux-kernel",
                            "version": "6.1.5", "bom-ref": "kernel-1",
                            "purl": "pkg:generic/linux-kernel@6.1.5",
                            "cpe": "cpe:2.3:o:linux:linux_kernel:6.1.5:*:*:*:*:*:*:*"}]}, f)
        spdx_sbom = os.path.join(tmp, "sbom.spdx.json")
        with open(spdx_sbom, "w") as f:
            json.dump({"spdxVersion": "SPDX-2.3", "SPDXID": "SPDXRef-DOCUMENT",
                       "packages": [
                           {"name": "busybox", "SPDXID": "SPDXRef-busybox", "versionInfo": "1"},
                           {"name": "linux-kernel", "SPDXID": "SPDXRef-Package-kernel",
                            "versionInfo": "6.1.30", "externalRefs": [
                                {"referenceCategory": "PACKAGE-MANAGER", "referenceType": "purl",
                                 "referenceLocator": "pkg:generic/linux-kernel@6.1.30"},
                                {"referenceCategory": "SECURITY", "referenceType": "cpe23Type",
                                 "referenceLocator":
                                     "cpe:2.3:o:linux:linux_kernel:6.1.30:*:*:*:*:*:*:*"}]}]}, f)
        bc = kcve(*t, "--cyclonedx", "--sbom", cdx_sbom, *author)
        bo = kcve(*t, "--openvex", "--sbom", cdx_sbom, *author)
        link = f"urn:cdx:{serial}/3#kernel-1"
        refs = {a["ref"] for x in bc.get("vulnerabilities", []) for a in x["affects"]}
        check(refs == {link}, f"CycloneDX SBOM: affects refs {refs}, want {link}")
        check("components" not in bc, "a VEX bound to an SBOM repeats no component")
        check({p["@id"] for x in bo.get("statements", []) for p in x["products"]} ==
              {"pkg:generic/linux-kernel@6.1.5"}, "OpenVEX bound to the SBOM's purl")
        check({x["vulnerability"]["name"] for x in bo.get("statements", [])} ==
              {"CVE-2099-0001", "CVE-2099-0002"}, "the SBOM's kernel version is checked")
        so = kcve(*t, "--openvex", "--sbom", spdx_sbom, *author)
        sc = kcve(*t, "--cyclonedx", "--sbom", spdx_sbom, *author)
        check({p["@id"] for x in so.get("statements", []) for p in x["products"]} ==
              {"pkg:generic/linux-kernel@6.1.30"}, "OpenVEX bound to the SPDX package's purl")
        check({x["vulnerability"]["name"] for x in so.get("statements", [])} ==
              {"CVE-2099-0002"}, "the SPDX kernel version (6.1.30) is checked")
        for name, d in (("cdx-sbom", bc), ("spdx-sbom", sc)):
            for v in ("1.5", "1.6"):
                check(not errors(cdx[v], d), f"CycloneDX {v} {name}: {errors(cdx[v], d)[:3]}")
        for name, d in (("cdx-sbom", bo), ("spdx-sbom", so)):
            check(not errors(ovx, d), f"OpenVEX {name}: {errors(ovx, d)[:3]}")
        nok = subprocess.run([KCVE] + t + ["--openvex", "--sbom", spec], capture_output=True,
                             text=True)
        check(nok.returncode == 13 and len(nok.stderr.splitlines()) == 1,
              f"a file that is no SBOM: exit {nok.returncode} {nok.stderr!r}")
        if "--cyclonedx-library" in sys.argv[1:]:
            cyclonedx_library(tmp)
    print(f"vex: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
