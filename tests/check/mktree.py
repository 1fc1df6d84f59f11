#!/usr/bin/python3
"""Write a small synthetic CVE record tree for the check tests.

usage: mktree.py DIR SPEC.json
SPEC: [{"id": "CVE-2099-0001", "title": "...", "files": [...], "pairs": ["V:VG:F:FG", ...],
        "fixes": [sha, ...], "severity": "HIGH", "score": 7.8, "versions": [...optional JSON
        product-2 versions, null = no such product, absent = defaultStatus unknown...],
        "default": "affected",
        "products": [{"default": "unaffected", "versions": [...]}, ...optional products
        written before it]}]

Imported (tests/check/vex.py, tests/check/fixtures.py, tests/cli/conformance.py):
write_tree(DIR, SPEC) does what the command does with SPEC as a list; kernel_source(DIR) writes a
tiny kernel source tree and a .config next to it.
"""
import json
import os
import sys


def kernel_source(k):
    """A tiny kernel source tree in k and its .config (returned): fs/ext4/inode.c is compiled,
    drivers/x.c is not (CONFIG_FOO is not set)."""
    files = {"Makefile": "# top\n",
             "Kbuild": "obj-y += fs/\nobj-y += drivers/\nobj-y += arch/$(SRCARCH)/\n",
             "arch/x86/Makefile": "", "arch/x86/Kbuild": "",
             "fs/Makefile": "obj-$(CONFIG_EXT4_FS) += ext4/\n",
             "fs/ext4/Makefile": "obj-$(CONFIG_EXT4_FS) += ext4.o\next4-y := inode.o\n",
             "fs/ext4/inode.c": "", "drivers/Makefile": "obj-$(CONFIG_FOO) += x.o\n",
             "drivers/x.c": ""}
    for name, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(k, name)), exist_ok=True)
        with open(os.path.join(k, name), "w") as f:
            f.write(text)
    config = k.rstrip("/") + ".config"
    with open(config, "w") as f:
        f.write("CONFIG_X86=y\nCONFIG_64BIT=y\nCONFIG_EXT4_FS=y\n# CONFIG_FOO is not set\n")
    return config


def write_tree(root, spec):
    """The record tree of spec (see the module's docstring) in root."""
    for r in spec:
        year = r["id"].split("-")[1]
        d = os.path.join(root, "cve", "published", year)
        os.makedirs(d, exist_ok=True)
        base = os.path.join(d, r["id"])
        cna = {
            "providerMetadata": {"orgId": "f4215fc3-5b6b-47ff-a258-f7189bd81038"},
            "title": r.get("title", r["id"]),
            "affected": [{
                "product": "Linux", "vendor": "Linux",
                "defaultStatus": p.get("default", "unaffected"),
                "programFiles": r.get("files", []),
                "versions": p.get("versions", []),
            } for p in r.get("products", [])] + ([] if r.get("versions", []) is None else [{
                "product": "Linux", "vendor": "Linux",
                # without "versions" the product decides nothing (defaultStatus unknown), so
                # the record's .dyad pairs give the verdict
                "defaultStatus": r.get("default", "affected" if "versions" in r else "unknown"),
                "programFiles": r.get("files", []),
                "versions": r.get("versions") or [],
            }]),
        }
        if "severity" in r:
            cna["metrics"] = [{"cvssV3_1": {"version": "3.1", "baseScore": r.get("score", 5.0),
                                            "baseSeverity": r["severity"],
                                            "vectorString": "CVSS:3.1/AV:L"}}]
        doc = {"dataType": "CVE_RECORD", "dataVersion": "5.1",
               "cveMetadata": {"cveId": r["id"], "state": "PUBLISHED",
                               "datePublished": r.get("date", "2024-03-01T10:00:00.000Z")},
               "containers": {"cna": cna}}
        with open(base + ".json", "w") as f:
            json.dump(doc, f, indent=3)
        with open(base + ".dyad", "w") as f:
            f.write("# dyad version: test\n" + "".join(p + "\n" for p in r.get("pairs", [])))
        with open(base + ".sha1", "w") as f:
            f.write("\n".join(r.get("fixes", [])))
        open(base, "w").close()
    os.makedirs(os.path.join(root, "cve", "rejected"), exist_ok=True)


def main():
    with open(sys.argv[2]) as f:
        write_tree(sys.argv[1], json.load(f))


if __name__ == "__main__":
    main()
