#!/usr/bin/python3
"""Crafted ELF files for the symbol readers (issue 35, item 2), never committed.

usage: mkelf.py KIND OUT [ARG]
  valid OUT           a relocatable ELF64 with a symbol table: _text, foo_probe, bar_reset
  manysec OUT [N [K]] N (default 16000) section headers all describing one K (default 512)
                      KiB symbol table (libelf copies each section it is asked for)
  hugetab OUT [MIB]   one symbol table of MIB (default 1900) MiB in a sparse file
  truncated OUT       a valid file cut before its section headers
  bigfile OUT [MIB]   a valid file followed by a hole up to MIB (default 2100) MiB
"""
import struct
import sys

SHT_SYMTAB, SHT_STRTAB = 2, 3


def ehdr(shoff, shnum):
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8)
    return ident + struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0, 64, shnum, 0)


def shdr(name, typ, off, size, link=0, entsize=0):
    return struct.pack("<IIQQQQIIQQ", name, typ, 0, 0, off, size, link, 0, 8, entsize)


def sym(name_off):
    # STB_GLOBAL, STT_FUNC; defined in section 1 (any defined index)
    return struct.pack("<IBBHQQ", name_off, 0x12, 0, 1, 0x1000, 16)


def tables(names):
    strtab = b"\0"
    syms = bytes(24)  # the null symbol
    for n in names:
        syms += sym(len(strtab))
        strtab += n.encode() + b"\0"
    return strtab, syms


def valid():
    strtab, syms = tables(["_text", "foo_probe", "bar_reset"])
    off_str = 64
    off_sym = off_str + len(strtab)
    off_sh = off_sym + len(syms)
    body = strtab + syms
    sh = shdr(0, 0, 0, 0) + shdr(0, SHT_STRTAB, off_str, len(strtab)) + \
        shdr(0, SHT_SYMTAB, off_sym, len(syms), 1, 24)
    return ehdr(off_sh, 3) + body + sh


def main():
    kind, out = sys.argv[1], sys.argv[2]
    arg = int(sys.argv[3]) if len(sys.argv) > 3 else None
    kib = int(sys.argv[4]) if len(sys.argv) > 4 else 512
    with open(out, "wb") as f:
        if kind == "valid":
            f.write(valid())
        elif kind == "truncated":
            f.write(valid()[:150])
        elif kind == "bigfile":
            f.write(valid())
            f.truncate((arg or 2100) << 20)
        elif kind == "manysec":
            n = arg or 16000
            strtab, _ = tables(["_text", "foo_probe"])
            syms = bytes(24) + sym(1) * (kib * 1024 // 24 - 1)
            off_str = 64
            off_sym = off_str + len(strtab)
            off_sh = off_sym + len(syms)
            f.write(ehdr(off_sh, n) + strtab + syms)
            f.write(shdr(0, 0, 0, 0) + shdr(0, SHT_STRTAB, off_str, len(strtab)))
            f.write(shdr(0, SHT_SYMTAB, off_sym, len(syms), 1, 24) * (n - 2))
        elif kind == "hugetab":
            size = (arg or 1900) << 20
            strtab, syms = tables(["_text", "foo_probe"])
            off_str = 64
            off_sh = off_str + len(strtab)
            off_sym = 4096
            f.write(ehdr(off_sh, 3) + strtab)
            f.write(shdr(0, 0, 0, 0) + shdr(0, SHT_STRTAB, off_str, len(strtab)) +
                    shdr(0, SHT_SYMTAB, off_sym, size, 1, 24))
            f.seek(off_sym)
            f.write(syms)
            f.truncate(off_sym + size)
        else:
            sys.exit("mkelf.py: unknown kind " + kind)


main()
