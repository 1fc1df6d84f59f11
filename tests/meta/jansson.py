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
  kj_load_file or read_file_capped + kj_loadb.
- json_loadb and json_loads build every value of any text: a 64 MiB file of "[],[],..." costs
  jansson more than 2 GiB. Texts are parsed with kj_loadb or kj_parse, which count the values
  first (KJ_VALUES_MAX, or the kind's cap).
Comments and string literals are not looked at.
"""
import os
import re
import sys

from csource import c_files

ALLOWED = os.path.join("src", "lib", "core", "kjson.c")
BUILD = re.compile(r"\bjson_(?:v?pack(?:_ex)?|stringn?(?:_nocheck)?|v?sprintf)\s*\(")
LOAD = re.compile(r"\bjson_load(?:_file|f|fd|b|s)\s*\(")


def main():
    root = sys.argv[1]
    problems = []
    for rel, code in c_files(root, "src"):
        for lineno, line in enumerate(code.split("\n"), 1):
            if rel != ALLOWED and BUILD.search(line):
                problems.append(f"{rel}:{lineno}: {BUILD.search(line).group(0)} can return "
                                "NULL for text; use kj_str/kj_strn/kj_pack (core/kjson.h)")
            if rel != ALLOWED and LOAD.search(line):
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
