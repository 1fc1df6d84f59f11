#!/usr/bin/python3
"""The repository stands alone: src/, include/, docs/, tools/ and bench/ cite no document
outside it.

usage: citations.py REPO_ROOT

The rules the code relies on are written in docs/ (the CNA's rules in docs/spec/); a comment
points there ("docs/spec/dyad.md"), never to a reference document kept outside the repository
(a specification or survey by its section number, a path into the shared reference data).
Web URLs of public standards and services are fine: they are not "documents kept beside us".
"""
import os
import re
import sys

PATTERNS = [
    (re.compile(r"anchor[- ]spec", re.I), "the outside 'anchor spec'"),
    (re.compile(r"landscape(\.md| ?§)", re.I), "the outside 'landscape' survey"),
    (re.compile(r"shared/docs/"), "a path into the shared reference documents"),
    (re.compile(r"/work/(shared|main|wt)/"), "a machine-specific path"),
    (re.compile(r"§ ?\d"), "a section number of a document (say which docs/ page and heading)"),
]
DIRS = ["src", "include", "docs", "tools", "bench"]
EXTS = (".c", ".h", ".md", ".def", ".build", ".txt", ".in", ".py", ".sh", ".map")


def script(path, name):
    """A script without an extension (tools/gen-history): its first line is "#!"."""
    if "." in name or not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        return f.read(2) == b"#!"


def main():
    root = sys.argv[1]
    problems = []
    for d in DIRS:
        for base, _, files in os.walk(os.path.join(root, d)):
            for name in sorted(files):
                path = os.path.join(base, name)
                if not name.endswith(EXTS) and not script(path, name):
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        for rx, what in PATTERNS:
                            if rx.search(line):
                                rel = os.path.relpath(path, root)
                                problems.append(f"{rel}:{lineno}: cites {what}: "
                                                f"{line.strip()[:100]}")
    if problems:
        print("\n".join(problems))
        print(f"FAIL: {len(problems)} citation(s) of documents outside the repository. "
              "Restate the rule in docs/ (CNA rules: docs/spec/) and point the comment there.")
        return 1
    print("ok: src/, include/, docs/, tools/ and bench/ cite only the repository's own documents")
    return 0


if __name__ == "__main__":
    sys.exit(main())
