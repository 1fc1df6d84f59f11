"""The C sources the meta checks read, as code: comments and string/char literals blanked.

Shared by jansson.py and quiet.py (run as scripts: their folder is on sys.path)."""
import os
import re


def code_only(text):
    """The text with comments and string/char literals blanked (newlines kept, so line numbers
    hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def c_files(root, sub, least=50):
    """[(path relative to root, code_only text)] of every .c/.h file below root/sub, in a fixed
    order. Fewer than `least` files means a wrong root (a check that read nothing cannot fail):
    SystemExit with one line."""
    found = []
    top = os.path.join(root, sub)
    for base, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                path = os.path.join(base, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    found.append((os.path.relpath(path, root), code_only(f.read())))
    if len(found) < least:
        raise SystemExit(f"FAIL: only {len(found)} C files under {top}: wrong REPO_ROOT?")
    return found
