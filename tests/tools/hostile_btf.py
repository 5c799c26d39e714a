#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostile_btf.py BASE PREFIX: write mutants of the raw BTF file BASE to
PREFIX.<name> and print their paths, one a line.

Structured mutants, for the first 24 type records and every 7th after
them: its type/size field, each member's
or parameter's type, pointed past the last type, at the record itself and
at 0; its name offset past the string section and into the middle of a
string; its kind made unknown (31) and each known kind; its vlen made
0xffff. Then the header's section offsets and lengths bent, truncations,
and random byte flips in the type section (fixed seeds).
"""
import random
import struct
import sys

# extra bytes after the 12-byte record, by kind, for VLEN entries
EXTRA = {1: lambda v: 4, 3: lambda v: 12, 4: lambda v: 12 * v, 5: lambda v: 12 * v,
         6: lambda v: 8 * v, 13: lambda v: 8 * v, 14: lambda v: 4, 15: lambda v: 12 * v,
         17: lambda v: 4, 19: lambda v: 12 * v}


def records(d, hl, to, tl):
    """(offset, kind, vlen) of each record."""
    p, end, out = hl + to, hl + to + tl, []
    while p + 12 <= end:
        info = struct.unpack_from('<I', d, p + 4)[0]
        kind, vlen = info >> 24 & 0x1f, info & 0xffff
        out.append((p, kind, vlen))
        p += 12 + EXTRA.get(kind, lambda v: 0)(vlen)
    return out


def type_fields(p, kind, vlen):
    """Offsets of the type-id words of the record at P."""
    if kind in (2, 8, 9, 10, 11, 12, 13, 14, 17, 18):
        f = [p + 8]
    else:
        f = []
    if kind == 3:
        f += [p + 12, p + 16]
    elif kind in (4, 5):
        f += [p + 12 + 12 * i + 4 for i in range(min(vlen, 4))]
    elif kind == 13:
        f += [p + 12 + 8 * i + 4 for i in range(min(vlen, 4))]
    elif kind == 15:
        f += [p + 12 + 12 * i for i in range(min(vlen, 4))]
    return f


def main():
    base, prefix = sys.argv[1], sys.argv[2]
    d = bytes(open(base, 'rb').read())
    hl = struct.unpack_from('<I', d, 4)[0]
    to, tl, so, sl = struct.unpack_from('<IIII', d, 8)
    recs = records(d, hl, to, tl)
    ntypes = len(recs)
    out = []

    def emit(name, data):
        path = '%s.%s' % (prefix, name)
        with open(path, 'wb') as f:
            f.write(data)
        out.append(path)

    def put32(name, off, val):
        m = bytearray(d)
        struct.pack_into('<I', m, off, val & 0xffffffff)
        emit(name, m)

    for i, (p, kind, vlen) in enumerate(recs):
        tid = i + 1
        if tid > 24 and tid % 7:
            continue    # every record of a small base, every 7th of a larger
        for j, f in enumerate(type_fields(p, kind, vlen)):
            put32('t%d.f%d.past' % (tid, j), f, ntypes + 1)
            put32('t%d.f%d.self' % (tid, j), f, tid)
            put32('t%d.f%d.huge' % (tid, j), f, 0x7fffffff)
        put32('t%d.name.past' % tid, p, sl + 5)
        if sl > 3:
            put32('t%d.name.mid' % tid, p, 2)
        info = struct.unpack_from('<I', d, p + 4)[0]
        put32('t%d.kind31' % tid, p + 4, (info & ~(0x1f << 24)) | 31 << 24)
        put32('t%d.kind%d' % (tid, (kind % 19) + 1), p + 4,
              (info & ~(0x1f << 24)) | ((kind % 19) + 1) << 24)
        put32('t%d.vlen' % tid, p + 4, info | 0xffff)
    for k, off in (('type_off', 8), ('type_len', 12), ('str_off', 16), ('str_len', 20)):
        for v in (0, 1, 0xfffffff0, len(d)):
            put32('hdr.%s.%d' % (k, v), off, v)
    for cut in (0, 8, 24, hl + to + 6, hl + to + tl // 2, hl + so + sl // 2, len(d) - 1):
        emit('cut%d' % cut, d[:cut])
    rnd = random.Random(12)
    for s in range(80):
        m = bytearray(d)
        for _ in range(1 + s % 4):
            m[hl + to + rnd.randrange(tl)] = rnd.randrange(256)
        emit('flip%d' % s, m)
    print('\n'.join(out))


main()
