#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Craft small ELF objects with hand-written (and deliberately broken) DWARF.

    mkdwarf.py CASE OUT.o

Writes .debug_abbrev / .debug_info / .debug_str for CASE next to an empty
object made by `cc -c`, then attaches them with objcopy. Cases:
  good          one DWARF 5 CU holding a struct with an int member
  truncated     the unit length claims more bytes than the section has
  bad-abbrev    a DIE uses abbreviation code 9, which the table lacks
  unknown-form  an abbreviation uses form 0x7f
  bad-ref       a DW_FORM_ref4 points past the end of its unit
  deep          DIEs nested 100,000 deep (lexical blocks)
  bad-version   a unit of DWARF version 9
  loop-abbrev   an abbreviation table without its terminating 0
"""
import os
import struct
import subprocess
import sys
import tempfile

DW_TAG_compile_unit, DW_TAG_structure_type, DW_TAG_member = 0x11, 0x13, 0x0d
DW_TAG_base_type, DW_TAG_lexical_block = 0x24, 0x0b
DW_AT_name, DW_AT_byte_size, DW_AT_type = 0x03, 0x0b, 0x49
DW_AT_data_member_location, DW_AT_encoding, DW_AT_language = 0x38, 0x3e, 0x13
DW_FORM_string, DW_FORM_data1, DW_FORM_ref4 = 0x08, 0x0b, 0x13


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def abbrev(code, tag, children, attrs):
    b = uleb(code) + uleb(tag) + bytes([1 if children else 0])
    for name, form in attrs:
        b += uleb(name) + uleb(form)
    return b + b"\0\0"


def unit(body, version=5, length_adjust=0):
    # DWARF 5 header: version, unit_type, address_size, abbrev_offset
    hdr = struct.pack("<HBBI", version, 1, 8, 0)
    content = hdr + body
    return struct.pack("<I", len(content) + length_adjust) + content


def good_tables():
    ab = (abbrev(1, DW_TAG_compile_unit, True, [(DW_AT_name, DW_FORM_string),
                                                 (DW_AT_language, DW_FORM_data1)])
          + abbrev(2, DW_TAG_structure_type, True, [(DW_AT_name, DW_FORM_string),
                                                     (DW_AT_byte_size, DW_FORM_data1)])
          + abbrev(3, DW_TAG_member, False, [(DW_AT_name, DW_FORM_string),
                                             (DW_AT_type, DW_FORM_ref4),
                                             (DW_AT_data_member_location, DW_FORM_data1)])
          + abbrev(4, DW_TAG_base_type, False, [(DW_AT_name, DW_FORM_string),
                                                (DW_AT_byte_size, DW_FORM_data1),
                                                (DW_AT_encoding, DW_FORM_data1)])
          + b"\0")
    return ab


def good_body(ref=None):
    hdr_len = 4 + 2 + 1 + 1 + 4
    cu = uleb(1) + b"crafted.c\0" + bytes([0x0c])
    st = uleb(2) + b"pair\0" + bytes([4])
    # base type offset: computed after layout
    member_fixed = uleb(3) + b"x\0"
    base_off = hdr_len + len(cu) + len(st) + len(member_fixed) + 4 + 1 + 1  # + null
    if ref is None:
        ref = base_off
    member = member_fixed + struct.pack("<I", ref) + bytes([0])
    base = uleb(4) + b"int\0" + bytes([4, 5])
    return cu + st + member + b"\0" + base + b"\0"


def make(case):
    ab = good_tables()
    if case == "good":
        info = unit(good_body())
    elif case == "truncated":
        info = unit(good_body(), length_adjust=64)
    elif case == "bad-abbrev":
        info = unit(uleb(1) + b"crafted.c\0" + bytes([0x0c]) + uleb(9) + b"\0")
    elif case == "unknown-form":
        ab = abbrev(1, DW_TAG_compile_unit, True, [(DW_AT_name, 0x7f)]) + b"\0"
        info = unit(uleb(1) + b"x\0\0")
    elif case == "bad-ref":
        info = unit(good_body(ref=0x10000))
    elif case == "deep":
        ab = (abbrev(1, DW_TAG_compile_unit, True, [(DW_AT_name, DW_FORM_string)])
              + abbrev(2, DW_TAG_lexical_block, True, []) + b"\0")
        n = 100000
        info = unit(uleb(1) + b"deep.c\0" + uleb(2) * n + b"\0" * (n + 1))
    elif case == "bad-version":
        info = unit(good_body(), version=9)
    elif case == "loop-abbrev":
        ab = abbrev(1, DW_TAG_compile_unit, True, [(DW_AT_name, DW_FORM_string)])
        info = unit(uleb(1) + b"x\0\0")
    else:
        sys.exit("mkdwarf.py: unknown case " + case)
    return ab, info


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    case, out = sys.argv[1], sys.argv[2]
    ab, info = make(case)
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as d:
        empty = os.path.join(d, "empty.o")
        subprocess.run([cc, "-c", "-x", "c", "/dev/null", "-o", empty], check=True)
        for name, data in (("abbrev", ab), ("info", info)):
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        subprocess.run(["objcopy",
                        "--add-section", ".debug_abbrev=" + os.path.join(d, "abbrev"),
                        "--add-section", ".debug_info=" + os.path.join(d, "info"),
                        empty, out], check=True)


if __name__ == "__main__":
    main()
