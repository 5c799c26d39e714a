#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Craft hostile ELF/DWARF inputs, byte by byte (no compiler, no objcopy).

    hostile.py make CASE OUT      write one case
    hostile.py list [GROUP]       print "CASE<TAB>EXPECT<TAB>PATTERN" lines
    hostile.py seeds DIR          write every case into DIR (fuzz seeds)
    hostile.py check GROUP D2B DIR
                                  write GROUP's cases into DIR and run each
                                  command of COMMANDS on each with D2B (the
                                  dwarf2btf binary), a 20 s timeout each;
                                  print one line per failure, exit 1 if any
    hostile.py truncations D2B DIR
                                  cut a good file at many lengths and check
                                  that `load` fails with one line (exit 1)

EXPECT is "error" (every command must exit 1 with one stderr line that
matches the grep -E PATTERN) or "ok" (exit 0; PATTERN must match stdout, or
is "-"). Groups: elf, dwarf, cycles, compressed, resources. docs/errors.md
has one row per case.

Every file is an ELF64 little-endian ET_REL for x86_64 laid out as
    ELF header | section header table | section contents
so that cutting the file inside a section's contents keeps the header and
the section table whole.
"""
import struct
import sys
import zlib

SHT_PROGBITS, SHT_STRTAB = 1, 3
SHF_COMPRESSED = 0x800

TAG = dict(compile_unit=0x11, structure_type=0x13, member=0x0d, base_type=0x24,
           typedef=0x16, pointer_type=0x0f, const_type=0x26, volatile_type=0x35,
           array_type=0x01, subrange_type=0x21, union_type=0x17, subprogram=0x2e,
           enumeration_type=0x04)
AT = dict(name=0x03, byte_size=0x0b, type=0x49, data_member_location=0x38,
          encoding=0x3e, language=0x13, upper_bound=0x2f, count=0x37,
          external=0x3f, low_pc=0x11, high_pc=0x12, bit_size=0x0d)
FORM = dict(string=0x08, data1=0x0b, data2=0x05, data4=0x06, data8=0x07,
            udata=0x0f, ref4=0x13, ref_addr=0x10, strp=0x0e, flag_present=0x19,
            sec_offset=0x17)


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def abbrev(code, tag, children, attrs):
    b = uleb(code) + uleb(TAG[tag]) + bytes([1 if children else 0])
    for name, form in attrs:
        b += uleb(AT[name] if isinstance(name, str) else name)
        b += uleb(FORM[form] if isinstance(form, str) else form)
    return b + b"\0\0"


# ---- ELF writer -------------------------------------------------------

def elf(sections, shoff_override=None):
    """sections: list of dicts name, data, [type, flags, offset, size]."""
    names = b"\0"
    idx = {}
    for s in sections + [{"name": ".shstrtab"}]:
        idx[s["name"]] = len(names)
        names += s["name"].encode() + b"\0"
    secs = sections + [{"name": ".shstrtab", "data": names, "type": SHT_STRTAB}]
    nsec = len(secs) + 1
    shoff = 64
    pos = shoff + 64 * nsec
    body = b""
    hdrs = [b"\0" * 64]
    where = {}
    # Contents: the section names first, so a cut later keeps them.
    for s in [secs[-1]] + secs[:-1]:
        data = s.get("data", b"")
        pad = (-pos) % 8
        body += b"\0" * pad
        pos += pad
        where[s["name"]] = pos
        body += data
        pos += len(data)
    for s in secs:
        off = s.get("offset", where[s["name"]])
        size = s.get("size", len(s.get("data", b"")))
        hdrs.append(struct.pack("<IIQQQQIIQQ", idx[s["name"]], s.get("type", SHT_PROGBITS),
                                s.get("flags", 0), 0, off, size, 0, 0, 1, 0))
    ehdr = (b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8 +
            struct.pack("<HHIQQQIHHHHHH", 1, 62, 1, 0, 0,
                        shoff if shoff_override is None else shoff_override,
                        0, 64, 0, 0, 64, nsec, nsec - 1))
    return ehdr + b"".join(hdrs) + body


def unit5(body, abbrev_off=0, length=None, dwarf64=False):
    hdr = struct.pack("<HBB", 5, 1, 8)
    hdr += struct.pack("<Q" if dwarf64 else "<I", abbrev_off)
    content = hdr + body
    n = len(content) if length is None else length
    if dwarf64:
        return b"\xff\xff\xff\xff" + struct.pack("<Q", n) + content
    return struct.pack("<I", n) + content


def dwarf_elf(info, ab, strs=None, extra=(), drop=()):
    secs = [{"name": ".debug_abbrev", "data": ab},
            {"name": ".debug_info", "data": info}]
    if strs is not None:
        secs.append({"name": ".debug_str", "data": strs})
    secs += list(extra)
    return elf([s for s in secs if s["name"] not in drop])


# A well-formed unit: struct pair { int x; int y; } and a typedef of it.
GOOD_AB = (abbrev(1, "compile_unit", True, [("name", "string"), ("language", "data1")])
           + abbrev(2, "structure_type", True, [("name", "string"), ("byte_size", "data1")])
           + abbrev(3, "member", False, [("name", "string"), ("type", "ref4"),
                                         ("data_member_location", "data1")])
           + abbrev(4, "base_type", False, [("name", "string"), ("byte_size", "data1"),
                                            ("encoding", "data1")])
           + abbrev(5, "typedef", False, [("name", "string"), ("type", "ref4")])
           + abbrev(6, "pointer_type", False, [("byte_size", "data1"), ("type", "ref4")])
           + abbrev(7, "const_type", False, [("type", "ref4")])
           + abbrev(8, "volatile_type", False, [("type", "ref4")])
           + abbrev(9, "array_type", True, [("type", "ref4")])
           + abbrev(10, "subrange_type", False, [("upper_bound", "data8")])
           + abbrev(11, "structure_type", True, [("byte_size", "data1")])
           + abbrev(12, "member", False, [("name", "string"), ("type", "ref4"),
                                          ("data_member_location", "data8")])
           + abbrev(13, "structure_type", True, [("name", "string"), ("byte_size", "data8")])
           + abbrev(14, "member", False, [("name", "string"), ("type", "ref4"),
                                          ("data_member_location", "data1"),
                                          ("bit_size", "data8")])
           + abbrev(15, "member", False, [("name", "string"), ("type", "ref4"),
                                          ("data_member_location", "strp")])
           + abbrev(16, "structure_type", True, [("name", "strp"), ("byte_size", "data1")])
           + abbrev(17, "structure_type", True, [("name", "string"), ("byte_size", "data2")])
           + abbrev(18, "enumeration_type", False, [("name", "string"), ("byte_size", "data1"),
                                                    ("type", "ref4")])
           + b"\0")

HDR5 = 12  # length(4) version(2) unit_type(1) addr_size(1) abbrev_off(4)


class Dies:
    """Lay out DIEs with symbolic references resolved in a second pass."""

    def __init__(self):
        self.items = []

    def add(self, label, code, *fields):
        self.items.append((label, code, fields))

    def end(self):
        self.items.append((None, None, ()))

    def build(self, base=HDR5):
        for _ in range(2):
            out, labels, pos = b"", {}, base
            for label, code, fields in self.items:
                if code is None:
                    out += b"\0"
                    pos += 1
                    continue
                if label:
                    labels[label] = pos
                b = uleb(code)
                for f in fields:
                    if isinstance(f, tuple) and f[0] == "ref":
                        b += struct.pack("<I", getattr(self, "_labels", {}).get(f[1], 0))
                    elif isinstance(f, str):
                        b += f.encode() + b"\0"
                    else:
                        b += f
                out += b
                pos += len(b)
            self._labels = labels
        return out


def cu_start(d, name="hostile.c"):
    d.add(None, 1, name, bytes([0x0c]))


def good_dies():
    d = Dies()
    cu_start(d)
    d.add("pair", 2, "pair", bytes([8]))
    d.add(None, 3, "x", ("ref", "int"), bytes([0]))
    d.add(None, 3, "y", ("ref", "int"), bytes([4]))
    d.end()
    d.add("int", 4, "int", bytes([4, 5]))
    d.add(None, 5, "pair_t", ("ref", "pair"))
    d.end()
    return d.build()


def good():
    return dwarf_elf(unit5(good_dies()), GOOD_AB)


def section_span(img, name):
    """(offset, size) of section NAME in an image made by elf()."""
    shoff, = struct.unpack_from("<Q", img, 40)
    n, = struct.unpack_from("<H", img, 60)
    stri, = struct.unpack_from("<H", img, 62)
    s_off, = struct.unpack_from("<Q", img, shoff + 64 * stri + 24)
    for i in range(1, n):
        h = shoff + 64 * i
        nm, = struct.unpack_from("<I", img, h)
        end = img.index(b"\0", s_off + nm)
        if img[s_off + nm:end].decode() == name:
            off, size = struct.unpack_from("<QQ", img, h + 24)
            return off, size, h
    raise KeyError(name)


def cut_in(name):
    img = good()
    off, size, _ = section_span(img, name)
    return img[:off + size // 2]


def patch_shdr(name, offset=None, size=None):
    img = bytearray(good())
    _, _, h = section_span(img, name)
    if offset is not None:
        struct.pack_into("<Q", img, h + 24, offset)
    if size is not None:
        struct.pack_into("<Q", img, h + 32, size)
    return bytes(img)


# ---- cycles --------------------------------------------------------------

def typedef_loop():
    d = Dies()
    cu_start(d)
    d.add("s", 2, "holder", bytes([8]))
    d.add(None, 3, "a", ("ref", "A"), bytes([0]))
    d.end()
    d.add("A", 5, "A", ("ref", "B"))
    d.add("B", 5, "B", ("ref", "A"))
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


def pointer_loop():
    d = Dies()
    cu_start(d)
    d.add(None, 2, "holder", bytes([16]))
    d.add(None, 3, "p", ("ref", "P"), bytes([0]))
    d.add(None, 3, "q", ("ref", "C"), bytes([8]))
    d.end()
    d.add("P", 6, bytes([8]), ("ref", "P"))
    d.add("C", 7, ("ref", "V"))
    d.add("V", 8, ("ref", "C"))
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


def self_struct(anonymous=False):
    d = Dies()
    cu_start(d)
    if anonymous:
        d.add("outer", 2, "outer", bytes([8]))
        d.add(None, 3, "in", ("ref", "S"), bytes([0]))
        d.end()
        d.add("S", 11, bytes([8]))
        d.add(None, 3, "arr", ("ref", "ARR"), bytes([0]))
        d.end()
        d.add("ARR", 9, ("ref", "S"))
        d.add(None, 10, struct.pack("<Q", 1))
        d.end()
    else:
        d.add("S", 2, "selfish", bytes([8]))
        d.add(None, 3, "me", ("ref", "S"), bytes([0]))
        d.add(None, 3, "x", ("ref", "int"), bytes([4]))
        d.end()
        d.add("int", 4, "int", bytes([4, 5]))
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


def mutual_structs():
    d = Dies()
    cu_start(d)
    d.add("A", 2, "ping", bytes([8]))
    d.add(None, 3, "b", ("ref", "B"), bytes([0]))
    d.end()
    d.add("B", 2, "pong", bytes([8]))
    d.add(None, 3, "a", ("ref", "A"), bytes([0]))
    d.end()
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


def enum_typedef_loop():
    """struct holder { enum color e; } where the enum's underlying type is
    a typedef A of const A: the enum's signedness follows the chain to a
    base type, and hung there (fuzz_encode, 2026-12-06)."""
    d = Dies()
    cu_start(d)
    d.add(None, 2, "holder", bytes([4]))
    d.add(None, 3, "e", ("ref", "E"), bytes([0]))
    d.end()
    d.add("E", 18, "color", bytes([4]), ("ref", "A"))
    d.add("A", 5, "A", ("ref", "B"))
    d.add("B", 7, ("ref", "A"))
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


def nested_typedef_loop():
    """struct holder { typedef A T; A a; } where A is an anonymous struct
    nested in holder whose own nested typedef names A again: printing
    holder's nested types never ends unless a type already being printed is
    refused."""
    d = Dies()
    cu_start(d)
    d.add(None, 2, "holder", bytes([8]))
    d.add(None, 5, "T", ("ref", "A"))
    d.add(None, 3, "a", ("ref", "A"), bytes([0]))
    d.add("A", 11, bytes([8]))
    d.add(None, 5, "U", ("ref", "A"))
    d.add(None, 3, "x", ("ref", "int"), bytes([0]))
    d.end()
    d.end()
    d.add("int", 4, "int", bytes([4, 5]))
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


def dag_bomb(levels=40):
    """struct l<i> { struct l<i-1> a, b; }: -E output doubles per level."""
    d = Dies()
    cu_start(d)
    d.add("L0", 2, "l0", bytes([4]))
    d.add(None, 3, "v", ("ref", "int"), bytes([0]))
    d.end()
    d.add("int", 4, "int", bytes([4, 5]))
    for i in range(1, levels + 1):
        d.add("L%d" % i, 17, "l%d" % i, struct.pack("<H", 8))
        d.add(None, 3, "a", ("ref", "L%d" % (i - 1)), bytes([0]))
        d.add(None, 3, "b", ("ref", "L%d" % (i - 1)), bytes([4]))
        d.end()
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


def deep_structs(n=100000):
    """struct n { struct n { ... } } nested N deep (built flat: fast)."""
    body = (uleb(1) + b"hostile.c\0" + bytes([0x0c]) +
            (uleb(2) + b"n\0" + bytes([1])) * n + b"\0" * (n + 1))
    return dwarf_elf(unit5(body), GOOD_AB)


def huge_values():
    d = Dies()
    cu_start(d)
    d.add(None, 13, "huge", struct.pack("<Q", 0xffffffffffffffff))
    d.add(None, 12, "far", ("ref", "int"), struct.pack("<Q", 0x7fffffffffffffff))
    d.add(None, 12, "farther", ("ref", "ARR"), struct.pack("<Q", 0xfffffffffffffff0))
    d.add(None, 14, "bits", ("ref", "int"), bytes([0]), struct.pack("<Q", 0xffffffffffffffff))
    d.end()
    d.add("int", 4, "int", bytes([4, 5]))
    d.add("ARR", 9, ("ref", "int"))
    d.add(None, 10, struct.pack("<Q", 0xfffffffffffffffe))
    d.end()
    d.end()
    return dwarf_elf(unit5(d.build()), GOOD_AB)


# ---- DWARF damage ----------------------------------------------------------

def unknown_tag():
    ab = GOOD_AB[:-1] + uleb(30) + uleb(0x7ffe) + b"\1" + uleb(AT["name"]) + \
        uleb(FORM["string"]) + b"\0\0" + b"\0"
    d = Dies()
    cu_start(d)
    d.add(None, 30, "mystery")
    d.add("int", 4, "int", bytes([4, 5]))
    d.end()
    d.add("pair", 2, "pair", bytes([4]))
    d.add(None, 3, "x", ("ref", "int"), bytes([0]))
    d.end()
    d.end()
    return dwarf_elf(unit5(d.build()), ab)


def wide_abbrevs():
    """150 abbreviations before the unit's own and a struct's abbreviation
    with 100 attributes (vendor ones, data1): more than the reader's first
    arrays for a table hold. Read like any other: struct wide is printed."""
    fillers = b"".join(abbrev(100 + i, "base_type", False, [("name", "string")])
                       for i in range(150))
    attrs = [("name", "string"), ("byte_size", "data1")] + \
        [(0x2100 + i, "data1") for i in range(100)]
    ab = GOOD_AB[:-1] + fillers + abbrev(300, "structure_type", True, attrs) + b"\0"
    d = Dies()
    cu_start(d)
    d.add("wide", 300, "wide", bytes([8]), bytes(range(100)))
    d.add(None, 3, "x", ("ref", "int"), bytes([0]))
    d.add(None, 3, "y", ("ref", "int"), bytes([4]))
    d.end()
    d.add("int", 4, "int", bytes([4, 5]))
    d.end()
    return dwarf_elf(unit5(d.build()), ab)


def too_many_attrs():
    """An abbreviation with 65,536 attribute specifications: one more
    than a count of 16 bits holds."""
    ab = abbrev(1, "compile_unit", True, [(0x2100, "data1")] * 65536) + b"\0"
    return dwarf_elf(unit5(uleb(1) + b"\0" * 65536 + b"\0"), ab)


def unknown_form():
    ab = abbrev(1, "compile_unit", True, [("name", 0x2001)]) + b"\0"
    return dwarf_elf(unit5(uleb(1) + b"x\0\0"), ab)


def ref_addr_out():
    ab = (abbrev(1, "compile_unit", True, [("name", "string")])
          + abbrev(2, "typedef", False, [("name", "string"), ("type", "ref_addr")]) + b"\0")
    body = uleb(1) + b"x.c\0" + uleb(2) + b"t\0" + struct.pack("<I", 0xffffff) + b"\0"
    return dwarf_elf(unit5(body), ab)


def strp_out():
    ab = abbrev(1, "compile_unit", True, [("name", "strp")]) + b"\0"
    return dwarf_elf(unit5(uleb(1) + struct.pack("<I", 0x1000) + b"\0"), ab, b"abc\0")


def str_no_nul():
    ab = abbrev(1, "compile_unit", True, [("name", "strp")]) + b"\0"
    return dwarf_elf(unit5(uleb(1) + struct.pack("<I", 4) + b"\0"), ab, b"abc\0unterminated")


def string_no_nul():
    ab = abbrev(1, "compile_unit", True, [("name", "string")]) + b"\0"
    return dwarf_elf(unit5(uleb(1) + b"no-terminator-here"), ab)


def abbrev_missing():
    return dwarf_elf(unit5(good_dies()), GOOD_AB, drop=(".debug_abbrev",))


def abbrev_offset_past():
    return dwarf_elf(unit5(good_dies(), abbrev_off=0x10000), GOOD_AB)


def unit_4g():
    body = good_dies()
    return dwarf_elf(unit5(body, length=1 << 32, dwarf64=True), GOOD_AB)


def unit_len_reserved():
    return dwarf_elf(unit5(good_dies(), length=0xfffffff0), GOOD_AB)


def unit_len_wrap64():
    return dwarf_elf(unit5(good_dies(), length=0xfffffffffffffff8, dwarf64=True), GOOD_AB)


def no_info():
    return elf([{"name": ".debug_abbrev", "data": GOOD_AB}])


# ---- compressed sections ---------------------------------------------------

def chdr(size, ctype):
    return struct.pack("<IIQQ", ctype, 0, size, 1)


def zstd_rle(total, byte=0):
    """A zstd frame of RLE blocks (4 bytes per 128 KiB) producing TOTAL bytes."""
    out = struct.pack("<I", 0xFD2FB528) + bytes([0x00, 0x38])  # no FCS, window 2^17
    left = total
    while left > 0:
        n = min(left, 1 << 17)
        left -= n
        last = 1 if left == 0 else 0
        hdr = last | (1 << 1) | (n << 3)
        out += struct.pack("<I", hdr)[:3] + bytes([byte])
    return out


def compressed(payload_size, declared, kind):
    if kind == "zlib":
        stream = chdr(declared, 1) + zlib.compress(b"\0" * payload_size, 9)
        name, flags = ".debug_info", SHF_COMPRESSED
    elif kind == "zstd":
        stream = chdr(declared, 2) + zstd_rle(payload_size)
        name, flags = ".debug_info", SHF_COMPRESSED
    else:  # .zdebug
        stream = b"ZLIB" + struct.pack(">Q", declared) + zlib.compress(b"\0" * payload_size, 9)
        name, flags = ".zdebug_info", 0
    return elf([{"name": ".debug_abbrev", "data": GOOD_AB},
                {"name": name, "data": stream, "flags": flags}])


# ---- the table ------------------------------------------------------------

E_LOC = r"(section|offset|size|past|end of file|truncated|beyond|outside|exceeds)"
CASES = [
    # group, case, builder, expect, pattern
    ("elf", "not-elf", lambda: b"hello, not an ELF file\n" * 4, "error", r"not-elf: .*(ELF|elf)"),
    ("elf", "empty", lambda: b"", "error", r"empty: "),
    ("elf", "trunc-header", lambda: good()[:40], "error", r"trunc-header: "),
    ("elf", "trunc-shtab", lambda: good()[:64 + 64 * 2 + 20], "error", r"trunc-shtab: "),
    ("elf", "trunc-debug_info", lambda: cut_in(".debug_info"), "error", r"trunc-debug_info: .*" + E_LOC),
    ("elf", "trunc-debug_abbrev", lambda: cut_in(".debug_abbrev"), "error", r"trunc-debug_abbrev: .*" + E_LOC),
    ("elf", "trunc-shstrtab", lambda: cut_in(".shstrtab"), "error", r"trunc-shstrtab: "),
    ("elf", "offset-past-eof", lambda: patch_shdr(".debug_info", offset=1 << 40), "error",
     r"offset-past-eof: .*" + E_LOC),
    ("elf", "size-past-eof", lambda: patch_shdr(".debug_info", size=1 << 20), "error",
     r"size-past-eof: .*" + E_LOC),
    ("elf", "size-wrap64", lambda: patch_shdr(".debug_info", size=0xffffffffffffff00), "error",
     r"size-wrap64: .*" + E_LOC),
    ("elf", "shoff-past-eof", lambda: elf([{"name": ".debug_info", "data": b""}],
                                          shoff_override=1 << 62), "error", r"shoff-past-eof: "),
    ("dwarf", "no-debug-info", no_info, "error",
     r"no-debug-info(: .*(no DWARF|debug)|' has no supported type information)"),
    ("dwarf", "no-abbrev-section", abbrev_missing, "error", r"no-abbrev-section: .*abbrev"),
    ("dwarf", "abbrev-offset-past", abbrev_offset_past, "error", r"abbrev-offset-past: .*abbrev"),
    ("dwarf", "unit-4g", unit_4g, "error", r"unit-4g: \.debug_info\+0x0: .*length"),
    ("dwarf", "unit-len-reserved", unit_len_reserved, "error", r"unit-len-reserved: \.debug_info\+0x0: "),
    ("dwarf", "unit-len-wrap64", unit_len_wrap64, "error", r"unit-len-wrap64: \.debug_info\+0x0: .*length"),
    ("dwarf", "unknown-tag", unknown_tag, "ok", r"struct pair \{"),
    ("dwarf", "unknown-form-2001", unknown_form, "error", r"unknown-form-2001: \.debug_abbrev\+0x[0-9a-f]+: .*form"),
    ("dwarf", "wide-abbrevs", wide_abbrevs, "ok", r"struct wide \{[\s\S]*int +y;"),
    ("dwarf", "too-many-attrs", too_many_attrs, "error",
     r"too-many-attrs: \.debug_abbrev\+0x[0-9a-f]+: too many attributes in abbreviation"),
    ("dwarf", "ref-addr-out", ref_addr_out, "error", r"ref-addr-out: \.debug_info\+0x[0-9a-f]+: "),
    ("dwarf", "strp-out", strp_out, "error", r"strp-out: \.debug_info\+0x[0-9a-f]+: "),
    ("dwarf", "str-no-nul", str_no_nul, "error", r"str-no-nul: \.debug_(info|str)\+0x[0-9a-f]+: "),
    ("dwarf", "string-no-nul", string_no_nul, "error", r"string-no-nul: \.debug_info\+0x[0-9a-f]+: "),
    ("dwarf", "deep-structs", deep_structs, "error", r"deep-structs: \.debug_info\+0x[0-9a-f]+: DIEs nested more than"),
    ("dwarf", "huge-values", huge_values, "ok", r"struct huge \{"),
    ("cycles", "typedef-loop", typedef_loop, "ok", r"struct holder \{"),
    ("cycles", "pointer-loop", pointer_loop, "ok", r"struct holder \{"),
    ("cycles", "enum-typedef-loop", enum_typedef_loop, "ok", r"struct holder \{[\s\S]*enum color +e;"),
    ("cycles", "self-struct", lambda: self_struct(False), "ok", r"struct selfish \{"),
    ("cycles", "anon-self-struct", lambda: self_struct(True), "ok", r"struct outer \{"),
    ("cycles", "mutual-structs", mutual_structs, "ok", r"struct ping \{"),
    ("cycles", "dag-bomb", dag_bomb, "ok", r"struct l40 \{"),
    ("cycles", "nested-typedef-loop", nested_typedef_loop, "ok",
     r"struct holder \{[\s\S]*\ttypedef struct  U;"),
    ("compressed", "zlib-bomb-header", lambda: compressed(4096, 1 << 40, "zlib"), "error",
     r"zlib-bomb-header: \.debug_info.*exceeds the limit"),
    ("compressed", "zlib-lie", lambda: compressed(8 << 20, 64, "zlib"), "error",
     r"zlib-lie: \.debug_info"),
    ("compressed", "zstd-bomb-header", lambda: compressed(1 << 20, 1 << 40, "zstd"), "error",
     r"zstd-bomb-header: \.debug_info.*exceeds the limit"),
    ("compressed", "zstd-lie", lambda: compressed(64 << 20, 64, "zstd"), "error",
     r"zstd-lie: \.debug_info"),
    ("compressed", "zdebug-bomb-header", lambda: compressed(4096, 1 << 50, "zdebug"), "error",
     r"zdebug-bomb-header: \.(z)?debug_info.*exceeds the limit"),
]


COMMANDS = [["pahole"], ["pahole", "-E"], ["pahole", "-s"], ["pfunct", "-P"],
            ["load", "-j2"]]
# pahole and pfunct 1.24 word an unreadable or DWARF-less file their own way.
NOT_DWARF = r"has no dwarf type information"


def run(argv, timeout=20):
    import subprocess
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, b"", b""
    return p.returncode, p.stdout, p.stderr


def check(group, d2b, outdir):
    import re
    fails = 0
    n = 0
    for g, name, fn, expect, pat in CASES:
        if g != group:
            continue
        path = "%s/%s" % (outdir, name)
        with open(path, "wb") as f:
            f.write(fn())
        for cmd in COMMANDS:
            n += 1
            rc, out, err = run([d2b] + cmd + [path])
            what = "%s %s" % (" ".join(cmd), name)
            lines = err.decode(errors="replace").splitlines()
            if rc is None:
                print("FAIL: %s: no answer in 20 s" % what)
                fails += 1
            elif rc < 0 or rc > 2:
                print("FAIL: %s: exit %d (crash?) %s" % (what, rc, lines[:3]))
                fails += 1
            elif expect == "error":
                ok = rc == 1 and len(lines) == 1 and (
                    re.search(pat, lines[0]) or
                    (cmd[0] != "load" and re.search(NOT_DWARF, lines[0])))
                if not ok:
                    print("FAIL: %s: exit %d, stderr %r, want one line like /%s/"
                          % (what, rc, lines[:3], pat))
                    fails += 1
            else:
                ok = rc == 0 and not lines
                if ok and cmd[0] == "pahole" and "-s" not in cmd and pat != "-":
                    ok = re.search(pat, out.decode(errors="replace")) is not None
                if not ok:
                    print("FAIL: %s: exit %d, stderr %r, stdout %r..., want /%s/"
                          % (what, rc, lines[:3], out[:120], pat))
                    fails += 1
    print("%s: %d cases x %d commands, %d failures"
          % (group, n // len(COMMANDS), len(COMMANDS), fails))
    return 1 if fails else 0


def truncations(d2b, outdir):
    img = good()
    fails = 0
    # Every 8th length, and each section's first and last bytes.
    cuts = set(range(0, len(img), 8))
    for name in (".debug_abbrev", ".debug_info", ".shstrtab"):
        off, size, _ = section_span(img, name)
        cuts.update((off, off + 1, off + size - 1))
    for n in sorted(cuts):
        path = "%s/cut-%d" % (outdir, n)
        with open(path, "wb") as f:
            f.write(img[:n])
        rc, _, err = run([d2b, "load", path])
        lines = err.decode(errors="replace").splitlines()
        if rc != 1 or len(lines) != 1 or ("cut-%d" % n) not in lines[0]:
            print("FAIL: load of the first %d bytes: exit %s, stderr %r" % (n, rc, lines[:3]))
            fails += 1
    print("truncations: %d lengths, %d failures" % (len(cuts), fails))
    return 1 if fails else 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "check":
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4]))
    if len(sys.argv) == 4 and sys.argv[1] == "truncations":
        sys.exit(truncations(sys.argv[2], sys.argv[3]))
    if len(sys.argv) >= 2 and sys.argv[1] == "list":
        group = sys.argv[2] if len(sys.argv) > 2 else None
        for g, name, _, expect, pat in CASES:
            if group in (None, g):
                print("%s\t%s\t%s" % (name, expect, pat))
        return
    if len(sys.argv) == 3 and sys.argv[1] == "seeds":
        for g, name, fn, _, _ in CASES:
            if g != "resources" and name not in ("deep-structs", "zstd-lie", "zlib-lie"):
                with open("%s/hostile-%s" % (sys.argv[2], name), "wb") as f:
                    f.write(fn())
        return
    if len(sys.argv) == 4 and sys.argv[1] == "make":
        for _, name, fn, _, _ in CASES:
            if name == sys.argv[2]:
                with open(sys.argv[3], "wb") as f:
                    f.write(fn())
                return
        if sys.argv[2] == "good":
            with open(sys.argv[3], "wb") as f:
                f.write(good())
            return
        sys.exit("hostile.py: unknown case " + sys.argv[2])
    sys.exit(__doc__)


if __name__ == "__main__":
    main()
