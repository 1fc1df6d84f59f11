#!/usr/bin/python3
"""No #include climbs a layer (docs/architecture.md).

usage: layers.py SRC_ROOT

Each module of src/lib/ sits on a layer; a file may include headers of its own module and of
modules on LOWER layers only (never the same layer: peers stay independent). src/cli/ (the
commands) may include any library module; the library never includes src/cli/. The public
header kcve/kcve.h belongs to src/lib/api/ only. Relative includes ("../x.h") are refused.

Adding a module: put one line in LAYERS below (and a row in docs/architecture.md's table).
"""
import os
import re
import sys

# module -> layer. Lower layers never include higher ones. Keep in step with
# docs/architecture.md ("The layers").
LAYERS = {
    "core": 0,         # errors, allocation, buffers, containers, files, clock, versions
    "history": 1,      # git history index and the dyad algorithm
    "kbuild": 1,       # Kbuild/Kconfig evaluation: which file is compiled
    "csrc": 1,         # C source scanning (function boundaries)
    "ksyms": 1,        # symbols of kernel images (vmlinux, System.map, kallsyms)
    "record": 2,       # one CVE record: JSON, mbox, affected ranges, CVSS
    "codefix": 2,      # fix fingerprints: a fix as code, found again in a tree without history
    "policy": 3,       # supported branches and EOL dates (below store and check)
    "store": 4,        # the record tree: states, lock, journal, create/update/reject
    "review": 5,       # reviewer votes
    "maintainers": 5,  # MAINTAINERS, disputes, requests
    "publish": 5,      # CVE Services and the announcement mails
    "check": 5,        # which CVEs apply to a kernel (the check pipeline)
    "api": 6,          # the public libkcve interface
}
CLI_LAYER = 7
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def module_of(path, src):
    rel = os.path.relpath(path, src)
    parts = rel.split(os.sep)
    if parts[0] == "cli":
        return "cli"
    if parts[0] == "lib" and len(parts) > 2:
        return parts[1]
    return None


def main():
    src = os.path.join(sys.argv[1], "src")
    problems = []
    unknown = set()
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            mod = module_of(path, src)
            if mod is None:
                continue
            if mod != "cli" and mod not in LAYERS:
                unknown.add(mod)
                continue
            level = CLI_LAYER if mod == "cli" else LAYERS[mod]
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    where = f"{os.path.relpath(path, sys.argv[1])}:{lineno}"
                    if inc.startswith(("../", "./")):
                        problems.append(f"{where}: relative include \"{inc}\": name the module "
                                        "instead (\"<module>/<file>.h\")")
                        continue
                    if "/" not in inc:
                        continue  # a header beside the file (src/cli's own headers, generated)
                    target = inc.split("/")[0]
                    if target == "kcve":
                        if mod not in ("api",):
                            problems.append(f"{where}: the public header \"{inc}\" is included "
                                            "outside src/lib/api/; library code uses the "
                                            "internal headers")
                        continue
                    if target == mod:
                        continue
                    if target not in LAYERS:
                        if os.path.isdir(os.path.join(src, "lib", target)):
                            unknown.add(target)
                        continue  # a system or generated header with a '/'
                    if mod != "cli" and LAYERS[target] >= level:
                        kind = "the same layer" if LAYERS[target] == level else "a higher layer"
                        problems.append(
                            f"{where}: {mod} (layer {level}) includes \"{inc}\" from {kind} "
                            f"({target}, layer {LAYERS[target]}). Move the code {mod} needs "
                            f"from {target} into a module below layer {level} (core/ for "
                            f"generic helpers), or let the caller pass it in (plain data or a "
                            f"callback); see docs/architecture.md")
    for mod in sorted(unknown):
        problems.append(f"src/lib/{mod}/ is not in the layer table: add a line "
                        f"'\"{mod}\": N,' to LAYERS in tests/meta/layers.py (N = one more than "
                        f"the highest layer it includes) and a row to docs/architecture.md")
    if problems:
        print("\n".join(problems))
        print(f"FAIL: {len(problems)} include(s) break the layering")
        return 1
    print("ok: every #include goes down a layer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
