#!/usr/bin/python3
"""The library is quiet and has one of each (docs/architecture.md, "one of each"):

1. nothing under src/lib exits the process: no exit(), _exit(), _Exit(), quick_exit() (errors
   travel back as a struct kcve_err; only src/cli exits), and no abort() outside src/lib/core
   (ABORT_DIR), whose failed assertion (kcve_assert_fail) and out-of-memory exit are the
   deliberate ones, nor anywhere the C library's assert() (an abort() too, and a message of
   its own on stderr): an invariant is a KCVE_ASSERT (core/assert.h), what input can reach is
   an error returned to the caller;
2. nothing under src/lib writes to the terminal except the default sinks, SINK_FILES: no
   stdout or stderr, no printf(), puts(), perror(), putchar(), vprintf(), nor the command
   line's kcve_warn()/kcve_error()/kcve_die() (src/cli/cli_report.h): warnings and notes go
   to a struct kcve_diag (core/diag.h), output to a FILE * the caller hands in;
3. one CVE-id comparator, cveid_cmp() in src/lib/core/cveid.c: any other function whose name
   says it compares ids (…id…cmp…, …cmp…_id…, …cve…cmp…) must call cveid_cmp() and compare
   nothing itself (no strcmp/strncmp/memcmp in its body); no comparator (a function whose name
   has "cmp") orders by an `->id`/`.id` member with strcmp; and no function but cveid_cmp
   compares the digits of an id (memcmp/strncmp of "id + 4" or "id + 9").

Comments and string literals are ignored. usage: quiet.py REPO_ROOT
"""
import os
import re
import sys

from csource import c_files

SINK_FILES = {"src/lib/core/diag.c", "src/lib/core/progress.c"}
ABORT_DIR = "src/lib/core/"
COMPARATOR = ("src/lib/core/cveid.c", "cveid_cmp")

EXIT = re.compile(r"(?<![\w.>])(exit|_exit|_Exit|quick_exit)\s*\(")
ABORT = re.compile(r"(?<![\w.>])abort\s*\(")
C_ASSERT = re.compile(r"(?<![\w.>])assert\s*\(")
TERMINAL = re.compile(r"\b(stdout|stderr)\b|(?<![\w.>])(printf|puts|perror|putchar|vprintf|"
                      r"kcve_warn|kcve_error|kcve_die)\s*\(")
FUNC = re.compile(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\([^;{]*\)\s*\{", re.M)
ID_CMP_NAME = re.compile(r"(id\w*cmp|cmp\w*_id|cve\w*cmp|cmp\w*cve)", re.I)
RAW_CMP = re.compile(r"\b(strcmp|strncmp|memcmp|strcasecmp)\s*\(")
ID_FIELD_CMP = re.compile(r"\b(strcmp|strncmp)\s*\([^,;]*(->|\.)id\s*,")
DIGITS_CMP = re.compile(r"\b(memcmp|strncmp|strcmp)\s*\([^;]*\bid\w*\s*\+\s*[49]\b")


def functions(code):
    """(name, start offset, body) of each function definition at the top level."""
    for m in FUNC.finditer(code):
        depth, j = 0, m.end() - 1
        while j < len(code):
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        yield m.group(1), m.start(), code[m.end():j]


def main():
    root = sys.argv[1]
    problems = []
    files = c_files(root, os.path.join("src", "lib"))
    nfiles = len(files)
    for rel, code in files:
        def at(off):
            return f"{rel}:{code.count(chr(10), 0, off) + 1}"

        for m in EXIT.finditer(code):
            problems.append(f"{at(m.start())}: {m.group(1)}() in the library: return a "
                            "struct kcve_err and let the command line exit")
        for m in C_ASSERT.finditer(code):
            problems.append(f"{at(m.start())}: assert() in the library: KCVE_ASSERT "
                            "(core/assert.h), which says where to report it")
        if not rel.startswith(ABORT_DIR):
            for m in ABORT.finditer(code):
                problems.append(f"{at(m.start())}: abort() in the library: a KCVE_ASSERT "
                                "(core/assert.h) for an invariant, a struct kcve_err returned "
                                "to the caller for what input can reach")
        if rel not in SINK_FILES:
            for m in TERMINAL.finditer(code):
                what = m.group(1) or m.group(2) + "()"
                problems.append(f"{at(m.start())}: {what} in the library: warn through a "
                                "struct kcve_diag (core/diag.h), write output to the FILE * "
                                "the caller gives")
        for fname, off, body in functions(code):
            if (rel, fname) == COMPARATOR:
                continue
            if ID_CMP_NAME.search(fname) and ("cveid_cmp" not in body or RAW_CMP.search(body)):
                problems.append(f"{at(off)}: {fname}() compares ids itself: call cveid_cmp() "
                                "(core/cveid.h), the one order of CVE ids")
            m = ID_FIELD_CMP.search(body)
            if "cmp" in fname and m:
                problems.append(f"{at(off + body.find(m.group(0)))}: {fname}() orders by an id "
                                "with strcmp: call cveid_cmp() (core/cveid.h)")
            m = DIGITS_CMP.search(body)
            if m:
                problems.append(f"{at(off + body.find(m.group(0)))}: {fname}() compares the "
                                "digits of a CVE id: call cveid_cmp() (core/cveid.h)")
    if problems:
        print("\n".join(problems))
        print(f"FAIL: {len(problems)} place(s) where the library exits, aborts, prints or orders CVE ids "
              "its own way")
        return 1
    print(f"ok: {nfiles} library files: no exit, no abort() outside {ABORT_DIR}, no assert(), "
          "no terminal "
          "output outside "
          f"{', '.join(sorted(SINK_FILES))}, one CVE-id comparator")
    return 0


if __name__ == "__main__":
    sys.exit(main())
