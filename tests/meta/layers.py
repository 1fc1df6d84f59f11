#!/usr/bin/python3
"""No #include climbs a layer (docs/architecture.md).

usage: layers.py SRC_ROOT

Each module of src/lib/ sits on a layer; a file may include headers of its own module and of
modules on LOWER layers only (never the same layer: peers stay independent). src/cli/ (the
commands) may include any library module; the library never includes src/cli/. The public
header kcve/kcve.h belongs to src/lib/api/ only. Relative includes ("../x.h") are refused.

The check module is split into rooms (src/lib/check/<room>/), each with a rank in ROOMS: a
room includes headers of its own room and of lower-ranked rooms only, never a peer or a higher
one; no source file sits at the top of src/lib/check/.  Towards other modules a room is the
check module (layer 5).

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
# The rooms of check (src/lib/check/<room>/) -> rank inside the module.  Keep in step with
# docs/architecture.md ("The rooms of check").
ROOMS = {
    "inputs": 0,   # readers of outside formats: KEV, EPSS, SBOM, modprobe.d, scan cache, git refs
    "records": 0,  # the record set: record, tree, cache, database, git dates, coverage
    "verdict": 1,  # one record x one release: verdict, result, version stage, fixed-in, delta
    "stages": 2,   # the pipeline's stages: git, files, code, functions, running, rank/triage
    "emit": 3,     # outputs of a result: table, JSON, OpenVEX, CycloneDX, CSAF, report
    "run": 4,      # the pipeline over kernels, --batch, --since
}
ROOMED = "check"
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


def room_of(path, src):
    """The room of a file under src/lib/check/ ("" at the top of the module, None elsewhere)."""
    parts = os.path.relpath(path, src).split(os.sep)
    if parts[:2] != ["lib", ROOMED]:
        return None
    return parts[2] if len(parts) > 3 else ""


def room_problem(where, room, inc):
    """An include from one room of check into another that does not go down."""
    parts = inc.split("/")
    target = parts[1] if len(parts) > 2 else ""
    if target not in ROOMS:
        return (f"{where}: \"{inc}\" is not in a room of {ROOMED}/: the rooms are "
                f"{', '.join(sorted(ROOMS))} (tests/meta/layers.py ROOMS)")
    if target == room or ROOMS[target] < ROOMS[room]:
        return None
    kind = "a peer room" if ROOMS[target] == ROOMS[room] else "a higher room"
    return (f"{where}: {ROOMED}/{room} (rank {ROOMS[room]}) includes \"{inc}\" from {kind} "
            f"({ROOMED}/{target}, rank {ROOMS[target]}). Move what {room} needs into "
            f"{ROOMED}/{room} or a lower room, or let the caller pass it in; see "
            f"docs/architecture.md (\"The rooms of check\")")


def check_loops(src):
    """Loops between the files of check/: a file and its header are one node (x.c, x.h), an edge
    goes to each check header it includes.  Returns the problems."""
    top = os.path.join(src, "lib", ROOMED)
    edges = {}
    for root, _, files in os.walk(top):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            node = os.path.relpath(os.path.join(root, name[:-2]), top)
            with open(os.path.join(root, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    m = INCLUDE.match(line)
                    if m and m.group(1).startswith(ROOMED + "/"):
                        dep = m.group(1)[len(ROOMED) + 1:-2]
                        if dep != node:
                            edges.setdefault(node, set()).add(dep)
    problems, state, stack = [], {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for d in sorted(edges.get(n, ())):
            if state.get(d) == 1:
                loop = stack[stack.index(d):] + [d]
                problems.append(f"src/lib/{ROOMED}/: an include loop between files: "
                                + " -> ".join(loop) + " (move the declaration one of them "
                                "needs to where it belongs)")
            elif d not in state:
                visit(d)
        stack.pop()
        state[n] = 2

    for n in sorted(edges):
        if n not in state:
            visit(n)
    return problems


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
            room = room_of(path, src)
            if room is not None and room not in ROOMS:
                problems.append(f"{os.path.relpath(path, sys.argv[1])}: a file of {ROOMED}/ "
                                f"outside its rooms ({', '.join(sorted(ROOMS))}): put it in "
                                f"the room it belongs to")
                room = None
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
                        if room is not None:
                            p = room_problem(where, room, inc)
                            if p:
                                problems.append(p)
                        continue
                    if target == ROOMED and mod != ROOMED:
                        parts = inc.split("/")
                        if len(parts) < 3 or parts[1] not in ROOMS:
                            problems.append(f"{where}: \"{inc}\" is not in a room of "
                                            f"{ROOMED}/ ({', '.join(sorted(ROOMS))})")
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
    problems += check_loops(src)
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
