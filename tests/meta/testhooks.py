#!/usr/bin/python3
"""Every test hook is listed in one header: src/ reads no KCVE_* environment variable that
src/lib/core/testhooks.h does not name.

usage: testhooks.py REPO_ROOT
"""
import os
import re
import sys

GETENV = re.compile(r'getenv\(\s*"([A-Z0-9_]+)"\s*\)')
TABLE = re.compile(r'\{\s*"(KCVE_[A-Z0-9_]+)"\s*,')  # env tables such as publish/config.c


def main():
    root = sys.argv[1]
    header = open(os.path.join(root, "src/lib/core/testhooks.h"), encoding="utf-8").read()
    problems = []
    for base, _, files in os.walk(os.path.join(root, "src")):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(base, name)
            text = open(path, encoding="utf-8", errors="replace").read()
            for rx in (GETENV, TABLE):
                for m in rx.finditer(text):
                    var = m.group(1)
                    if not var.startswith("KCVE_") and var != "SOURCE_DATE_EPOCH":
                        continue
                    listed = re.search(r"\b" + re.escape(var) + r"\b", header)
                    prefix = any(var.startswith(p) for p in re.findall(r"\b(KCVE_[A-Z_]+_)\*", header))
                    if not listed and not prefix:
                        line = text.count("\n", 0, m.start()) + 1
                        problems.append(f"{os.path.relpath(path, root)}:{line}: ${var} is read "
                                        "but not listed in src/lib/core/testhooks.h: add it "
                                        "there (a test hook: a KCVE_HOOK_* macro used by the "
                                        "getenv call; a setting: a line in the settings list)")
    if problems:
        print("\n".join(problems))
        print(f"FAIL: {len(problems)} environment variable(s) missing from testhooks.h")
        return 1
    print("ok: every KCVE_* variable src/ reads is listed in src/lib/core/testhooks.h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
