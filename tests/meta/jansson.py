#!/usr/bin/python3
"""No JSON value is built or read around the input rules (core/kjson.h, issue 35).

usage: jansson.py REPO_ROOT

- jansson's string constructors and packers (json_string, json_stringn, json_pack, json_vpack,
  json_sprintf, their _ex/_nocheck forms) return NULL for text that is not UTF-8, and json_pack
  then frees the values it was handed: a caller that passes the NULL on drops an entry silently
  or uses freed memory. Only src/lib/core/kjson.c calls them; everything else calls kj_str,
  kj_strn and kj_pack, which never return NULL for text (bytes that are not UTF-8 escaped).
- json_load_file, json_loadf and json_loadfd open or read a file themselves, without the
  bounded reader (a FIFO blocks them, a huge file is read whole): input files are read with
  kj_load_file or read_file_capped + json_loadb.
Comments and string literals are not looked at.
"""
import os
import re
import sys

ALLOWED = os.path.join("src", "lib", "core", "kjson.c")
BUILD = re.compile(r"\bjson_(?:v?pack(?:_ex)?|stringn?(?:_nocheck)?|v?sprintf)\s*\(")
LOAD = re.compile(r"\bjson_load(?:_file|f|fd)\s*\(")


def code_only(text):
    """The text with comments and string/char literals blanked (line numbers kept)."""
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


def main():
    root = sys.argv[1]
    problems = []
    for base, _, files in os.walk(os.path.join(root, "src")):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(base, name)
            rel = os.path.relpath(path, root)
            code = code_only(open(path, encoding="utf-8", errors="replace").read())
            for lineno, line in enumerate(code.split("\n"), 1):
                if rel != ALLOWED and BUILD.search(line):
                    problems.append(f"{rel}:{lineno}: {BUILD.search(line).group(0)} can return "
                                    "NULL for text; use kj_str/kj_strn/kj_pack (core/kjson.h)")
                if LOAD.search(line):
                    problems.append(f"{rel}:{lineno}: {LOAD.search(line).group(0)} reads a file "
                                    "without the bounded reader; use kj_load_file (core/kjson.h)")
    for p in problems:
        print(p)
    if problems:
        print(f"meta-jansson: {len(problems)} problem(s)")
        return 1
    print("meta-jansson: ok")
    return 0


sys.exit(main())
